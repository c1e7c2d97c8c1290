"""The table log's writer on SQLite: plain entries are committed on the event loop when the
database is free, and on a worker thread when another writer holds it — the loop never waits
for a lock (every table would stop), and an entry is told only once it is committed (principle 7)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from freezeout.server.entries import GameStart
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import LogEntry, Store
from polling import eventually


async def test_a_plain_entry_waits_off_the_loop_while_another_writer_holds_the_database(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"
    engine = create_engine(async_database_url(url))
    await run_migrations(engine)
    store = Store(engine)
    await store.start()
    blocker = sqlite3.connect(tmp_path / "log.sqlite", isolation_level=None, check_same_thread=False)
    try:
        await store.log.create_table("t1", LogEntry("t1", 1, 1.0, "create", {"slots": [None, None], "ranked": False}))
        await store.log.append([LogEntry("t1", 2, 2.0, "sit", {"slot": 0})])  # the database free: committed at once
        blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database
        pending = asyncio.create_task(store.log.append([LogEntry("t1", 3, 3.0, "sit", {"slot": 1})]))
        for _ in range(20):  # yields, not a time: the loop keeps running while the commit waits off it
            await asyncio.sleep(0)
        assert not pending.done()  # not committed, so not told
        assert blocker.execute("SELECT count(*) FROM table_log WHERE table_id = 't1'").fetchone()[0] == 2
        blocker.execute("COMMIT")
        await pending
        entries = await store.log.table_entries("t1")
        assert [(e.seq, e.kind, e.data) for e in entries] == [
            (1, "create", {"slots": [None, None], "ranked": False}), (2, "sit", {"slot": 0}), (3, "sit", {"slot": 1})]
    finally:
        blocker.close()
        await store.close()
        await engine.dispose()


async def test_a_games_start_is_committed_on_the_loop_when_the_database_is_free(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A batch with a game row used to go to a worker thread every time; there it waited for the
    busy loop to hand back the GIL at each statement while every table's entries queued behind
    it (docs/scaling.md "No freeze").  With the database free, no thread is asked for."""
    from freezeout.server.storage import tablelog

    url = f"sqlite:///{tmp_path / 'log.sqlite'}"
    engine = create_engine(async_database_url(url))
    await run_migrations(engine)
    store = Store(engine)
    await store.start()
    threads: list[object] = []

    async def to_thread(fn, /, *args, **kwargs):  # asyncio.to_thread's shape
        threads.append(fn)
        return await asyncio.get_running_loop().run_in_executor(None, lambda: fn(*args, **kwargs))

    monkeypatch.setattr(tablelog.asyncio, "to_thread", to_thread)
    blocker = sqlite3.connect(tmp_path / "log.sqlite", isolation_level=None, check_same_thread=False)
    try:
        await store.log.create_table("t1", LogEntry("t1", 1, 1.0, "create", {"slots": [None, None], "ranked": False}))
        start = GameStart("t1:g1", "t1", 1, ("ana", "bo"), False, 2.0)
        await store.log.append([LogEntry("t1", 2, 2.0, "start", {"button": 0})], [start])
        assert threads == []  # on the loop
        assert blocker.execute("SELECT id, table_id FROM games").fetchall() == [("t1:g1", "t1")]
        # Another writer holds the database: the batch waits off the loop, nothing begun on it.
        blocker.execute("BEGIN IMMEDIATE")
        second = GameStart("t1:g2", "t1", 2, ("ana", "bo"), False, 3.0)
        pending = asyncio.create_task(store.log.append([LogEntry("t1", 3, 3.0, "start", {"button": 1})], [second]))
        await eventually(lambda: len(threads) == 1, "the batch handed to a worker thread")
        assert not pending.done() and len(threads) == 1
        blocker.execute("COMMIT")
        await pending
        assert [r[0] for r in blocker.execute("SELECT id FROM games ORDER BY id")] == ["t1:g1", "t1:g2"]
        assert [e.seq for e in await store.log.table_entries("t1")] == [1, 2, 3]
        # The attempt on the loop left its connection waiting for locks again, as the thread's expects.
        assert store.log._sync_engine is not None
        with store.log._sync_engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == tablelog._BUSY_MS
    finally:
        blocker.close()
        await store.close()
        await engine.dispose()


def test_a_transactions_transfers_take_balance_rows_in_account_order():
    """Two workers' batches that rake into the house and move one player's chips at two tables
    must lock the balance rows in one order, or PostgreSQL aborts one as a deadlock: the writer
    moves a batch's transfers by account, keeping one account's movements in their order (a
    cash-out here still pays for a buy-in behind it)."""
    from types import SimpleNamespace

    from freezeout.server.storage.ledger import HOUSE, Transfer
    from freezeout.server.storage.tablelog import TableLog

    moved: list[tuple[int, str]] = []
    log = TableLog.__new__(TableLog)  # only the writer's transaction body: no engine, no loop
    log._move = lambda conn, t: moved.append((t.account_id, t.transfer_id))
    log._write_game = lambda conn, op: None
    conn = SimpleNamespace(dialect=SimpleNamespace(name="sqlite"), exec_driver_sql=lambda sql, rows: None)
    ana, bo = HOUSE + 7, HOUSE + 3
    jobs = [([LogEntry("t1", 9, 1.0, "act", {})], [Transfer("t1:out", ana, "cash_out", 50, 1.0, "t1", None, 9),
                                                  Transfer("t1:rake", HOUSE, "rake", 5, 1.0, "t1", None, 9)]),
            ([LogEntry("t2", 4, 1.0, "sit", {})], [Transfer("t2:in", ana, "buy_in", 80, 1.0, "t2", None, 4),
                                                  Transfer("t2:in:bo", bo, "buy_in", 80, 1.0, "t2", None, 4)])]
    log._write_jobs(conn, jobs)  # type: ignore[arg-type]
    assert moved == [(HOUSE, "t1:rake"), (bo, "t2:in:bo"), (ana, "t1:out"), (ana, "t2:in")]
