"""The bus between gateways and table owners (issue #13): the in-memory one
of a single process, and the Redis one against a real redis-server that is
killed and restarted under it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from freezeout.server.cluster.bus import (
    LOBBY,
    Bus,
    BusUnavailable,
    Command,
    Commands,
    LocalCommands,
    LocalUpdates,
    Update,
    Updates,
    decode_lobby_change,
    tell_lobby,
)
from freezeout.server.cluster.redisbus import RedisCommands, RedisUpdates, connect, inbox_key
from freezeout.server.tasks import stop_tasks
from polling import eventually

from rediskit import RedisServer, redis_server, seal

__all__ = ["redis_server"]


def command(n: int) -> Command:
    return Command("t1", "gateway-1", f"conn-{n}", b'{"type": "check", "version": %d}' % n)


async def collect(commands: Commands, worker: str, into: list[Command]) -> None:
    async for received in commands.inbox(worker):
        into.append(received)


@contextlib.asynccontextmanager
async def reading(commands: Commands, worker: str) -> AsyncIterator[list[Command]]:
    received: list[Command] = []
    task = asyncio.create_task(collect(commands, worker, received))
    try:
        yield received
    finally:
        await stop_tasks(task)


async def has(items: list[object], count: int) -> bool:
    return len(items) >= count


@contextlib.asynccontextmanager
async def redis_client(server: RedisServer, user: str = "worker") -> AsyncIterator[Redis]:
    """A client as ``user`` (a role's ACL user; ``admin`` for what the bus itself never does)."""
    client = connect(server.url_for(user))
    try:
        yield client
    finally:
        await client.aclose()


async def check_commands_in_order(commands: Commands) -> None:
    async with reading(commands, "worker-1") as received:
        for n in range(5):
            await commands.send("worker-1", command(n))
        await commands.send("worker-2", command(99))  # another worker's inbox
        await eventually(lambda: has(received, 5), what="five commands")
        assert received == [command(n) for n in range(5)]


async def check_updates_reach_followers(updates: Updates) -> None:
    first: list[Update] = []
    second: list[Update] = []
    await updates.follow("t1", first.append)
    await updates.follow("t1", second.append)
    await updates.publish(Update("t1", 7, b"seven"))
    await updates.publish(Update("t2", 1, b"nobody follows t2"))
    await eventually(lambda: has(second, 1), what="the update")
    await updates.unfollow("t1", first.append)
    await updates.publish(Update("t1", 8, b"eight"))
    await eventually(lambda: has(second, 2), what="the second update")
    # Several at once (a busy worker's moment): each reaches its table's followers, in order.
    await updates.publish_many([Update("t1", 9, b"nine"), Update("t2", 2, b"nobody"), Update("t1", 10, b"ten")])
    await eventually(lambda: has(second, 4), what="the updates published together")
    assert first == [Update("t1", 7, b"seven")]
    assert second == [Update("t1", 7, b"seven"), Update("t1", 8, b"eight"), Update("t1", 9, b"nine"),
                      Update("t1", 10, b"ten")]


async def check_lobby(bus: Bus) -> None:
    """A record written is listed and published on the lobby's channel; a removal too."""
    heard: list[tuple[str, bytes | None]] = []
    await bus.updates.follow(LOBBY, lambda update: heard.append(decode_lobby_change(update)))
    await tell_lobby(bus, "t1", b'{"summary": 1}')
    await tell_lobby(bus, "t2", b'{"summary": 2}')
    assert await bus.lobby.records() == {"t1": b'{"summary": 1}', "t2": b'{"summary": 2}'}
    await tell_lobby(bus, "t1", None)
    assert await bus.lobby.records() == {"t2": b'{"summary": 2}'}
    await eventually(lambda: has(heard, 3), what="the lobby's changes")
    assert heard == [("t1", b'{"summary": 1}'), ("t2", b'{"summary": 2}'), ("t1", None)]


async def test_local_bus_delivers_commands_updates_and_the_lobby():
    await check_commands_in_order(LocalCommands())
    await check_updates_reach_followers(LocalUpdates())
    await check_lobby(Bus())


@pytest.mark.redis
async def test_redis_lobby_lists_and_publishes_changes(redis_server):
    bus = redis_server.bus("gateway")  # a gateway reads the whole lobby; workers write it
    await bus.start()
    try:
        await check_lobby(bus)
    finally:
        await bus.close()


@pytest.mark.redis
async def test_redis_commands_reach_the_owner_in_order(redis_server):
    async with redis_client(redis_server) as client:
        await check_commands_in_order(RedisCommands(client, seal(), block_ms=200))


@pytest.mark.redis
async def test_redis_updates_reach_every_follower(redis_server):
    async with redis_client(redis_server) as owner, redis_client(redis_server, "gateway") as gateway:
        updates = RedisUpdates(gateway, seal())
        updates.start()
        try:
            await check_updates_reach_followers(_Publisher(owner, updates))
        finally:
            await updates.close()


class _Publisher:
    """Publish through the owner's connection, follow through the gateway's: two processes' view."""

    def __init__(self, owner: Redis, gateway: RedisUpdates) -> None:
        self._owner, self._gateway = RedisUpdates(owner, seal()), gateway
        self.follow, self.unfollow = gateway.follow, gateway.unfollow

    async def publish(self, update: Update) -> None:
        await self._owner.publish(update)

    async def publish_many(self, updates: list[Update]) -> None:
        await self._owner.publish_many(updates)


@pytest.mark.redis
async def test_an_inbox_deleted_under_its_reader_is_read_anew(redis_server):
    """An inbox that expires (or is deleted) while its reader waits on it: the reader makes it
    anew and gets what is sent after (Redis unblocks it with an UNBLOCKED error)."""
    async with redis_client(redis_server) as client, redis_client(redis_server, "admin") as admin:
        commands = RedisCommands(client, seal(), block_ms=5000)
        async with reading(commands, "worker-1") as received:
            await commands.send("worker-1", command(0))
            await eventually(lambda: has(received, 1), what="the first command")
            await admin.delete(inbox_key("worker-1"))
            await commands.send("worker-1", command(1))
            await eventually(lambda: has(received, 2), what="the command sent after the deletion")
            assert received == [command(0), command(1)]


@pytest.mark.redis
async def test_many_commands_at_once_wait_for_a_connection(redis_server):
    """More commands in flight than the pool has connections wait for one instead of failing
    (redis-py's default pool refused the 101st at once: "Too many connections")."""
    async with redis_client(redis_server) as client:
        commands = RedisCommands(client, seal(), block_ms=200)
        async with reading(commands, "worker-1") as received:
            await asyncio.gather(*(commands.send("worker-1", command(n)) for n in range(500)))
            await eventually(lambda: has(received, 500), what="every command")
            assert sorted(c.reply_to for c in received) == sorted(command(n).reply_to for n in range(500))


@pytest.mark.redis
async def test_commands_sent_in_one_moment_go_together_in_order_and_inboxes_still_expire(redis_server):
    """The sends of one turn of the loop share a pipeline: each inbox gets its own, in the order
    sent, and each inbox still expires when nobody writes to it."""
    async with redis_client(redis_server) as client, redis_client(redis_server, "admin") as admin:
        commands = RedisCommands(client, seal(), block_ms=200, idle_seconds=600)
        async with reading(commands, "worker-1") as first, reading(commands, "worker-2") as second:
            await asyncio.gather(*(commands.send(f"worker-{1 + n % 2}", command(n)) for n in range(40)))
            await eventually(lambda: has(first + second, 40), what="every command")
            assert first == [command(n) for n in range(0, 40, 2)]
            assert second == [command(n) for n in range(1, 40, 2)]
            for worker in ("worker-1", "worker-2"):
                assert 0 < await admin.ttl(inbox_key(worker)) <= 600


async def until_reachable(attempt: object) -> None:
    """Retry ``attempt()`` until Redis takes it (it has just been restarted)."""
    async def taken() -> bool:
        try:
            await attempt()  # type: ignore[operator]
        except BusUnavailable:
            return False
        return True

    await eventually(taken, what="Redis to take commands again")


@pytest.mark.redis
async def test_the_bus_recovers_from_a_redis_restart(redis_server):
    """redis-server is killed and started again empty: the owner's inbox reader, the
    gateway's subscriber reconnect by themselves, and every command sent after
    the restart arrives (pub/sub may drop updates while resubscribing: versions catch up)."""
    async with redis_client(redis_server) as worker_client, redis_client(redis_server, "gateway") as gateway_client:
        commands = RedisCommands(gateway_client, seal(), block_ms=200)
        updates = RedisUpdates(gateway_client, seal())
        updates.start()
        seen: list[Update] = []
        try:
            async with reading(RedisCommands(worker_client, seal(), block_ms=200), "worker-1") as received:
                await commands.send("worker-1", command(0))
                await updates.follow("t1", seen.append)
                await eventually(lambda: has(received, 1), what="the first command")

                redis_server.restart()

                await until_reachable(lambda: commands.send("worker-1", command(1)))
                for n in range(2, 5):
                    await commands.send("worker-1", command(n))
                await eventually(lambda: has(received, 5), what="the commands sent after the restart")
                assert received == [command(n) for n in range(5)]

                owner = RedisUpdates(worker_client, seal())

                async def update_arrives() -> bool:
                    await owner.publish(Update("t1", 9, b"after the restart"))
                    return bool(seen)

                await eventually(update_arrives, what="an update through the re-subscribed gateway")
                assert set(seen) == {Update("t1", 9, b"after the restart")}
        finally:
            await updates.close()
