"""A connection that joins a table is sent its snapshot at once, whatever the table is doing.

The snapshot describes the table as it is; it changes nothing, so it need not wait
behind the table's own steps.  A table that has just filled takes its start, its
first deck and its deal by itself: a player joining then used to get the snapshot
only after the table's next step had been committed.  Here the table's writes are
held at its start, and the joiner's snapshot still arrives (then the start's update).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from freezeout.server.entries import GameEnd, GameStart, LogEntry
from freezeout.server.storage.tablelog import TableLog


class HeldStart:
    """The table log, except that a ``start`` entry waits until :attr:`release` is set."""

    def __init__(self, log: TableLog) -> None:
        self.log = log
        self.holding = asyncio.Event()  # a start entry is waiting
        self.release = asyncio.Event()

    async def append(self, entries: list[LogEntry], ops: Sequence[GameStart | GameEnd] = ()) -> list[LogEntry]:
        if any(entry.kind == "start" for entry in entries):
            self.holding.set()
            await self.release.wait()
        return await self.log.append(entries, ops)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.log, name)


async def test_a_player_joining_as_the_table_fills_gets_the_snapshot_at_once(harness):
    ana, bo = await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    table = await ana.create([None, None])
    actor = harness.table(table)
    held = HeldStart(actor.writer.store)
    actor.writer.store = held  # type: ignore[assignment]
    attached = asyncio.Event()
    attach = actor.attach

    def noting_attach(conn: Any, since: int | None = None) -> None:
        attach(conn, since)
        attached.set()

    actor.attach = noting_attach  # type: ignore[method-assign]
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
    await held.holding.wait()  # the table is full: its start is being written, and waits
    filled = actor.state.version
    await bo.connect()
    await bo.send({"type": "join", "table": table})
    await attached.wait()  # the server has read the join
    held.release.set()
    first = await bo.until(lambda m: m["type"] in ("snapshot", "update"))
    assert first["type"] == "snapshot"
    assert first["version"] == filled, "the snapshot waited for the table's start"
    assert first["you"]["slot"] == 1 and first["view"] is None  # seated; no game yet
    started = await bo.until(lambda m: m["type"] == "update")
    assert started["version"] == filled + 1
    assert [e["type"] for e in started["events"]] == ["game_started"]
    assert started["view"] is not None and started["view"]["viewer"] is not None
