"""What a table writes: its log entries and the games they start and end.

These are the values the table actor hands to storage (tablelog.py writes the
entries, gamerecords.py and ratings.py the games), kept apart from the classes
that store them so that the table's modules depend on no database code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from freezeout.rules.games import HOUSE_GAME

__all__ = ["GameEnd", "GameStart", "LogEntry"]


@dataclass(slots=True)
class LogEntry:
    """One entry of a table's log.  ``epoch`` is the fencing epoch of the owner that wrote it
    (ownership.py); None for a table without an owner (one process, no leases)."""

    table_id: str
    seq: int
    at: float
    kind: str
    data: dict[str, Any]
    epoch: int | None = None


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game's row; ``game`` is the table's game code (a variant or a mix), which decides
    the rating family a ranked game counts in (elo.family)."""

    game_id: str
    table_id: str
    number: int
    players: tuple[str, ...]
    ranked: bool
    at: float
    game: str = HOUSE_GAME


@dataclass(slots=True)
class GameEnd:
    """Finish a game; for a ranked game ``ranked`` is (winner user id, loser user id)
    and the ratings go into ``entry.data["ratings"]`` by player name (with the names
    still provisional in ``entry.data["provisional"]``), unless the game is not rated:
    ``aborted`` (a player left before the first hand was complete), ``shared`` (the two
    accounts were seen at one address or device lately, elo.py "Rings"), or the pair's
    games already counted ``pair_limit`` times in the last 24 hours; then
    ``entry.data["unrated"]`` says why.  ``left_after``: the hands complete when the
    loser left (resigned or forfeited out), None if they ran out of chips (elo.py)."""

    game_id: str
    places: dict[str, int]
    record: dict[str, Any]
    at: float
    entry: LogEntry
    ranked: tuple[int, int] | None = None
    names: dict[int, str] = field(default_factory=dict)
    aborted: bool = False
    pair_limit: int | None = None
    left_after: int | None = None
