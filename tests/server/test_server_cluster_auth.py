"""A cluster no local user can steer (issue #23, items 1 and 2).

The attacks of the issue, re-run against the cluster's own servers: a local
user without Redis's passwords, and one who has a gateway's (a reader and
writer of Redis who lacks the bus secret), forge a fold for a victim, replay a
genuine command, and read every channel, inbox and lobby record while a hand
is dealt; a local user connects to PostgreSQL without a password, and the
room's role runs a shell command through ``COPY ... TO PROGRAM``.  Each is
refused.  The seal itself (cluster/sealing.py) is checked in the default suite.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import orjson
import pytest
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError, NoPermissionError, ResponseError

from freezeout.server.cluster.bus import Command
from freezeout.server.cluster.localservers import ROOM_ROLE, LocalPostgres, ServerUnavailable, with_database
from freezeout.server.cluster.redisbus import (
    RedisCommands,
    RedisUpdates,
    connect,
    inbox_key,
    pack_command,
    table_channel,
)
from freezeout.server.cluster.routing import user_json
from freezeout.server.cluster.sealing import ReplayGuard, Seal, Unsealable
from freezeout.server.settings import Settings, async_database_url, parse_secrets
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import Store
from polling import eventually

from clusterkit import Cluster, caught_up, cluster_settings, heads_up, serve_cluster
from rediskit import SECRET, RedisServer
from serverkit import Player

OTHER = "another-clusters-secret-0123456789abcdefghij"


# -- the seal ------------------------------------------------------------------------------
class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_sealed_frame_opens_only_at_its_destination_and_unchanged():
    seal = Seal([SECRET])
    frame = seal.seal(b"command", "w1", b'{"op": "intent"}')
    assert seal.open(b"command", "w1", frame) == b'{"op": "intent"}'
    assert b"intent" not in frame  # encrypted, not only signed
    for kind, destination, bad in ((b"command", "w2", frame), (b"update", "w1", frame),
                                   (b"command", "w1", frame[:-1] + bytes([frame[-1] ^ 1])),
                                   (b"command", "w1", frame[:30] + bytes([frame[30] ^ 1]) + frame[31:]),
                                   (b"command", "w1", b""), (b"command", "w1", b"t1 gateway-1 c1 {}")):
        with pytest.raises(Unsealable):
            seal.open(kind, destination, bad)
    with pytest.raises(Unsealable, match="does not hold"):
        Seal([OTHER]).open(b"command", "w1", frame)


def test_two_frames_never_share_a_nonce():
    seal = Seal([SECRET])
    frames = [seal.seal(b"command", "w1", b"same") for _ in range(1000)]
    assert len({f[5:17] for f in frames}) == 1000 and len(set(frames)) == 1000


def test_a_stale_or_replayed_frame_is_refused():
    clock = _Clock()
    seal, replays = Seal([SECRET], max_age=60, clock=clock), ReplayGuard(60)
    frame = seal.seal(b"command", "w1", b"fold")
    assert seal.open(b"command", "w1", frame, replays=replays) == b"fold"
    with pytest.raises(Unsealable, match="replay"):
        seal.open(b"command", "w1", frame, replays=replays)
    clock.now += 61
    with pytest.raises(Unsealable, match="further than 60 s"):
        seal.open(b"command", "w1", frame)
    assert seal.open(b"lobby", "t1", Seal([SECRET], clock=lambda: 0.0).seal(b"lobby", "t1", b"r"), fresh=False) == b"r"
    # The guard forgets only what is stale anyway: its memory stays bounded.
    for n in range(100):
        clock.now += 5
        replays.first(n.to_bytes(16, "big"), clock.now, clock.now)
    assert len(replays) <= 20


def test_a_rotation_opens_under_the_old_and_new_secret_and_seals_under_the_first():
    old, new = Seal([SECRET]), Seal([OTHER, SECRET])
    assert new.open(b"update", "t1", old.seal(b"update", "t1", b"v")) == b"v"
    with pytest.raises(Unsealable):
        old.open(b"update", "t1", new.seal(b"update", "t1", b"v"))
    assert parse_secrets(f"# rotated 2026-12-03\n{OTHER}\n{SECRET}\n") == [OTHER, SECRET]


def test_a_missing_or_short_secret_is_refused():
    with pytest.raises(ValueError, match="needs a secret"):
        Seal([])
    with pytest.raises(ValueError, match="at least 32"):
        Seal(["password"])


def test_credentials_come_from_files_never_the_command_line(tmp_path):
    (tmp_path / "worker.password").write_text("s3cret/+pw\n")
    (tmp_path / "db.password").write_text("db-pw\n")
    (tmp_path / "bus.secret").write_text(f"{OTHER}\n{SECRET}\n")
    settings = Settings(role="worker", redis_url="rediss://{role}@redis.example:6380/0",
                        redis_password_file=str(tmp_path / "{role}.password"),
                        database_url="postgresql://freezeout@db.example/freezeout",
                        database_password_file=str(tmp_path / "db.password"), bus_secret_file=str(tmp_path / "bus.secret"))
    assert settings.redis_connection_url() == "rediss://worker:s3cret%2F%2Bpw@redis.example:6380/0"
    assert settings.resolved_database_url() == "postgresql+asyncpg://freezeout:db-pw@db.example/freezeout"
    assert settings.bus_secrets() == [OTHER, SECRET]
    with pytest.raises(ValueError, match="cannot read the secret file"):
        Settings(role="gateway", redis_url="redis://{role}@h/0", redis_password_file=str(tmp_path / "nope")
                 ).redis_connection_url()


# -- Redis: the bus of a real cluster --------------------------------------------------------
@contextlib.asynccontextmanager
async def cluster_on_redis(tmp_path: Path, server: RedisServer) -> AsyncIterator[Cluster]:
    bus = server.bus("gateway")  # one process: the gateway's user, which may do all a worker does
    await bus.start()
    try:
        async with serve_cluster(cluster_settings(tmp_path), bus) as cluster:
            yield cluster
    finally:
        await bus.close()


@contextlib.asynccontextmanager
async def reading_everything(server: RedisServer) -> AsyncIterator[list[bytes]]:
    """Every message published on any channel, as an admin of Redis would read it."""
    client = connect(server.url_for("admin"))
    pubsub = client.pubsub()
    await pubsub.psubscribe("*")
    seen: list[bytes] = []

    async def read() -> None:
        async for message in pubsub.listen():
            if message["type"] == "pmessage":
                seen.append(message["channel"] + b" " + message["data"])

    task = asyncio.create_task(read())
    try:
        yield seen
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()


async def stored(server: RedisServer) -> list[bytes]:
    """Every inbox entry and lobby record left in Redis."""
    client = connect(server.url_for("admin"))
    try:
        found: list[bytes] = []
        for key in await client.keys("fz:inbox:*"):
            for _id, fields in await client.xrange(key):
                found += [k + b" " + v for k, v in fields.items()]
        found += list((await client.hgetall("fz:lobby")).values())
        return found
    finally:
        await client.aclose()


def to_act(players: tuple[Player, ...]) -> tuple[Player, Player]:
    mover = next(p for p in players if p.view and p.view.get("legal") and p.view["viewer"] == p.view["to_act"])
    return mover, next(p for p in players if p is not mover)


@pytest.mark.redis
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_redis_refuses_strangers_and_a_role_does_only_its_job(redis_server):
    stranger = Redis(unix_socket_path=str(redis_server.socket_path))
    with pytest.raises((AuthenticationError, ResponseError)):  # the default user is off
        await stranger.ping()
    await stranger.aclose()
    for user in ("gateway", "worker"):
        wrong = connect(redis_server.url_for(user).replace(redis_server.password(user), "guessed"))
        with pytest.raises((AuthenticationError, ResponseError)):
            await wrong.ping()
        await wrong.aclose()
    gateway = connect(redis_server.url_for("gateway"))
    try:
        assert await gateway.ping()
        for command in (("CONFIG", "SET", "dir", "/tmp"), ("MODULE", "LIST"), ("KEYS", "*"), ("FLUSHALL",),
                        ("MONITOR",), ("XRANGE", "fz:inbox:w1", "-", "+"), ("SET", "k", "v"), ("EVAL", "return 1", "0"),
                        ("PSUBSCRIBE", "fz:*")):
            with pytest.raises(NoPermissionError):
                await gateway.execute_command(*command)
    finally:
        await gateway.aclose()


@pytest.mark.redis
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_a_reader_of_redis_sees_no_hole_card(tmp_path, redis_server):
    """Everything published (every channel), every inbox entry and lobby record, read as
    Redis's admin while a hand is dealt and played: no seat's cards in clear."""
    async with reading_everything(redis_server) as published, cluster_on_redis(tmp_path, redis_server) as cluster:
        await cluster.worker("w1")
        table, ana, bo = await heads_up(cluster)
        await caught_up(cluster, table, (ana, bo))
        mover, _ = to_act((ana, bo))
        version = mover.version
        await mover.send({"type": "act", "version": version, "move": "call"})
        for p in (ana, bo):
            await p.until_version(version + 1)
        hands = {p.view["seats"][p.view["viewer"]]["cards"] for p in (ana, bo)}
        assert all(hand and len(hand) == 4 for hand in hands)  # each saw its own cards...
        await eventually(lambda: len(published) >= 5, "the updates of the hand to be published")
        raw = b"\n".join(published + await stored(redis_server))
    assert table.encode() in raw  # the channels were read
    for hand in hands:  # ...and nobody else could, on the bus
        assert hand.encode() not in raw and hand[:2].encode() + b'"' not in raw
    assert not re.search(rb'"cards\\?":\\?"[2-9TJQKA]', raw)  # a seat's text is JSON in JSON: its quotes escaped


@pytest.mark.redis
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_a_forged_or_replayed_command_is_refused_and_changes_nothing(tmp_path, redis_server, caplog):
    """Holding a gateway's Redis password but not the bus secret: a fold in the victim's name
    (as the bus carried it before, and sealed under another secret), a genuine command sent
    again, one sealed for another inbox, and a forged update and lobby record.  None has an
    effect; each is refused with a log line; the victim then plays on."""
    caplog.set_level(logging.WARNING, logger="freezeout.server.cluster.redisbus")
    async with cluster_on_redis(tmp_path, redis_server) as cluster:
        worker = await cluster.worker("w1")
        table, ana, bo = await heads_up(cluster)
        await caught_up(cluster, table, (ana, bo))
        victim, other = to_act((ana, bo))
        store_victim = await worker.store.accounts.by_name(victim.user["name"])  # type: ignore[index]
        fold = {"op": "intent", "conn": "attacker", "user": user_json(store_victim),
                "msg": {"type": "act", "version": victim.version, "move": "fold"}}
        attacker = connect(redis_server.url_for("gateway"))
        admin = connect(redis_server.url_for("admin"))
        commands = cluster.bus.commands
        assert isinstance(commands, RedisCommands)
        try:
            genuine = [fields[b"s"] for _id, fields in await admin.xrange(inbox_key("w1"))]
            replies = [fields[b"s"] for _id, fields in await admin.xrange(inbox_key("gateway-1"))]
            forged: list[dict[Any, Any]] = [
                {"t": table, "g": "gateway-1", "r": "attacker", "b": orjson.dumps(fold)},  # the bus's old, clear form
                {"s": Seal([OTHER]).seal(b"command", "w1", pack_command(Command(table, "gateway-1", "x", orjson.dumps(fold))))},
                {"s": genuine[-1]},  # a replay
                {"s": replies[-1]},  # sealed for the gateway's inbox
            ]
            for fields in forged:
                await attacker.xadd(inbox_key("w1"), fields)
            await eventually(lambda: commands.refusals.count >= len(forged), "the forged commands to be refused")
            await attacker.publish(table_channel(table), b'1 {"k":"update","texts":{},"seats":{}}')
            updates = cluster.bus.updates
            assert isinstance(updates, RedisUpdates)
            await eventually(lambda: updates.refusals.count >= 1, "the forged update to be dropped")
            await attacker.hset("fz:lobby", "t000000000bad", b'{"summary": {"status": "waiting"}}')
            assert "t000000000bad" not in await cluster.bus.lobby.records()
        finally:
            await attacker.aclose()
            await admin.aclose()
        await cluster.settle(table)
        assert not [e for e in await cluster.log(table) if e.kind == "act" and e.data.get("move") == "fold"]
        assert victim.view["to_act"] == victim.view["viewer"]
        refused = [r.getMessage() for r in caplog.records if "refused a command" in r.getMessage()]
        assert refused and "w1" in refused[0]
        version = victim.version
        await victim.send({"type": "act", "version": version, "move": "call"})  # the victim plays on
        for p in (victim, other):
            await p.until_version(version + 1)
        assert [e.data["move"] for e in await cluster.log(table) if e.kind == "act"][-1] == "call"


# -- PostgreSQL -------------------------------------------------------------------------------
@pytest.fixture
def local_postgres() -> Any:
    """``freezeout cluster``'s PostgreSQL, started where an older one left a trusting data directory."""
    if os.environ.get("FREEZEOUT_SLOW") != "1":
        pytest.skip("PostgreSQL setup tests: run with FREEZEOUT_SLOW=1")
    base = Path(tempfile.mkdtemp(prefix="fz-pg-auth-"))
    base.chmod(0o755)  # PostgreSQL runs as the postgres user under it (pytest's tmp_path is private)
    data = base / "cluster" / "data"
    data.mkdir(parents=True)
    (data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")  # an older cluster's
    try:
        server = LocalPostgres(base / "cluster")
        server.start()
    except ServerUnavailable as error:
        pytest.skip(str(error))
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.postgres
async def test_postgresql_asks_every_local_user_for_a_password_and_the_room_is_no_superuser(local_postgres):
    server = local_postgres
    assert server.moved_aside is not None and (server.moved_aside / "pg_hba.conf").exists()  # kept, not used
    hba = (server.data / "pg_hba.conf").read_text()
    assert "trust" not in [line.split()[-1] for line in hba.splitlines() if line.strip() and not line.startswith("#")]
    for path in (server.secrets / "postgres.password", server.password_file):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(server.secrets.stat().st_mode) == 0o700
    for user in ("postgres", ROOM_ROLE):
        with pytest.raises((asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError,
                            asyncpg.ClientCannotConnectError)):
            await asyncpg.connect(host=str(server.socket_dir), port=server.port, user=user, database="postgres", password="")
    # The room's role runs the migrations and owns what they make, and nothing more.
    engine = create_engine(async_database_url(server.url))
    await run_migrations(engine)
    store = Store(engine)
    await store.start()
    await store.ping()
    await store.close()
    room = await asyncpg.connect(server.url.replace("postgresql://", "postgres://"))
    try:
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await room.execute("COPY (SELECT 1) TO PROGRAM 'true'")
        for statement in ("CREATE DATABASE elsewhere", f"CREATE ROLE {ROOM_ROLE}2", "ALTER ROLE freezeout SUPERUSER"):
            with pytest.raises(asyncpg.PostgresError):
                await room.execute(statement)
        role = await room.fetchrow("SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = $1", ROOM_ROLE)
        assert tuple(role) == (False, False, False)
        owners = {r["tableowner"] for r in await room.fetch("SELECT tableowner FROM pg_tables WHERE schemaname = 'public'")}
        assert owners == {ROOM_ROLE}
    finally:
        await room.close()
    with pytest.raises(asyncpg.InsufficientPrivilegeError):  # nor the superuser's database
        await asyncpg.connect(with_database(server.url, "postgres").replace("postgresql://", "postgres://"))
    # A local user at psql, no password: refused too.
    psql = subprocess.run([server.psql, "-X", "-w", "-h", str(server.socket_dir), "-p", str(server.port), "-U", "postgres",
                           "-c", "COPY (SELECT 1) TO PROGRAM 'id'"], capture_output=True, text=True,
                          env={"PATH": os.environ["PATH"]}, check=False, timeout=60)
    assert psql.returncode != 0 and "password" in psql.stderr


def test_a_gateway_or_worker_without_a_bus_secret_does_not_start(capsys, monkeypatch):
    import argparse

    from freezeout.server.cli import cmd_serve

    monkeypatch.delenv("FREEZEOUT_BUS_SECRET", raising=False)
    monkeypatch.delenv("FREEZEOUT_BUS_SECRET_FILE", raising=False)
    for secret, expected in (("", "the bus needs a secret"), ("short", "at least 32 characters")):
        monkeypatch.setenv("FREEZEOUT_BUS_SECRET", secret)
        args = argparse.Namespace(host="127.0.0.1", port=0, db="sqlite:///unused.db", role="worker",
                                  redis="redis://worker:pw@127.0.0.1:1/0", name=None)
        assert cmd_serve(args) == 2
        assert expected in capsys.readouterr().err


async def test_refused_frames_are_counted_for_the_operator():
    from freezeout.server.cluster.roles import open_bus
    from freezeout.server.metrics import Metrics

    metrics = Metrics("worker")
    bus = open_bus(Settings(role="worker", redis_url="redis://worker:pw@127.0.0.1:1/0", bus_secret=SECRET), metrics)
    assert isinstance(bus.commands, RedisCommands) and isinstance(bus.updates, RedisUpdates)
    try:
        bus.commands.refusals.refused("fz:inbox:w1", Unsealable("forged"))
        bus.updates.refusals.refused("fz:table:t1", Unsealable("forged"))
        assert 'freezeout_bus_refused_total{what="command"} 1' in metrics.render()
        assert 'freezeout_bus_refused_total{what="update"} 1' in metrics.render()
    finally:
        await bus.close()
