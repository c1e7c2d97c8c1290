"""The cluster in one process (issue #13): a gateway and workers on the in-memory bus and
SQLite.  A table plays through the gateway; a crashed worker's table is taken over by
another with no acknowledged move lost or doubled and nobody charged for the outage; a
stale owner stops driving its table; a lost update is caught up by version."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from typing import Any

import pytest

from freezeout.server.cluster.bus import Bus, LocalUpdates, Update
from freezeout.server.cluster.gateway import RemoteTable, _Follower
from freezeout.server.cluster.ownership import Lease, Leases
from freezeout.server.cluster.worker import Worker
from freezeout.server.fairness import new_deal
from freezeout.server.storage.store import LogEntry
from freezeout.server.table.actor import Conn
from freezeout.server.table.state import initial_state, reduce
from freezeout.server.transport.protocol import Act
from polling import eventually

from clusterkit import Cluster, caught_up, cluster_settings, heads_up, real_cluster, serve_cluster
from serverkit import Player


def versions(player: Player) -> list[int]:
    return [m["version"] for m in player.messages if m["type"] in ("snapshot", "update")]


def consecutive(player: Player) -> bool:
    seen = versions(player)
    return all(b == a + 1 for a, b in itertools.pairwise(seen))


async def move(cluster: Cluster, table: str, players: tuple[Player, ...]) -> int:
    """The player to act calls or checks, once every player has seen the table's version;
    returns the version after the move."""
    await caught_up(cluster, table, players)
    mover = next(p for p in players if p.view and p.view.get("legal") and p.view["viewer"] == p.latest["clock"]["to_act"])
    version = mover.version
    moves = mover.view["legal"]["moves"]
    await mover.send({"type": "act", "version": version, "move": "call" if "call" in moves else "check"})
    for p in players:
        await p.until_version(version + 1)
    return version + 1


async def acts(cluster: Cluster, table: str) -> list[dict[str, Any]]:
    return [e.data for e in await cluster.log(table) if e.kind == "act"]


async def stop_claiming(worker: Worker) -> None:
    """The worker takes no more tables from its next look on (the look in flight, if any, is over
    once the next one starts)."""
    looked = asyncio.Event()

    async def no_claim() -> list[str]:
        looked.set()
        return []

    worker.claim = no_claim  # type: ignore[method-assign]
    await eventually(looked.is_set, "the worker's next look for tables")


async def test_a_table_plays_through_a_gateway_and_its_owner(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        worker = await cluster.worker("w1")
        table, ana, bo = await heads_up(cluster)
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")
        for _ in range(3):
            await move(cluster, table, (ana, bo))
        assert consecutive(ana) and consecutive(bo)
        # Each saw its own hole cards only: the gateway handed each connection its seat's text.
        assert ana.view["viewer"] != bo.view["viewer"]
        log = await cluster.log(table)
        assert [e.seq for e in log] == list(range(1, len(log) + 1))
        epochs = [e.epoch for e in log[1:]]  # every entry the owner wrote is fenced
        assert None not in epochs and epochs == sorted(epochs)

        async def listed_playing() -> bool:  # the lobby is what the owner last wrote, re-read now and then
            listed = (await ana.http.get("/api/tables")).json()["tables"]
            return [(t["id"], t["status"]) for t in listed] == [(table, "playing")]

        await eventually(listed_playing, "the lobby to list the table as playing")
        summary = (await ana.http.get(f"/api/tables/{table}")).json()["table"]
        assert summary["version"] == worker.tables[table].state.version
        ready = (await ana.http.get("/readyz")).json()
        assert ready["role"] == "gateway" and ready["ready"] and ready["followed_tables"] == 1
        assert "freezeout_connections 2" in (await ana.http.get("/metrics")).text
        assert worker.readiness()["tables"] == {table: worker.held[table].epoch}
        assert worker.metrics.counters[("freezeout_actions_total", "")] >= 3


async def test_a_crashed_workers_table_is_taken_over_and_loses_nothing(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        await crash_and_take_over(cluster)


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_a_crash_takeover_on_postgresql_and_redis(tmp_path, redis_server, postgres_url):
    """The same on the real thing: the Redis bus and PostgreSQL's fencing trigger."""
    async with real_cluster(tmp_path, redis_server, postgres_url) as cluster:
        await crash_and_take_over(cluster)


async def crash_and_take_over(cluster: Cluster) -> None:
    """A heads-up hand in play; its owner is killed; another takes over and play goes on."""
    first = await cluster.worker("w1")
    table, ana, bo = await heads_up(cluster)
    await eventually(lambda: cluster.owner(table) is first, "the first worker to own the table")
    await cluster.worker("w2")
    for _ in range(2):
        await move(cluster, table, (ana, bo))
    acknowledged = await acts(cluster, table)
    deadline = ana.latest["clock"]["turn_deadline"]
    owner = cluster.owner(table)
    assert owner is not None
    old_epoch = owner.held[table].epoch
    await cluster.crash(owner.name)  # kill -9: its lease runs out, nobody releases it
    new = await cluster.owned_by_another(table, owner)
    assert new.held[table].epoch == old_epoch + 1
    resumed = await ana.until(lambda m: m["type"] == "update"
                              and any(e["type"] == "resumed" for e in m["events"]), timeout=180)
    assert resumed["clock"]["turn_deadline"] >= deadline  # the outage is not charged
    await eventually(lambda: len(new.tables[table].conns) == 2, "the new owner to learn who follows the table")
    assert new.tables[table].presence() == [True, True]
    for _ in range(2):
        await move(cluster, table, (ana, bo))
    after = await acts(cluster, table)
    assert after[: len(acknowledged)] == acknowledged and len(after) == len(acknowledged) + 2
    assert not any(a.get("move") == "timeout" for a in after)  # nobody forfeited for the outage
    assert consecutive(ana) and consecutive(bo)
    log = await cluster.log(table)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert next(e.kind for e in log if e.epoch == old_epoch + 1) == "resume"


async def test_a_stale_owner_stops_driving_its_table(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        first = await cluster.worker("w1")
        table, ana, bo = await heads_up(cluster)
        await eventually(lambda: cluster.owner(table) is first, "the first worker to own the table")
        # The worker is paused past its lease (its renewals wait) and another takes the table.
        gate = asyncio.Event()
        renew_many = first.leases.renew_many

        async def paused(leases: list[Lease]) -> dict[str, Lease]:
            await gate.wait()
            return await renew_many(leases)

        first.leases.renew_many = paused  # type: ignore[method-assign]
        await stop_claiming(first)
        lease = first.held[table]
        assert await Leases(first.store.engine, worker=first.name, ttl=1e-6).renew(lease) is not None
        second = await cluster.worker("w2")
        await eventually(lambda: table in second.tables, "the second worker to take the table")
        gate.set()  # it wakes up: its renewal fails, and it lets the table go
        await eventually(lambda: table not in first.tables, "the stale owner to let the table go")
        assert first.metrics.counters[("freezeout_lease_changes_total", 'change="lost"')] == 1
        await move(cluster, table, (ana, bo))
        log = await cluster.log(table)
        assert max(e.epoch or 0 for e in log) == second.held[table].epoch == lease.epoch + 1
        assert consecutive(ana) and consecutive(bo)


async def test_an_append_refused_as_stale_stops_the_actor(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        first = await cluster.worker("w1")
        table, _, _ = await heads_up(cluster)
        await eventually(lambda: cluster.owner(table) is first, "the worker to own the table")
        await cluster.settle(table)
        actor = first.tables[table]
        await stop_claiming(first)  # only the refused append can tell it: no renewal, no new claim
        lease = first.held.pop(table)
        assert await Leases(first.store.engine, worker=first.name, ttl=1e-6).renew(lease) is not None
        thief = Leases(first.store.engine, worker="thief", ttl=600)

        async def stolen() -> bool:
            return await thief.acquire(table) is not None

        await eventually(stolen, "another owner to take the table")
        t = actor.state.tournament
        assert t is not None and t.in_hand
        user = await first.store.accounts.by_name(actor.state.players[t.to_act])
        told: list[str] = []
        actor.intent(user, Act(type="act", version=actor.state.version, move="call"), Conn(user, told.append))
        await eventually(lambda: actor.lost and table not in first.tables, "the actor to stop")
        assert [json.loads(m)["code"] for m in told] == ["busy"]
        assert all(e.epoch != lease.epoch for e in (await cluster.log(table)) if e.kind == "act")


class _Lossy(LocalUpdates):
    """Drops the first update of version ``drop`` (the bus delivers at most once)."""

    def __init__(self, drop: int) -> None:
        super().__init__()
        self.drop: int | None = drop

    async def publish(self, update: Update) -> None:
        if update.version == self.drop and update.table_id.startswith("t"):
            self.drop = None
            return
        await super().publish(update)


async def test_a_lost_update_is_caught_up_by_version(tmp_path):
    bus = Bus(updates=_Lossy(drop=0))
    async with serve_cluster(cluster_settings(tmp_path), bus) as cluster:
        await cluster.worker("w1")
        table, ana, bo = await heads_up(cluster)
        version = await move(cluster, table, (ana, bo))
        assert isinstance(bus.updates, _Lossy)
        bus.updates.drop = version + 1
        await move(cluster, table, (ana, bo))
        await move(cluster, table, (ana, bo))
        assert bus.updates.drop is None  # one update was lost...
        assert consecutive(ana) and consecutive(bo)  # ...and nobody missed it


def test_a_resume_after_a_takeover_keeps_the_turns_time():
    """The new owner's ``resume`` moves the running turn on by the outage, never past a full turn."""
    slots = [{"user_id": 1, "name": "a", "kind": "user"}, {"user_id": 2, "name": "b", "kind": "user"}]
    state = initial_state(LogEntry("t1", 1, 100.0, "create", {"slots": slots, "ranked": False}))
    start = {"game": 1, "game_id": "t1-1", "players": ["a", "b"], "seat_slots": [0, 1], "button": 0,
             "deal": new_deal(1, random.Random(0)).to_json()}
    for kind, data, at in (("start", start, 101.0), ("deal", {}, 110.0)):
        state = reduce(state, LogEntry("t1", state.version + 1, at, kind, data))[0]
    assert state.tournament is not None and state.tournament.in_hand and state.turn_started == 110.0
    for outage, expected in ((25.0, 135.0), (None, 150.0), (500.0, 150.0), (-3.0, 110.0)):
        data: dict[str, Any] = {"grace_until": 210.0}
        if outage is not None:
            data["outage"] = outage
        new = reduce(state, LogEntry("t1", state.version + 1, 150.0, "resume", data))[0]
        assert new.turn_started == expected and new.grace_until == 210.0


class _Room:
    """What a RemoteTable asks of its room, recorded."""

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.followers: dict[str, Any] = {}

    def send(self, table_id: str, command: Any, failed: Any) -> None:
        assert command is not None
        self.sent.append(command)


def test_a_catch_up_reaches_only_a_connection_at_its_since():
    """Two catch-ups may be on their way to one connection (a resync's and a refresh's): the
    one computed from an older version would repeat events the client already has."""
    room, told = _Room(), []
    table = RemoteTable(room, "t000000000001")  # type: ignore[arg-type]
    follower = _Follower(Conn(None, told.append), "c1", synced=5)

    def catch_up(since: int, version: int) -> bytes:
        return f'{{"type":"update","version":{version},"since":{since},"events":[]}}'.encode()

    table.direct(follower, catch_up(5, 7))
    assert follower.synced == 7 and len(told) == 1
    table.direct(follower, catch_up(5, 8))  # from version 5 again: events 6 and 7 twice
    assert follower.synced == 7 and len(told) == 1
    table.direct(follower, b'{"type":"snapshot","version":9,"events":[]}')  # a snapshot fits any
    assert follower.synced == 9 and len(told) == 2
    table._offer(follower, 11, "eleven")  # a gap: held, and a catch-up asked from 9
    assert len(told) == 2 and room.sent[-1].since == 9 and follower.resyncing
    table.direct(follower, catch_up(9, 10))
    assert follower.synced == 11 and told[-1] == "eleven" and not follower.resyncing


async def test_an_emptied_lobby_is_written_again(tmp_path):
    """A Redis restarted empty loses the lobby: each owner writes its tables' records again."""
    bus = Bus()
    async with serve_cluster(cluster_settings(tmp_path), bus) as cluster:
        worker = await cluster.worker("w1")
        table, _, _ = await heads_up(cluster)
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")
        await cluster.settle(table)
        await bus.lobby.remove(table)
        assert table not in await bus.lobby.records()
        worker.relist()

        async def listed() -> bool:
            return table in await bus.lobby.records()

        await eventually(listed, "the table's record again")


async def test_a_failed_renewal_keeps_the_tables_while_their_leases_may_live(tmp_path):
    """A renewal statement that fails (a deadlock, the database away) drops nothing while the
    leases may still be live; past a lease time without an answered renewal, the tables go."""
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        worker = await cluster.worker("w1")
        table, _, _ = await heads_up(cluster)
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")

        async def failing(leases: object) -> dict[str, object]:
            raise RuntimeError("deadlock detected")

        worker.leases.renew_many = failing  # type: ignore[assignment]
        worker._renewed_at = time.monotonic()
        await worker.renew()
        assert table in worker.tables and table in worker.held
        worker._renewed_at = time.monotonic() - cluster.settings.lease_seconds
        await worker.renew()
        assert table not in worker.tables and table not in worker.held


async def test_routes_looked_up_at_once_share_one_statement(tmp_path):
    """Many tables routed in the same moment (connections joining) read their owners in one
    statement, not one pooled database connection each."""
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        worker = await cluster.worker("w1")
        ana = await (await cluster.gateway.player()).register("ana")
        tables = [await ana.create([None, "easy"]) for _ in range(3)]
        await eventually(lambda: all(cluster.owner(t) is worker for t in tables), "the worker to own the tables")
        room = cluster.gateway.ctx.room
        owners = room.leases.owners
        statements: list[list[str]] = []

        async def counted(table_ids: list[str]) -> dict[str, Any]:
            if table_ids:  # the periodic refresh asks for its followed tables: none here
                statements.append(sorted(table_ids))
            return await owners(table_ids)

        room.leases.owners = counted
        room._routes.clear()
        assert await asyncio.gather(*(room._route(t) for t in tables)) == ["w1"] * 3
        assert statements == [sorted(tables)]


async def test_a_live_tables_finished_hand_replays_through_a_gateway(tmp_path):
    """Issue #22: the replayer's steps of a finished hand of a table still being played
    come from a gateway too (it drives no table: it folds the table's log from the
    database), each as the asker saw it; a hand still being played is not replayed."""
    from freezeout.server.table.replaysteps import hand_steps

    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        await cluster.worker("w1")
        table, ana, bo = await heads_up(cluster)
        await caught_up(cluster, table, (ana, bo))
        busy = await ana.http.get(f"/api/tables/{table}/hands/1/steps")
        assert busy.status_code == 404 and "not finished" in busy.json()["error"]["message"]

        def hand_one_over() -> bool:
            owner = cluster.owner(table)
            game = owner.tables[table].state.table_game if owner is not None else None
            return game is not None and (game.hand_number > 1 or not game.in_hand)

        while not hand_one_over():
            await move(cluster, table, (ana, bo))
        await caught_up(cluster, table, (ana, bo))
        owner = cluster.owner(table)
        assert owner is not None
        record = owner.tables[table].recorder.to_json()
        record = {**record, "hands": record["hands"][:1]}
        for player, name in ((ana, "ana"), (bo, "bo")):
            response = await player.http.get(f"/api/tables/{table}/hands/1/steps")
            assert response.status_code == 200, response.text
            steps = response.json()
            assert steps == hand_steps(record, 1, name)  # what the owner itself would answer
            assert steps["viewer"] == record["players"].index(name) and steps["steps"][-1]["view"]["hand_over"]
        assert (await ana.http.get(f"/api/tables/{table}/hands/2/steps")).status_code == 404
        assert (await ana.http.get("/api/tables/t-nowhere/hands/1/steps")).status_code == 404
