"""The one way a test waits for something it cannot be told about: ``eventually``.

Most waits in the tests are for a message or a version (``Player.until``, the
page's ``wait_for_function``) and need no polling.  What is left — a worker
to own a table, Redis to take commands again after a restart, a connection to
be dropped, a Textual screen to reach a state — is a condition checked again
and again until it holds, with a generous fail-safe that a passing test never
reaches: a loaded two-core machine may take seconds where a quiet one takes
milliseconds, so the timeout is never a speed check.

Imported as ``polling`` (``tests/`` is on the path, as for ``freeports``).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable

#: How long a condition may take before the test fails: a fail-safe against a hang, never a wait.
FAIL_SAFE_SECONDS = 120.0


async def _next_look() -> None:
    await asyncio.sleep(0.01)


async def eventually(
    condition: Callable[[], bool | Awaitable[bool]],
    what: str = "the condition",
    *,
    timeout: float = FAIL_SAFE_SECONDS,
    pause: Callable[[], Awaitable[object]] = _next_look,
) -> None:
    """Wait until ``condition()`` (a bool, or an awaitable of one) holds; fail naming
    ``what`` after ``timeout`` seconds.  Between looks it awaits ``pause()``: by default a
    hundredth of a second of the event loop, so that the servers in it run; a Textual
    test passes ``pilot.pause`` (the app handles its pending messages)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await pause()
