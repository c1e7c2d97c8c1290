"""A real ``redis-server`` for the cluster tests (imported as ``rediskit``).

``redis_server`` starts Debian's redis-server on 127.0.0.1 and a free port,
with no persistence (a restart loses everything: the worst case the bus must
survive), and can restart it on the same port.  The test is skipped with a
reason when the binary is missing.  ``eventually`` waits for a condition,
never for a fixed time.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from serverkit import free_port

__all__ = ["RedisServer", "eventually", "redis_server"]

_START_SECONDS = 30  # generous: a loaded CI machine; a healthy start takes milliseconds


class RedisServer:
    def __init__(self, binary: str, directory: Path) -> None:
        self.binary, self.directory, self.port = binary, directory, free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + _START_SECONDS
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode} on port {self.port}")
            try:
                with Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1) as probe:
                    probe.ping()
                return
            except RedisConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def stop(self) -> None:
        """Kill it hard (SIGKILL), as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    if os.environ.get("FREEZEOUT_SLOW") != "1":
        # Real redis-server tests (a cluster's bus) run on demand: the same code paths run in
        # every make test on the in-memory bus (test_server_cluster.py), and these take a real
        # server, killed and restarted, per test.
        pytest.skip("Redis tests: run with FREEZEOUT_SLOW=1")
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: apt-get install -y redis-server (make system-deps)")
    with tempfile.TemporaryDirectory(prefix="fz-redis-") as directory:
        server = RedisServer(binary, Path(directory))
        server.start()
        try:
            yield server
        finally:
            server.stop()


async def eventually(condition: Callable[[], Awaitable[bool]], *, what: str, timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds; fail naming ``what`` after a generous ``timeout``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
