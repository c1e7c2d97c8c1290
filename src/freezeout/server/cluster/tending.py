"""The room's care of the waiting lists and broken tables (C13, C14: table/cashmove.py ``tend``)
in a cluster: one gateway at a time.

Every gateway can tend (it reads the lobby and asks each table's owner through the tables'
own intents), but two tending at once would ask each table the same thing twice.  So the job
has a lease, as a table has (cluster/ownership.py): a ``table_owner`` row under a name no
table has (``~waitlists``, with a closed ``tables`` row standing for it so that no worker
claims it).  The gateway that holds it tends every ``TEND_SECONDS`` and renews it each round;
another takes it over once it lapses (a gateway stopped, crashed or cut off), and a gateway
shutting down gives it up at once.  The lease lasts several rounds, so a round ends well
before another gateway could take the job.  One process (no cluster) tends without a lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.cluster.ownership import Lease, Leases
from freezeout.server.table.cashmove import TEND_SECONDS, tend

__all__ = ["TEND_JOB", "Tending", "tend_in_turn"]

log = logging.getLogger(__name__)

TEND_JOB = "~waitlists"  # the job's lease (table ids are "t" and 12 hex digits)


class Tending:
    """Whether this gateway tends now: it holds the job's lease."""

    def __init__(self, leases: Leases) -> None:
        self.leases = leases
        self.lease: Lease | None = None

    @classmethod
    def of(cls, engine: AsyncEngine, name: str, lease_seconds: float) -> Tending:
        """The job's lease for the gateway ``name``: several rounds long (at least ``lease_seconds``)."""
        return cls(Leases(engine, worker=name, ttl=max(lease_seconds, 5 * TEND_SECONDS)))

    async def turn(self) -> bool:
        """Renew the lease held, else try to take it; True while this gateway holds it."""
        lease = self.lease
        if lease is not None:
            lease = await self.leases.renew(lease)
        if lease is None:
            lease = await self.leases.acquire_job(TEND_JOB)
        self.lease = lease
        return lease is not None

    async def release(self) -> None:
        """Give the job up at once (shutting down): another gateway need not wait for it to lapse."""
        lease, self.lease = self.lease, None
        if lease is not None:
            with contextlib.suppress(Exception):
                await self.leases.release(lease)


async def tend_in_turn(room: Any, tending: Tending) -> None:
    """The gateway's loop: each round, tend if this gateway holds the job."""
    while True:
        await asyncio.sleep(TEND_SECONDS)
        try:
            if await tending.turn():
                await tend(room, room.clock.now())
        except Exception:
            log.exception("tending the waiting lists and broken tables failed")
