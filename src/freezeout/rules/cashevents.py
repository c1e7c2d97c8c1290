"""What a cash table tells beside the hands' events (C1–C4, C10): seats taken and left,
chips added, a seat's status; and C3's record of who left with what.

Values only, so that the table (rules/cash.py), its server side and its readers share
them without the table's rules."""

from __future__ import annotations

from typing import NamedTuple

from freezeout.rules.events import Event, distinct_kinds
from freezeout.rules.timebank import TIME_BANK_START

__all__ = ["ChipsAdded", "Departure", "SeatLeft", "SeatTaken", "StatusChanged", "TableEvent"]


class Departure(NamedTuple):
    """C3: who left with how many chips, and when (seconds on the caller's clock).  ``player``
    is the seat's identity (``CashSeat.who``: an account's key where the caller gives one, so
    a new display name is the same player)."""

    player: str
    chips: int
    time: float
    time_bank: float = TIME_BANK_START  # C11: the bank they left with, kept when they return within C3's 30 minutes
    hands: int = 0  # C11: the hands they were dealt in at the table (the bank's next 5 seconds count on)


class SeatTaken(NamedTuple):
    seat: int
    player: str
    chips: int


class ChipsAdded(NamedTuple):
    seat: int
    chips: int


class SeatLeft(NamedTuple):
    seat: int
    player: str
    chips: int


class StatusChanged(NamedTuple):
    seat: int
    status: str
    owes: int


distinct_kinds(SeatTaken, ChipsAdded, SeatLeft, StatusChanged)  # as rules.events: kinds never compare equal

TableEvent = Event | SeatTaken | ChipsAdded | SeatLeft | StatusChanged
