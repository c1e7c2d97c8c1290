"""A cluster in one test process (imported as ``clusterkit``): a gateway app served on
loopback and workers driving tables, sharing one database and one bus.

With the in-memory bus and SQLite this runs in the default suite; the same
helpers take a Redis bus and a PostgreSQL URL for the slow tests.  Leases
run on the database's clock (real time), the game on a :class:`FakeClock`:
tests wait for conditions (an owner, a version), never for a time.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from freezeout.server.clock import FakeClock
from freezeout.server.cluster.bus import Bus
from freezeout.server.cluster.worker import Worker
from freezeout.server.settings import Settings
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import LogEntry, Store
from freezeout.server.table.chips import holdings
from polling import eventually

from serverkit import Harness, Player, fast_settings, fresh_database, serve

__all__ = ["Cluster", "cluster_settings", "real_cluster", "serve_cluster"]


def cluster_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"role": "gateway", "lease_seconds": 2.0, "renew_seconds": 0.4, "claim_seconds": 0.1,
                              "follow_refresh_seconds": 0.5, "route_timeout_seconds": 20.0,
                              "lobby_refresh_seconds": 0.1}
    values.update(overrides)
    return fast_settings(tmp_path, **values)


class Cluster:
    def __init__(self, gateway: Harness, settings: Settings, clock: FakeClock, bus: Bus) -> None:
        self.gateway, self.settings, self.clock, self.bus = gateway, settings, clock, bus
        self.workers: dict[str, Worker] = {}
        self._stores: list[Store] = []
        self.store: Store | None = None  # a store of the test's own, to read the log

    async def worker(self, name: str, **overrides: Any) -> Worker:
        """A started worker named ``name`` (with its own settings ``overrides``, e.g. ``worker_max_tables``)."""
        store = Store(create_engine(self.settings.resolved_database_url()), holdings=holdings)
        await store.start()
        self._stores.append(store)
        worker = Worker(name=name, settings=self.settings.model_copy(update={"role": "worker", **overrides}), store=store,
                        bus=self.bus, clock=self.clock)
        await worker.start()
        self.workers[name] = worker
        return worker

    async def crash(self, name: str) -> None:
        """Stop a worker as kill -9 would: nothing released, its leases run out."""
        await self.workers.pop(name).stop(release=False)

    def owner(self, table_id: str) -> Worker | None:
        found = [w for w in self.workers.values() if table_id in w.tables]
        return found[0] if len(found) == 1 else None

    async def owned_by_another(self, table_id: str, old: Worker) -> Worker:
        await eventually(lambda: (w := self.owner(table_id)) is not None and w is not old, f"a new owner of {table_id}")
        new = self.owner(table_id)
        assert new is not None
        return new

    async def settle(self, table_id: str) -> None:
        """Let the table's owner finish what is due now."""
        for _ in range(2):
            owner = self.owner(table_id)
            if owner is not None:
                await owner.tables[table_id].sync()

    async def log(self, table_id: str) -> list[LogEntry]:
        if self.store is None:
            self.store = Store(create_engine(self.settings.resolved_database_url()))
            await self.store.start()
            self._stores.append(self.store)
        return await self.store.log.table_entries(table_id)

    async def close(self) -> None:
        for worker in list(self.workers.values()):
            await worker.stop()
        for store in self._stores:
            await store.close()


@contextlib.asynccontextmanager
async def serve_cluster(settings: Settings, bus: Bus | None = None) -> AsyncIterator[Cluster]:
    clock, bus = FakeClock(), bus or Bus()
    engine = create_engine(settings.resolved_database_url())
    await run_migrations(engine)
    await engine.dispose()
    async with serve(settings, clock, bus=bus, name="gateway-1") as gateway:
        cluster = Cluster(gateway, settings, clock, bus)
        try:
            yield cluster
        finally:
            await cluster.close()


@contextlib.asynccontextmanager
async def real_cluster(tmp_path: Path, redis_server: Any, postgres_url: str, **overrides: Any) -> AsyncIterator[Cluster]:
    """A cluster on the real thing: the Redis bus and a fresh PostgreSQL database (one
    process: the gateway's Redis user, which may do all a worker does)."""
    database_url = await fresh_database(postgres_url)
    bus = redis_server.bus("gateway")
    await bus.start()
    try:
        async with serve_cluster(cluster_settings(tmp_path, database_url=database_url, **overrides), bus) as cluster:
            yield cluster
    finally:
        await bus.close()


async def heads_up(cluster: Cluster) -> tuple[str, Player, Player]:
    """ana and bo (registered) seated heads-up through the gateway, both following the table."""
    ana, bo = await cluster.gateway.player(), await cluster.gateway.player()
    await ana.register("ana")
    await bo.register("bo")
    table = await ana.create([None, None])
    response = await bo.post(f"/api/tables/{table}/sit")
    assert response.status_code == 200, response.text
    for p in (ana, bo):
        await p.join(table)
    return table, ana, bo


async def caught_up(cluster: Cluster, table: str, players: tuple[Player, ...]) -> None:
    """Wait until ``table`` has an owner, it has settled, and every player has
    seen the owner's version of it."""
    await eventually(lambda: cluster.owner(table) is not None, "an owner")
    await cluster.settle(table)
    owner = cluster.owner(table)
    assert owner is not None
    for p in players:
        await p.until_version(owner.tables[table].state.version)
