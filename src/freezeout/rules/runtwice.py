"""Run it twice (C7): the players' agreement, when the board is run twice
and the second run's cards.

A cash table's addition to one hand, apart from :mod:`freezeout.rules.hand`
(which re-exports :func:`agree_to_run_twice`): the engine asks
:func:`runs_twice` when a betting round closes before the river and deals
:func:`second_run` at the end; the showdown gives half of every pot to each
run (:func:`freezeout.rules.showdown.finish`).  The rake (C5) is arithmetic
of the pots (:func:`freezeout.rules.pots.rake_cuts`).  Compiled with the
engine (freezeout.native).
"""

from __future__ import annotations

from typing import Final

from freezeout.cards import Card
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.events import Event, SecondRunDealt
from freezeout.rules.state import _SETUP_FIELDS, HandSetup, HandState, evolve

__all__ = ["agree_to_run_twice", "runs_twice", "second_run"]

_tuple_new: Final = tuple.__new__
_RUN_TWICE_FIELD: Final = _SETUP_FIELDS.index("run_twice")


def agree_to_run_twice(state: HandState, seat: int, agree: bool = True) -> HandState:
    """C7: ``seat`` agrees (or no longer agrees) to run the board twice if
    all chips go in before the river.  Only a player in the pot may agree,
    only in a game with a board, and only before the run-out (which comes
    with the move that puts the last chips in, so the agreement is an input
    of the hand like its deck)."""
    setup = state.setup
    if not 0 <= seat < state.seat_count:
        raise InvalidInput(f"seat {seat} is not in the hand")
    if state.finished:
        raise IllegalAction("the hand is over")
    variant = setup.variant
    if not variant.board_size or variant.deals_later_hole_cards or variant.has_draws:
        raise IllegalAction(f"{variant.name} has no board to run twice (C7)")
    if state.folded[seat]:
        raise IllegalAction(f"{setup.name(seat)} is not in the pot: only players in the pot agree to run it twice (C7)")
    agreed = set(setup.run_twice)
    if agree:
        agreed.add(seat)
    else:
        agreed.discard(seat)
    args = list(setup.__reduce__()[1])
    args[_RUN_TWICE_FIELD] = tuple(sorted(agreed))
    return evolve(state, setup=HandSetup(*args))


def runs_twice(state: HandState, stacks: tuple[int, ...]) -> bool:
    """C7: the rest of the board is run twice when the betting is over for
    good before the river (at most one player in the pot has chips left)
    and every player in the pot agreed."""
    agreed = state.setup.run_twice
    able = 0
    for seat in range(state.seat_count):
        if not state.folded[seat]:
            if seat not in agreed:
                return False
            if stacks[seat]:
                able += 1
    return able <= 1


def second_run(state: HandState, start: int, events: list[Event]) -> tuple[Card | None, ...]:
    """C7: the second run of the board: the board's first ``start`` cards
    (dealt before all chips were in) and then the next cards after the
    first run — from the deck, the cards after those the first run took;
    from a recorded board, the cards after its first run.  One
    ``SecondRunDealt`` per street, as the first run's ``StreetDealt``."""
    setup = state.setup
    board = state.board_cards
    size = len(board)
    position = state.dealt
    second = list(board[:start])
    dealt = 0
    for street in setup.variant.streets:
        if not street.board:
            continue
        if dealt >= start:
            if setup.deck:
                end = position + street.board
                if end > len(setup.deck):
                    raise InvalidInput(f"the deck has {len(setup.deck)} cards; running the board twice needs more")
                cards = setup.deck[position:end]
                position = end
            else:
                offset = size + len(second) - start
                cards = setup.board[offset : offset + street.board]
                if len(cards) < street.board:
                    raise InvalidInput(f"the board is run twice but has only {len(setup.board)} cards")
            second.extend(cards)
            events.append(_tuple_new(SecondRunDealt, (street.name, cards)))
        dealt += street.board
    if any(card is not None and card in board[start:] for card in second[start:]):
        raise InvalidInput("the second run repeats a card of the first")
    return tuple(second)
