"""A connect storm's handshakes go on a few per turn of the event loop (transport/wspacer.py,
issue #32 item 12): the tables' moves and timers run between the batches.  Counted in loop
iterations, not time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from freezeout.server.transport.wspacer import Pacer


@contextlib.contextmanager
def iterations(loop: asyncio.AbstractEventLoop) -> Iterator[list[int]]:
    """A counter of the loop's iterations: a callback that runs once in each."""
    count = [0]
    running = [True]

    def tick() -> None:
        count[0] += 1
        if running[0]:
            loop.call_soon(tick)

    loop.call_soon(tick)
    try:
        yield count
    finally:
        running[0] = False


async def test_a_storm_of_handshakes_goes_on_a_few_per_loop_iteration_in_the_order_they_came():
    loop = asyncio.get_running_loop()
    pacer = Pacer(loop, per_turn=3)
    passed: list[tuple[int, int]] = []
    with iterations(loop) as count:

        async def handshake(n: int) -> None:
            await pacer.turn()
            passed.append((count[0], n))

        await asyncio.gather(*(handshake(n) for n in range(20)))
    assert [n for _, n in passed] == list(range(20))  # first come, first served
    per_iteration: dict[int, int] = {}
    for at, _ in passed:
        per_iteration[at] = per_iteration.get(at, 0) + 1
    assert max(per_iteration.values()) == 3  # never more than per_turn in one iteration
    assert len(per_iteration) == 7  # 20 in batches of 3


async def test_a_client_gone_while_waiting_takes_no_place_in_a_batch():
    loop = asyncio.get_running_loop()
    pacer = Pacer(loop, per_turn=2)
    passed: list[int] = []

    async def handshake(n: int) -> None:
        await pacer.turn()
        passed.append(n)

    first = [asyncio.ensure_future(handshake(n)) for n in range(2)]  # pass at once
    waiting = [asyncio.ensure_future(handshake(n)) for n in range(2, 6)]
    await asyncio.sleep(0)  # every one has asked for its turn
    waiting[0].cancel()  # 2 left
    await asyncio.gather(*first, *waiting[1:])
    assert passed == [0, 1, 3, 4, 5] and not pacer.waiting


async def test_a_quiet_room_lets_a_lone_handshake_through_at_once():
    pacer = Pacer(asyncio.get_running_loop(), per_turn=2)
    for _ in range(5):  # one at a time, each in a later iteration: nobody ever waits
        await pacer.turn()
        assert not pacer.waiting
        await asyncio.sleep(0)
        await asyncio.sleep(0)


def test_each_event_loop_has_its_own_pacer():
    first, second = asyncio.new_event_loop(), asyncio.new_event_loop()
    try:
        assert Pacer.of(first) is Pacer.of(first) and Pacer.of(first) is not Pacer.of(second)
    finally:
        first.close()
        second.close()
