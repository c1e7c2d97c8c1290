"""Table ownership with fencing (issue #13), against SQLite and a real
PostgreSQL: the database itself refuses a log entry from a stale owner, a
takeover after expiry bumps the epoch, and epochs only move forward."""

from __future__ import annotations

import asyncio
import secrets

import asyncpg
import pytest
from sqlalchemy import delete, insert, update
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.cluster.localservers import with_database
from freezeout.server.cluster.ownership import Lease, Leases
from freezeout.server.fencing import StaleOwner, is_stale_owner_error
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import create_engine, run_migrations, table_log, table_owner
from freezeout.server.storage.store import LogEntry, Store
from polling import eventually


async def new_table(store: Store, table_id: str = "t1") -> None:
    await store.log.create_table(table_id, LogEntry(table_id, 1, 1.0, "create", {"slots": []}))


def entry(seq: int, epoch: int | None, table_id: str = "t1") -> LogEntry:
    return LogEntry(table_id, seq, float(seq), "note", {"seq": seq}, epoch)


async def refused_raw(engine: AsyncEngine, statement: object) -> bool:
    """Whether the database refuses ``statement`` as a fencing violation (bypassing the Store)."""
    try:
        async with engine.begin() as conn:
            await conn.execute(statement)  # type: ignore[call-overload]
    except Exception as exc:
        assert is_stale_owner_error(exc), exc
        return True
    return False


async def lapse(engine: AsyncEngine, lease: Lease) -> None:
    """Let ``lease`` run out: its owner renews it for the shortest time the database can tell."""
    assert await Leases(engine, worker=lease.worker, ttl=1e-6).renew(lease) is not None


async def take_over(leases: Leases, table_id: str) -> Lease:
    """Acquire ``table_id`` as soon as its lease has expired."""
    taken: list[Lease] = []

    async def acquired() -> bool:
        lease = await leases.acquire(table_id)
        if lease is not None:
            taken.append(lease)
        return bool(taken)

    await eventually(acquired, what=f"{leases.worker} to take {table_id} over")
    return taken[0]


async def test_two_owners_cannot_both_append(store):
    await new_table(store)
    worker_a = Leases(store.engine, worker="a", ttl=600)
    worker_b = Leases(store.engine, worker="b", ttl=600)
    lease_a = await worker_a.acquire("t1")
    assert lease_a is not None and lease_a.epoch == 1
    assert await worker_b.acquire("t1") is None  # a's lease is live
    await store.log.append([entry(2, lease_a.epoch)])

    await lapse(store.engine, lease_a)
    lease_b = await take_over(worker_b, "t1")
    assert lease_b.epoch == lease_a.epoch + 1 and lease_b.worker == "b"

    # a still believes it owns the table: the database refuses it, through the Store and around it.
    with pytest.raises(StaleOwner):
        await store.log.append([entry(3, lease_a.epoch)])
    assert await refused_raw(store.engine, insert(table_log).values(
        table_id="t1", seq=3, at=3.0, kind="note", data="{}", epoch=lease_a.epoch))
    assert await refused_raw(store.engine, insert(table_log).values(table_id="t1", seq=3, at=3.0, kind="note", data="{}"))
    assert await worker_a.renew(lease_a) is None  # a learns it has lost the table

    await store.log.append([entry(3, lease_b.epoch)])
    assert [(e.seq, e.epoch) for e in await store.log.table_entries("t1")] == [(1, None), (2, 1), (3, 2)]
    assert [e.seq for e in await store.log.table_entries("t1", after=2)] == [3]


async def test_a_stale_entry_does_not_sink_the_other_tables_in_its_commit(store):
    await new_table(store, "t1")
    await new_table(store, "t2")
    worker_a = Leases(store.engine, worker="a", ttl=600)
    lease_1, lease_2 = await worker_a.acquire("t1"), await worker_a.acquire("t2")
    assert lease_1 is not None and lease_2 is not None
    await lapse(store.engine, lease_1)
    await take_over(Leases(store.engine, worker="b", ttl=600), "t1")
    stale = store.log.append([entry(2, lease_1.epoch, "t1")])
    fine = store.log.append([entry(2, lease_2.epoch, "t2")])
    results = await asyncio.gather(stale, fine, return_exceptions=True)
    assert isinstance(results[0], StaleOwner) and [e.seq for e in results[1]] == [2]  # t2 committed
    assert [e.seq for e in await store.log.table_entries("t2")] == [1, 2]


async def test_an_unowned_table_takes_entries_without_an_epoch_only(store):
    """One process (``make run``) never takes leases: its entries carry no epoch, as before."""
    await new_table(store)
    await store.log.append([entry(2, None)])
    with pytest.raises(StaleOwner):
        await store.log.append([entry(3, 1)])  # an epoch nobody was given


async def test_epochs_only_move_forward_and_owner_rows_stay(store):
    await new_table(store)
    lease = await Leases(store.engine, worker="a", ttl=600).acquire("t1")
    assert lease is not None
    renewed = await Leases(store.engine, worker="a", ttl=600).renew(lease)
    assert renewed is not None and renewed.epoch == lease.epoch  # renewing keeps the epoch
    owner = table_owner.c
    assert await refused_raw(store.engine, update(table_owner).where(owner.table_id == "t1").values(epoch=0))
    assert await refused_raw(store.engine, update(table_owner).where(owner.table_id == "t1").values(worker="b"))
    assert await refused_raw(store.engine, delete(table_owner).where(owner.table_id == "t1"))
    assert not await refused_raw(store.engine, update(table_owner).where(owner.table_id == "t1")
                                 .values(worker="b", epoch=owner.epoch + 1))


async def test_release_hands_the_table_over_at_once(store):
    await new_table(store, "t1")
    await new_table(store, "t2")
    worker_a = Leases(store.engine, worker="a", ttl=600)
    worker_b = Leases(store.engine, worker="b", ttl=600)
    assert await worker_b.claimable() == ["t1", "t2"]  # never owned
    lease_a = await worker_a.acquire("t1")
    assert lease_a is not None
    assert await worker_b.claimable() == ["t2"]
    assert await worker_a.release(lease_a)
    assert await worker_b.claimable() == ["t2", "t1"]  # never owned first, then by how long ago the lease ran out
    lease_b = await worker_b.acquire("t1")
    assert lease_b is not None and lease_b.epoch == 2
    assert await worker_a.release(lease_a) is False  # no longer a's to give
    assert await worker_b.owner("t1") == lease_b
    await store.log.close_table("t2")
    assert await worker_b.claimable() == []


@pytest.mark.postgres
async def test_takeover_waits_for_the_append_in_flight(postgres_url):
    """PostgreSQL: an append whose transaction is open holds the owner row; a takeover waits
    for it, so the new owner's first read of the log has the old owner's last entry, and the
    old owner's next append is refused."""
    name = f"fz_{secrets.token_hex(6)}"
    admin_url = postgres_url.replace("postgresql://", "postgres://")
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f"CREATE DATABASE {name}")
    engine = create_engine(async_database_url(with_database(postgres_url, name)))
    store = Store(engine)
    try:
        await run_migrations(engine)
        await store.start()
        await new_table(store)
        lease_a = await Leases(engine, worker="a", ttl=600).acquire("t1")
        assert lease_a is not None
        await lapse(engine, lease_a)
        async with engine.connect() as in_flight:
            await in_flight.begin()
            await in_flight.execute(insert(table_log).values(
                table_id="t1", seq=2, at=2.0, kind="note", data="{}", epoch=lease_a.epoch))
            takeover = asyncio.create_task(take_over(Leases(engine, worker="b", ttl=600), "t1"))

            async def takeover_blocked() -> bool:
                waiting = await admin.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", name)
                return bool(waiting)

            await eventually(takeover_blocked, what="the takeover to wait for the append's lock")
            assert not takeover.done()
            await in_flight.commit()
        lease_b = await takeover
        assert lease_b.epoch == lease_a.epoch + 1
        assert [(e.seq, e.epoch) for e in await store.log.table_entries("t1")] == [(1, None), (2, lease_a.epoch)]
        with pytest.raises(StaleOwner):
            await store.log.append([entry(3, lease_a.epoch)])
    finally:
        await store.close()
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await admin.close()


async def test_load_counts_each_workers_live_leases(store):
    """New tables go to the least loaded worker: each worker's live leases, a lapsed one not."""
    one, two = Leases(store.engine, worker="w1", ttl=60), Leases(store.engine, worker="w2", ttl=60)
    for table_id in ("t1", "t2", "t3"):
        await new_table(store, table_id)
    assert await one.acquire("t1") is not None and await one.acquire("t2") is not None
    lapsing = await two.acquire("t3")
    assert lapsing is not None
    assert await one.load() == {"w1": 2, "w2": 1}
    await lapse(store.engine, lapsing)

    async def lapsed() -> bool:  # the database's clock (milliseconds in SQLite) has moved past it
        return "t3" in await two.claimable()

    await eventually(lapsed, what="the lease of t3 to lapse")
    assert await two.load() == {"w1": 2}
