"""Background tasks: stopping them for good, and carrying the requests of a moment together.

Python 3.11's ``asyncio.wait_for`` can swallow a cancellation that arrives just as the
operation it waits for completes (CPython gh-86296; 3.12 rebuilt ``wait_for`` on
``asyncio.timeout``).  redis-py sends every command under ``wait_for``, so a task cancelled
in the middle of a send can carry on as if nothing had happened: a reader's loop then
never ends, and whoever awaits it after cancelling it waits for ever (a worker's or a
gateway's shutdown; tests/server/test_server_bus.py caught it).  :func:`stop_tasks`
cancels again any task that is still running a while after it was told to stop.

:class:`Batched` gathers what many tasks ask in one turn of the event loop (a gateway's
moves to send, the routes of connections joining at once) and carries them out in one
exchange with Redis or the database, each asker still awaiting its own answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final, Generic, TypeVar

__all__ = ["Batched", "stop_tasks"]

T = TypeVar("T")
R = TypeVar("R")

RECANCEL_SECONDS: Final = 0.5  # long enough for a task's own clean-up on cancellation


async def stop_tasks(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel ``tasks`` and return once every one has finished, cancelling again any that
    swallowed it.  An exception a task ended with (other than its cancellation) is raised,
    as awaiting the task would."""
    started = [task for task in tasks if task is not None]
    running = set(started)
    while running:
        for task in running:
            task.cancel()
        await asyncio.wait(running, timeout=RECANCEL_SECONDS)
        running = {task for task in running if not task.done()}
    for task in started:
        if not task.cancelled():
            task.result()


class Batched(Generic[T, R]):
    """``await batched(item)`` answers ``carry``'s result for ``item``, where ``carry`` gets
    every item asked in the same turn of the loop (at most ``most`` at once, in the order
    asked) and returns their results in that order.  If ``carry`` raises, every asker of
    that batch gets the exception, as if it had asked alone."""

    def __init__(self, carry: Callable[[list[T]], Awaitable[list[R]]], *, most: int, name: str) -> None:
        self.carry, self.most, self.name = carry, most, name
        self._pending: list[tuple[T, asyncio.Future[R]]] = []
        self._task: asyncio.Task[None] | None = None

    async def __call__(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._carry_pending(), name=self.name)
        return await future

    async def _carry_pending(self) -> None:
        await asyncio.sleep(0)  # one turn of the loop: the others asking now join this batch
        while self._pending:
            batch, self._pending = self._pending[:self.most], self._pending[self.most:]
            try:
                results = await self.carry([item for item, _ in batch])
            except Exception as error:
                for _, future in batch:
                    if not future.done():  # its asker may have been cancelled meanwhile
                        future.set_exception(error)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)

    async def close(self) -> None:
        await stop_tasks(self._task)
