"""A worker of a cluster: it owns tables and drives them (issue #13, docs/scaling.md).

- **Takes tables** that have no live owner: new ones (a gateway's nudge on
  the ``CLAIMS`` channel wakes it at once) and orphans whose lease expired
  (their worker died), by acquiring the lease row (cluster/ownership.py).  A worker
  with more tables than the least loaded one waits a little before taking a
  new one, so new tables spread over the workers.
- **Rebuilds** each table from the log (``Store.table_entries``) and drives
  the same actor as one process does, with its epoch stamped on every entry:
  the database refuses an entry from a worker that lost the table.  A table
  whose game was running gets a ``resume`` entry carrying how long the table
  had no owner, so its turn keeps the deadlines it had, moved on by the
  outage (nobody pays for it), and offline players get the restart grace.
- **Renews** its leases, and stops driving a table the moment a renewal
  fails or an append is refused (``StaleOwner``): its state may be behind.
- **Hears** the gateways' commands in its inbox and answers through theirs;
  updates go out per table (cluster/workertable.py).  Gateways refresh who follows each
  table; connections of a gateway that stopped refreshing are dropped.
- **Releases** its leases on a clean stop, so that others need not wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from pydantic import ValidationError

from freezeout.server.clock import Clock
from freezeout.server.cluster.bus import CLAIMS, Bus, BusUnavailable, Command, Update, tell_lobby
from freezeout.server.cluster.ownership import Lease, Leases
from freezeout.server.cluster.routing import (
    MOVED,
    REQUEST_PREFIX,
    AddBot,
    Alive,
    Answer,
    AttachConn,
    DetachConn,
    ForConn,
    Host,
    Refresh,
    Request,
    ToOwner,
    decode_command,
    encode_answer,
    owner_update,
)
from freezeout.server.cluster.workertable import OwnedTable
from freezeout.server.metrics import Metrics
from freezeout.server.settings import Settings
from freezeout.server.storage.store import Store
from freezeout.server.table.botseat import BOT_LEVELS
from freezeout.server.table.hosting import run as run_host
from freezeout.server.table.room import idle_tables, seat_cash_bot
from freezeout.server.table.state import Refused
from freezeout.server.tasks import stop_tasks

__all__ = ["Worker"]

log = logging.getLogger(__name__)

_Job = Callable[[], Awaitable[None]]

OUT_BATCH = 256  # updates sent to the bus in one exchange at most
LOBBY_RELIST_SECONDS = 15.0  # how often a worker writes its tables' lobby records again


class Worker:
    def __init__(self, *, name: str, settings: Settings, store: Store, bus: Bus, clock: Clock,
                 metrics: Metrics | None = None) -> None:
        self.name, self.settings, self.store, self.bus, self.clock = name, settings, store, bus, clock
        self.leases = Leases(store.engine, worker=name, ttl=settings.lease_seconds)
        self.metrics = metrics or Metrics("worker")
        self.tables: dict[str, OwnedTable] = {}
        self.held: dict[str, Lease] = {}
        self._out: deque[_Job | Update] = deque()  # what goes out on the bus, in order (_send_forever)
        self._out_ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._claim_now = asyncio.Event()
        self._taking: set[str] = set()
        # Commands for a table being taken: its lease row already names this worker (a gateway
        # routes to it at once) but its actor is still being rebuilt.  Heard once it is.
        self._deferred: dict[str, list[Command]] = {}
        self._answers: set[asyncio.Task[None]] = set()  # HTTP requests being answered
        self._alive: dict[str, float] = {}  # gateway -> when it last said it is alive (monotonic seconds)
        self._load: dict[str, int] = {}  # live leases per worker, as last read (spread_delay)
        self._load_read_at = -float("inf")
        self._renewed_at = time.monotonic()  # the last renewal that the database answered
        self.ready = False  # the first look for tables is done
        self.metrics.gauge("freezeout_tables", lambda: sum(not a.state.private for a in self.tables.values()),
                           "public tables this worker owns (a private one is counted nowhere: issue #37)")

    # -- life ------------------------------------------------------------------
    async def start(self) -> None:
        for level in BOT_LEVELS:  # the bot accounts exist before any table seats one
            await self.store.accounts.ensure(f"bot-{level}", "bot", self.clock.now())
        with contextlib.suppress(BusUnavailable):  # without the nudge, the period still finds new tables
            await self.bus.updates.follow(CLAIMS, lambda _: self._claim_now.set(), timeout=5.0)
        for name, loop in (("outbox", self._send_forever), ("inbox", self._hear_forever),
                           ("claims", self._claim_forever), ("renewals", self._renew_forever),
                           ("sweep", self._sweep_forever)):
            self._tasks.append(asyncio.create_task(loop(), name=f"worker-{name}"))

    async def stop(self, *, release: bool = True) -> None:
        """Stop driving every table; give their leases up unless ``release`` is False (a test's
        crash: the leases then run out as a killed process's would)."""
        await stop_tasks(*self._tasks)
        self._tasks.clear()
        for task in list(self._answers):
            task.cancel()
        for actor in list(self.tables.values()):
            await actor.stop()
        if release:
            for lease in list(self.held.values()):
                with contextlib.suppress(Exception):
                    if await self.leases.release(lease):
                        self.metrics.count("freezeout_lease_changes_total", change="released")
            while self._out:  # what the tables said last still goes out
                await self._send(self._next_batch())
        self.tables.clear()
        self.held.clear()

    # -- the outlet (workertable.Outlet): messages out, in order -----------------------
    def publish(self, update: Update) -> None:
        self._put(update)

    def reply(self, gateway: str, command: Command) -> None:
        command = Command(command.table_id, self.name, command.reply_to, command.body)
        self._put(lambda: self.bus.commands.send(gateway, command))

    def lobby(self, table_id: str, record: bytes | None) -> None:
        self._put(lambda: tell_lobby(self.bus, table_id, record))

    def _put(self, item: _Job | Update) -> None:
        self._out.append(item)
        self._out_ready.set()

    def handled(self, seconds: float) -> None:
        self.metrics.observe_action(seconds)

    async def _send_forever(self) -> None:
        while True:
            await self._out_ready.wait()
            while self._out:
                await self._send(self._next_batch())
            self._out_ready.clear()

    def _next_batch(self) -> list[Update] | _Job:
        """The next job, or the updates at the head of the queue (at most ``OUT_BATCH``): a busy
        worker's updates of one moment go out in one exchange with the bus, still in order."""
        first = self._out.popleft()
        if not isinstance(first, Update):
            return first
        updates = [first]
        while self._out and len(updates) < OUT_BATCH:
            item = self._out[0]
            if not isinstance(item, Update):
                break
            updates.append(item)
            self._out.popleft()
        return updates

    async def _send(self, batch: list[Update] | _Job) -> None:
        try:
            if isinstance(batch, list):
                await self.bus.updates.publish_many(batch)
            else:
                await batch()
        except BusUnavailable as error:  # at most once: a gateway catches up by version
            self.metrics.count("freezeout_bus_dropped_total")
            log.warning("bus: %s", error)
        except Exception:
            log.exception("sending on the bus failed")

    # -- taking tables -------------------------------------------------------------
    async def _claim_forever(self) -> None:
        while True:
            try:
                await self.claim()
            except Exception:
                log.exception("looking for tables to take failed")
            self.ready = True
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.claim_seconds):
                    await self._claim_now.wait()
            if self._claim_now.is_set():
                self._claim_now.clear()
                await asyncio.sleep(await self.spread_delay() + random.uniform(0, 0.01))

    async def spread_delay(self) -> float:
        """How long to let the other workers try a new table first: 20 ms per table this worker
        holds beyond the least loaded live worker (at most 0.25 s), so new tables go to the
        least loaded.  The load (live leases per worker) is read at most once a claim period."""
        now = time.monotonic()
        if now - self._load_read_at >= self.settings.claim_seconds:
            self._load_read_at = now
            try:
                self._load = await self.leases.load()
            except Exception as error:
                log.warning("reading the workers' load failed: %s", error)
        others = [count for worker, count in self._load.items() if worker != self.name]
        excess = len(self.tables) - min(others) if others else 0
        return min(0.25, max(0.0, 0.02 * excess))

    async def claim(self) -> list[str]:
        """Take what tables this worker can of those without a live owner; returns their ids."""
        room = self.settings.worker_max_tables - len(self.tables)
        if room <= 0:
            return []
        candidates = await self.leases.claimable(limit=min(room, 200))
        random.shuffle(candidates)  # workers racing for the same tables collide less
        # Several at once: a dead worker's tables are rebuilt side by side, and their resume
        # entries share the store's group commits (a takeover of many tables is not a queue).
        gate = asyncio.Semaphore(16)

        async def take(table_id: str) -> bool:
            async with gate:
                try:
                    return await self.take(table_id)
                except Exception:
                    log.exception("taking table %s failed", table_id, extra={"table": table_id})
                    return False

        results = await asyncio.gather(*(take(table_id) for table_id in candidates))
        return [table_id for table_id, taken in zip(candidates, results, strict=True) if taken]

    async def take(self, table_id: str) -> bool:
        """Acquire ``table_id`` and start driving it from its log; False if another has it."""
        if table_id in self._taking:
            return False
        self._taking.add(table_id)
        try:
            before = await self.leases.owner(table_id)
            lease = await self.leases.acquire(table_id)
            if lease is None:
                return False
            stale = self.tables.pop(table_id, None)  # this worker's own lease had run out
            if stale is not None:
                await stale.stop()
            self.held[table_id] = lease
            self.metrics.count("freezeout_lease_changes_total", change="acquired")
            outage = self.leases.outage(before, lease)
            log.info("took table %s at epoch %d (outage %s s)", table_id, lease.epoch,
                     "n/a" if outage is None else f"{outage:.3f}", extra={"table": table_id, "epoch": lease.epoch})
            await self._drive(table_id, lease, outage)
            return True
        finally:
            self._taking.discard(table_id)
            for command in self._deferred.pop(table_id, []):
                self.hear(command)

    async def _drive(self, table_id: str, lease: Lease, outage: float | None) -> None:
        # A table withdrawn meanwhile (a gateway that found no worker for it, cluster/gateway.py) is closed
        # before its lease is given up: taken after that, it is seen closed here.
        entries = await self.store.log.table_entries(table_id) if await self.store.log.table_open(table_id) else []
        if not entries:  # closed, or a table row without its first entry: nothing to drive
            await self._drop(table_id, release=True)
            return
        actor = OwnedTable.restore(entries, outlet=self, store=self.store.log, clock=self.clock, settings=self.settings)
        assert isinstance(actor, OwnedTable)
        actor.epoch = lease.epoch
        actor.on_lost = lambda: self._lost(table_id, actor)
        actor.on_handled = self.handled
        if all(slot.kind == "bot" for slot in actor.state.slots) and not self.settings.bot_only_tables:
            log.warning("retiring table %s: it has no place for a human", table_id, extra={"table": table_id})
            await self.store.log.close_table(table_id)
            await self._drop(table_id, release=True)
            return
        self.tables[table_id] = actor
        self.publish(Update(table_id, actor.state.version, owner_update(self.name, lease.epoch)))
        try:
            await actor.resume(outage)
        except Refused as refusal:  # lost already (refused), or the database is away: let it go
            log.warning("table %s: could not resume (%s)", table_id, refusal.message, extra={"table": table_id})
            await self._drop(table_id, release=not actor.lost)
            return
        actor.list_in_lobby(force=True)
        actor.start()

    def _lost(self, table_id: str, actor: OwnedTable) -> None:
        """The database refused the table's entry: another worker owns it now."""
        if self.tables.get(table_id) is actor:
            del self.tables[table_id]
            self.held.pop(table_id, None)
            self.metrics.count("freezeout_lease_changes_total", change="lost")
            log.warning("lost table %s: an append was refused", table_id, extra={"table": table_id})

    async def _drop(self, table_id: str, *, release: bool) -> None:
        actor = self.tables.pop(table_id, None)
        lease = self.held.pop(table_id, None)
        if actor is not None:
            await actor.stop()
        if release and lease is not None:
            with contextlib.suppress(Exception):
                await self.leases.release(lease)
            self.metrics.count("freezeout_lease_changes_total", change="released")

    # -- keeping them ----------------------------------------------------------------
    async def _renew_forever(self) -> None:
        relist_every = max(1, round(LOBBY_RELIST_SECONDS / self.settings.renew_seconds))
        for count in itertools.count(1):
            await asyncio.sleep(self.settings.renew_seconds)
            await self.renew()
            if count % relist_every == 0:
                self.relist()

    def relist(self) -> None:
        """Write every owned table's lobby record again: a Redis that restarted empty has lost
        them, and a quiet table would otherwise stay out of the lobby until its next change."""
        for actor in list(self.tables.values()):
            actor.list_in_lobby(force=True)

    async def renew(self) -> None:
        """Renew every lease (in one statement per thousand tables).  A table whose renewal the
        database refuses (another worker took it) is no longer driven here.  When a renewal
        fails outright (the database away, or an error), the tables are kept while their
        leases may still be live (renewed less than a lease time ago), and renewed again at the
        next period: safety does not depend on it (the fence refuses a stale owner's entry),
        and dropping every table at one failed statement made a busy worker take all of them
        over again, one by one."""
        leases = list(self.held.values())
        try:
            answer = await self.leases.renew_many(leases)
            self._renewed_at = time.monotonic()
        except Exception as error:
            log.warning("renewing %d leases failed: %s", len(leases), error)
            if time.monotonic() - self._renewed_at < self.settings.lease_seconds - self.settings.renew_seconds:
                return
            answer = {}
        for lease in leases:
            table_id = lease.table_id
            if self.held.get(table_id) is not lease:
                continue  # dropped or taken anew meanwhile
            renewed = answer.get(table_id)
            if renewed is None:
                self.metrics.count("freezeout_lease_changes_total", change="lost")
                log.warning("lost table %s: its lease could not be renewed", table_id, extra={"table": table_id})
                await self._drop(table_id, release=False)
            else:
                self.held[table_id] = renewed

    async def _sweep_forever(self, period: float = 60.0) -> None:
        while True:
            await asyncio.sleep(min(period, self.settings.follow_refresh_seconds))
            self.forget_silent_gateways()
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping idle tables failed")

    def forget_silent_gateways(self) -> None:
        """Drop the connections whose gateway has been silent for three refresh periods (it
        died): they are offline (R26).  A connection whose detach was lost goes at its
        gateway's next full refresh, which does not list it."""
        limit = time.monotonic() - 3 * self.settings.follow_refresh_seconds
        for actor in self.tables.values():
            for remote in [r for r in actor.remote.values() if max(r.seen, self._alive.get(r.gateway, 0.0)) < limit]:
                actor.forget(remote.gateway, remote.conn_id)

    async def sweep(self) -> list[str]:
        """Retire idle tables (Room.sweep's rule) and give their leases up."""
        idle = idle_tables(dict(self.tables), self.clock.now(), self.settings)
        for table_id in idle:
            await self.store.log.close_table(table_id)
            self.lobby(table_id, None)
            await self._drop(table_id, release=True)
        return idle

    # -- commands from gateways ------------------------------------------------------------
    async def _hear_forever(self) -> None:
        async for command in self.bus.commands.inbox(self.name):
            try:
                self.hear(command)
            except Exception:
                log.exception("a command for table %s failed", command.table_id, extra={"table": command.table_id})

    def hear(self, command: Command) -> None:
        try:
            order = decode_command(command.body)
        except (ValueError, KeyError, TypeError, ValidationError) as error:  # sealed by a gateway: a bug, not an attack
            log.warning("a malformed command for table %s: %s", command.table_id, error)
            return
        gateway = command.gateway
        if isinstance(order, Alive):  # for every table: the gateway's connections here are still there
            self._alive[gateway] = time.monotonic()
            return
        actor = self.tables.get(command.table_id)
        if actor is None and command.table_id in self._taking:
            self._deferred.setdefault(command.table_id, []).append(command)
            return
        if actor is None or actor.lost:
            self._moved(command, order)
            return
        now = time.monotonic()
        if isinstance(order, ForConn):
            found = actor.remote.get((gateway, order.conn))
            conn = found.conn if found is not None else actor.send_transient(order.user, gateway, order.conn)
            actor.intent(order.user, order.intent, conn)
        elif isinstance(order, AttachConn):
            remote, new = actor.remote_conn(gateway, order.conn, order.user, now)
            if new:
                actor.attach(remote.conn, order.since)
            else:
                actor.send_catchup(remote.conn, order.since)
        elif isinstance(order, DetachConn):
            actor.forget(gateway, order.conn)
        elif isinstance(order, (Request, AddBot, Host)):
            self._background(self._answer(actor, command, order))
        else:
            self._refresh(actor, gateway, order, now)

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on its own, holding the task (the loop keeps only a weak reference)."""
        task = asyncio.create_task(work)
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    def _refresh(self, actor: OwnedTable, gateway: str, refresh: Refresh, now: float) -> None:
        listed = set()
        version = actor.state.version
        for conn_id, user, since in refresh.conns:
            listed.add(conn_id)
            remote, new = actor.remote_conn(gateway, conn_id, user, now)
            if new:
                actor.attach(remote.conn, since)
            elif (since is None or since < version) and since == remote.reported:
                # Behind, and no further than at the last refresh: a reply or an update was lost
                # on the way (one still in flight would have moved it on).
                actor.send_catchup(remote.conn, since)
            remote.reported = since
        for key in [k for k in actor.remote if k[0] == gateway and k[1] not in listed]:
            actor.forget(*key)

    async def _answer(self, actor: OwnedTable, command: Command, request: Request | AddBot | Host) -> None:
        try:
            if isinstance(request, Host):  # a private table's creator (table/hosting.py)
                if request.user is None:
                    raise Refused("forbidden", "log in first")
                answer = Answer(summary=await run_host(actor, request.user, request.name, request.args))
            elif isinstance(request, AddBot):
                if request.user is None:
                    raise Refused("forbidden", "log in to add a bot")
                answer = Answer(summary=await seat_cash_bot(actor, request.user, request.level))
            elif request.intent is None:
                answer = Answer(summary=actor.summary())
            else:
                answer = Answer(summary=await actor.request(request.user, request.intent))
        except Refused as refusal:
            answer = Answer(error=(refusal.code, refusal.message))
        self.reply(command.gateway, Command(command.table_id, "", REQUEST_PREFIX + request.req, encode_answer(answer)))

    def _moved(self, command: Command, order: ToOwner) -> None:
        """This worker does not own the table (any more): the gateway must route again."""
        if isinstance(order, (Request, AddBot, Host)):
            answer = Answer(error=("busy", "the table is moving to another server: try again in a moment"))
            self.reply(command.gateway, Command(command.table_id, "", REQUEST_PREFIX + order.req, encode_answer(answer)))
        self.reply(command.gateway, Command(command.table_id, "", MOVED, b"{}"))

    def readiness(self) -> dict[str, Any]:
        return {"worker": self.name, "ready": self.ready,
                "tables": {t: self.held[t].epoch for t in sorted(self.tables)
                           if t in self.held and not self.tables[t].state.private}}  # a private table's id is not told
