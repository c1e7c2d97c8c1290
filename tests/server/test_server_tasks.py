"""stop_tasks: a background task told to stop does stop, even one that swallowed the first
cancellation (as Python 3.11's wait_for does when the cancellation meets a finished send).
Batched: what is asked in one turn of the loop is carried out together."""

from __future__ import annotations

import asyncio

import pytest

from freezeout.server.tasks import Batched, stop_tasks


async def _forever(started: asyncio.Event) -> None:
    started.set()
    await asyncio.Event().wait()  # nothing ever sets it


async def _loop_that_swallows_one_cancellation(started: asyncio.Event, swallowed: list[int]) -> None:
    while True:
        try:
            await _forever(started)
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed.append(1)  # carries on, as a send under 3.11's wait_for can


async def test_a_task_that_swallowed_its_cancellation_is_cancelled_again():
    swallowed: list[int] = []
    running, also_running = asyncio.Event(), asyncio.Event()
    stubborn = asyncio.create_task(_loop_that_swallows_one_cancellation(running, swallowed))
    plain = asyncio.create_task(_forever(also_running))
    await running.wait()
    await also_running.wait()
    await stop_tasks(stubborn, None, plain)
    assert swallowed == [1]
    assert stubborn.cancelled() and plain.cancelled()


async def test_what_a_task_failed_with_is_raised_after_every_task_stopped():
    async def fails() -> None:
        raise ValueError("broken")

    running = asyncio.Event()
    failing = asyncio.create_task(fails())
    other = asyncio.create_task(_forever(running))
    await running.wait()
    with pytest.raises(ValueError, match="broken"):
        await stop_tasks(failing, other)
    assert other.cancelled()


async def test_nothing_to_stop():
    await stop_tasks()
    await stop_tasks(None)


async def test_what_is_asked_at_once_is_carried_together_and_each_gets_its_answer():
    batches: list[list[int]] = []

    async def double(items: list[int]) -> list[int]:
        batches.append(items)
        return [2 * item for item in items]

    batched = Batched(double, most=3, name="double")
    assert await asyncio.gather(*(batched(n) for n in range(5))) == [0, 2, 4, 6, 8]
    assert batches == [[0, 1, 2], [3, 4]]
    assert await batched(7) == 14
    assert batches[-1] == [7]
    await batched.close()


async def test_every_asker_of_a_failed_batch_gets_the_failure():
    async def broken(items: list[int]) -> list[int]:
        raise ConnectionError("away")

    batched = Batched(broken, most=10, name="broken")
    answers = await asyncio.gather(batched(1), batched(2), return_exceptions=True)
    assert [type(a) for a in answers] == [ConnectionError, ConnectionError]
    await batched.close()
