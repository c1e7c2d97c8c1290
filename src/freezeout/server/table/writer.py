"""Write, then tell (design principle 7): a table's entries validated, committed, then applied.

One job: take the entry the actor decided on, check it with the pure fold
(``table.state.reduce``: a refused entry is never written), add the game's
``end`` when that move ends the game (one transaction: R25), stamp the
owner's fencing epoch on each, and commit them through the store.  Only what
the store committed comes back to be applied and told.  An append that the
database refuses because another worker owns the table now marks the table
``lost``: its state may be behind the log.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from freezeout.rules.events import Event
from freezeout.server.entries import GameEnd, GameStart, LogEntry
from freezeout.server.fencing import StaleOwner
from freezeout.server.settings import Settings
from freezeout.server.storage import crashpoint
from freezeout.server.storage.ledger import LedgerError, Transfer
from freezeout.server.storage.tablelog import TableLog
from freezeout.server.table.records import GameRecorder
from freezeout.server.table.state import Refused, TableState, reduce
from freezeout.server.table.steps import end_parts
from freezeout.server.table.tableevents import TableEvent

__all__ = ["Reduced", "TableWriter"]

log = logging.getLogger(__name__)

Reduced = tuple[TableState, list[TableEvent], list[Event]]


class TableWriter:
    def __init__(self, store: TableLog, settings: Settings) -> None:
        self.store, self.settings = store, settings
        # In a cluster (cluster/worker.py): the owner's fencing epoch, stamped on every entry written.
        self.epoch: int | None = None
        self.lost = False  # the database refused an entry: another worker owns the table now

    async def commit(self, state: TableState, recorder: GameRecorder, entry: LogEntry,
                     ops: Sequence[GameStart | GameEnd | Transfer]) -> list[tuple[LogEntry, Reduced | None]]:
        """Commit ``entry`` (and the game's end if it ends the game); returns each entry written
        with its fold when it can be reused (None: fold it again, the store filled it in).
        :class:`Refused` if the fold refuses it or the store cannot take it."""
        first = reduce(state, entry)  # validate first: a refused entry is never written
        new = first[0]
        if new.table_game is not None:  # a cash table's chips ride with the entry (C9): the game says which
            ops = [*ops, *new.table_game.transfers(state, new, entry, self.epoch)]
        entries = [entry]
        if new.needs_end and entry.kind != "end":  # the last move and the game's end: one transaction
            ahead = recorder.copy()
            ahead.apply(state, new, entry, first[2])
            end, op = end_parts(new, entry.at, ahead.to_json(), self.settings)
            entries.append(end)
            ops = [*ops, op]
        entries = [written.stamped(self.epoch) for written in entries]
        if crashpoint.ARMED:  # the crash drills only (bench/cash_crash.py)
            crashpoint.reached("received", [op.kind for op in ops if isinstance(op, Transfer)])
        try:
            entries = await self.store.append(entries, ops)  # as committed: an end with its ratings
        except StaleOwner as error:
            self.lost = True
            log.warning("table %s: lost to another owner (epoch %s refused)", state.id, self.epoch)
            raise Refused("busy", "the table is moving to another server: try again in a moment") from error
        except LedgerError as error:  # a refused transfer (too few chips, a reused id): nothing was written
            raise Refused(error.code, error.message) from error
        except Exception as error:
            raise Refused("storage", "the move could not be stored; try again") from error
        if crashpoint.ARMED:
            crashpoint.reached("committed", [op.kind for op in ops if isinstance(op, Transfer)])
        done: list[tuple[LogEntry, Reduced | None]] = []
        for index, written in enumerate(entries):
            done.append((written, first if index == 0 and written.kind != "end" else None))
        return done
