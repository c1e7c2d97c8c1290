"""Ports for servers that tests start as separate processes.

A port from ``bind(("127.0.0.1", 0))`` is free only until the socket closes:
the kernel may hand the same ephemeral port to another xdist worker's server
or to any outgoing connection before our child process binds it. Then the
child dies on "address in use" while ``/healthz`` is answered by somebody
else's server, and the test fails far from the cause. So each pytest worker
takes ports from its own block below the kernel's ephemeral range
(``/proc/sys/net/ipv4/ip_local_port_range`` starts at 32768), one after
another, skipping any that something already holds.
"""

from __future__ import annotations

import itertools
import os
import socket

FIRST_PORT = 20_000
PORTS_PER_WORKER = 1_500
_WORKERS = (32_768 - FIRST_PORT) // PORTS_PER_WORKER


def _worker_index() -> int:
    """``gw3`` → 3; the main process (no xdist) is 0."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits or 0) % _WORKERS


_BLOCK_START = FIRST_PORT + _worker_index() * PORTS_PER_WORKER
_next_offsets = itertools.cycle(range(PORTS_PER_WORKER))


def free_port() -> int:
    """A loopback port no other worker of this run will be given."""
    for _ in range(PORTS_PER_WORKER):
        port = _BLOCK_START + next(_next_offsets)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # held by a server still running, or in TIME_WAIT
            return port
    raise RuntimeError(f"no free port in {_BLOCK_START}..{_BLOCK_START + PORTS_PER_WORKER - 1}")
