"""Ports for servers that tests start as separate processes.

A port from ``bind(("127.0.0.1", 0))`` is free only until the socket closes:
the kernel may hand the same ephemeral port to another test's server or to any
outgoing connection before our child process binds it. Then the child dies on
"address in use" while ``/healthz`` is answered by somebody else's server, and
the test fails far from the cause.

So ports come from below the kernel's ephemeral range (which starts at 32768,
``/proc/sys/net/ipv4/ip_local_port_range``), where the kernel never picks one
by itself, and each is claimed with an exclusive lock file before use: no other
test process on this machine — another xdist worker, or another checkout's
``make test`` running at the same time — is given it while this process lives.
The lock goes with the process, so a crashed run leaves nothing to clean.
"""

from __future__ import annotations

import fcntl
import os
import random
import socket
import tempfile
from pathlib import Path
from typing import IO

FIRST_PORT = 20_000
LAST_PORT = 32_767
LOCKS = Path(tempfile.gettempdir()) / "freezeout-test-ports"

_held: list[IO[bytes]] = []  # the claims of this process, kept until it exits


def _claim(port: int) -> bool:
    lock = (LOCKS / str(port)).open("ab")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return False
    _held.append(lock)
    return True


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False  # a server still running, or something outside the tests
    return True


def free_port() -> int:
    """A loopback port that no other test process will be given while this one runs."""
    LOCKS.mkdir(exist_ok=True)
    count = LAST_PORT - FIRST_PORT + 1
    start = random.Random(os.getpid()).randrange(count)  # processes start apart: fewer lock probes
    for step in range(count):
        port = FIRST_PORT + (start + step) % count
        if any(lock.name.endswith(f"/{port}") for lock in _held):
            continue
        if _claim(port) and _bindable(port):
            return port
    raise RuntimeError(f"no free port in {FIRST_PORT}..{LAST_PORT}")
