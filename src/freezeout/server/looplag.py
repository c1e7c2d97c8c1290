"""How late the event loop runs a periodic callback: every table waits behind a stall.

A small task sleeps ``period`` seconds again and again and notes how much
later than asked it woke up: that lateness is what any timer, move or message
of the room waited at that moment (a full garbage collection, a burst of
10,000 handshakes, a slow synchronous call).  Each lateness goes into the
``freezeout_event_loop_lag_seconds`` histogram of ``/metrics``, with the
largest so far (``freezeout_event_loop_lag_max_seconds``) and the count over
``limit`` (``freezeout_event_loop_stalls_total``); a stall over ``limit`` is
also logged.

The clock and the sleep are injected, so a test drives the monitor with a
fake clock and no waiting (tests/server/test_server_looplag.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Protocol

__all__ = ["LAG_BUCKETS", "LoopLag", "StallStacks", "stack_line"]

log = logging.getLogger(__name__)

PERIOD = 0.02  # seconds between samples: finer than any stall worth naming, cheap (50 wake-ups a second)
LIMIT = 0.1  # a stall over this is logged and counted (the room's p99 target)
# Seconds: a healthy loop is late by well under a millisecond; the buckets above 100 ms tell a
# collection's pause from a burst's.
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)


class _Histograms(Protocol):
    def histogram(self, name: str, bounds: tuple[float, ...], help_text: str) -> Callable[[float], None]: ...

    def gauge(self, name: str, read: Callable[[], float], help_text: str) -> None: ...

    def count(self, name: str, amount: float = 1.0, **labels: str) -> None: ...


class LoopLag:
    """The event loop's lateness, sampled every ``period`` seconds of ``clock``."""

    def __init__(self, metrics: _Histograms | None = None, *, period: float = PERIOD, limit: float = LIMIT,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.period, self.limit, self.clock, self.sleep = period, limit, clock, sleep
        self.samples = 0
        self.due: float | None = None  # when the current sleep should end (``clock``); None between samples
        self.worst = 0.0  # the largest lateness seen, seconds
        self.stalls = 0  # samples later than ``limit``
        self.metrics = metrics
        self._observe: Callable[[float], None] | None = None
        if metrics is not None:
            self._observe = metrics.histogram(
                "freezeout_event_loop_lag_seconds", LAG_BUCKETS,
                f"how much later than asked a {period:g} s timer of the event loop ran (every table waited as long)")
            metrics.gauge("freezeout_event_loop_lag_max_seconds", lambda: self.worst,
                          "the largest event-loop lag since the process started")

    def note(self, late: float) -> None:
        """One sample: the loop ran a timer ``late`` seconds after its time (never negative)."""
        late = max(0.0, late)
        self.samples += 1
        self.worst = max(self.worst, late)
        if self._observe is not None:
            self._observe(late)
        if late > self.limit:
            self.stalls += 1
            if self.metrics is not None:
                self.metrics.count("freezeout_event_loop_stalls_total")
            log.warning("event loop blocked for %.0f ms", late * 1000)

    async def run(self, rounds: int | None = None) -> None:
        """Sample for ever (or ``rounds`` times): sleep ``period``, note how late the wake-up was."""
        done = 0
        while rounds is None or done < rounds:
            before = self.clock()
            self.due = before + self.period
            await self.sleep(self.period)
            self.due = None
            self.note(self.clock() - before - self.period)
            done += 1


def stack_line(frame: FrameType | None, depth: int = 10) -> str:
    """The innermost ``depth`` frames of a stack, innermost first, as ``file:line function``
    joined by `` < ``: one log line that names what a stalled loop was running."""
    parts: list[str] = []
    while frame is not None and len(parts) < depth:
        code = frame.f_code
        path = code.co_filename
        short = path.rsplit("/site-packages/", 1)[-1].rsplit("/src/", 1)[-1]
        parts.append(f"{short}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return " < ".join(parts)


def thread_cpu() -> dict[int, float]:
    """Each thread of this process: its CPU seconds so far, by native thread id (Linux's
    ``/proc/self/task``; empty elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    found: dict[int, float] = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        found[int(tid)] = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return found


class StallStacks:
    """A diagnosis, off by default (``FREEZEOUT_LOOP_STALL_STACKS=1``): a daemon thread that,
    while the loop's lag monitor is late by more than ``limit``, samples what the loop's thread
    is running (``sys._current_frames``) every ``every`` seconds and logs the innermost frames,
    with the wall time and where the process's CPU went since the previous sample (the loop's
    thread, the others by name), so that a stall names its code — or shows that the loop
    was waiting: for the GIL (another thread ran) or for a CPU (nobody ran).  A stack that
    ends in ``asyncio_run`` is the loop in C: uvloop's own work, a system call or the GIL.

    A sample costs the loop nothing but the GIL for one stack walk; the thread itself wakes
    ``1 / every`` times a second (docs/scaling.md "No freeze")."""

    def __init__(self, lag: LoopLag, *, limit: float = LIMIT, every: float = 0.05, depth: int = 12) -> None:
        self.lag, self.limit, self.every, self.depth = lag, limit, every, depth
        self.loop_thread = threading.get_ident()  # built on the loop's thread
        self.loop_native = threading.get_native_id()
        self.taken = 0
        self._cpu = thread_cpu()
        self._at = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="loop-stall-stacks", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _cpu_since(self) -> str:
        """Where the CPU went since the previous sample, in ms: the loop's thread, then the others."""
        now, cpu = time.monotonic(), thread_cpu()
        names = {t.native_id: t.name for t in threading.enumerate()}
        spent = {tid: (used - self._cpu.get(tid, 0.0)) * 1000 for tid, used in cpu.items()}
        wall = (now - self._at) * 1000
        self._cpu, self._at = cpu, now
        loop = spent.pop(self.loop_native, 0.0)
        others = sorted(((ms, names.get(tid, str(tid))) for tid, ms in spent.items() if ms > 0), reverse=True)
        return f"CPU in the last {wall:.0f} ms: loop {loop:.0f} ms, " + (
            ", ".join(f"{name} {ms:.0f}" for ms, name in others[:4]) or "no other thread")

    def sample(self) -> str | None:
        """If the loop is late now by more than ``limit``: log and return what it is running."""
        due = self.lag.due
        late = self.lag.clock() - due if due is not None else 0.0
        if late <= self.limit:
            self._cpu_since()
            return None
        line = stack_line(sys._current_frames().get(self.loop_thread), self.depth)
        self.taken += 1
        log.warning("event loop late by %.0f ms at %s (%s) in: %s", late * 1000, time.strftime("%H:%M:%S"),
                    self._cpu_since(), line)
        return line

    def _watch(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()
