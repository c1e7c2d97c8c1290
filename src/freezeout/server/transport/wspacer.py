"""A connect storm's handshakes, a few per turn of the event loop (issue #32 item 12).

asyncio runs, in one iteration of its loop, every callback that was ready when the
iteration began.  When thousands of clients connect at once (a room's restart, a
network blip: every player reconnects), their handshakes arrive together, and each
connection's first step — the ASGI middleware, the WebSocket accept, the outbox, who
the client is — runs in the same iteration: 250–400 of them, 100–900 ms during which
no table moved and no timer fired (docs/scaling.md "No freeze").

:class:`Pacer` lets at most ``per_turn`` new connections through per iteration; the
others wait, in the order they came, and pass a batch per iteration after that.  The
work is the same, but the tables' moves and timers run between the batches: a storm
costs the room a little latency spread over its length instead of one long stop.
The count is per iteration, not per second, so a quiet machine passes a storm as fast
as it can, and a test needs no clock.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque

__all__ = ["PER_TURN", "Pacer"]

PER_TURN = 16  # handshakes per loop iteration: about 1 ms of work each, so a batch stays near 20 ms


class Pacer:
    """At most ``per_turn`` callers of :meth:`turn` go on per event-loop iteration, in order."""

    def __init__(self, loop: asyncio.AbstractEventLoop, per_turn: int = PER_TURN) -> None:
        self.loop, self.per_turn = loop, per_turn
        self.passed = 0  # callers let through in this iteration
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.scheduled = False  # a release is due at the next iteration

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> Pacer:
        """The pacer of the running loop's WebSocket handshakes (one per loop: a test's loop has its own)."""
        pacer = _PACERS.get(loop)
        if pacer is None:
            pacer = _PACERS[loop] = cls(loop)
        return pacer

    async def turn(self) -> None:
        """Go on now if this iteration has room and nobody waits; else wait for a later one."""
        if self.passed < self.per_turn and not self.waiting:
            self.passed += 1
            self._schedule()
            return
        future = self.loop.create_future()
        self.waiting.append(future)
        self._schedule()
        await future

    def _schedule(self) -> None:
        if not self.scheduled:
            self.scheduled = True
            self.loop.call_soon(self._release)

    def _release(self) -> None:
        """A new iteration: wake the next batch (their tasks run in the iteration after this one)."""
        self.scheduled = False
        self.passed = 0
        while self.waiting and self.passed < self.per_turn:
            future = self.waiting.popleft()
            if not future.done():  # a cancelled waiter (its client left) takes no place
                future.set_result(None)
                self.passed += 1
        if self.waiting or self.passed:
            self._schedule()


_PACERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Pacer] = weakref.WeakKeyDictionary()
