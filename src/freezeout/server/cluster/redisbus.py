"""The bus (cluster/bus.py's interfaces) on Redis, for a room of many processes.

- Commands: a Redis **stream** per worker (``fz:inbox:{worker}``), read
  through a consumer group with ``NOACK``.  A stream keeps what arrives
  while the worker reconnects (a blip must not drop every move in flight);
  the group keeps the read position *in Redis, beside the stream*, so when
  Redis restarts empty the reader gets ``NOGROUP``, makes a new group from
  the start of the new stream and misses nothing sent after the restart.
  Inboxes are capped (``MAXLEN ~``) and expire when idle.
- Updates: **pub/sub** per table (``fz:table:{id}``).  Updates fan out to
  every gateway following a table, cost nothing for tables nobody follows,
  and need no per-reader position; one lost is seen as a gap in versions
  and caught up from the log (cluster/bus.py), so a stream's durability would buy
  nothing here.
- The lobby: a **hash** of each open table's record (``fz:lobby``), its
  changes also published on the lobby's channel (bus.tell_lobby).

Every value written is **sealed** (cluster/sealing.py): a command, an update and a
lobby record open only for a holder of the cluster's bus secret, at their
destination, and a command only once and only while fresh.  A reader of
Redis sees no hole card and cannot forge or replay a command; a frame that
does not open is dropped with a warning (at most one a second, with the
count since) and counted (``refusals``).  Redis itself is reached as a user
of its own (ACL) per role, over TLS with ``rediss://`` (docs/scaling.md).

Every reader reconnects by itself, with backoff, for as long as it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import struct
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from freezeout.server.cluster.bus import Bus, BusUnavailable, Command, Deliver, Update
from freezeout.server.cluster.sealing import ReplayGuard, Seal, Unsealable
from freezeout.server.tasks import Batched, stop_tasks

__all__ = [
    "RedisBus", "RedisCommands", "RedisLobby", "RedisUpdates", "connect", "inbox_key", "pack_command", "probe",
    "table_channel", "unpack_command",
]

log = logging.getLogger(__name__)

_LOST = (RedisConnectionError, RedisTimeoutError, OSError)  # Redis unreachable, as opposed to a refused command
_GROUP = "owner"


SEND_BATCH = 512  # commands in one pipeline at most
POOL_SIZE = 64  # connections per process; more commands in flight wait for one (POOL_WAIT_SECONDS)
POOL_WAIT_SECONDS = 5.0
HEALTH_CHECK_SECONDS = 10
PROBE_SECONDS = 1.0  # a /readyz's look at Redis: an answer within this, or the bus is down


def connect(url: str) -> Redis:
    """A client that retries a command across a short outage (a few seconds) before giving
    up; the readers below outlive longer ones by reconnecting themselves.

    Its pool is bounded and *waits* for a free connection: a gateway sends the commands of
    hundreds of tables at once, and redis-py's default pool refuses the 101st command in
    flight at once ("Too many connections", seen by bench/load.py --cluster at 2,000
    players) instead of queueing it behind the others."""
    tcp: dict[str, Any] = {} if url.startswith("unix:") else {"socket_keepalive": True}
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=POOL_SIZE,
        timeout=POOL_WAIT_SECONDS,
        retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=1.0), retries=6),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        socket_connect_timeout=2.0,
        # A Redis that stops answering (stopped, partitioned) must not hold a command for ever;
        # the inbox's blocking read is shorter than this (RedisCommands.block_ms).
        socket_timeout=15.0,
        # Below the server's idle timeout (localservers.REDIS_IDLE_SECONDS): a pooled connection
        # idle for longer is pinged (and replaced if Redis closed it) before it carries a command.
        health_check_interval=HEALTH_CHECK_SECONDS,
        **tcp,
    )
    return Redis.from_pool(pool)


def probe(url: str) -> Redis:
    """A client for :meth:`RedisBus.reachable`: one try (and one more on a fresh connection, for
    one Redis closed while idle), short timeouts, no pool shared with the bus's traffic."""
    return Redis.from_url(url, socket_connect_timeout=PROBE_SECONDS, socket_timeout=PROBE_SECONDS,
                          retry=Retry(NoBackoff(), retries=1), retry_on_error=[RedisConnectionError, RedisTimeoutError])


def inbox_key(worker: str) -> str:
    return f"fz:inbox:{worker}"


def table_channel(table_id: str) -> str:
    return f"fz:table:{table_id}"


_LENGTHS = struct.Struct(">HHH")


def pack_command(command: Command) -> bytes:
    """A command's fields as one byte string (sealed whole: whatever the body holds)."""
    table_id, gateway, reply_to = (command.table_id.encode(), command.gateway.encode(), command.reply_to.encode())
    return _LENGTHS.pack(len(table_id), len(gateway), len(reply_to)) + table_id + gateway + reply_to + command.body


def unpack_command(data: bytes) -> Command:
    sizes = _LENGTHS.unpack_from(data)
    fields, at = [], _LENGTHS.size
    for size in sizes:
        fields.append(data[at:at + size].decode())
        at += size
    return Command(fields[0], fields[1], fields[2], data[at:])


class _Refusals:
    """Frames that did not open: counted, and logged at most once a second (a flood of forged
    frames must not flood the log too)."""

    def __init__(self, what: str, on_refused: Callable[[str], None] | None = None) -> None:
        self.what, self.count, self._logged_at, self._unlogged = what, 0, -float("inf"), 0
        self.on_refused = on_refused  # e.g. a metric: a forged frame is an attack to be seen

    def refused(self, where: str, error: Unsealable) -> None:
        self.count += 1
        if self.on_refused is not None:
            self.on_refused(self.what)
        self._unlogged += 1
        now = time.monotonic()
        if now - self._logged_at >= 1.0:
            log.warning("refused a %s on %s: %s (%d refused since the last such line)",
                        self.what, where, error, self._unlogged)
            self._logged_at, self._unlogged = now, 0


class _Backoff:
    """Waits that double from ``base`` to ``cap`` while Redis stays away; reset on success."""

    def __init__(self, base: float = 0.05, cap: float = 2.0) -> None:
        self.base, self.cap, self.delay = base, cap, base

    def reset(self) -> None:
        self.delay = self.base

    async def wait(self) -> None:
        await asyncio.sleep(self.delay)
        self.delay = min(self.cap, self.delay * 2)


class RedisCommands:
    """bus.Commands on one Redis stream per worker, each command sealed for its inbox: a
    forged, tampered, stale or replayed one is refused (logged, counted, no effect)."""

    def __init__(self, client: Redis, seal: Seal, *, max_inbox: int = 10_000, idle_seconds: int = 3600,
                 block_ms: int = 5000) -> None:
        self.client, self.max_inbox, self.idle_seconds, self.block_ms = client, max_inbox, idle_seconds, block_ms
        self.seal = seal
        self.replays = ReplayGuard(seal.max_age)
        self.refusals = _Refusals("command")
        self._send = Batched(self._send_together, most=SEND_BATCH, name="redis-commands")

    async def send(self, worker: str, command: Command) -> None:
        """Returns once Redis has the command.  The sends of one turn of the event loop (a
        gateway carrying the moves of many tables) go to Redis together, in one pipeline:
        a round trip each cost more CPU than anything else the gateway did per move."""
        await self._send((worker, command))

    async def _send_together(self, batch: list[tuple[str, Command]]) -> list[None]:
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for worker, command in batch:
                    fields: dict[str | bytes | int | float, str | bytes | int | float] = {
                        "s": self.seal.seal(b"command", worker, pack_command(command))}
                    pipe.xadd(inbox_key(worker), fields, maxlen=self.max_inbox, approximate=True)  # type: ignore[arg-type]
                for key in dict.fromkeys(inbox_key(worker) for worker, _ in batch):
                    pipe.expire(key, self.idle_seconds)  # an inbox nobody writes to goes
                await pipe.execute()
        except _LOST as exc:
            raise BusUnavailable(f"cannot reach Redis to send {len(batch)} commands: {exc}") from exc
        return [None] * len(batch)

    async def _ensure_group(self, key: str) -> None:
        try:
            await self.client.xgroup_create(key, _GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):  # the group exists: keep its position
                raise

    async def inbox(self, worker: str) -> AsyncIterator[Command]:
        key, backoff = inbox_key(worker), _Backoff()
        while True:
            try:
                await self._ensure_group(key)
                while True:
                    batches: Any = await self.client.xreadgroup(_GROUP, worker, {key: ">"}, count=256,
                                                           block=self.block_ms, noack=True)
                    backoff.reset()
                    for _stream, entries in batches or ():
                        for _id, fields in entries:
                            try:
                                payload = self.seal.open(b"command", worker, fields.get(b"s", b""), replays=self.replays)
                            except Unsealable as error:  # forged, tampered, replayed or stale: no effect
                                self.refusals.refused(key, error)
                                continue
                            yield unpack_command(payload)
            except ResponseError as exc:
                # NOGROUP: the stream is gone (Redis restarted, or the inbox expired); UNBLOCKED: it
                # went while this reader waited on it.  Either way, make it anew and read on.
                if "NOGROUP" not in str(exc) and "UNBLOCKED" not in str(exc):
                    raise
                log.warning("inbox %s was reset (Redis restarted or the inbox expired): reading it anew", key)
            except _LOST as exc:
                log.warning("inbox %s: Redis unreachable (%s), reconnecting", key, exc)
                await backoff.wait()


class RedisUpdates:
    """bus.Updates on Redis pub/sub: one subscriber connection per process, re-subscribed to
    every followed table after a reconnect.  ``start`` before use, ``close`` after.  Each
    update is sealed for its table's channel (a stale or forged one is dropped: a replayed
    one is older than what a follower has, and versions drop it)."""

    def __init__(self, client: Redis, seal: Seal) -> None:
        self.client, self.seal = client, seal
        self.refusals = _Refusals("update")
        self._followers: dict[str, list[Deliver]] = {}
        self._subscribed: dict[str, asyncio.Event] = {}  # per followed table: Redis confirmed the subscription
        # Per followed table: SUBSCRIBEs sent and not confirmed yet.  A follow, unfollow and
        # follow in quick succession send SUBSCRIBE, UNSUBSCRIBE, SUBSCRIBE: the first
        # confirmation must not tell the second follower it is subscribed (it is not, until the
        # second SUBSCRIBE is processed), so the event is set only when none is outstanding.
        self._pending: dict[str, int] = {}
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        # A channel of this process alone: a PubSub must be subscribed to something to be read.
        self._own_channel = f"fz:bus:{secrets.token_hex(8)}"

    def start(self) -> None:
        self._reader = asyncio.create_task(self._read_forever(), name="redis-updates")

    @property
    def connected(self) -> bool:
        """The subscriber is connected (subscribed to the followed tables, or subscribing)."""
        return self._pubsub is not None

    async def close(self) -> None:
        await stop_tasks(self._reader)

    def _encode(self, update: Update) -> bytes:
        return self.seal.seal(b"update", update.table_id, b"%d " % update.version + update.body)

    def _decode(self, table_id: str, data: bytes) -> Update:
        version, _, body = self.seal.open(b"update", table_id, data).partition(b" ")
        return Update(table_id, int(version), body)

    async def publish(self, update: Update) -> None:
        try:
            await self.client.publish(table_channel(update.table_id), self._encode(update))
        except _LOST as exc:
            raise BusUnavailable(f"cannot reach Redis to publish table {update.table_id}: {exc}") from exc

    async def publish_many(self, updates: list[Update]) -> None:
        """One pipeline (not a transaction): one write and one read for the lot, where a
        PUBLISH each cost a worker a round trip and a system call per update."""
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for update in updates:
                    pipe.publish(table_channel(update.table_id), self._encode(update))
                await pipe.execute()
        except _LOST as exc:
            raise BusUnavailable(f"cannot reach Redis to publish {len(updates)} updates: {exc}") from exc

    async def follow(self, table_id: str, deliver: Deliver, *, timeout: float = 10.0) -> None:
        """Returns once Redis has confirmed the subscription; :class:`BusUnavailable` after
        ``timeout`` seconds without it (Redis away: ``deliver`` stays registered and the reader
        subscribes it on reconnecting).  Returns at once if ``deliver`` is unfollowed meanwhile."""
        followers = self._followers.setdefault(table_id, [])
        followers.append(deliver)
        event = self._subscribed.get(table_id)
        if event is None:
            event = self._subscribed[table_id] = asyncio.Event()
            await self._subscribe(table_id)
        try:
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            raise BusUnavailable(f"Redis did not confirm following table {table_id} in {timeout:g} s") from None

    async def _subscribe(self, table_id: str) -> None:
        pubsub = self._pubsub
        if pubsub is None:
            return  # the reader subscribes every followed table when it (re)connects
        self._pending[table_id] = self._pending.get(table_id, 0) + 1
        with contextlib.suppress(*_LOST):  # if lost, the reader subscribes on reconnecting
            await pubsub.subscribe(table_channel(table_id))

    async def unfollow(self, table_id: str, deliver: Deliver) -> None:
        followers = self._followers.get(table_id)
        if followers is None or deliver not in followers:
            return
        followers.remove(deliver)
        if followers:
            return
        del self._followers[table_id]
        event = self._subscribed.pop(table_id, None)
        if event is not None:
            event.set()  # a follow still waiting returns: its follower is gone
        if self._pubsub is not None:
            with contextlib.suppress(*_LOST):
                await self._pubsub.unsubscribe(table_channel(table_id))

    async def _read_forever(self) -> None:
        backoff = _Backoff()
        while True:
            pubsub = self.client.pubsub()
            try:
                tables = list(self._followers)
                self._pending = dict.fromkeys(tables, 1)
                await pubsub.subscribe(self._own_channel, *(table_channel(t) for t in tables))
                self._pubsub = pubsub
                for table_id in [t for t in self._followers if t not in self._pending]:  # followed meanwhile
                    await self._subscribe(table_id)
                async for message in pubsub.listen():
                    backoff.reset()
                    self._dispatch(message)
            except _LOST as exc:
                log.warning("update bus: Redis unreachable (%s), reconnecting", exc)
            finally:
                self._pubsub = None
                for event in self._subscribed.values():
                    event.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed in some redis-py releases only
            await backoff.wait()

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode()
        prefix, _, table_id = channel.partition("fz:table:")
        if prefix or not table_id:
            return
        if message["type"] == "subscribe":
            left = self._pending.get(table_id, 1) - 1
            if left > 0:
                self._pending[table_id] = left
                return
            self._pending.pop(table_id, None)
            event = self._subscribed.get(table_id)
            if event is not None and table_id in self._followers:
                event.set()
        elif message["type"] == "message":
            try:
                update = self._decode(table_id, message["data"])
            except (Unsealable, ValueError) as error:
                self.refusals.refused(channel, Unsealable(str(error)))
                return
            for deliver in list(self._followers.get(table_id, ())):
                try:
                    deliver(update)
                except Exception:
                    log.exception("delivering an update of table %s failed", table_id)


_LOBBY = "fz:lobby"


class RedisLobby:
    """bus.Lobby on one Redis hash (``fz:lobby``): table id -> its record.  Owners write it;
    a Redis restart empties it until each table's next change, so a lobby read never decides
    anything but what a player sees listed (the owner row and the log are the truth).  Each
    record is sealed for its table (no age limit: a quiet table's record is old): a forged
    one is not listed."""

    def __init__(self, client: Redis, seal: Seal) -> None:
        self.client, self.seal = client, seal
        self.refusals = _Refusals("lobby record")

    async def put(self, table_id: str, record: bytes) -> None:
        try:
            await self.client.hset(_LOBBY, table_id, self.seal.seal(b"lobby", table_id, record))
        except _LOST as exc:
            raise BusUnavailable(f"cannot reach Redis for the lobby: {exc}") from exc

    async def remove(self, table_id: str) -> None:
        try:
            await self.client.hdel(_LOBBY, table_id)
        except _LOST as exc:
            raise BusUnavailable(f"cannot reach Redis for the lobby: {exc}") from exc

    async def records(self) -> dict[str, bytes]:
        try:
            found: Any = await self.client.hgetall(_LOBBY)
        except _LOST as exc:
            raise BusUnavailable(f"cannot reach Redis for the lobby: {exc}") from exc
        records = {}
        for key, value in found.items():
            table_id = key.decode()
            try:
                records[table_id] = self.seal.open(b"lobby", table_id, value, fresh=False)
            except Unsealable as error:
                self.refusals.refused(f"{_LOBBY} {table_id}", error)
        return records


class RedisBus(Bus):
    """The bus of a cluster: one Redis client for commands, updates and the lobby, every
    value sealed with ``seal`` (the cluster's bus secret)."""

    def __init__(self, url: str, seal: Seal, *, on_refused: Callable[[str], None] | None = None) -> None:
        client = connect(url)
        parts = RedisCommands(client, seal), RedisUpdates(client, seal), RedisLobby(client, seal)
        for part in parts:
            part.refusals.on_refused = on_refused
        super().__init__(*parts)
        self.client = client
        self._probe = probe(url)
        self._updates = self.updates if isinstance(self.updates, RedisUpdates) else None

    async def start(self) -> None:
        assert self._updates is not None
        self._updates.start()

    async def reachable(self) -> bool:
        """Redis answers a PING within :data:`PROBE_SECONDS` (on a connection of its own: a busy
        pool does not make the bus look down) and the update subscriber is connected."""
        try:
            async with asyncio.timeout(2 * PROBE_SECONDS + 0.5):
                answered = bool(await self._probe.ping())
        except (*_LOST, TimeoutError, ResponseError):
            return False
        return answered and self._updates is not None and self._updates.connected

    async def close(self) -> None:
        if self._updates is not None:
            await self._updates.close()
        await self.client.aclose()
        await self._probe.aclose()
