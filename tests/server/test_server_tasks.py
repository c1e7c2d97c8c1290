"""stop_tasks: a background task told to stop does stop, even one that swallowed the first
cancellation (as Python 3.11's wait_for does when the cancellation meets a finished send)."""

from __future__ import annotations

import asyncio

import pytest

from freezeout.server.tasks import stop_tasks


async def _loop_that_swallows_one_cancellation(swallowed: list[int]) -> None:
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed.append(1)  # carries on, as a send under 3.11's wait_for can


async def test_a_task_that_swallowed_its_cancellation_is_cancelled_again():
    swallowed: list[int] = []
    stubborn = asyncio.create_task(_loop_that_swallows_one_cancellation(swallowed))
    plain = asyncio.create_task(asyncio.sleep(3600))
    await asyncio.sleep(0)
    await stop_tasks(stubborn, None, plain)
    assert swallowed == [1]
    assert stubborn.cancelled() and plain.cancelled()


async def test_what_a_task_failed_with_is_raised_after_every_task_stopped():
    async def fails() -> None:
        raise ValueError("broken")

    failing = asyncio.create_task(fails())
    other = asyncio.create_task(asyncio.sleep(3600))
    await asyncio.sleep(0)
    with pytest.raises(ValueError, match="broken"):
        await stop_tasks(failing, other)
    assert other.cancelled()


async def test_nothing_to_stop():
    await stop_tasks()
    await stop_tasks(None)
