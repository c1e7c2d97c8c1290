"""Counters, gauges and a histogram in the Prometheus text format (``GET /metrics``).

A handful of numbers an operator of a cluster watches: open connections,
tables owned, actions handled (a counter: Prometheus derives actions/s with
``rate()``), how long an action takes from the worker's inbox to its
committed update, lease changes (acquired, lost, released), and how late the
event loop runs a timer (server/looplag.py: every table waits behind a stall).  Written
here rather than pulled in from a client library: the format is a few lines
of text, and every number is updated on the event loop (no locks needed).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

__all__ = ["LATENCY_BUCKETS", "Metrics"]

# Seconds: the room aims at a p99 under 100 ms, so the buckets are dense below it.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class _Histogram:
    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value
        self.count += 1


class Metrics:
    """The process's numbers.  Gauges are read when scraped (a callable each), so nothing has
    to keep them up to date."""

    def __init__(self, role: str) -> None:
        self.role = role
        self.counters: dict[tuple[str, str], float] = {}  # (name, labels) -> value
        self.gauges: dict[str, Callable[[], float]] = {}
        self.helps: dict[str, str] = {}
        self.latency = _Histogram(LATENCY_BUCKETS)
        self.histograms: dict[str, tuple[_Histogram, str]] = {}  # more histograms: name -> (it, help)

    def count(self, name: str, amount: float = 1.0, **labels: str) -> None:
        key = (name, ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())))
        self.counters[key] = self.counters.get(key, 0.0) + amount

    def gauge(self, name: str, read: Callable[[], float], help_text: str) -> None:
        self.gauges[name] = read
        self.helps[name] = help_text

    def histogram(self, name: str, bounds: tuple[float, ...], help_text: str) -> Callable[[float], None]:
        """A histogram rendered as ``name``; returns the function that observes a value."""
        found = _Histogram(bounds)
        self.histograms[name] = (found, help_text)
        return found.observe

    def observe_action(self, seconds: float) -> None:
        """An intent handled ``seconds`` after it reached its table (an action, counted too)."""
        self.count("freezeout_actions_total")
        self.latency.observe(seconds)

    def render(self) -> str:
        lines: list[str] = []
        helps = {
            "freezeout_actions_total": "client intents applied by this process's tables (a refused one is not an action)",
            "freezeout_lease_changes_total": "table leases acquired, lost (refused or not renewed) and released",
            "freezeout_bus_dropped_total": "messages the bus could not carry (Redis away): at most once",
            "freezeout_commands_total": "commands a gateway routed to table owners",
            "freezeout_event_loop_stalls_total": "event-loop lags over 100 ms (every table of the process stopped as long)",
        }
        names = sorted({name for name, _ in self.counters} | set(helps))
        for name in names:
            lines.append(f"# HELP {name} {helps.get(name, name)}")
            lines.append(f"# TYPE {name} counter")
            found = [(labels, value) for (n, labels), value in sorted(self.counters.items()) if n == name]
            for labels, value in found or [("", 0.0)]:
                lines.append(f"{name}{{{labels}}} {value:g}" if labels else f"{name} {value:g}")
        for name, read in sorted(self.gauges.items()):
            lines.append(f"# HELP {name} {self.helps[name]}")
            lines.append(f"# TYPE {name} gauge")
            lines.append(f"{name} {read():g}")
        histograms = {"freezeout_action_seconds": (
            self.latency, "from an intent reaching its table (a worker's inbox) to its having been handled"),
            **self.histograms}
        for name, (hist, help_text) in histograms.items():
            lines.append(f"# HELP {name} {help_text}")
            lines.append(f"# TYPE {name} histogram")
            running = 0
            for bound, count in zip(hist.bounds, hist.counts, strict=False):
                running += count
                lines.append(f'{name}_bucket{{le="{bound:g}"}} {running}')
            lines.append(f'{name}_bucket{{le="+Inf"}} {hist.count}')
            lines.append(f"{name}_sum {hist.total:g}")
            lines.append(f"{name}_count {hist.count}")
        lines.append("# HELP freezeout_info the process's role")
        lines.append("# TYPE freezeout_info gauge")
        lines.append(f'freezeout_info{{role="{self.role}"}} 1')
        return "\n".join(lines) + "\n"
