"""Injected time (design principle 8): the table actors never read the wall
clock or sleep directly, so that tests drive R15 and R26–R30 with a
:class:`FakeClock` instead of real sleeps."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from typing import Any, Protocol

__all__ = ["Clock", "FakeClock", "SystemClock"]


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the Unix epoch."""
        ...

    async def wait(self, event: asyncio.Event, deadline: float | None) -> None:
        """Return when ``event`` is set or ``deadline`` has passed (whichever is first)."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def wait(self, event: asyncio.Event, deadline: float | None) -> None:
        if deadline is None:
            await event.wait()
            return
        timeout = deadline - time.time()
        if timeout <= 0:
            return
        # asyncio.timeout, not wait_for: wait_for wraps the wait in a new task each time, and
        # every table waits again after each change.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await event.wait()


class FakeClock:
    """A clock that moves only when a test calls :meth:`advance`."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
        while self._timers and self._timers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._timers)
            if not future.done():
                future.set_result(None)

    async def wait(self, event: asyncio.Event, deadline: float | None) -> None:
        if deadline is not None and deadline <= self._now:
            return
        waiter: asyncio.Future[bool] = asyncio.ensure_future(event.wait())
        timer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if deadline is not None:
            heapq.heappush(self._timers, (deadline, next(self._counter), timer))
        try:
            done: list[asyncio.Future[Any]] = [waiter, timer]
            await asyncio.wait(done, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not timer.done():
                timer.cancel()
            if len(self._timers) > 1024:  # drop cancelled timers (a deadline hours away stays otherwise)
                self._timers = [item for item in self._timers if not item[2].done()]
                heapq.heapify(self._timers)
