"""The tables' logs: one append-only log per table, and its one writer.

Writes to the log go through one writer task that commits whatever has
queued up in a single transaction (group commit) and only then resolves each
caller's future — so "write before you tell" (design principle 7) holds while
thousands of tables share one database.  On SQLite a batch of plain entries
is committed right on the event loop when the database is free (WAL without
fsync at commit: tens of microseconds, a quarter of what the hop to a worker
thread and back costs), else on a worker thread as before.  So is a batch with a
game's start or end or a chip transfer (a millisecond of SQL): on a worker thread
such a transaction waited for the busy event loop to hand back the GIL at each of
its statements, 100 ms and more at 10,000 players, and every table's entries
queued behind it (docs/scaling.md "No freeze").  A game's start or end rides in the
same transaction as its log entry (``write_game``, storage/gamerecords.py): a game's
end, its record and the Elo update of a ranked game are one transaction (R25).
A play-chip :class:`~freezeout.server.storage.ledger.Transfer` rides the same way
(``move``, storage/ledger.py): a buy-in and its ``sit`` entry commit together or not at all (C9).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import PoolProxiedConnection

from freezeout.server.entries import GameEnd, GameStart, LogEntry
from freezeout.server.fencing import StaleOwner, is_stale_owner_error
from freezeout.server.storage import crashpoint
from freezeout.server.storage.db import sync_sqlite_engine, table_log, tables
from freezeout.server.storage.ledger import LedgerError, Transfer
from freezeout.server.wire import dumps

__all__ = ["TableLog"]

log = logging.getLogger(__name__)

_Op = GameStart | GameEnd | Transfer
_Job = tuple[list[LogEntry], list[_Op]]

_LOG_INSERT = insert(table_log)
_BUSY_MS = 30_000  # how long a write on the worker thread waits for the database (as the engine's ``timeout``)
_SQLITE_LOG_INSERT = "INSERT INTO table_log (table_id, seq, at, kind, data, epoch) VALUES (?, ?, ?, ?, ?, ?)"


def _is_busy(error: BaseException) -> bool:
    """Whether SQLite refused for another writer's lock (the driver's error, or SQLAlchemy's around it)."""
    found = error.orig if isinstance(error, DBAPIError) else error
    return isinstance(found, sqlite3.OperationalError) and ("locked" in str(found) or "busy" in str(found))


def _log_row(e: LogEntry) -> tuple[str, int, float, str, str, int | None]:
    return (e.table_id, e.seq, e.at, e.kind, dumps(e.data), e.epoch)


class TableLog:
    """The ``tables`` and ``table_log`` tables, and the one writer of the log."""

    def __init__(self, engine: AsyncEngine,
                 write_game: Callable[[Connection, GameStart | GameEnd], dict[str, Any] | None], *,
                 batch_limit: int = 256, move: Callable[[Connection, Transfer], object] | None = None) -> None:
        self.engine = engine
        self._write_game = write_game
        self._move = move  # the ledger's (storage/ledger.py Ledger.move_in): a Transfer in the entry's transaction
        self._queue: asyncio.Queue[tuple[_Job, asyncio.Future[list[LogEntry]]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._batch_limit = batch_limit
        self._sync_engine = sync_sqlite_engine(engine) if engine.dialect.name == "sqlite" else None
        self._raw: PoolProxiedConnection | None = None  # the SQLite log writer's own connection

    async def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")
        if self.engine.dialect.name == "sqlite":
            self._checkpointer = asyncio.create_task(self._checkpoint_loop(), name="store-checkpoint")

    async def _checkpoint_loop(self, period: float = 2.0) -> None:
        """SQLite: copy the WAL into the database from another connection, so
        that the writer's commits never wait for a checkpoint's disk syncs."""
        while True:
            await asyncio.sleep(period)
            try:
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:
                log.exception("checkpoint failed")

    async def close(self) -> None:
        """Stop the writer and let go of the writer's own connections (not of ``engine``)."""
        for task in (self._writer, self._checkpointer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        if self._sync_engine is not None:
            self._sync_engine.dispose()

    # -- the event log ---------------------------------------------------
    async def append(self, entries: Sequence[LogEntry], ops: Sequence[_Op] = ()) -> list[LogEntry]:
        """Commit ``entries`` (and game rows, chip transfers) durably; return, once committed, the
        entries as committed (a game's ``end`` with the ratings its transaction decided).
        A refused transfer fails this append alone with its :class:`LedgerError`, nothing written."""
        future: asyncio.Future[list[LogEntry]] = asyncio.get_running_loop().create_future()
        await self._queue.put(((list(entries), list(ops)), future))
        return await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            # One turn of the event loop before committing: the tables whose messages arrived in
            # the same turn queue their entries meanwhile and share this commit.  The batch grows
            # with the load (a commit costs the same for one entry as for several), and an idle
            # room's entry waits for nothing but that turn.
            await asyncio.sleep(0)
            while len(batch) < self._batch_limit and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            started = time.perf_counter()
            try:
                await self._commit([job for job, _ in batch])
                took = time.perf_counter() - started
                if took > 0.1:
                    log.warning("slow log commit: %d jobs in %.0f ms", len(batch), took * 1000)
            except Exception as failure:
                if len(batch) == 1:
                    self._log_failure(failure)
                    self._settle(batch[0][1], [], error=failure)
                    continue
                for job, future in batch:  # one bad job must not fail the others
                    try:
                        await self._commit([job])
                    except Exception as exc:
                        self._log_failure(exc)
                        self._settle(future, [], error=exc)
                    else:
                        self._settle(future, job[0])
            else:
                for job, future in batch:
                    self._settle(future, job[0])

    async def _commit(self, jobs: list[_Job]) -> None:
        """One transaction for ``jobs``.  SQLite: the whole transaction runs in
        one call on a worker thread with a plain connection, so a busy event
        loop costs it one wake-up instead of one per statement."""
        if self._sync_engine is not None:
            engine = self._sync_engine
            plain = not any(ops for _, ops in jobs)
            if self._commit_now(jobs, plain=plain):
                return

            def run() -> None:
                if not plain:
                    with engine.begin() as conn:
                        self._write_jobs(conn, jobs)
                    return
                # Only log entries, and the database was busy: wait for it here, off the loop.
                raw = self._log_connection()
                raw.cursor().execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
                try:
                    self._insert_entries(raw, jobs)
                finally:
                    raw.cursor().execute("PRAGMA busy_timeout = 0")

            await asyncio.to_thread(run)
        else:
            async with self.engine.begin() as conn:
                await conn.run_sync(self._write_jobs, jobs)

    def _log_connection(self) -> PoolProxiedConnection:
        """SQLite: the connection this store keeps for plain log entries (one executemany, without
        SQLAlchemy's per-transaction checkout and events).  It never waits for a lock by itself
        (``busy_timeout`` 0): it is used on the event loop, which must not block on another writer."""
        if self._raw is None:
            assert self._sync_engine is not None
            self._raw = self._sync_engine.raw_connection()
            self._raw.cursor().execute("PRAGMA busy_timeout = 0")
        return self._raw

    @staticmethod
    def _insert_entries(raw: PoolProxiedConnection, jobs: list[_Job]) -> None:
        try:
            raw.cursor().executemany(_SQLITE_LOG_INSERT, [_log_row(e) for entries, _ in jobs for e in entries])
            raw.commit()
        except BaseException:
            raw.rollback()
            raise

    def _commit_now(self, jobs: list[_Job], *, plain: bool = True) -> bool:
        """SQLite: commit ``jobs`` on the event loop, unless another writer holds the database
        (then False, nothing written: the caller waits for it on a worker thread).  Plain log
        entries go through the log's own connection; a batch with game rows or transfers takes
        the write lock first (``BEGIN IMMEDIATE``, without waiting), so that a busy database is
        found before any of the batch's work is done."""
        try:
            if plain:
                self._insert_entries(self._log_connection(), jobs)
            else:
                self._write_now(jobs)
        except (sqlite3.OperationalError, DBAPIError) as error:
            if not _is_busy(error):
                raise
            return False
        return True

    def _write_now(self, jobs: list[_Job]) -> None:
        """The jobs' transaction on the event loop: fails at once, nothing begun, if another
        connection holds the write lock (``busy_timeout`` 0 for this attempt)."""
        assert self._sync_engine is not None
        with self._sync_engine.connect() as conn:
            driver = conn.connection.dbapi_connection  # the pragmas outside SQLAlchemy's transaction
            assert driver is not None
            driver.cursor().execute("PRAGMA busy_timeout = 0")
            try:
                with conn.begin():
                    conn.exec_driver_sql("BEGIN IMMEDIATE")  # pysqlite then begins nothing itself
                    self._write_jobs(conn, jobs)
            finally:
                driver.cursor().execute(f"PRAGMA busy_timeout = {_BUSY_MS}")

    @staticmethod
    def _log_failure(error: Exception) -> None:
        """A fenced refusal is the design working (an owner lost its table): one line, no trace."""
        if is_stale_owner_error(error) or isinstance(error, LedgerError):
            log.warning("log write refused: %s", error)
        else:
            log.error("log write failed", exc_info=error)

    @staticmethod
    def _settle(future: asyncio.Future[list[LogEntry]], committed: list[LogEntry], *,
                error: BaseException | None = None) -> None:
        """Resolve a caller's append; a fenced refusal is :class:`StaleOwner`, so that the
        owner that lost its table can tell it from a database that is down."""
        if future.done():
            return
        if error is None:
            future.set_result(committed)
        elif is_stale_owner_error(error):
            future.set_exception(StaleOwner(str(error)))
        elif isinstance(error, LedgerError):  # a refused transfer (too few chips...): the caller says why
            future.set_exception(error)
        else:
            future.set_exception(RuntimeError("the database refused the write"))

    def _write_jobs(self, conn: Connection, jobs: list[_Job]) -> None:
        """Synchronous: the jobs' game rows (``write_game``), their chip transfers, then every
        plain log entry in one statement.

        The transfers go in account order (a stable sort: one account's movements keep theirs,
        so a cash-out still pays for a buy-in behind it in the same batch).  Each takes its
        balance row's lock until the commit; two workers' transactions that both rake into the
        house and move one player's chips at two tables would otherwise take those rows in
        opposite orders, and PostgreSQL would abort one of them as a deadlock."""
        plain: list[LogEntry] = []
        transfers: list[Transfer] = []
        for entries, ops in jobs:
            for op in ops:
                if isinstance(op, Transfer):
                    transfers.append(op)
                    continue
                data = self._write_game(conn, op)
                if isinstance(op, GameEnd) and data is not None:  # the end as its transaction decided it
                    end = op.entry
                    entries[:] = [e.committed_as(data) if (e.kind, e.table_id, e.seq) == (end.kind, end.table_id, end.seq)
                                  else e for e in entries]
            plain.extend(entries)
        if transfers and self._move is None:
            raise RuntimeError("this log has no ledger to move chips with")
        for transfer in sorted(transfers, key=lambda t: t.account_id):
            assert self._move is not None
            self._move(conn, transfer)
        if crashpoint.ARMED:  # the crash drills only: die with the rows written, not committed
            crashpoint.reached("written", [op.kind for _, ops in jobs for op in ops if isinstance(op, Transfer)])
        if not plain:
            return
        # In table order: each entry's fencing trigger takes its table's owner row FOR SHARE, and
        # a worker's lease renewal locks those rows in the same order (cluster.ownership.renew_many).
        plain.sort(key=lambda e: (e.table_id, e.seq))
        if conn.dialect.name == "sqlite":  # the hot path: the driver's executemany, no statement compilation
            conn.exec_driver_sql(_SQLITE_LOG_INSERT, [_log_row(e) for e in plain])
        else:
            conn.execute(
                _LOG_INSERT,
                [{"table_id": e.table_id, "seq": e.seq, "at": e.at, "kind": e.kind, "data": dumps(e.data), "epoch": e.epoch}
                 for e in plain],
            )

    async def create_table(self, table_id: str, entry: LogEntry) -> None:
        """The table's row and its first entry in one transaction: a worker looking for tables
        without an owner must never see the row alone (it would take the table, and the first
        entry, written without an epoch, would then be refused)."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(tables).values(id=table_id, created_at=entry.at, closed=False))
            await conn.execute(_LOG_INSERT, [{"table_id": entry.table_id, "seq": entry.seq, "at": entry.at,
                                              "kind": entry.kind, "data": dumps(entry.data), "epoch": entry.epoch}])

    async def close_table(self, table_id: str) -> None:
        """Retire a table: it is no longer rebuilt on start (its games stay downloadable)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(closed=True))

    async def table_open(self, table_id: str) -> bool:
        """Whether ``table_id`` exists and is not retired (a gateway routing to it)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables.c.closed).where(tables.c.id == table_id))).first()
        return row is not None and not row.closed

    async def open_table_logs(self) -> dict[str, list[LogEntry]]:
        """The whole log of every table not closed, for rebuilding after a restart."""
        async with self.engine.connect() as conn:
            ids = [r.id for r in (await conn.execute(select(tables.c.id).where(tables.c.closed.is_(False)))).all()]
            result: dict[str, list[LogEntry]] = {table_id: [] for table_id in ids}
            rows = await conn.execute(
                select(table_log).join(tables, tables.c.id == table_log.c.table_id)
                .where(tables.c.closed.is_(False)).order_by(table_log.c.table_id, table_log.c.seq)
            )
            for r in rows:
                result[r.table_id].append(LogEntry(r.table_id, r.seq, r.at, r.kind, json.loads(r.data)))
        return result

    async def table_entries(self, table_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """One table's log after entry ``after`` (at most ``limit`` entries), with each entry's
        epoch: what a worker that has just taken the table over folds to rebuild it
        (cluster/ownership.py), or the page a table reads to answer an old resend (table/idempotency.py)."""
        async with self.engine.connect() as conn:
            query = select(table_log).where(table_log.c.table_id == table_id, table_log.c.seq > after).order_by(table_log.c.seq)
            rows = await conn.execute(query if limit is None else query.limit(limit))
            return [LogEntry(r.table_id, r.seq, r.at, r.kind, json.loads(r.data), r.epoch) for r in rows]
