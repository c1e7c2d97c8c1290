"""A local PostgreSQL and redis-server on loopback, for ``freezeout cluster`` and the tests.

PostgreSQL runs from Debian's binaries (``initdb``, ``pg_ctl``), as the
``postgres`` user when we are root (it refuses to run as root), on 127.0.0.1
and a free port, with a socket directory of its own: it never touches a
system cluster.  redis-server runs without persistence (a restart loses
everything: the worst case the bus must survive).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["LocalPostgres", "LocalRedis", "ServerUnavailable", "free_port", "pg_binary"]

START_SECONDS = 60  # generous: a loaded machine; a healthy start takes a second or two


class ServerUnavailable(Exception):
    """The binaries are missing or the server would not start (the message says why)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class LocalPostgres:
    """A PostgreSQL server whose data lives in ``base`` (created on first start, kept after)."""

    def __init__(self, base: Path, port: int | None = None, *, fsync: bool = False) -> None:
        self.base, self.port, self.fsync = base, port or free_port(), fsync
        self.data = base / "data"
        initdb, pg_ctl = pg_binary("initdb"), pg_binary("pg_ctl")
        if not initdb or not pg_ctl:
            raise ServerUnavailable("PostgreSQL binaries (initdb, pg_ctl) are not installed: apt-get install -y postgresql")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self._user = pwd.getpwnam("postgres")
            except KeyError:
                raise ServerUnavailable("no 'postgres' system user to run the PostgreSQL server as") from None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = list(args)
        if self._user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    def start(self) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        if self._user is not None:
            os.chown(self.base, self._user.pw_uid, self._user.pw_gid)
        if not (self.data / "PG_VERSION").exists():
            init = self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
            if init.returncode != 0:
                raise ServerUnavailable(f"initdb failed: {init.stderr.strip()[:300]}")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.base}" + ("" if self.fsync else " -c fsync=off")
        started = self._run(self.pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.base / "log"),
                            "-w", "-t", str(START_SECONDS), "start")
        if started.returncode != 0:
            raise ServerUnavailable(f"pg_ctl start failed: {(started.stderr or started.stdout).strip()[:300]}")

    def stop(self) -> None:
        self._run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")


class LocalRedis:
    def __init__(self, directory: Path, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ServerUnavailable("redis-server is not installed: apt-get install -y redis-server")
        self.binary, self.directory, self.port = binary, directory, port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.process.poll() is not None:
                raise ServerUnavailable(f"redis-server exited with {self.process.returncode} on port {self.port}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise ServerUnavailable(f"redis-server did not answer on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kill it hard (SIGKILL), as a crash would: it keeps nothing anyway."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
