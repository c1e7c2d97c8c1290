"""``freezeout serve`` as a separate process for the benches (load.py, abuse.py,
crash_drill.py): started on a free loopback port with bench settings, waited
for until healthy, killed or stopped, its memory and its log's warnings read.

``src`` runs the server from another checkout's ``src/`` (``PYTHONPATH``), so
one bench measures two versions in the same conditions (before/after).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil

__all__ = ["ServerProcess", "free_port"]

# Cheap password hashing and no access log: the benches measure the room, not argon2.
BENCH_ENV = {"FREEZEOUT_ARGON2_TIME_COST": "1", "FREEZEOUT_ARGON2_MEMORY_KIB": "1024", "FREEZEOUT_ACCESS_LOG": "false"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, workdir: Path, *, db_url: str | None = None, src: str | None = None, **env: str) -> None:
        self.workdir = workdir
        self.program = ["-m", "freezeout.cli"]  # what ``python`` runs (set before start: a profiling wrapper's ``-c`` code)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.db = workdir / "bench.sqlite"
        self.db_url = db_url or f"sqlite:///{self.db}"
        self.env = {**os.environ, **BENCH_ENV, **env, **({"PYTHONPATH": src} if src else {})}
        self.log_path = workdir / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._ps: psutil.Process | None = None

    @property
    def ps(self) -> psutil.Process:
        """The running server (one object per start: ``cpu_percent`` measures between calls)."""
        assert self._ps is not None
        return self._ps

    def start(self, timeout: float = 120.0) -> float:
        """Start the server and wait until ``/healthz`` answers; returns how long that took."""
        started = time.monotonic()
        command = [sys.executable, *self.program, "serve", "--port", str(self.port), "--db", self.db_url]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=self.workdir, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self._ps = psutil.Process(self.process.pid)
        while time.monotonic() - started < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text(errors='replace')[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return time.monotonic() - started
            time.sleep(0.05)
        raise RuntimeError("the server did not become healthy")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def rss_mb(self) -> float:
        try:
            return float(self.ps.memory_info().rss / 2**20)
        except psutil.Error:
            return float("nan")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush (a crash)."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def warnings(self) -> list[str]:
        """The server's warnings and errors (slow commits, failures), for the report."""
        lines = self.log_path.read_text(errors="replace").splitlines() if self.log_path.exists() else []
        return [line for line in lines if line.startswith(("WARNING", "ERROR")) or "Traceback" in line]
