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
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["LAG_BUCKETS", "LoopLag"]

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
            await self.sleep(self.period)
            self.note(self.clock() - before - self.period)
            done += 1
