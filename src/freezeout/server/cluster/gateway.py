"""A gateway of a cluster: connections and HTTP, no game state (issue #13, docs/scaling.md).

``GatewayRoom`` stands where one process has its ``Room``: the WebSocket
endpoint and the HTTP API use it unchanged.  A table here is a
``RemoteTable``: it sends each connection's join, moves and leave to the
table's owner (the worker named by the table's lease row, cluster/ownership.py) and
hands each of its connections the owner's updates, each connection the text
of its own seat.  Commands for one table go out in order, through one lane
per table, so that a table whose owner is changing waits alone.

Versions keep every connection whole whatever the bus loses: a connection
holds the version it has seen, takes an update only if it is the next one,
and on a gap asks the owner for a catch-up (``attach`` again, with ``since``);
every ``follow_refresh_seconds`` the gateway tells each owner it is alive,
and every few periods which connections follow each of its tables and what
each has seen, so that a new owner learns its followers and a lost snapshot
is sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from freezeout.rules.games import HOUSE_GAME
from freezeout.server.clock import Clock
from freezeout.server.cluster.bus import (
    CLAIMS,
    LOBBY,
    Bus,
    BusUnavailable,
    Command,
    Update,
    decode_lobby_change,
    tell_lobby,
)
from freezeout.server.cluster.ownership import Lease, Leases
from freezeout.server.cluster.routing import (
    EVICTED,
    MOVED,
    REQUEST_PREFIX,
    AddBot,
    Alive,
    Answer,
    AttachConn,
    ChatText,
    DetachConn,
    ForConn,
    Host,
    OwnerChanged,
    PresenceText,
    Refresh,
    Request,
    TableTexts,
    ToOwner,
    decode_answer,
    decode_update,
    encode_command,
    versioned,
)
from freezeout.server.cluster.tending import Tending, tend_in_turn
from freezeout.server.cluster.workertable import lobby_record
from freezeout.server.metrics import Metrics
from freezeout.server.settings import Settings
from freezeout.server.storage.store import Store, UserRow
from freezeout.server.table.botseat import BOT_LEVELS
from freezeout.server.table.chat import audience
from freezeout.server.table.fanout import table_summary
from freezeout.server.table.handle import Conn
from freezeout.server.table.room import Room, paginate
from freezeout.server.table.state import Refused, initial_state
from freezeout.server.tasks import Batched, stop_tasks
from freezeout.server.transport.protocol import Intent, Sit, error_text

__all__ = ["GatewayRoom", "RemoteTable"]

log = logging.getLogger(__name__)

_TABLE_ID = re.compile(r"t[0-9a-f]{12}")
_PENDING_LIMIT = 256  # updates a connection may hold while it waits for its snapshot
# Every follow_refresh_seconds a gateway tells each owner it is alive (one command per worker);
# every this many periods it tells each table's owner who follows it here (one per table).
FULL_REFRESH_EVERY = 5


@dataclass(eq=False)
class _Follower:
    conn: Conn
    conn_id: str
    synced: int | None = None  # the version this connection has been brought to
    pending: list[tuple[int, str]] = field(default_factory=list)  # updates that came before their turn
    resyncing: bool = False


Fail = Callable[[Refused], None]


@dataclass
class _Lane:
    # A command for the owner, or None: stop following the table here (if nobody follows it any more).
    queue: deque[tuple[ToOwner | None, Fail | None]] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None  # held here: the loop keeps only a weak reference


def _summary_of(record: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: dict(record["summary"])


def _of(summary: dict[str, Any], format: str | None, game: str | None) -> bool:
    """Whether a lobby record's table is of ``format`` and ``game`` (None: any); a record
    without ``table_game`` (an older owner's) is a freezeout of the house game."""
    table_game = summary.get("table_game") or {}
    return ((format is None or table_game.get("format", "freezeout") == format)
            and (game is None or table_game.get("code", HOUSE_GAME) == game))


class RemoteTable:
    """A table as a gateway sees it: its connections here, and the way to its owner
    (a table.handle.TableHandle, as the local actor is)."""

    def __init__(self, room: GatewayRoom, table_id: str) -> None:
        self.room, self.id = room, table_id
        self.followers: dict[Conn, _Follower] = {}
        self.following = False  # subscribed to the table's updates
        self.last_summary: dict[str, Any] | None = None
        self.invite: str | None = None  # a private table opened here: its first secret, told to its creator

    @property
    def conns(self) -> list[Conn]:
        return list(self.followers)

    def summary(self) -> dict[str, Any]:
        return self.last_summary or {"id": self.id}

    # -- what transport/ws.py and transport/api.py call ---------------------------------------------
    def attach(self, conn: Conn, since: int | None = None) -> None:
        follower = _Follower(conn, self.room.new_conn_id())
        self.followers[conn] = follower
        self.room.followers[follower.conn_id] = (self, follower)
        self.room.send(self.id, AttachConn(follower.conn_id, conn.user, since), self._failed_join(conn))

    def detach(self, conn: Conn) -> None:
        follower = self.followers.pop(conn, None)
        if follower is None:
            return
        self.room.followers.pop(follower.conn_id, None)
        self.room.send(self.id, DetachConn(follower.conn_id), None)
        if not self.followers:
            self.room.send(self.id, None, None)

    def intent(self, user: UserRow | None, intent: Intent, conn: Conn | None = None) -> None:
        follower = self.followers.get(conn) if conn is not None else None
        conn_id = follower.conn_id if follower is not None else self.room.new_conn_id()
        ref = intent.id

        def failed(refusal: Refused) -> None:
            if conn is not None:
                conn.send(error_text(refusal.code, refusal.message, ref))

        self.room.send(self.id, ForConn(conn_id, user, intent), failed)

    async def request(self, user: UserRow | None, intent: Intent) -> dict[str, Any]:
        summary = await self.room.request(self.id, user, intent)
        self.last_summary = summary
        return summary

    def evict(self, follower: _Follower, told: str) -> None:
        """The owner put the connection out (a private table's link renewed since it joined by
        it, table/actor.py): it follows the table no more, and its socket is told, as in one process."""
        conn = follower.conn
        conn.evicted = True
        self.detach(conn)
        conn.send(told)

    def _failed_join(self, conn: Conn) -> Fail:
        def failed(refusal: Refused) -> None:
            if refusal.code == "not_found":
                self.detach(conn)
            conn.send(error_text(refusal.code, refusal.message))

        return failed

    # -- from the owner ----------------------------------------------------------
    def deliver(self, update: Update) -> None:
        """An update published by the table's owner (the bus calls this; it must not block)."""
        news = decode_update(update.body)
        if isinstance(news, OwnerChanged):
            self.room.rerouted(self.id)
        elif isinstance(news, PresenceText):
            for follower in list(self.followers.values()):
                if follower.synced is not None:
                    follower.conn.send(news.text)
        elif isinstance(news, ChatText):  # a chat line: to the followers of its room (table/chat.py)
            for follower in list(self.followers.values()):
                user = follower.conn.user
                user_id = user.id if user else None
                if follower.synced is not None and audience(news.room, news.players, user_id, news.muted):
                    follower.conn.send(news.text)
        elif isinstance(news, TableTexts):
            seats, texts = news.seats, news.texts
            for follower in list(self.followers.values()):
                user = follower.conn.user
                seat = seats.get(str(user.id)) if user is not None else None
                self._offer(follower, update.version, texts["-" if seat is None else str(seat)])

    def _offer(self, follower: _Follower, version: int, text: str) -> None:
        if follower.synced is None or follower.resyncing:
            follower.pending.append((version, text))
            if len(follower.pending) > _PENDING_LIMIT:  # catching up from the owner is cheaper
                follower.pending.clear()
                self._resync(follower)
            return
        if version <= follower.synced:
            return
        if version == follower.synced + 1:
            follower.conn.send(text)
            follower.synced = version
            return
        follower.pending.append((version, text))  # a gap: an update was lost on the way
        self._resync(follower)

    def _resync(self, follower: _Follower) -> None:
        follower.resyncing = True
        self.room.send(self.id, AttachConn(follower.conn_id, follower.conn.user, follower.synced), None)

    def direct(self, follower: _Follower, data: bytes) -> None:
        """A message the owner sent to one connection: a snapshot or catch-up moves its version."""
        found = versioned(data)
        text = data.decode()
        if found is None:
            follower.conn.send(text)
            return
        # A catch-up holds the events after its ``since``: it fits only a connection at that version
        # (two may be on their way: a resync's and a refresh's).  A snapshot fits any.
        fits = found.since is None or follower.synced is None or found.since == follower.synced
        if fits and (follower.synced is None or found.version > follower.synced):
            follower.conn.send(text)
            follower.synced = found.version
        elif not fits:
            return  # another catch-up (or the next refresh's) brings this connection on
        follower.resyncing = False
        synced = follower.synced
        assert synced is not None  # set above, or already
        pending, follower.pending = sorted(follower.pending, key=lambda p: p[0]), []
        for index, (version, queued) in enumerate(pending):
            if version <= synced:
                continue
            if version != synced + 1:
                follower.pending = pending[index:]
                self._resync(follower)
                return
            follower.conn.send(queued)
            follower.synced = synced = version

    def refresh_command(self) -> Refresh:
        return Refresh(tuple((f.conn_id, f.conn.user, f.synced) for f in self.followers.values()))


class GatewayRoom(Room):
    def __init__(self, *, name: str, settings: Settings, store: Store, clock: Clock, bus: Bus,
                 metrics: Metrics | None = None) -> None:
        super().__init__(settings=settings, store=store, clock=clock)
        self.name, self.bus = name, bus
        self.leases = Leases(store.engine, worker=name, ttl=settings.lease_seconds)  # read only: routing
        self.tending = Tending.of(store.engine, name, settings.lease_seconds)  # one gateway at a time tends the lists
        self.metrics = metrics or Metrics("gateway")
        self.remote: dict[str, RemoteTable] = {}
        self.followers: dict[str, tuple[RemoteTable, _Follower]] = {}  # conn id -> its table and state
        self._routes: dict[str, Lease] = {}
        self._lanes: dict[str, _Lane] = {}
        self._requests: dict[str, asyncio.Future[Answer]] = {}
        # A table's lease row, read together with every other lookup of the same moment in one
        # statement: thousands of connections joining at once would otherwise each take a pooled
        # database connection for one row (the 10,000-player run exhausted the pool).
        self._look_up = Batched(self._look_up_together, most=1000, name="gateway-routes")
        self._lobby: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count()
        self._prefix = secrets.token_hex(3)
        self._tasks: list[asyncio.Task[None]] = []
        self.lobby.polled = False  # told of changes by the bus (hear_lobby)
        self.ready = False

    def new_conn_id(self) -> str:
        return f"{self._prefix}{next(self._ids)}"

    # -- life --------------------------------------------------------------------
    async def open(self) -> None:
        for level in BOT_LEVELS:
            self.bots[level] = await self.store.accounts.ensure(f"bot-{level}", "bot", self.clock.now())
        with contextlib.suppress(BusUnavailable):  # registered anyway: followed once the bus is back
            await self.bus.updates.follow(LOBBY, self.hear_lobby, timeout=self.settings.route_timeout_seconds)
        self.lobby.start()
        for name, loop in (("inbox", self._hear_forever), ("refresh", self._refresh_forever),
                           ("lobby", self._lobby_forever), ("waitlists", self._tend_forever)):
            self._tasks.append(asyncio.create_task(loop(), name=f"gateway-{name}"))

    async def close(self) -> None:
        await self.lobby.stop()
        lanes = [lane.task for lane in self._lanes.values() if lane.task is not None]
        await stop_tasks(*self._tasks, *lanes)
        await self.tending.release()
        await self._look_up.close()

    async def sweep(self) -> list[str]:
        return []  # the owners retire idle tables (cluster/worker.py)

    async def _tend_forever(self) -> None:
        await tend_in_turn(self, self.tending)  # while this gateway holds the job (cluster/tending.py)

    # -- the room's interface (transport/ws.py, transport/api.py) ---------------------------------------
    def get(self, table_id: str) -> RemoteTable:
        if not _TABLE_ID.fullmatch(table_id):
            raise Refused("not_found", f"no table {table_id!r}")
        table = self.remote.get(table_id)
        if table is None:
            table = self.remote[table_id] = RemoteTable(self, table_id)
        return table

    async def summary(self, table_id: str) -> dict[str, Any]:
        table = self.get(table_id)
        table.last_summary = await self.request(table_id, None, None)
        return table.last_summary

    def listing(self, status: str | None = None, *, limit: int = 50, after: str | None = None,
                format: str | None = None, game: str | None = None, private: bool = False,
                ) -> tuple[list[dict[str, Any]], str | None]:
        """The lobby as the owners last wrote it (told by the bus, re-read every ``lobby_refresh_seconds``),
        of one ``format`` and ``game`` if asked, ``private`` tables too if asked (as Room.listing)."""
        found: list[tuple[float, str, Callable[[], dict[str, Any]]]] = [
            (float(r["summary"]["created_at"]), table_id, _summary_of(r)) for table_id, r in self._lobby.items()
            if (private or not r["summary"].get("private")) and (status is None or r["summary"]["status"] == status)
            and _of(r["summary"], format, game)]
        return paginate(found, limit=limit, after=after)

    def _open_tables(self, creator: UserRow, address: str | None) -> tuple[int, int]:
        mine = here = 0
        for table_id, record in self._lobby.items():
            if record["summary"]["status"] in ("finished", "closed"):
                continue
            mine += record.get("created_by") == creator.id
            here += address is not None and self._created.get(table_id) == address
        return mine, here

    async def create(self, creator: UserRow, slots: list[str | None], *, ranked: bool, sit: bool,  # type: ignore[override]
                     address: str | None = None, game: str | None = None, format: str | None = None,
                     cash: dict[str, Any] | None = None, private: bool = False, approval: bool = False,
                     ) -> RemoteTable:
        """Open a table: its first entry is written here (no owner yet: no epoch), a nudge tells
        the workers, one takes it, and the creator's seat is asked of that owner (a cash table
        opens empty: Room.create)."""
        entry = self.new_table(creator, slots, ranked=ranked, sit=sit, address=address, game=game, format=format,
                               cash=cash, private=private, approval=approval)
        table_id = entry.table_id
        await self.store.log.create_table(table_id, entry)
        if address is not None:
            self._created[table_id] = address
        state = initial_state(entry)
        summary = table_summary(state)
        record = lobby_record(state, summary)
        self._lobby[table_id] = orjson.loads(record)
        self.lobby.changed()
        with contextlib.suppress(BusUnavailable):
            await tell_lobby(self.bus, table_id, record)
        with contextlib.suppress(BusUnavailable):
            await self.bus.updates.publish(Update(CLAIMS, 0, table_id.encode()))
        table = self.get(table_id)
        table.last_summary, table.invite = summary, state.invite
        if sit:
            try:
                await table.request(creator, Sit(type="sit"))
            except Refused as refusal:
                if refusal.code == "busy" and await self.withdraw(table_id):
                    raise Refused("busy", "no server can take a new table right now: try again in a moment") from None
                raise
        return table

    async def withdraw(self, table_id: str) -> bool:
        """Close a new table that no worker has taken (none is running, or none answers), so that
        a refused creation leaves nothing behind; False if a worker holds it after all (it plays
        on, and its owner retires it once idle).  The gateway holds the table's lease while it
        closes it: no worker can take it meanwhile, and one that takes it afterwards finds it
        closed (cluster/worker.py)."""
        lease = await self.leases.acquire(table_id)
        if lease is None:
            return False
        try:
            await self.store.log.close_table(table_id)
        finally:
            await self.leases.release(lease)
        self._lobby.pop(table_id, None)
        self._created.pop(table_id, None)
        self.lobby.changed()
        with contextlib.suppress(BusUnavailable):
            await tell_lobby(self.bus, table_id, None)
        log.warning("withdrew new table %s: no worker took it", table_id, extra={"table": table_id})
        return True

    async def request(self, table_id: str, user: UserRow | None, intent: Intent | None) -> dict[str, Any]:
        """Ask the table's owner to apply ``intent`` (None: nothing) and wait for its answer (the
        summary), or :class:`Refused`."""
        request_id = self.new_conn_id()
        return await self._ask(table_id, request_id, Request(request_id, user, intent))

    async def add_cash_bot(self, table_id: str, user: UserRow, level: str) -> dict[str, Any]:
        """A cash table's "add a bot" (Room.add_cash_bot): the table's owner seats it
        (table/room.py ``seat_cash_bot``) and answers with the summary, or :class:`Refused`."""
        if level not in self.bots:
            raise Refused("bad_message", f"unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}")
        request_id = self.new_conn_id()
        return await self._ask(table_id, request_id, AddBot(request_id, user, level))

    async def host(self, table_id: str, user: UserRow, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """A private table's creator's request (Room.host): the table's owner runs it (table/hosting.py)."""
        request_id = self.new_conn_id()
        return await self._ask(table_id, request_id, Host(request_id, user, op, args))

    async def _ask(self, table_id: str, request_id: str, command: Request | AddBot | Host) -> dict[str, Any]:
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._requests[request_id] = future

        def failed(refusal: Refused) -> None:
            if not future.done():
                future.set_exception(refusal)

        self.send(table_id, command, failed)
        try:
            async with asyncio.timeout(2 * self.settings.route_timeout_seconds):
                answer = await future
        except TimeoutError:
            raise Refused("busy", "the table's server did not answer: try again in a moment") from None
        finally:
            self._requests.pop(request_id, None)
        if answer.error is not None:
            raise Refused(*answer.error)
        assert answer.summary is not None
        return answer.summary

    # -- lanes: commands to owners, one table in order ------------------------------------
    def send(self, table_id: str, command: ToOwner | None, failed: Fail | None) -> None:
        """Send ``command`` to the table's owner in order after the table's earlier ones (None:
        stop following the table if nobody here does any more); ``failed`` hears a refusal."""
        lane = self._lanes.get(table_id)
        if lane is None:
            lane = self._lanes[table_id] = _Lane()
            lane.task = asyncio.create_task(self._run_lane(table_id, lane), name=f"lane-{table_id}")
        lane.queue.append((command, failed))

    async def _run_lane(self, table_id: str, lane: _Lane) -> None:
        try:
            while lane.queue:
                command, failed = lane.queue.popleft()
                try:
                    await self._carry(table_id, command)
                except (Refused, BusUnavailable) as error:
                    refusal = error if isinstance(error, Refused) else Refused("busy", "the room cannot reach the table right now: try again")
                    if failed is not None:
                        failed(refusal)
                    else:
                        log.info("table %s: %s not sent: %s", table_id, type(command).__name__, error, extra={"table": table_id})
                except Exception:
                    log.exception("table %s: sending a command failed", table_id, extra={"table": table_id})
        finally:
            if self._lanes.get(table_id) is lane:
                del self._lanes[table_id]

    async def _carry(self, table_id: str, command: ToOwner | None) -> None:
        timeout = self.settings.route_timeout_seconds
        table = self.remote.get(table_id)
        if command is None:
            if table is not None and table.following and not table.followers:
                table.following = False
                await self.bus.updates.unfollow(table_id, table.deliver)
                if self.remote.get(table_id) is table and not table.followers:
                    del self.remote[table_id]
            return
        if table is not None and table.followers and not table.following:
            table.following = True  # registered now: the subscriber picks it up even after a timeout
            await self.bus.updates.follow(table_id, table.deliver, timeout=timeout)
        worker = await self._route(table_id)
        await self.bus.commands.send(worker, Command(table_id, self.name, "", encode_command(command)))
        self.metrics.count("freezeout_commands_total")

    async def _route(self, table_id: str) -> str:
        """The worker that owns ``table_id``; waits (bounded) while nobody does (a takeover)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.route_timeout_seconds
        while True:
            lease = self._routes.get(table_id)
            if lease is None or lease.expires_at <= time.time():
                lease = await self._look_up(table_id)
                if lease is not None:
                    self._routes[table_id] = lease
            if lease is not None and lease.expires_at > time.time():
                return lease.worker
            if lease is None and not await self.store.log.table_open(table_id):
                raise Refused("not_found", f"no table {table_id!r}")
            if loop.time() > deadline:
                raise Refused("busy", "no server holds the table right now: try again in a moment")
            await asyncio.sleep(0.05)

    async def _look_up_together(self, table_ids: list[str]) -> list[Lease | None]:
        found = await self.leases.owners(list(dict.fromkeys(table_ids)))
        return [found.get(table_id) for table_id in table_ids]

    def rerouted(self, table_id: str) -> None:
        """The table has a new owner (or the old one says it is not): route anew, and tell the
        new owner at once who follows the table here."""
        self._routes.pop(table_id, None)
        table = self.remote.get(table_id)
        if table is not None and table.followers:
            self.send(table_id, table.refresh_command(), None)

    # -- from owners ----------------------------------------------------------------------
    async def _hear_forever(self) -> None:
        self.ready = True
        async for command in self.bus.commands.inbox(self.name):
            try:
                self.hear(command)
            except Exception:
                log.exception("a reply for table %s failed", command.table_id, extra={"table": command.table_id})

    def hear(self, command: Command) -> None:
        reply_to = command.reply_to
        if reply_to.startswith(REQUEST_PREFIX):
            future = self._requests.get(reply_to[len(REQUEST_PREFIX):])
            if future is not None and not future.done():
                future.set_result(decode_answer(command.body))
        elif reply_to == MOVED:
            self.rerouted(command.table_id)
        elif reply_to.startswith(EVICTED):
            found = self.followers.get(reply_to[len(EVICTED):])
            if found is not None:
                found[0].evict(found[1], command.body.decode())
        else:
            found = self.followers.get(reply_to)
            if found is not None:
                found[0].direct(found[1], command.body)

    async def _refresh_forever(self) -> None:
        for count in itertools.count(1):
            await asyncio.sleep(self.settings.follow_refresh_seconds)
            try:
                await self.refresh(full=count % FULL_REFRESH_EVERY == 0)
            except Exception as error:
                log.warning("refreshing the followed tables failed: %s", error)

    async def refresh(self, *, full: bool = True) -> None:
        """Re-read the routes of the followed tables and tell each of their owners that this
        gateway is alive (its connections there stay online); with ``full``, tell each table's
        owner who follows it here instead, which repairs a lost attach, detach or snapshot.
        A full refresh is one command per followed table, so it runs only every
        ``FULL_REFRESH_EVERY`` periods (and at once for a table whose owner changed)."""
        followed = [t for t in self.remote.values() if t.followers]
        self._routes.update(await self.leases.owners([t.id for t in followed]))
        if full:
            for table in followed:
                self.send(table.id, table.refresh_command(), None)
            return
        owners = {self._routes[t.id].worker for t in followed if t.id in self._routes}
        for worker in sorted(owners):
            with contextlib.suppress(BusUnavailable):
                await self.bus.commands.send(worker, Command("", self.name, "", encode_command(Alive())))

    def hear_lobby(self, update: Update) -> None:
        """A table's lobby record changed (published by its owner): the watchers hear of it."""
        table_id, record = decode_lobby_change(update)
        if record is None:
            self._lobby.pop(table_id, None)
        else:
            self._lobby[table_id] = orjson.loads(record)
        self.lobby.changed()

    async def _lobby_forever(self) -> None:
        """Read the whole lobby now and then: it repairs a change the bus lost on the way."""
        while True:
            try:
                records = await self.bus.lobby.records()
                self._lobby = {table_id: orjson.loads(record) for table_id, record in records.items()}
                self.lobby.changed()
            except BusUnavailable as error:
                log.warning("lobby: %s", error)
            await asyncio.sleep(self.settings.lobby_refresh_seconds)

    def readiness(self) -> dict[str, Any]:
        return {"gateway": self.name, "ready": self.ready, "followed_tables": sum(1 for t in self.remote.values() if t.followers),
                "connections": len(self.followers)}
