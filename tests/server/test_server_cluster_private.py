"""A cluster no local user can starve (issue #32, item 3).

Any local user could open 11,000 idle sockets to Redis (``maxclients``,
``timeout 0``) or 100 to PostgreSQL and lock the room out, and a worker whose
Redis was unreachable still said ready.  Now both listen only on a unix socket
in a directory of mode 0700 (no TCP listener), an idle connection that never
authenticates is closed, and ``/readyz`` says not ready while the bus is down.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from freezeout.server.clock import FakeClock
from freezeout.server.cluster.localservers import LocalPostgres, LocalRedis, ServerUnavailable
from freezeout.server.settings import Settings
from polling import eventually

from clusterkit import cluster_settings
from rediskit import RedisServer
from serverkit import serve

WAIT = 120.0  # generous: the machine is shared; the waits end as soon as the condition holds


def inet_listeners(pid: int) -> list[str]:
    """The TCP/UDP addresses the process ``pid`` listens on (or is bound to, for UDP)."""
    process = psutil.Process(pid)
    found = []
    for conn in process.net_connections(kind="inet"):
        if conn.status == psutil.CONN_LISTEN or (conn.type == socket.SOCK_DGRAM and conn.laddr):
            found.append(f"{conn.laddr.ip}:{conn.laddr.port}")
    return found


def connect_as_nobody(path: Path) -> subprocess.CompletedProcess[str]:
    """Another local user trying the socket at ``path``."""
    code = ("import socket,sys\ns=socket.socket(socket.AF_UNIX)\n"
            "try:\n s.connect(sys.argv[1])\nexcept OSError as e:\n print(type(e).__name__)\nelse:\n print('connected')")
    return subprocess.run(["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", code, str(path)],
                          capture_output=True, text=True, timeout=60, check=False)


def closed_by_server(path: Path, wait: float = WAIT) -> bool:
    """Connect to the unix socket at ``path``, say nothing, and wait (at most ``wait``) for the
    server to close it: True if it did."""
    with socket.socket(socket.AF_UNIX) as client:
        client.settimeout(wait)
        client.connect(str(path))
        try:
            return client.recv(64) == b""
        except TimeoutError:
            return False


def private(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) == 0o700


# -- Redis ------------------------------------------------------------------------------------
@pytest.fixture
def quick_redis() -> Iterator[LocalRedis]:
    """``freezeout cluster``'s redis-server closing idle clients after 1 s."""
    if os.environ.get("FREEZEOUT_SLOW") != "1":
        pytest.skip("Redis tests: run with FREEZEOUT_SLOW=1")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    with tempfile.TemporaryDirectory(prefix="fz-redis-") as directory:
        server = LocalRedis(Path(directory), idle_seconds=1)
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.mark.redis
def test_redis_listens_only_on_a_private_socket(redis_server: RedisServer):
    config = (redis_server.directory / "redis.conf").read_text()
    assert "port 0" in config.splitlines() and "bind" not in config  # no TCP at all
    assert redis_server.process is not None
    assert inet_listeners(redis_server.process.pid) == []
    assert private(redis_server.socket_path.parent) and private(redis_server.socket_path)
    assert redis_server.url_for("worker").startswith("unix://") and "127.0.0.1" not in redis_server.url
    if os.geteuid() == 0 and os.path.exists("/usr/bin/python3"):  # another local user cannot reach the socket
        tried = connect_as_nobody(redis_server.socket_path)
        assert tried.stdout.strip() == "PermissionError", tried


@pytest.mark.redis
def test_redis_closes_an_idle_connection_that_never_authenticated(quick_redis: LocalRedis):
    assert f"timeout {quick_redis.idle_seconds}" in (quick_redis.directory / "redis.conf").read_text()
    assert closed_by_server(quick_redis.socket_path)


@pytest.mark.redis
@pytest.mark.parametrize("role", ["worker", "gateway"])
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_readyz_is_not_ready_while_redis_is_down(tmp_path, redis_server: RedisServer, role: str):
    """A worker's and a gateway's /readyz: 503 with ``"bus": "unreachable"`` once Redis is
    stopped, 200 again once it is back."""
    bus = redis_server.bus(role)
    await bus.start()
    settings: Settings = cluster_settings(tmp_path, role=role, lease_seconds=600.0)
    try:
        async with serve(settings, FakeClock(), bus=bus, name=f"{role}-a") as h, \
                httpx.AsyncClient(base_url=h.base_url, timeout=30) as http:

            async def answer_is(status: int, bus_state: str) -> bool:
                answer = await http.get("/readyz")
                return answer.status_code == status and answer.json().get("bus") == bus_state

            await eventually(lambda: answer_is(200, "up"), f"the {role} to be ready", timeout=WAIT)
            redis_server.stop()
            await eventually(lambda: answer_is(503, "unreachable"), f"the {role} to say its bus is down", timeout=WAIT)
            assert (await http.get("/readyz")).json()["ready"] is False
            redis_server.start()
            await eventually(lambda: answer_is(200, "up"), f"the {role} to be ready again", timeout=WAIT)
    finally:
        await bus.close()


# -- PostgreSQL -------------------------------------------------------------------------------
@pytest.fixture
def private_postgres() -> Iterator[LocalPostgres]:
    if os.environ.get("FREEZEOUT_SLOW") != "1":
        pytest.skip("PostgreSQL setup tests: run with FREEZEOUT_SLOW=1")
    base = Path(tempfile.mkdtemp(prefix="fz-pg-private-"))
    base.chmod(0o755)  # PostgreSQL runs as the postgres user under it (pytest's tmp_path is private)
    try:
        server = LocalPostgres(base / "cluster")
        server.start()
    except ServerUnavailable as error:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(str(error))
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


def postmaster_pid(server: LocalPostgres) -> int:
    return int((server.data / "postmaster.pid").read_text().splitlines()[0])


@pytest.mark.postgres
def test_postgresql_listens_only_on_a_private_socket_and_drops_silent_connections(private_postgres: LocalPostgres):
    server = private_postgres
    assert inet_listeners(postmaster_pid(server)) == []  # listen_addresses = ''
    assert private(server.socket_dir) and private(server.socket_path)
    for url in (server.url, server.admin_url, server.env()["FREEZEOUT_DATABASE_URL"]):
        assert "127.0.0.1" not in url and f"host={server.socket_dir}" in url
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", server.port), timeout=10):
        pass
    if os.geteuid() == 0 and os.path.exists("/usr/bin/python3"):
        tried = connect_as_nobody(server.socket_path)
        assert tried.stdout.strip() == "PermissionError", tried
    assert closed_by_server(server.socket_path)  # authentication_timeout: a silent client goes
