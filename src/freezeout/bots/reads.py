"""Reads on opponents from what everyone at the table has seen.

A strong player does not treat every opponent alike: someone who shoves
fifty big blinds into a pot of one and a half, raises to absurd sizes, or
folds when checking is free is not choosing moves by the strength of their
cards, and their bets say nothing about their hand.  :func:`wild_probability`
turns the public history of the tournament (``view.past``, earlier hands,
and ``view.history``, this hand) into the probability that a seat plays
such *card-independent* poker, by Bayes over a handful of telling moves:

* a fold when a check was free (never right; timeouts are not counted);
* a deep all-in (35+ big blinds behind) with little in the pot;
* a raise to many times the bet faced, or a post-flop bet of several pots.

Every other voluntary move is weak evidence the other way, so a sound
player's rare big move is forgotten again.  Only public events are read,
so the same view always gives the same read (the bots stay stateless).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from freezeout.rules.events import ActionTaken, BetReturned, BlindPosted, Event, HandStarted, StreetDealt
from freezeout.rules.views import TableView

__all__ = ["WILD_PRIOR", "WILD_READ", "Tells", "tells", "wild_probability", "wild_seats"]

#: Prior share of card-independent players in the room.
WILD_PRIOR: Final = 0.15
#: From this probability on, a seat's moves are read as carrying no information.
WILD_READ: Final = 0.75
#: Likelihood ratios (wild : sound) of each kind of move.
_FREE_FOLD: Final = 50.0
_WILD_SIZE: Final = 20.0
_ORDINARY: Final = 0.6
#: Effective depth (big blinds) from which an all-in is a wild size.
DEEP_ALLIN_BB: Final = 35.0


@dataclass(frozen=True, slots=True)
class Tells:
    """Counts of one seat's telling and ordinary voluntary moves."""

    free_folds: int = 0
    wild_sizes: int = 0
    ordinary: int = 0

    def probability(self) -> float:
        odds = WILD_PRIOR / (1.0 - WILD_PRIOR)
        odds *= _FREE_FOLD**self.free_folds * _WILD_SIZE**self.wild_sizes * _ORDINARY**self.ordinary
        return odds / (1.0 + odds)


def _hand_tells(events: Sequence[Event], seat: int) -> Tells:
    """Classify ``seat``'s voluntary moves in one hand's public events."""
    free_folds = wild_sizes = ordinary = 0
    big_blind = 1
    stacks: dict[int, int] = {}
    bets: dict[int, int] = {}
    pot = 0  # chips in the middle before this round's bets
    street = 0
    for event in events:
        if isinstance(event, HandStarted):
            big_blind = max(1, event.big_blind)
            stacks = dict(zip(event.seats, event.stacks, strict=True))
        elif isinstance(event, BlindPosted):
            bets[event.seat] = bets.get(event.seat, 0) + event.amount
            stacks[event.seat] = stacks.get(event.seat, 0) - event.amount
        elif isinstance(event, BetReturned):
            bets[event.seat] = bets.get(event.seat, 0) - event.amount
            stacks[event.seat] = stacks.get(event.seat, 0) + event.amount
        elif isinstance(event, StreetDealt):
            pot += sum(bets.values())
            bets = {}
            street += 1
        elif isinstance(event, ActionTaken):
            to_match = max(bets.values(), default=0)
            before = bets.get(event.seat, 0)
            behind = stacks.get(event.seat, 0)
            if event.seat == seat and not event.forced:
                middle = pot + sum(bets.values())
                if event.kind == "fold" and before >= to_match:
                    free_folds += 1
                elif event.kind in ("bet", "raise") or (event.all_in and event.total > to_match):
                    if _wild_size(event, to_match, middle, behind + before, stacks, big_blind, street):
                        wild_sizes += 1
                    else:
                        ordinary += 1
                else:
                    ordinary += 1
            bets[event.seat] = event.total
            stacks[event.seat] = behind - event.added
    return Tells(free_folds, wild_sizes, ordinary)


def _wild_size(event: ActionTaken, to_match: int, middle: int, chips: int, stacks: dict[int, int],
               big_blind: int, street: int) -> bool:
    """A bet or raise no card-reading player makes at this depth."""
    others = [s for seat, s in stacks.items() if seat != event.seat]
    effective = min(chips, max(others, default=0) + to_match) / big_blind
    if effective < DEEP_ALLIN_BB and event.all_in:
        return False  # a short stack's shove is ordinary poker
    if street == 0:
        return event.total > max(8 * big_blind, 5 * to_match)
    return event.added > 2.5 * max(middle, big_blind)


def tells(view: TableView, seat: int) -> Tells:
    """``seat``'s tells over the whole tournament so far."""
    total = Tells()
    hands: Iterable[Sequence[Event]] = (*view.past, view.history)
    for events in hands:
        t = _hand_tells(events, seat)
        total = Tells(total.free_folds + t.free_folds, total.wild_sizes + t.wild_sizes, total.ordinary + t.ordinary)
    return total


def wild_probability(view: TableView, seat: int) -> float:
    """Probability that ``seat`` chooses its moves without regard to its cards."""
    return tells(view, seat).probability()


def wild_seats(view: TableView, seats: Iterable[int]) -> frozenset[int]:
    """Those of ``seats`` read as card-independent players."""
    return frozenset(seat for seat in seats if wild_probability(view, seat) >= WILD_READ)
