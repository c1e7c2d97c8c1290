"""The targets bench/load.py points its players at: one ``freezeout serve`` process, or a
local cluster (issue #13, docs/scaling.md) of PostgreSQL, redis-server, gateways and
workers, each process pinned to the cores ``--pin`` names (``taskset``).

Every target reports its processes' CPU time by role, read from ``/proc/<pid>/stat``
(utime + stime; PostgreSQL's is the postmaster's and every backend's it forked), so that
the bench can divide each role's CPU-seconds by the actions and messages it carried.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from freezeout.server.cluster.local import Process, cluster_env, stop_processes, wait_ready
from freezeout.server.cluster.localservers import LocalPostgres, LocalRedis
from serverproc import BENCH_ENV, ServerProcess, free_port

__all__ = ["ClusterTarget", "Pinning", "Quota", "SingleTarget", "proc_cpu_seconds"]

_TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` so far (0 once it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2:].split()  # after "pid (comm) "
    return (int(fields[11]) + int(fields[12])) / _TICK


def children(pid: int) -> list[int]:
    """Every process whose parent is ``pid`` (one level: PostgreSQL's backends)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                    found.append(int(entry))
    return found


@dataclass
class Pinning:
    """Which cores each role may use, from ``--pin`` such as
    ``gateway=0 worker=1 worker=0 postgres=0 redis=0 client=0``: the n-th process of a role
    takes the n-th ``role=`` entry (cycling); a role not named runs unpinned."""

    cores: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str | None) -> Pinning:
        cores: dict[str, list[str]] = {}
        for item in (text or "").split():
            role, _, cpus = item.partition("=")
            if not re.fullmatch(r"[0-9,\-]+", cpus):
                raise ValueError(f"bad --pin entry {item!r}: role=cpu-list, e.g. worker=1")
            cores.setdefault(role, []).append(cpus)
        return cls(cores)

    def of(self, role: str, index: int = 0) -> str | None:
        listed = self.cores.get(role)
        return listed[index % len(listed)] if listed else None

    def prefix(self, role: str, index: int = 0) -> list[str]:
        cpus = self.of(role, index)
        return ["taskset", "-c", cpus] if cpus else []

    def pin(self, role: str, pid: int, index: int = 0) -> None:
        cpus = self.of(role, index)
        if cpus:
            subprocess.run(["taskset", "-p", "-c", cpus, str(pid)], check=True, capture_output=True)

    def pin_client(self) -> None:
        cpus = self.of("client")
        if cpus:
            os.sched_setaffinity(0, {int(c) for part in cpus.split(",") for c in _expand(part)})

    def describe(self) -> str:
        return " ".join(f"{role}={cpus}" for role, listed in self.cores.items() for cpus in listed) or "none"


_CPU_CGROUPS = Path("/sys/fs/cgroup/cpu")  # cgroup v1's cpu controller, as on this machine
_PERIOD_US = 10_000  # a short period: a throttled process waits at most ~10 ms, not ~100 ms


@dataclass
class Quota:
    """A CPU budget per process of a role, from ``--quota`` such as ``worker=0.25``: each such
    process runs in a cgroup of its own whose CFS quota is that fraction of one core.

    Why: the scale-out proof (two workers carry about twice one worker's actions) needs the
    workers to be the only bottleneck, which pinning whole cores to them cannot arrange on a
    2-core machine that also runs the gateway, PostgreSQL, Redis and the load client.  A quota
    gives every worker the same small, fixed "core" of its own and leaves the rest of the
    machine to the others, so the measurement asks exactly: does a second equal worker add
    its capacity?"""

    shares: dict[str, float] = field(default_factory=dict)
    groups: dict[str, Path] = field(default_factory=dict)  # process name -> its cgroup

    @classmethod
    def parse(cls, text: str | None) -> Quota:
        shares: dict[str, float] = {}
        for item in (text or "").split():
            role, _, share = item.partition("=")
            try:
                value = float(share)
            except ValueError:
                value = 0.0
            if not 0.01 <= value <= 64:
                raise ValueError(f"bad --quota entry {item!r}: role=cores, e.g. worker=0.25")
            shares[role] = value
        if shares and not (_CPU_CGROUPS / "cpu.cfs_quota_us").exists():
            raise ValueError(f"--quota needs cgroup v1's cpu controller at {_CPU_CGROUPS} (and root)")
        return cls(shares)

    def limit(self, role: str, name: str, pid: int) -> None:
        """Move ``pid`` (every thread of it) into a fresh cgroup with its role's quota."""
        share = self.shares.get(role)
        if share is None:
            return
        group = _CPU_CGROUPS / f"freezeout-bench-{os.getpid()}-{name}"
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(_PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(round(share * _PERIOD_US)))
        (group / "cgroup.procs").write_text(str(pid))
        self.groups[name] = group

    def throttled(self) -> dict[str, dict[str, float]]:
        """Per limited process: the share of CFS periods it hit its quota in, and the time it
        waited for that, so far (``cpu.stat``)."""
        found = {}
        for name, group in self.groups.items():
            with contextlib.suppress(OSError, ValueError):
                stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
                found[name] = {
                    "periods": float(stat["nr_periods"]), "throttled": float(stat["nr_throttled"]),
                    "throttled_s": int(stat["throttled_time"]) / 1e9}
        return found

    def describe(self) -> str:
        return " ".join(f"{role}={share}" for role, share in self.shares.items()) or "none"

    def release(self) -> None:
        """Remove the cgroups (their processes have exited by now)."""
        for group in self.groups.values():
            with contextlib.suppress(OSError):
                group.rmdir()
        self.groups.clear()


def _expand(part: str) -> list[int]:
    low, _, high = part.partition("-")
    return list(range(int(low), int(high or low) + 1))


class SingleTarget:
    """One ``freezeout serve`` process (``--role all``), as bench/load.py always measured."""

    def __init__(self, workdir: Path, db_url: str | None, pinning: Pinning, *, src: str | None = None,
                 profile: Path | None = None, **env: str) -> None:
        self.server = ServerProcess(workdir, db_url=db_url, src=src, **env)
        if profile:
            self.server.program = ["-c", _PROFILED, str(profile / "server.prof")]
        self.pinning = pinning
        self.profile = profile  # cProfile (CPU time) the server over the measured window into this directory
        self.urls: list[str] = []

    def start(self) -> None:
        self.server.start()
        self.pinning.pin("server", self.server.ps.pid)
        self.urls = [self.server.url]

    def cpu(self) -> dict[str, float]:
        return {"server": proc_cpu_seconds(self.server.ps.pid)}

    def rss_mb(self) -> dict[str, float]:
        return {"server": round(self.server.rss_mb(), 1)}

    def actions(self) -> dict[str, float]:
        return {}

    def gc_seconds(self) -> dict[str, float]:
        """The server's time in the cyclic garbage collector so far (its ``/metrics``)."""
        return {"server": _metric(self.server.url, "freezeout_gc_seconds")}

    def loop_lag(self) -> dict[str, dict[str, Any]]:
        """The server's event-loop lag so far (its ``/metrics``: :func:`loop_lag`)."""
        return {"server": loop_lag(self.server.url)}

    def profiling(self, on: bool) -> None:
        """Start (or stop and write out) the server's profile (``profile``)."""
        if self.profile and self.server.alive():
            assert self.server.process is not None
            out = self.profile / "server.prof"
            if not on:
                out.unlink(missing_ok=True)
            self.server.process.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)
            for _ in range(600):  # the server writes it from its signal handler: wait before stopping it
                if on or (out.exists() and out.stat().st_size):
                    time.sleep(0.5)  # written in one go; let it finish
                    break
                time.sleep(0.05)

    def stop(self) -> None:
        self.server.stop()

    def warnings(self) -> list[str]:
        return self.server.warnings()

    def log_text(self) -> str:
        return self.server.log_path.read_text(errors="replace")


def _metric(url: str, name: str) -> float:
    """The value of ``name`` (no labels) in a process's /metrics, 0 if it cannot say."""
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(f"{url}/metrics", timeout=5) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return 0.0


LAG = "freezeout_event_loop_lag_seconds"


def loop_lag(url: str) -> dict[str, Any]:
    """A process's event-loop lag so far (server/looplag.py): the largest (``max``, seconds),
    the samples and the histogram's cumulative buckets (``le`` -> count), from its /metrics."""
    found: dict[str, Any] = {"max": 0.0, "count": 0, "buckets": {}, "frozen": 0.0}
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(f"{url}/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(f'{LAG}_bucket{{le="'):
                bound = line.split('"')[1]
                found["buckets"][float("inf") if bound == "+Inf" else float(bound)] = int(line.split()[-1])
            elif line.startswith(f"{LAG}_count "):
                found["count"] = int(line.split()[-1])
            elif line.startswith("freezeout_event_loop_lag_max_seconds "):
                found["max"] = float(line.split()[-1])
            elif line.startswith("freezeout_gc_frozen_objects "):
                found["frozen"] = float(line.split()[-1])
    return found


def lag_between(before: dict[str, Any], after: dict[str, Any], limit: float = 0.1) -> dict[str, Any]:
    """What the event loop did between two :func:`loop_lag` readings of one process: the samples
    over ``limit`` seconds, and the bucket the worst one fell in (its upper bound, ms)."""
    added = {bound: count - before["buckets"].get(bound, 0) for bound, count in after["buckets"].items()}
    over = added.get(float("inf"), 0) - added.get(limit, 0)
    worst = None
    previous = 0
    for bound in sorted(added):
        if added[bound] > previous:
            worst = bound
        previous = added[bound]
    return {"samples": after["count"] - before["count"], f"over_{limit * 1000:g}ms": over,
            "worst_ms_at_most": None if worst is None else (round(worst * 1000) if worst != float("inf") else "inf")}


# A profiled process: cProfile on CPU time (the machine is shared: wall time would charge other
# processes' turns to whatever function was running), on from SIGUSR1, written out at SIGUSR2,
# so that the profile covers the measured window only (not the players' sign-ups).
_PROFILED = """
import cProfile, signal, sys, time
from freezeout.cli import main
out = sys.argv[1]
profile = cProfile.Profile(time.process_time)
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
def dump(*_):
    profile.disable()
    profile.dump_stats(out)
signal.signal(signal.SIGUSR2, dump)
sys.exit(main(sys.argv[2:]))
"""


class ClusterTarget:
    """PostgreSQL (fsync off, as the tests), redis-server, ``gateways`` gateways and
    ``workers`` workers on loopback, each pinned as ``pinning`` says."""

    def __init__(self, workdir: Path, *, gateways: int, workers: int, pinning: Pinning, quota: Quota | None = None,
                 profile: Path | None = None, **env: str) -> None:
        self.workdir, self.gateways, self.workers, self.pinning = workdir, gateways, workers, pinning
        self.quota = quota or Quota()
        self.profile = profile  # cProfile the first gateway and the first worker into this directory
        self.env = env
        self.postgres = LocalPostgres(workdir / "postgres")
        self.redis = LocalRedis(workdir / "redis")
        self.processes: list[Process] = []
        self.urls: list[str] = []
        self._postmaster = 0
        self._pg: dict[int, tuple[float, float]] = {}  # PostgreSQL pid -> (CPU seconds when first seen, when last seen)

    def start(self) -> None:
        self.postgres.start()
        self._postmaster = int((self.postgres.data / "postmaster.pid").read_text().split()[0])
        for pid in [self._postmaster, *children(self._postmaster)]:  # backends forked later inherit it
            self.pinning.pin("postgres", pid)
        self.redis.start()
        assert self.redis.process is not None
        self.pinning.pin("redis", self.redis.process.pid)
        from asyncio import run
        from concurrent.futures import ThreadPoolExecutor

        from freezeout.server.cluster.local import _migrate

        with ThreadPoolExecutor(1) as thread:  # the bench's own loop is running: migrate beside it
            thread.submit(lambda: run(_migrate(self.postgres.url))).result()
        env = {**os.environ, **BENCH_ENV, **self.env, **cluster_env(self.postgres, self.redis, self.workdir / "secrets")}
        logs = self.workdir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        for role, count in (("gateway", self.gateways), ("worker", self.workers)):
            for index in range(count):
                port = free_port()
                out = open(logs / f"{role}-{index + 1}.log", "ab")  # noqa: SIM115 (the child keeps it)
                program = (["-c", _PROFILED, str(self.profile / f"{role}.prof")] if self.profile and not index
                           else ["-m", "freezeout.cli"])
                command = [*self.pinning.prefix(role, index), sys.executable, *program, "serve",
                           "--role", role, "--port", str(port), "--name", f"{role}-{index + 1}"]
                popen = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
                self.quota.limit(role, f"{role}-{index + 1}", popen.pid)
                self.processes.append(Process(role, port, popen))
        wait_ready(self.processes)
        self.urls = [p.url for p in self.processes if p.role == "gateway"]

    def _named(self) -> list[tuple[str, Process]]:
        counts: dict[str, int] = {}
        named = []
        for process in self.processes:
            counts[process.role] = counts.get(process.role, 0) + 1
            named.append((f"{process.role}-{counts[process.role]}", process))
        return named

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far per process; PostgreSQL's as a running sum over its processes, each
        counted from when it was first seen here (a backend that exits keeps what it added up to
        the last sample; one forked and gone between two samples is missed)."""
        found = {name: proc_cpu_seconds(p.popen.pid) for name, p in self._named()}
        for pid in [self._postmaster, *children(self._postmaster)]:
            seconds = proc_cpu_seconds(pid)
            first, _last = self._pg.get(pid, (seconds, seconds))
            self._pg[pid] = (first, seconds)
        found["postgres"] = sum(last - first for first, last in self._pg.values())
        found["redis"] = proc_cpu_seconds(self.redis.process.pid) if self.redis.process else 0.0
        return found

    def rss_mb(self) -> dict[str, float]:
        found = {}
        for name, process in self._named():
            with contextlib.suppress(OSError, ValueError):
                for line in Path(f"/proc/{process.popen.pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        found[name] = round(int(line.split()[1]) / 1024, 1)
        return found

    def actions(self) -> dict[str, float]:
        """Each worker's ``freezeout_actions_total`` so far."""
        return {name: _metric(p.url, "freezeout_actions_total") for name, p in self._named() if p.role == "worker"}

    def gc_seconds(self) -> dict[str, float]:
        """Each gateway's and worker's time in the cyclic garbage collector so far."""
        return {name: _metric(p.url, "freezeout_gc_seconds") for name, p in self._named()}

    def loop_lag(self) -> dict[str, dict[str, Any]]:
        """Each gateway's and worker's event-loop lag so far."""
        return {name: loop_lag(p.url) for name, p in self._named()}

    def profiling(self, on: bool) -> None:
        """Start (or stop and write out) the profiles of the profiled processes."""
        if self.profile:
            for name, process in self._named():
                if name in ("gateway-1", "worker-1"):
                    process.popen.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)

    def stop(self) -> None:
        stop_processes(self.processes)
        self.quota.release()
        self.redis.stop()
        with contextlib.suppress(Exception):
            self.postgres.stop()

    def warnings(self) -> list[str]:
        lines = []
        for log in sorted((self.workdir / "logs").glob("*.log")):
            lines += [f"{log.stem}: {line}" for line in log.read_text(errors="replace").splitlines()
                      if line.startswith(("WARNING", "ERROR")) or "Traceback" in line]
        return lines

    def log_text(self) -> str:
        return "".join(f"== {log.name}\n{log.read_text(errors='replace')}"
                       for log in sorted((self.workdir / "logs").glob("*.log")))
