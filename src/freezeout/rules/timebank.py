"""A cash table's turn clock and time bank (R15, C11), as plain arithmetic.

The rules core keeps no clock: the caller measures how long a player
thought and passes the seconds in; these functions say what that leaves in
the player's bank and how long the next turn may last.  Kept apart from
:mod:`freezeout.rules.cash` (which re-exports every name) because it is a
job of its own: it knows nothing of seats, positions or hands.
"""

from __future__ import annotations

from typing import Final

from freezeout.rules.errors import InvalidInput

__all__ = [
    "TIME_BANK_EVERY",
    "TIME_BANK_MAX",
    "TIME_BANK_START",
    "TIME_BANK_STEP",
    "TURN_CLOCK",
    "bank_after_hand",
    "bank_after_turn",
    "turn_limit",
]

#: R15/C11: the turn's clock, then the time bank.
TURN_CLOCK: Final = 30.0
TIME_BANK_START: Final = 30.0
TIME_BANK_STEP: Final = 5.0
TIME_BANK_EVERY: Final = 20
TIME_BANK_MAX: Final = 60.0


def turn_limit(bank: float, clock: float = TURN_CLOCK) -> float:
    """C11: the seconds a player may think before R26 acts: the turn's
    clock, then the whole bank."""
    return clock + bank


def bank_after_turn(bank: float, thought: float, clock: float = TURN_CLOCK) -> float:
    """C11: the bank left after a turn of ``thought`` seconds: it runs only
    once the clock has run out, and never below empty."""
    if thought < 0:
        raise InvalidInput(f"a turn cannot take {thought} seconds")
    return max(0.0, bank - max(0.0, thought - clock))


def bank_after_hand(bank: float, hands: int) -> float:
    """C11: after a player's ``hands``-th hand dealt in, every 20 hands add
    5 seconds, up to 60."""
    if hands > 0 and hands % TIME_BANK_EVERY == 0:
        return min(TIME_BANK_MAX, bank + TIME_BANK_STEP)
    return bank
