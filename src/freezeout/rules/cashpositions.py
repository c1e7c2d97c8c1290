"""A cash table's seats and positions (C4, C10): who is dealt in the next
hand, where the (maybe dead) button and the blinds are, what returning and
new players post, and whose blinds pass them by.

Pure functions of the seats and the last hand's positions, apart from
:class:`~freezeout.rules.cash.CashTable`, which asks :func:`plan_hand` for
its plan and adds the straddle (C6).  Why the dead button and how missed
blinds are owed: the choices listed in :mod:`freezeout.rules.cash`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, NamedTuple

from freezeout.rules.errors import IllegalAction
from freezeout.rules.timebank import TIME_BANK_START
from freezeout.rules.variant import Forced, Variant

__all__ = ["OWES_BIG", "OWES_SMALL", "CashSeat", "HandPlan", "Status", "blinds_posted", "hand_button", "plan_hand", "under_the_gun"]

#: C10: what a player owes (flags): a small blind (posted dead), a big blind (posted live).
OWES_SMALL: Final = 1
OWES_BIG: Final = 2


class Status(StrEnum):
    PLAYING = "playing"  # dealt in (posting what they owe first, C4, C10)
    WAITING = "waiting"  # for the big blind (C4, C10)
    SITTING_OUT = "sitting out"  # by choice (C3)
    AWAY = "away"  # sat out by two forfeits in a row (C8)


_READY: Final = frozenset({Status.PLAYING, Status.WAITING})


class CashSeat(NamedTuple):
    player: str
    stack: int  # chips on the table as of the start of the current hand (C2)
    status: Status = Status.PLAYING
    owes: int = 0  # OWES_SMALL | OWES_BIG (C4, C10)
    forfeits: int = 0  # forfeited turns in a row (C8)
    time_bank: float = TIME_BANK_START  # C11
    hands: int = 0  # hands dealt in at this table (C11)
    key: str = ""  # who the player is for C3 and C11 (an account); "": the player's name

    @property
    def who(self) -> str:
        """The player's identity for C3 (hit-and-run) and C11 (the bank kept): ``key``, else the name."""
        return self.key or self.player


class HandPlan(NamedTuple):
    """Who is dealt in the next hand and what they post (table seats)."""

    seats: tuple[int, ...]  # dealt in, ascending
    button: int  # the button's seat (maybe a dead button); in stud where it stands frozen (V19)
    small_blind: int  # -1: a dead small blind (or stud)
    big_blind: int  # -1 in stud
    posts: tuple[tuple[int, int], ...]  # (seat, owes) paid by players coming in (C4, C10)
    straddle: int  # -1: none (C6)
    missed: tuple[tuple[int, int], ...]  # (seat, owes) added to players the blinds passed (C10)


def plan_hand(
    seats: Sequence[CashSeat | None],
    variant: Variant,
    button: int,
    small_pos: int,
    big_pos: int,
    first_button: int,
) -> HandPlan:
    """Who the next hand of ``variant`` deals in, the button and the blinds
    (dead-button rule), what returning and new players post, and whose
    blinds pass them by (C4, C10), from the last button hand's positions
    (``big_pos`` -1: no button hand yet).  No straddle (C6): the table adds it."""
    n = len(seats)

    def ready(index: int) -> bool:
        held = seats[index]
        return held is not None and held.stack > 0 and held.status in _READY

    if variant.forced is Forced.BRING_IN:  # C10: stud owes nothing; everyone antes
        dealt = tuple(index for index in range(n) if ready(index))
        _need_two(dealt)
        frozen = button if button >= 0 else first_button  # V19: frozen
        return HandPlan(dealt, frozen, -1, -1, (), -1, ())
    if big_pos < 0:  # the first button hand: everyone ready is dealt in, nobody posts
        dealt = tuple(index for index in range(n) if ready(index))
        _need_two(dealt)
        first = next(s for s in _clockwise(first_button - 1, n) if s in dealt)
        if len(dealt) == 2:
            small = first
            big = next(s for s in dealt if s != first)
        else:
            small = next(s for s in _clockwise(first, n) if s in dealt)
            big = next(s for s in _clockwise(small, n) if s in dealt)
        return HandPlan(dealt, first, small, big, (), -1, ())
    # Dead button: the big blind moves on to the next seat that can take it.
    last_big = big_pos
    big = next((s for s in _clockwise(last_big, n) if ready(s)), -1)
    missed: list[tuple[int, int]] = []
    for index in _clockwise(last_big, n):
        if index == big:
            break
        if seats[index] is not None:
            missed.append((index, OWES_BIG | OWES_SMALL))  # C10: the big blind passed them by
    held = seats[last_big]
    # The small blind is the player who had the big blind; a player who owes blinds (one who sat
    # down in that seat since, or came back) did not, and is not dealt in as a small blind (C10).
    small = (last_big if held is not None and big != last_big and ready(last_big) and held.status is Status.PLAYING
             and not held.owes else -1)
    if small < 0 and held is not None and big != last_big and held.owes != OWES_BIG:
        missed.append((last_big, OWES_SMALL))  # C10: out when the small blind came to them (a newcomer owes none)
    dead_button = small_pos
    zone = set(_between(dead_button, big, n))
    dealt_set = {big} | ({small} if small >= 0 else set())
    posts: list[tuple[int, int]] = []
    for index in range(n):
        other = seats[index]
        if index in dealt_set or other is None or not ready(index) or other.status is not Status.PLAYING:
            continue
        if other.owes and index in zone:
            continue  # not dealt in between the blinds and the button: waits (C10)
        dealt_set.add(index)
        if other.owes:
            posts.append((index, other.owes))
    dealt = tuple(sorted(dealt_set))
    if len(dealt) < 2 and sum(1 for index in range(n) if ready(index)) >= 2:
        # C4: the big blind a waiting player waits for comes only with a hand, and none can be
        # dealt without them (everyone who played has left): the table starts afresh, as at its
        # first hand, everyone ready dealt in and nobody posting.  Else it never deals again.
        return plan_hand(seats, variant, button, small_pos, -1, first_button)
    _need_two(dealt)
    if len(dealt) == 2:  # R5: heads-up the other player has the button and posts the small blind
        other_seat = next(s for s in dealt if s != big)
        dead_button = small = other_seat
        posts = [(s, owes) for s, owes in posts if s != other_seat]
    return HandPlan(dealt, dead_button, small, big, tuple(posts), -1, tuple(missed))


def blinds_posted(plan: HandPlan, small_blind: int, big_blind: int) -> tuple[list[int], list[int], list[bool], list[str]]:
    """C4, C6, C10: per hand seat (``plan.seats`` in order) of a blinds game:
    the live blind posted, the dead small blind, whether the blind is posted
    out of turn (by a player coming in), and what it is called."""
    k = len(plan.seats)
    hand_of = {seat: index for index, seat in enumerate(plan.seats)}
    blinds, dead, out_of_turn, kinds = [0] * k, [0] * k, [False] * k, [""] * k
    if plan.small_blind >= 0:
        blinds[hand_of[plan.small_blind]], kinds[hand_of[plan.small_blind]] = small_blind, "small blind"
    blinds[hand_of[plan.big_blind]], kinds[hand_of[plan.big_blind]] = big_blind, "big blind"
    for seat, owes in plan.posts:
        index = hand_of[seat]
        if owes & OWES_BIG:
            blinds[index], out_of_turn[index], kinds[index] = big_blind, True, "big blind"
        if owes & OWES_SMALL:
            dead[index] = small_blind
    if plan.straddle >= 0:
        blinds[hand_of[plan.straddle]], kinds[hand_of[plan.straddle]] = 2 * big_blind, "straddle"
    return blinds, dead, out_of_turn, kinds


def under_the_gun(plan: HandPlan, n: int) -> int:
    """C6: the first player dealt in after the big blind."""
    return next(s for s in _clockwise(plan.big_blind, n) if s in plan.seats)


def hand_button(button: int, dealt: Sequence[int], n: int) -> int:
    """The hand seat the engine counts from: the button's, or with a dead
    button the last player dealt in before it, so that the first to act
    after the flop is the first player left of the (dead) button."""
    for seat in [button, *reversed(_clockwise(button, n))]:
        if seat in dealt:
            return list(dealt).index(seat)
    raise IllegalAction("nobody is dealt in")


def _need_two(dealt: Sequence[int]) -> None:
    if len(dealt) < 2:
        raise IllegalAction("a hand needs two players with chips who are not sitting out")


def _clockwise(seat: int, n: int) -> list[int]:
    """The seats after ``seat``, clockwise, ending with ``seat`` itself."""
    return [(seat + offset) % n for offset in range(1, n + 1)]


def _between(start: int, end: int, n: int) -> list[int]:
    """The seats strictly between ``start`` and ``end``, clockwise."""
    seats: list[int] = []
    for seat in _clockwise(start, n):
        if seat == end:
            break
        seats.append(seat)
    return seats
