"""Table ownership past one process: a lease per table with a fencing epoch.

Design principle 6 says one owner per table.  In one process that is one
asyncio task; across workers it is a row of ``table_owner``: which worker
owns the table, until when (by the database's clock, so that workers' clocks
need not agree), and an ``epoch`` that grows by one at every change of
owner.  The owner stamps its epoch on every log entry it writes
(``LogEntry.epoch``) and the database refuses any other (migration 0003), so
a worker that was paused past its lease, partitioned away or simply slow can
never write a table that someone else has taken: safety rests on the epoch,
never on timing.  The lease's expiry only decides *when* another worker may
take over (liveness).

Why PostgreSQL and not a Redis lease: the fence must be checked where the
write happens, in the same transaction; a lease held in Redis would still
need its epoch copied into PostgreSQL and compared there, so the row is the
lease.  See docs/scaling.md.
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Float, Insert, func, literal_column, or_, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.storage.db import table_owner, tables

__all__ = ["Lease", "Leases", "worker_name"]


def worker_name() -> str:
    """A name for this process that no other process, nor a later start of this one, shares:
    a restarted worker is a new owner and must not inherit its predecessor's leases."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Lease:
    """A table owned by ``worker`` at ``epoch`` until ``expires_at`` (the database's clock)."""

    table_id: str
    worker: str
    epoch: int
    expires_at: float


def _db_now(dialect: str) -> ColumnElement[float]:
    """The database's clock in seconds since 1970: one clock for every worker's lease."""
    if dialect == "postgresql":
        return literal_column("CAST(extract(epoch FROM clock_timestamp()) AS double precision)", Float)
    return literal_column("((julianday('now') - 2440587.5) * 86400.0)", Float)


class Leases:
    """The leases of one worker.  Every method is one statement, atomic in the database."""

    def __init__(self, engine: AsyncEngine, *, worker: str, ttl: float) -> None:
        if ttl <= 0:
            raise ValueError(f"a lease lasts a positive time, not {ttl}")
        self.engine, self.worker, self.ttl = engine, worker, ttl
        self._dialect = engine.dialect.name
        self._now = _db_now(self._dialect)

    def _upsert(self, table_id: str) -> Insert:
        dialect_insert = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        statement = dialect_insert(table_owner).values(
            table_id=table_id, epoch=1, worker=self.worker, expires_at=self._now + self.ttl
        )
        return statement.on_conflict_do_update(
            index_elements=[table_owner.c.table_id],
            set_={"epoch": table_owner.c.epoch + 1, "worker": statement.excluded.worker,
                  "expires_at": statement.excluded.expires_at},
            where=table_owner.c.expires_at <= self._now,
        ).returning(table_owner.c.epoch, table_owner.c.expires_at)

    async def acquire(self, table_id: str) -> Lease | None:
        """Take ``table_id`` if nobody owns it or its lease has expired, at the next epoch;
        None while another lease is live.  On PostgreSQL the owner row's lock makes a
        takeover wait for the appends in flight: once it returns, the log holds every entry
        the old owner will ever have written."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(self._upsert(table_id))).first()
        return None if row is None else Lease(table_id, self.worker, int(row.epoch), float(row.expires_at))

    async def renew(self, lease: Lease) -> Lease | None:
        """Extend a lease by ``ttl`` from now; None if the table has changed owner.  A lease
        that expired but that nobody took is still this worker's (its epoch is current)."""
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    update(table_owner)
                    .where(table_owner.c.table_id == lease.table_id, table_owner.c.epoch == lease.epoch,
                           table_owner.c.worker == lease.worker)
                    .values(expires_at=self._now + self.ttl)
                    .returning(table_owner.c.expires_at)
                )
            ).first()
        return None if row is None else Lease(lease.table_id, lease.worker, lease.epoch, float(row.expires_at))

    async def renew_many(self, leases: list[Lease]) -> dict[str, Lease]:
        """Renew many leases, a thousand tables per statement (a worker with thousands of tables
        renews them all in a few statements); returns the renewed ones by table: a lease
        missing from the answer has changed owner."""
        renewed: dict[str, Lease] = {}
        ordered = sorted(leases, key=lambda lease: lease.table_id)
        for start in range(0, len(ordered), 1000):
            chunk = {lease.table_id: lease for lease in ordered[start:start + 1000]}
            mine = tuple_(table_owner.c.table_id, table_owner.c.epoch).in_(
                [(lease.table_id, lease.epoch) for lease in chunk.values()])
            async with self.engine.begin() as conn:
                # Lock the rows in table order first (PostgreSQL; SQLite has one writer anyway):
                # a group commit of log entries takes its tables' rows FOR SHARE in the same order
                # (Store._write_jobs), so a renewal and a commit can wait for each other but
                # never deadlock (an unordered renewal did, and lost every lease at once).
                if self._dialect == "postgresql":
                    await conn.execute(select(table_owner.c.table_id).where(table_owner.c.worker == self.worker, mine)
                                       .order_by(table_owner.c.table_id).with_for_update())
                rows = await conn.execute(
                    update(table_owner)
                    .where(table_owner.c.worker == self.worker, mine)
                    .values(expires_at=self._now + self.ttl)
                    .returning(table_owner.c.table_id, table_owner.c.epoch, table_owner.c.expires_at)
                )
                for row in rows:
                    renewed[row.table_id] = Lease(row.table_id, self.worker, int(row.epoch), float(row.expires_at))
        return renewed

    async def release(self, lease: Lease) -> bool:
        """Give a table up at once (a worker shutting down): the next worker need not wait for
        the lease to expire.  The epoch stays, so the next owner's is higher.  The expiry
        becomes *now* rather than zero, so the next owner can tell how long the table had no
        owner (:func:`outage`)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(table_owner)
                .where(table_owner.c.table_id == lease.table_id, table_owner.c.epoch == lease.epoch,
                       table_owner.c.worker == lease.worker)
                .values(expires_at=self._now)
            )
        return result.rowcount == 1

    async def owners(self, table_ids: list[str]) -> dict[str, Lease]:
        """The lease rows of ``table_ids`` in one statement (a gateway routing many tables)."""
        if not table_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(table_owner).where(table_owner.c.table_id.in_(table_ids)))
            return {r.table_id: Lease(r.table_id, r.worker, int(r.epoch), float(r.expires_at)) for r in rows}

    async def owner(self, table_id: str) -> Lease | None:
        """The table's current lease row (possibly expired), for routing a command to it."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(table_owner).where(table_owner.c.table_id == table_id))).first()
        return None if row is None else Lease(row.table_id, row.worker, int(row.epoch), float(row.expires_at))

    def outage(self, before: Lease | None, taken: Lease) -> float | None:
        """How long a table just ``taken`` had no live owner, by the database's clock: from its
        previous owner's last renewal (its expiry less the lease time, which every worker of a
        cluster shares; a release sets the expiry to its own moment, so that case errs by at
        most one lease time in the players' favour) to the takeover.  None for a table that
        never had an owner (its log says nothing about an outage)."""
        if before is None:
            return None
        taken_at = taken.expires_at - self.ttl
        return max(0.0, taken_at - (before.expires_at - self.ttl))

    async def acquire_job(self, name: str) -> Lease | None:
        """:meth:`acquire` for a job of the cluster that one process does at a time (``name``
        starts with ``~``: no table's id does; cluster/tending.py).  A closed ``tables`` row of
        that name stands for the job, so no worker claims it."""
        dialect_insert = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        async with self.engine.begin() as conn:
            await conn.execute(dialect_insert(tables).values(id=name, created_at=0.0, closed=True)
                               .on_conflict_do_nothing(index_elements=[tables.c.id]))
        return await self.acquire(name)

    async def load(self) -> dict[str, int]:
        """How many live leases each worker holds (new tables go to the least loaded first; a
        job's lease, :meth:`acquire_job`, is no table)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(table_owner.c.worker, func.count())
                                      .where(table_owner.c.expires_at > self._now, ~table_owner.c.table_id.startswith("~"))
                                      .group_by(table_owner.c.worker))
            return {str(r[0]): int(r[1]) for r in rows}

    async def claimable(self, limit: int = 100) -> list[str]:
        """Open tables that a worker may take: never owned, or whose lease has expired (their
        owner died or gave them up), the longest-orphaned first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id)
                .outerjoin(table_owner, table_owner.c.table_id == tables.c.id)
                .where(tables.c.closed.is_(False),
                       or_(table_owner.c.table_id.is_(None), table_owner.c.expires_at <= self._now))
                .order_by(table_owner.c.expires_at.is_not(None), table_owner.c.expires_at, tables.c.id)
                .limit(limit)
            )
            return [r.id for r in rows]
