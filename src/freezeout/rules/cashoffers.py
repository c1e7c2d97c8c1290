"""What a cash table offers a player now (C4, C6, C7, C10): the choices a client shows.

The page holds no poker rules: whether a new player chooses between posting a big blind and
waiting for it, whether a returning player does, whether a straddle or running it twice is
open to a seat — each is answered here from the rules' :class:`~.cash.CashTable` and carried
by the server's cash view.  Pure: no I/O, no clock.
"""

from __future__ import annotations

from freezeout.rules import hand as hand_engine
from freezeout.rules.cash import CashTable, Status
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.variant import BettingStructure, Forced

__all__ = ["post_choice", "run_twice_agreed", "run_twice_open", "sit_in_choice"]


def _may_wait(table: CashTable) -> bool:
    """C10: the next hand's game lets a player wait for the big blind: a blinds game that is not
    fixed limit (there a new player posts), at a table that dealt a button hand (before it
    everyone is dealt in) — stud owes nothing (its ante is posted each hand)."""
    variant = table.next_variant
    return table.big_pos >= 0 and variant.forced is Forced.BLINDS and variant.betting is not BettingStructure.FIXED_LIMIT


def post_choice(table: CashTable) -> bool:
    """C4, C10: a player sitting down now chooses between posting a big blind to be dealt in at
    once and waiting for their big blind."""
    return _may_wait(table)


def sit_in_choice(table: CashTable, seat: int) -> bool:
    """C10: ``seat``, sitting out and owing missed blinds, chooses on coming back between
    posting them at the next hand and waiting for the big blind."""
    held = table.seats[seat] if 0 <= seat < len(table.seats) else None
    return held is not None and held.status in (Status.SITTING_OUT, Status.AWAY) and bool(held.owes) and _may_wait(table)


def run_twice_open(table: CashTable, seat: int) -> bool:
    """C7: whether ``seat`` may agree (or take back its agreement) to run the board twice now: a
    player in the pot of a hand in progress, in a game with a board, before the run-out."""
    hand = table.hand
    if not table.in_hand or hand is None or seat not in table.hand_seats:
        return False
    try:
        hand_engine.agree_to_run_twice(hand, table.hand_seats.index(seat), seat in run_twice_agreed(table))
    except (IllegalAction, InvalidInput):
        return False
    return not (hand.second_board or hand.finished)


def run_twice_agreed(table: CashTable) -> tuple[int, ...]:
    """C7: the table seats that agreed to run the board twice this hand."""
    hand = table.hand
    if hand is None:
        return ()
    return tuple(sorted(table.hand_seats[seat] for seat in hand.setup.run_twice))
