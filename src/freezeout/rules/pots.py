"""Uncalled bets, side pots and odd chips (R20–R22, D6, D7).

Pure functions over per-seat tuples, so they can be tested on their own and
shared by every variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Pot", "Rake", "build_pots", "rake_cap", "rake_cuts", "split_in_order", "split_pot", "uncalled_bet"]


class Pot(NamedTuple):
    """A pot's chips and who may win them (a NamedTuple: picklable and
    copyable in the compiled engine too, see freezeout.native)."""

    amount: int
    eligible: tuple[int, ...]  # seats that may win it, ascending


def uncalled_bet(bets: Sequence[int], folded: Sequence[bool]) -> tuple[int, int]:
    """D6: the part of the largest bet that nobody matched.

    Returns ``(seat, amount)`` to give back (``amount`` 0 when nothing comes
    back).  Folded players' bets count when finding the second largest, but a
    folded (or resigned) player's own bet is never returned.
    """
    top_seat = -1
    top = second = 0
    for seat, bet in enumerate(bets):
        if bet > top:
            top_seat, second, top = seat, top, bet
        elif bet > second:
            second = bet
    if top_seat < 0 or folded[top_seat] or top == second:
        return (-1, 0)
    return (top_seat, top - second)


def build_pots(contributions: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """R20/D7: one pot per contribution level, merging levels with the same
    eligible players; a level nobody can win joins the next lower pot."""
    levels = sorted({c for c in contributions if c > 0})
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, floor) for c in contributions)
        eligible = tuple(
            seat for seat, c in enumerate(contributions) if c >= level and not folded[seat]
        )
        floor = level
        if amount == 0:
            continue
        if pots and (not eligible or pots[-1].eligible == eligible):
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        else:
            pots.append(Pot(amount, eligible))
    return pots


def split_pot(amount: int, winners: Sequence[int], *, seat_count: int, button: int) -> list[tuple[int, int]]:
    """R22/D7: equal shares; odd chips one at a time to the winners in seat
    order starting left of the button.  Returns ``(seat, chips)`` in that order."""
    return split_in_order(amount, sorted(winners, key=lambda seat: (seat - button - 1) % seat_count))


def split_in_order(amount: int, ordered: Sequence[int]) -> list[tuple[int, int]]:
    """Equal shares; odd chips one at a time to the winners in the given
    order (R22 from the button; V9 by the highest card in stud)."""
    share, odd = divmod(amount, len(ordered))
    return [(seat, share + (1 if index < odd else 0)) for index, seat in enumerate(ordered)]


class Rake(NamedTuple):
    """A cash table's rake rule (C5, C10): ``basis_points`` hundredths of a
    percent of the pots (500: 5 %), at most the cap of the number of
    players dealt in — ``caps`` for 2, for 3–4 and for 5 or more players
    (C10: the cap may rise with the players dealt in)."""

    basis_points: int
    caps: tuple[int, int, int]


def rake_cap(rule: Rake, players: int) -> int:
    """C10: the cap for a hand dealt to ``players`` (2, 3–4, 5+)."""
    return rule.caps[0] if players <= 2 else rule.caps[1] if players <= 4 else rule.caps[2]


def rake_cuts(rule: Rake, amounts: Sequence[int], players: int) -> list[int]:
    """C5: the rake taken from each pot, in whole chips.

    The rake is a percentage of all the pots together, rounded down (a
    fraction of a chip stays with the players), and at most the hand's cap.
    It comes out of the pots in proportion to their size, each pot's share
    rounded down; the chips left by the rounding come one at a time from the
    main pot on (then the first side pot, and so on), so the cuts add up to
    the rake exactly and no pot gives more than it holds."""
    total = sum(amounts)
    rake = min(total * rule.basis_points // 10000, rake_cap(rule, players))
    if rake <= 0:
        return [0] * len(amounts)
    cuts = [rake * amount // total for amount in amounts]
    left = rake - sum(cuts)
    index = 0
    while left > 0:
        if cuts[index] < amounts[index]:
            cuts[index] += 1
            left -= 1
        index = (index + 1) % len(amounts)
    return cuts
