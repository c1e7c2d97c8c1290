"""What a table's log moves on the ledger and what it says the table holds (C9), for the
writer and the ledger check: both ask the game (``TableGame.transfers``, ``held``), so
neither knows the format; a freezeout moves and holds no chip of the ledger's.

Above the fold (:mod:`.state`): :func:`holdings` folds a whole log.  The process hands
:func:`holdings` to storage's ledger check (``Store(holdings=...)``): storage does not fold
a table's log itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.rules.errors import RulesError
from freezeout.server.entries import LogEntry
from freezeout.server.storage.ledger import Transfer
from freezeout.server.table.commands import Refused
from freezeout.server.table.state import TableState, initial_state, reduce

__all__ = ["cash_transfers", "holdings"]


def cash_transfers(old: TableState, new: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
    """The ledger rows ``entry`` is written with, as its new game says (``TableGame.transfers``)."""
    game = new.table_game
    return game.transfers(old, new, entry, epoch) if game is not None else []


def holdings(table_id: str, entries: Sequence[LogEntry]) -> int | None:
    """What a cash table's log says it holds (``ledgercheck.TableHoldings``): the fold of its
    log, every seat's chips; None when the log is not a cash table's (or cannot be folded)."""
    if not entries:
        return None
    try:
        state = initial_state(entries[0])
        if state.table_game is None or state.table_game.held() is None:  # a freezeout's: no chips of the ledger's
            return None
        for entry in entries[1:]:
            state = reduce(state, entry)[0]
    except (Refused, RulesError, ValueError, KeyError):
        return None
    game = state.table_game
    return game.held() if game is not None else None
