"""Stopping background tasks for good.

Python 3.11's ``asyncio.wait_for`` can swallow a cancellation that arrives just as the
operation it waits for completes (CPython gh-86296; 3.12 rebuilt ``wait_for`` on
``asyncio.timeout``).  redis-py sends every command under ``wait_for``, so a task cancelled
in the middle of a send can carry on as if nothing had happened: a reader's loop then
never ends, and whoever awaits it after cancelling it waits for ever (a worker's or a
gateway's shutdown; tests/server/test_server_bus.py caught it).  :func:`stop_tasks`
cancels again any task that is still running a while after it was told to stop.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

__all__ = ["stop_tasks"]

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
