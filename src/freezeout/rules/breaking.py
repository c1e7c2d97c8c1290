"""A broken cash table (C14): when it breaks, and where its players go.

A cash table breaks when it can no longer play: fewer than two players who
are not sitting out, for a set time (:data:`BREAK_AFTER` by default).  Its
players then move, with the chips they have — even below the minimum
buy-in — to another public table of the same game, stakes and options
(buy-ins, rake, straddles, muck rule, ruleset and the caller's own options
such as run it twice) that has a free seat; never to a private table.  A
player for whom no seat is free waits for one ("offered one when it
opens"): they go to the front of the waiting list of every such table.  A
player who changes table by choice needs the minimum buy-in
(:func:`check_move_by_choice`).

Pure: the caller says how many players can play and since when, and which
tables exist with which free seats; the time is passed in.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final, NamedTuple

from freezeout.rules.cashconfig import CashConfig
from freezeout.rules.errors import IllegalAction, InvalidInput

__all__ = [
    "BREAK_AFTER",
    "Move",
    "Mover",
    "OpenTable",
    "Relocation",
    "check_move_by_choice",
    "may_move_to",
    "plan_break",
    "short_since",
    "table_broken",
]

#: C14: how long a table may stay without two players who can play before it breaks.
BREAK_AFTER: Final = 120.0


def short_since(players_able: int, since: float | None, now: float) -> float | None:
    """C14: when the table began to lack two players who are not sitting
    out: ``since`` while it still does (``now`` if it just began), None
    once two can play again."""
    if players_able < 0:
        raise InvalidInput(f"a table cannot have {players_able} players")
    if players_able >= 2:
        return None
    return now if since is None else since


def table_broken(since: float | None, now: float, after: float = BREAK_AFTER) -> bool:
    """C14: whether a table short of players since ``since`` has broken by ``now``."""
    return since is not None and now - since >= after


class OpenTable(NamedTuple):
    """A cash table a player might move to: its id, what it states, whether
    it is private (by invitation), its free seats (not held for a waiting
    list) and the caller's own options that must match (run it twice…)."""

    table: str
    config: CashConfig
    private: bool = False
    free_seats: tuple[int, ...] = ()
    options: Hashable = ()


class Mover(NamedTuple):
    player: str
    chips: int  # on the table now (C2): what they take with them


class Move(NamedTuple):
    player: str
    chips: int
    table: str
    seat: int


class Relocation(NamedTuple):
    """C14: where a broken table's players go: seated now (``moves``), or
    waiting first in line at every table of the kind (``waiting``)."""

    moves: tuple[Move, ...]
    waiting: tuple[Mover, ...]


def _kind(table: OpenTable) -> tuple[object, ...]:
    """What must be the same for a move (C14): everything the table states
    but its size and its first button, and the caller's options."""
    c = table.config
    return (c.game, c.blinds, c.min_buy_in, c.max_buy_in, c.rake, c.straddles, c.button_straddle, c.show_called,
            c.ruleset, c.hands_per_game, table.options)


def may_move_to(source: OpenTable, target: OpenTable) -> bool:
    """C14: ``target`` takes players moved from ``source``: another public
    table of the same game, stakes and options."""
    return target.table != source.table and not target.private and _kind(target) == _kind(source)


def plan_break(broken: OpenTable, players: Sequence[Mover], tables: Sequence[OpenTable]) -> Relocation:
    """C14: seat ``players`` (in the order given: the caller's, e.g. seat
    order from the button) at the tables in ``tables`` that may take them,
    the fullest first (fewest free seats; ties in the order given), each at
    its lowest free seat, with all their chips — below the minimum buy-in
    too; those left over wait for a seat."""
    if len({p.player for p in players}) != len(players):
        raise InvalidInput("each player moves once")
    if any(p.chips < 0 for p in players):
        raise InvalidInput("a player cannot move with fewer than 0 chips")
    targets = sorted((t for t in tables if may_move_to(broken, t)), key=lambda t: len(t.free_seats))
    free = {t.table: sorted(t.free_seats) for t in targets}
    moves: list[Move] = []
    waiting: list[Mover] = []
    for mover in players:
        target = next((t for t in targets if free[t.table]), None)
        if target is None:
            waiting.append(mover)
            continue
        moves.append(Move(mover.player, mover.chips, target.table, free[target.table].pop(0)))
    return Relocation(tuple(moves), tuple(waiting))


def check_move_by_choice(chips: int, target: OpenTable) -> None:
    """C14: a player who changes table by choice needs the target's minimum
    buy-in (and no more than its maximum, C1); private tables take players
    by their own invitation, not by a move."""
    if target.private:
        raise IllegalAction("a private table takes players by invitation only")
    config = target.config
    if chips < config.min_buy_in:
        raise IllegalAction(
            f"a player who changes table by choice needs the minimum buy-in of {config.min_buy_in}, has {chips} (C14)"
        )
    if chips > config.max_buy_in:
        raise IllegalAction(f"at most {config.max_buy_in} chips may be brought to this table (C1), not {chips}")
