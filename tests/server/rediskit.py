"""A real ``redis-server`` for the cluster tests (imported as ``rediskit``).

``redis_server`` starts Debian's redis-server on 127.0.0.1 and a free port,
with no persistence (a restart loses everything: the worst case the bus must
survive), and can restart it on the same port.  It is the same server as
``freezeout cluster``'s (cluster.localservers.LocalRedis): its default user is off,
and clients are its ACL users (``url_for("gateway" | "worker" | "admin")``).
The bus's messages are sealed under :data:`SECRET` (``seal()``).  The test
is skipped with a reason when the binary is missing.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from freezeout.server.cluster.localservers import LocalRedis
from freezeout.server.cluster.redisbus import RedisBus
from freezeout.server.cluster.sealing import Seal

__all__ = ["SECRET", "RedisServer", "redis_server", "seal"]

SECRET = "the-test-clusters-bus-secret-0123456789abcdef"  # tests only


def seal(*secrets: str) -> Seal:
    """A :class:`Seal` under :data:`SECRET` (or ``secrets``), as every process of a test cluster has."""
    return Seal(secrets or [SECRET])


class RedisServer(LocalRedis):
    """``freezeout cluster``'s redis-server, restarted on the same port on demand."""

    def __init__(self, binary: str, directory: Path) -> None:
        super().__init__(directory)

    def bus(self, user: str = "worker", secret: str = SECRET) -> RedisBus:
        return RedisBus(self.url_for(user), seal(secret))

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A fresh redis-server per test: it starts in about 50 ms, so a test of the bus itself runs
    in every ``make test``; a test that drives a whole cluster on it costs seconds and is marked
    ``slow`` where it is written (run with FREEZEOUT_SLOW=1): the same paths run in every
    ``make test`` on the in-memory bus (test_server_cluster.py)."""
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

