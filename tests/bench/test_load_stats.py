"""bench/load.py's own measurements: the per-second timeline of a run and the client's stalls.

A p99 over a whole run cannot say whether its tail is a few bad seconds (a burst,
a stall on one side) or every second (a queue): the timeline can.  And a move's
latency is read on the client, so the client reports its own stalls, and keeps
its collector quiet while it measures (a pass over 10,000 kept views took 100-220 ms).
"""

from __future__ import annotations

import asyncio
import gc


def test_the_timeline_groups_moves_by_the_second_they_were_sent_in(load) -> None:
    stats = load.Stats()
    t0 = 100.0
    for k in range(100):  # second 0: 100 moves of 1..100 ms
        stats.sent_at.append(t0 + 0.005 * k)
        stats.latencies.append((k + 1) / 1000)
    stats.sent_at += [t0 + 2.5, t0 + 2.9]  # second 2: two slow moves; second 1: none
    stats.latencies += [0.3, 0.4]
    assert load.latency_timeline(stats, t0) == [[0, 100, 51.0, 100.0, 100.0], [2, 2, 400.0, 400.0, 400.0]]


def test_the_client_turns_its_collector_off_while_measuring_and_back_on_after(load) -> None:
    assert gc.isenabled()

    async def measure() -> tuple[bool, dict[str, float]]:
        load.ClientStalls.quiet_collector()
        stalls = load.ClientStalls()
        stalls.start()
        try:
            quiet = not gc.isenabled()
            while not stalls.late_ms:  # until the watcher has sampled the loop's lateness once
                await asyncio.sleep(0)
            gc.collect()  # a pass the callback sees (an explicit one runs even while disabled)
        finally:
            report = stalls.stop()
        return quiet, report

    quiet, report = asyncio.run(measure())
    assert quiet and gc.isenabled() and gc.get_freeze_count() == 0
    assert report["gc_passes"] == 1 and report["gc_ms_total"] >= 0
    assert set(report) == {"loop_late_ms_p99", "loop_late_ms_max", "gc_passes", "gc_ms_total", "gc_ms_max"}


def test_the_servers_loop_lag_is_reported_per_phase_from_its_histogram(load) -> None:
    """The report's ``server_loop_lag``: per phase, the samples over 100 ms and the bucket of the
    worst one (read from two /metrics readings), and the largest since the server started."""
    inf = float("inf")

    def reading(counts: dict[float, int], worst: float) -> dict[str, object]:
        return {"max": worst, "count": counts[inf], "buckets": counts, "frozen": 5.0}

    setup = reading({0.001: 10, 0.1: 10, 0.25: 10, 2.5: 10, inf: 10}, 0.0005)
    connect = reading({0.001: 15, 0.1: 18, 0.25: 19, 2.5: 20, inf: 20}, 0.9)  # one of 100-250 ms, one of 250 ms-2.5 s
    window = reading({0.001: 30, 0.1: 43, 0.25: 44, 2.5: 45, inf: 45}, 0.9)  # cumulative: none over 100 ms
    report = load.lag_report([("setup", {"server": setup}), ("connect", {"server": connect}),
                              ("window", {"server": window})])["server"]
    assert report["max_ms"] == 900.0 and report["frozen_objects"] == 5.0
    assert report["connect"] == {"samples": 10, "over_100ms": 2, "worst_ms_at_most": 2500}
    assert report["window"] == {"samples": 25, "over_100ms": 0, "worst_ms_at_most": 100}
