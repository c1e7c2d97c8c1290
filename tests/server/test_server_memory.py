"""What a table keeps in memory is bounded by what it is for (issue #10, finding 13;
docs/protocol.md "Memory"): a table's memory reaches its budget once its catch-up
buffer is full and grows no further however long it plays, and the rules' public
history of earlier hands is kept only for the bots that read it."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

from freezeout.rules import views
from freezeout.server.clock import FakeClock
from freezeout.server.settings import Settings
from freezeout.server.storage.store import LogEntry
from freezeout.server.table import state as table_state
from freezeout.server.table.actor import TableActor
from freezeout.server.table.state import initial_state

from serverkit import Harness

TABLE_BUDGET = 150 * 1024  # docs/protocol.md "Memory": a 4-seat table keeps about 100 KB


class _MemoryStore:
    async def append(self, entries: Any, ops: Any = ()) -> Any:
        return list(entries)  # committed as given


async def play(actor: TableActor, clock: FakeClock, until_version: int) -> None:
    """Bots think for a second each: every second of fake time is one step of the table."""
    while actor.state.version < until_version:
        clock.advance(1.0)
        await actor.sync()


def held() -> int:
    """What is allocated now, less the process's bounded caches (the views' hand names): they
    belong to no table, and what they hold depends on what this process ran before."""
    views._hand_name_now.cache_clear()
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def test_a_tables_memory_stays_within_its_budget():
    """Four bots play game after game (test mode) with nothing stored: what the table holds
    is measured with tracemalloc, which also sees the spare capacity of what it keeps (a
    catch-up entry straight from orjson held a 4 KB buffer: the soak's growth)."""
    clock = FakeClock()
    settings = Settings(deck_seed="memory", test_mode=True, bot_only_tables=True, bot_delay_min=1.0, bot_delay_max=1.0,
                        pause_seconds=1.0)
    slots = [{"user_id": 100 + i, "name": f"bot-{i}", "kind": "bot", "bot": "random"} for i in range(4)]

    def table(table_id: str) -> TableActor:
        entry = LogEntry(table_id, 1, clock.now(), "create", {"slots": slots, "ranked": False, "created_by": 1})
        return TableActor(initial_state(entry), store=_MemoryStore(), clock=clock, settings=settings)

    warm = table("warm")  # the first table loads what every table shares (modules, the bots' tables)
    warm.start()
    await play(warm, clock, 3 * settings.catchup_entries)
    await warm.stop()
    tracemalloc.start()
    before = held()
    actor = table("measured")
    actor.start()
    try:
        await play(actor, clock, 3 * settings.catchup_entries)  # several games; the catch-up buffer is full
        full = held()
        assert len(actor.fanout.catchup) == settings.catchup_entries
        assert full - before < TABLE_BUDGET, f"a table keeps {(full - before) // 1024} KB"
        await play(actor, clock, 6 * settings.catchup_entries)
        assert held() - full < 16 * 1024, "a table's memory grows as it plays"
    finally:
        await actor.stop()
        tracemalloc.stop()


async def fold_hands(h: Harness, table: str, players: list[Any], hands: int) -> list[int]:
    """The humans fold (or check) whenever they must act until ``hands`` hands were dealt;
    returns the length of the rules' public history at each step."""
    actor = h.table(table)
    lengths = []
    while True:
        await h.settle()
        t = actor.state.tournament
        assert t is not None
        lengths.append(len(t.past_logs))
        if t.hand_number >= hands or t.finished:
            return lengths
        if not t.in_hand:
            await h.advance(h.settings.pause_seconds)
            continue
        for p in players:
            await p.until_version(actor.state.version)
        mover = next((p for p in players if p.view["viewer"] == t.to_act), None)
        if mover is None:  # a bot's turn
            continue
        move = "fold" if "fold" in mover.view["legal"]["moves"] else "check"
        await mover.send({"type": "act", "version": actor.state.version, "move": move})


async def test_public_history_is_kept_only_for_the_bots_that_read_it(harness, monkeypatch):
    ana, bo = await harness.guests(2)
    table = await ana.create([None, None])
    await bo.post(f"/api/tables/{table}/sit")
    for p in (ana, bo):
        await p.join(table)
    assert set(await fold_hands(harness, table, [ana, bo], 8)) == {0}  # no bot: nothing kept
    monkeypatch.setattr(table_state, "PUBLIC_MEMORY_HANDS", 2)
    cy = (await harness.guests(1))[0]
    table = await cy.create([None, "station"])
    await cy.join(table)
    lengths = await fold_hands(harness, table, [cy], 8)
    assert max(lengths) == 2 and harness.table(table).state.tournament.hand_number >= 4  # the last two hands
