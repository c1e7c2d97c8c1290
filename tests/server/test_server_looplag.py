"""The event-loop lag monitor (server/looplag.py, issue #32 item 12): driven by a fake clock
whose sleep returns at once, late by what the test says; no wall clock anywhere."""

from __future__ import annotations

import logging

import httpx

from freezeout.server.looplag import LAG_BUCKETS, LoopLag, StallStacks, stack_line
from freezeout.server.metrics import Metrics


class FakeLoop:
    """A clock and a sleep: each sleep advances the clock by what was asked plus the next of
    ``lateness`` (what a stalled loop would have added)."""

    def __init__(self, lateness: list[float]) -> None:
        self.now = 1000.0
        self.lateness = list(lateness)
        self.asked: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.now += seconds + self.lateness.pop(0)


def bucket(text: str, name: str, le: str) -> int:
    return int(next(line.split()[-1] for line in text.splitlines() if line.startswith(f'{name}_bucket{{le="{le}"}}')))


async def test_the_lateness_of_each_wake_up_is_measured_and_shown_in_metrics(caplog):
    caplog.set_level(logging.WARNING, logger="freezeout.server.looplag")
    loop = FakeLoop([0.0, 0.003, 0.04, 2.25, 0.0005])
    metrics = Metrics("all")
    lag = LoopLag(metrics, period=0.02, limit=0.1, clock=loop.clock, sleep=loop.sleep)
    await lag.run(rounds=5)
    assert loop.asked == [0.02] * 5
    assert lag.samples == 5 and lag.stalls == 1
    assert abs(lag.worst - 2.25) < 1e-9
    text = metrics.render()
    name = "freezeout_event_loop_lag_seconds"
    assert "# TYPE freezeout_event_loop_lag_seconds histogram" in text
    assert bucket(text, name, "0.001") == 2  # on time, and half a millisecond late
    assert bucket(text, name, "0.005") == 3
    assert bucket(text, name, "0.05") == 4
    assert bucket(text, name, "1") == 4 and bucket(text, name, "2.5") == 5 and bucket(text, name, "+Inf") == 5
    assert f"{name}_count 5" in text
    assert "freezeout_event_loop_lag_max_seconds 2.25" in text
    assert "freezeout_event_loop_stalls_total 1" in text
    assert [r.getMessage() for r in caplog.records] == ["event loop blocked for 2250 ms"]


async def test_a_quiet_loop_shows_no_stall_and_early_wake_ups_count_as_on_time():
    loop = FakeLoop([0.0, -0.001, 0.0])  # a clock read a hair early: not negative lag
    metrics = Metrics("worker")
    lag = LoopLag(metrics, clock=loop.clock, sleep=loop.sleep)
    await lag.run(rounds=3)
    assert lag.worst == 0.0 and lag.stalls == 0
    text = metrics.render()
    assert "freezeout_event_loop_stalls_total 0" in text and "freezeout_event_loop_lag_max_seconds 0" in text
    assert "freezeout_event_loop_lag_seconds_sum 0" in text


def test_the_buckets_tell_a_stall_over_100_ms_apart():
    assert 0.1 in LAG_BUCKETS and list(LAG_BUCKETS) == sorted(LAG_BUCKETS)
    assert any(0.1 < b < 0.25 for b in LAG_BUCKETS)


async def test_a_running_server_shows_its_loop_lag(harness):
    async with httpx.AsyncClient(base_url=harness.base_url, timeout=30) as http:
        text = (await http.get("/metrics")).text
    assert "# TYPE freezeout_event_loop_lag_seconds histogram" in text
    assert "freezeout_event_loop_lag_max_seconds" in text


def test_the_stall_sampler_names_what_the_late_loop_runs(caplog):
    """StallStacks (a diagnosis): while the monitor's sleep is overdue by more than the limit, a
    sample logs the loop thread's innermost frames and where the CPU went; on time, it logs nothing."""
    caplog.set_level(logging.WARNING, logger="freezeout.server.looplag")
    loop = FakeLoop([])
    lag = LoopLag(clock=loop.clock, sleep=loop.sleep)
    stacks = StallStacks(lag, limit=0.1)  # built here: this thread plays the loop's
    assert stacks.sample() is None  # no sleep under way
    lag.due = loop.now - 0.05  # 50 ms overdue: under the limit
    assert stacks.sample() is None
    lag.due = loop.now - 0.25
    line = stacks.sample()
    assert line is not None and "test_the_stall_sampler_names_what_the_late_loop_runs" in line.split(" < ")[1]
    assert line.split(" < ")[0].startswith("freezeout/server/looplag.py:")  # innermost first: the sample itself
    assert stacks.taken == 1
    [record] = caplog.records
    assert record.getMessage().startswith("event loop late by 250 ms at ")
    assert "CPU in the last" in record.getMessage() and "loop " in record.getMessage()


async def test_the_monitor_shows_when_its_sleep_is_due():
    seen: list[float | None] = []
    loop = FakeLoop([0.0, 0.0])
    lag = LoopLag(clock=loop.clock, sleep=loop.sleep)

    async def sleep(seconds: float) -> None:
        seen.append(lag.due)
        await loop.sleep(seconds)

    lag.sleep = sleep
    await lag.run(rounds=2)
    assert seen == [1000.02, 1000.04] and lag.due is None


def test_stack_line_walks_innermost_first_and_stops_at_depth():
    import sys

    def inner() -> str:
        return stack_line(sys._getframe(), depth=2)

    parts = inner().split(" < ")
    assert len(parts) == 2 and parts[0].endswith(" inner") and parts[1].endswith(" test_stack_line_walks_innermost_first_and_stops_at_depth")
