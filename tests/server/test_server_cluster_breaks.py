"""C14 in a cluster: a broken cash table's player moves to a table another worker owns.

The gateway that holds the tending lease (cluster/tending.py) reads the broken table from the
lobby its owners publish, and asks each table's owner through the tables' own intents:
``move_out`` at the broken table, ``move_in`` at the other, whose owner reads the ``stand``
from the broken table's log in the shared database.  Here the broken table's owner crashes
and the break falls due at once, while its lease still names the dead worker: a round of
tending may route the ``move_out`` to it, where nobody reads it; the round gives up after the
gateway's wait (``busy``) and the next one moves the player through the new owner.  Either
way every chip arrives once (the logs and the ledger agree).  The route timeout is short here
so that a lost round costs seconds, not the default 2 x 20 s of the cluster tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from freezeout.rules.breaking import BREAK_AFTER
from freezeout.server.table.chips import holdings
from polling import eventually

from clusterkit import Cluster, caught_up, cluster_settings, real_cluster, serve_cluster
from serverkit import Player

OPTIONS = {"big_blind": 200}  # buy-ins 4000 to 20000


async def open_cash(player: Player, seats: int) -> str:
    response = await player.post("/api/tables", {"format": "cash", "game": "NT", "seats": seats, "cash": OPTIONS})
    assert response.status_code == 200, response.text
    return str(response.json()["table"]["id"])


async def buy_in(player: Player, table: str, slot: int) -> None:
    response = await player.post(f"/api/tables/{table}/buy_in", {"chips": 5000, "slot": slot})
    assert response.status_code == 200, response.text


async def break_during_a_takeover(cluster: Cluster) -> None:
    first = await cluster.worker("w1", worker_max_tables=1)  # the broken table's owner, and no other's
    ana, bo, cy = [await (await cluster.gateway.player()).register(name) for name in ("ana", "bo", "cy")]
    broken = await open_cash(ana, 2)
    await eventually(lambda: cluster.owner(broken) is first, "w1 to own the table that breaks")
    second = await cluster.worker("w2")  # owns the other table, and the broken one after w1's crash
    other = await open_cash(cy, 3)
    await eventually(lambda: cluster.owner(other) is second, "w2 to own the other table")
    await buy_in(cy, other, 0)  # alone: no hand dealt there, so it is not breaking
    await buy_in(ana, broken, 0)
    await buy_in(bo, broken, 1)
    for p in (ana, bo):
        await p.join(broken)
    await caught_up(cluster, broken, (ana, bo))
    assert first.tables[broken].state.table_game is not None and first.tables[broken].state.table_game.in_hand
    assert (await bo.post(f"/api/tables/{broken}/stand")).status_code == 200  # leaves once the hand ends
    await caught_up(cluster, broken, (ana, bo))
    state = first.tables[broken].state
    assert state.table_game is not None and state.table_game.in_hand
    mover = next(p for p in (ana, bo) if p.view and p.view["you"] == state.table_game.to_act)
    await mover.send({"type": "act", "version": state.version, "move": "fold"})  # the hand ends; bo is gone
    await eventually(lambda: first.tables[broken].state.slot_of_user(bo.user["id"]) is None, "bo to leave")
    await caught_up(cluster, broken, (ana,))
    game = first.tables[broken].state.table_game
    assert game is not None and not game.in_hand and game.short_since is not None  # type: ignore[attr-defined]
    stack = game.table.current_stacks()[0]
    lobby = cluster.gateway.ctx.room._lobby
    await eventually(lambda: (r := lobby.get(broken)) is not None and r["summary"]["short_since"] is not None,
                     "the gateway's lobby to show the table short of players")
    await cluster.crash("w1")  # its lease runs out: w2 takes the broken table over
    cluster.clock.advance(BREAK_AFTER)  # due now: the gateway may ask before the lease has run out
    await cluster.owned_by_another(broken, first)

    def moved() -> bool:
        table = second.tables.get(other)
        return table is not None and table.state.slot_of_user(ana.user["id"]) is not None

    await eventually(moved, "the tending gateway to move ana to the other table")
    await cluster.settle(broken)
    source_log, target_log = await cluster.log(broken), await cluster.log(other)
    stand = [e for e in source_log if e.kind == "stand" and e.data.get("moved_to") == other]
    assert [(e.data["user"], e.data["chips"]) for e in stand] == [(ana.user["id"], stack)]  # every chip (C14)
    assert holdings(broken, source_log) == 0  # nobody is left at the broken table
    assert holdings(other, target_log) == 5000 + stack  # cy's buy-in and ana's chips, nothing made or lost
    assert await cluster.gateway.ctx.store.ledger.check() == []


async def test_c14_a_broken_tables_player_moves_across_workers_during_a_takeover(tmp_path: Path) -> None:
    async with serve_cluster(cluster_settings(tmp_path, route_timeout_seconds=3.0)) as cluster:
        await break_during_a_takeover(cluster)


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_c14_a_break_during_a_takeover_on_postgresql_and_redis(tmp_path: Path, redis_server: Any,
                                                                      postgres_url: str) -> None:
    async with real_cluster(tmp_path, redis_server, postgres_url, route_timeout_seconds=3.0) as cluster:
        await break_during_a_takeover(cluster)
