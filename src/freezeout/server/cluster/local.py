"""``freezeout cluster`` (and ``make cluster``): a whole cluster on this machine, for development.

It starts PostgreSQL (its data kept under ``--dir`` between runs) and a
redis-server on free loopback ports, applies the migrations once, then
starts the gateways (``freezeout serve --role gateway`` on ``--port``,
``--port``+1, …) and the workers (``--role worker``, health on
``--worker-port``, …), waits until each answers ``/readyz``, prints where
everything is, and stops it all on Ctrl-C or SIGTERM: processes first
(gracefully, so that the workers give their tables up), then Redis and
PostgreSQL.  A process that dies meanwhile is reported, not restarted (the
failover drill kills them on purpose).

Nothing of it trusts the machine's other users (issue #23): PostgreSQL and
Redis ask for passwords (cluster/localservers.py), the processes connect as the
room's PostgreSQL role and their role's Redis user, and every bus message is
sealed under a bus secret (cluster/sealing.py).  The passwords and the secret are
made at the first start and kept under ``--dir``/…/secrets (0700); the
processes read them from files (:func:`cluster_env`), never from their
command line, and nothing printed shows them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from freezeout.server.cluster.localservers import LocalPostgres, LocalRedis, ServerUnavailable, secret_file

__all__ = ["Process", "cluster_env", "run_cluster", "start_process", "wait_ready"]

READY_SECONDS = 90.0


@dataclass
class Process:
    role: str
    port: int
    popen: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_process(role: str, port: int, env: dict[str, str], log: Path | None = None) -> Process:
    """``freezeout serve --role ROLE --port PORT`` with the cluster's settings in ``env``."""
    out = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115 (the child keeps it)
    popen = subprocess.Popen([sys.executable, "-m", "freezeout.cli", "serve", "--role", role, "--port", str(port)],
                             env=env, stdout=out, stderr=subprocess.STDOUT)
    return Process(role, port, popen)


def cluster_env(postgres: LocalPostgres, redis: LocalRedis, secrets: Path) -> dict[str, str]:
    """The settings of every gateway and worker of a local cluster: the room's database and
    Redis (each process's user is its role), the password files, and the bus secret's file
    (``secrets/bus.secret``, made at the first call).  Add them to the environment of
    :func:`start_process`."""
    bus_secret = secrets / "bus.secret"
    secret_file(bus_secret)
    return {**postgres.env(), **redis.env(), "FREEZEOUT_BUS_SECRET_FILE": str(bus_secret)}


def readiness(process: Process) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"{process.url}/readyz", timeout=2) as answer:
            return dict(json.load(answer))
    except (urllib.error.URLError, OSError, ValueError):
        return None


def wait_ready(processes: list[Process], timeout: float = READY_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    for process in processes:
        while readiness(process) is None:
            if process.popen.poll() is not None:
                raise ServerUnavailable(f"the {process.role} on port {process.port} exited with {process.popen.returncode}")
            if time.monotonic() > deadline:
                raise ServerUnavailable(f"the {process.role} on port {process.port} is not ready after {timeout:g} s")
            time.sleep(0.1)


async def _migrate(url: str) -> None:
    from freezeout.server.settings import async_database_url
    from freezeout.server.storage.db import create_engine, run_migrations

    engine = create_engine(async_database_url(url))
    try:
        await run_migrations(engine)
    finally:
        await engine.dispose()


def stop_processes(processes: list[Process], grace: float = 15.0) -> None:
    for process in processes:
        if process.popen.poll() is None:
            process.popen.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in processes:
        try:
            process.popen.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.popen.kill()
            process.popen.wait()


def run_cluster(*, gateways: int, workers: int, port: int, worker_port: int, directory: Path) -> int:
    if gateways < 1 or workers < 1:
        print("a cluster needs at least one gateway and one worker", file=sys.stderr)
        return 2
    directory = directory.resolve()
    try:
        postgres = LocalPostgres(directory / "postgres")
        redis = LocalRedis(directory / "redis")
        postgres.start()
    except ServerUnavailable as error:
        print(str(error), file=sys.stderr)
        return 2
    if postgres.moved_aside is not None:
        print(f"PostgreSQL's data of an older cluster trusted every local user: moved to {postgres.moved_aside}, "
              "and a new database made (delete the old one when you no longer need it)", flush=True)
    processes: list[Process] = []
    stopping = False

    def on_signal(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = signal.signal(signal.SIGTERM, on_signal)
    try:
        redis.start()
        asyncio.run(_migrate(postgres.url))
        env = {**os.environ, **cluster_env(postgres, redis, directory / "secrets")}
        logs = directory / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        processes += [start_process("gateway", port + i, env, logs / f"gateway-{i + 1}.log") for i in range(gateways)]
        processes += [start_process("worker", worker_port + i, env, logs / f"worker-{i + 1}.log") for i in range(workers)]
        wait_ready(processes)
        print(f"PostgreSQL  {env['FREEZEOUT_DATABASE_URL']} (password in {env['FREEZEOUT_DATABASE_PASSWORD_FILE']})")
        print(f"Redis       {redis.url.replace('{role}', 'gateway|worker|admin')} "
              f"(passwords in {redis.secrets}, bus secret in {env['FREEZEOUT_BUS_SECRET_FILE']})")
        for process in processes:
            print(f"{process.role:<11} {process.url}  (pid {process.popen.pid}; /healthz /readyz /metrics)")
        print(f"logs in {logs}; Ctrl-C stops the cluster", flush=True)
        reported: set[int] = set()
        while not stopping:
            for process in processes:
                if process.popen.poll() is not None and process.popen.pid not in reported:
                    reported.add(process.popen.pid)
                    print(f"the {process.role} on port {process.port} exited with {process.popen.returncode}", flush=True)
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    except ServerUnavailable as error:
        print(str(error), file=sys.stderr)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
        stop_processes(processes)
        redis.stop()
        with contextlib.suppress(Exception):
            postgres.stop()
        print("cluster stopped", flush=True)
    return 0
