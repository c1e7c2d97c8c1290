"""V20: all-in hands face up.

Once no further betting is possible in a hand because of an all-in (at
most one player still in has chips behind) and cards remain to be dealt,
every hand still in is turned face up before they are dealt: its ``up``
flags all become true (so every view shows it, stud's down cards too) and a
:class:`~freezeout.rules.events.HandTurnedUp` event says so, public from
then on.  In a draw game this waits until the last draw is over (a draw
still to come is a decision).  A hand is turned up once: it is when every
player still in shows every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from freezeout.cards import Card
from freezeout.rules.events import Event, HandTurnedUp
from freezeout.rules.state import CARDS, FOLDED, STACKS, UP

__all__ = ["betting_over", "turn_up", "turned_up"]


def betting_over(folded: Sequence[bool], stacks: Sequence[int]) -> bool:
    """R18, V20: two or more players are still in and at most one of them
    has chips behind — the others are all-in."""
    live = [seat for seat, out in enumerate(folded) if not out]
    return len(live) >= 2 and sum(1 for seat in live if stacks[seat] > 0) <= 1


def turned_up(folded: Sequence[bool], up: Sequence[Sequence[bool]]) -> bool:
    """V20: whether every hand still in is face up already."""
    return all(all(flags) for seat, flags in enumerate(up) if not folded[seat])


def turn_up(values: list[Any], first: int, events: list[Event]) -> None:
    """V20: turn every hand still in face up in ``values`` (a hand state's
    fields, changed in place) when the betting is over because of an
    all-in, announcing each hand from seat ``first`` round the table;
    nothing when the betting goes on or the hands are up already."""
    folded: tuple[bool, ...] = values[FOLDED]
    up: tuple[tuple[bool, ...], ...] = values[UP]
    if not betting_over(folded, values[STACKS]) or turned_up(folded, up):
        return
    cards: tuple[tuple[Card | None, ...], ...] = values[CARDS]
    n = len(folded)
    for offset in range(n):
        seat = (first + offset) % n
        if not folded[seat]:
            events.append(HandTurnedUp(seat, cards[seat]))
    values[UP] = tuple(flags if folded[seat] else (True,) * len(flags) for seat, flags in enumerate(up))
