"""Process-wide garbage-collector tuning for ``freezeout serve`` (and nothing else).

Game states are many small immutable tuples freed by reference counting; the
cyclic collector's passes over a large heap were the server's p99 stalls.
:func:`tuned_gc` changes the collector of the whole process, so only the
``serve`` command asks for it (``create_app(..., tune_process=True)``,
behind the ``gc_tuning`` setting), and it puts everything back when the
server shuts down: a test or a program that builds an app keeps its GC.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from asyncio import selector_events
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

__all__ = ["AGE_PASSES", "GARBAGE_PER_CLOSED", "Freezer", "release_transport_cycles", "tuned_gc"]

log = logging.getLogger(__name__)

YOUNG_PERIOD = 0.1  # seconds between collections of the young generations (0 and 1 together)
FULL_EVERY = 600.0  # seconds between full collections (cyclic garbage in the old generation)
# CPython's own rule starts a generation-0 pass when allocations minus deallocations pass the
# first threshold: kept above what a busy room allocates in a period, so that the clock decides.
YOUNG_THRESHOLD = 100_000
# Objects in cycles that a closed WebSocket leaves for the collector: 85 of its ~200 until the
# outbox and the transport let go of themselves when it closes (release_transport_cycles,
# transport/wsoutbox.py), 0 since in every way of closing measured (docs/scaling.md "No
# freeze"; tests/server/test_server_wscycles.py).  1 keeps a thaw as a safety net for what no
# measure saw, due only after hundreds of thousands of closed connections.
GARBAGE_PER_CLOSED = 1
# Young passes between freezes of what aged (10 s at YOUNG_PERIOD): the full collection then
# walks at most that much aging (Freezer).
AGE_PASSES = 100
# The share of aged objects assumed to be cyclic garbage until a full collection measures it
# (measured: 0 unreachable in every full collection of a 2,000-player run, docs/scaling.md).
AGED_GARBAGE_SHARE = 0.01


def release_transport_cycles() -> bool:
    """Make a closed asyncio socket transport free itself by reference counting (once per process).

    CPython 3.11's selector transport keeps its read callback as a bound method of itself
    (``_read_ready_cb``): every TCP connection's transport is a reference cycle, with its
    socket and buffers, left for the cyclic collector — or, frozen, for a thaw (docs/scaling.md
    "No freeze").  CPython 3.12 clears it in ``close()`` (gh-100348); this clears it when the
    connection is lost, which every way of closing reaches.  A no-op on a transport without
    that attribute (uvloop's, a later CPython's); returns whether it is installed."""
    cls: Any = getattr(selector_events, "_SelectorSocketTransport", None)
    lost = getattr(cls, "_call_connection_lost", None)
    if lost is None or not hasattr(cls, "_read_ready__data_received"):
        return False
    if getattr(lost, "releases_read_callback", False):
        return True

    def _call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lost(self, exc)
        finally:
            self._read_ready_cb = None  # the transport -> bound method -> transport cycle

    _call_connection_lost.releases_read_callback = True  # type: ignore[attr-defined]
    cls._call_connection_lost = _call_connection_lost
    return True


class _Collector(Protocol):
    """The parts of the ``gc`` module the freezer uses (a test passes a fake)."""

    def collect(self, generation: int = 2) -> int: ...

    def freeze(self) -> None: ...

    def unfreeze(self) -> None: ...

    def get_freeze_count(self) -> int: ...

    def get_objects(self, generation: int | None = None) -> list[Any]: ...


class Freezer:
    """Keeps the connections' long-lived objects out of the full collection (issue #32, item 12).

    A full collection walks every object of the old generation: at 10,000 players 2.25
    million, about 200 per WebSocket (the ASGI stack each connection keeps alive), for a
    2.25 s stop of every table.  So what is alive for long is frozen (``gc.freeze()``: out of
    the collector's sight, still freed by reference counting): after start-up, after each
    full collection, after a burst of ``burst`` new connections, and every ``age_passes``
    young passes (each right after a young pass, when the young generations are empty: a
    list splice), so that a full collection walks only what aged since the last freeze.  A closed connection's objects are freed by reference counting (its cycles are
    broken as it closes: :data:`GARBAGE_PER_CLOSED`); cyclic garbage among frozen objects
    would stay for ever, so a *thaw* (unfreeze, collect everything, freeze again) takes it
    back once the estimated garbage is at least ``thaw_min`` objects and at least as large
    as what is frozen and alive, so that its cost is at most twice what it frees and memory
    stays within about twice what is alive."""

    def __init__(self, connections: Callable[[], int] | None = None, *, burst: int = 500,
                 garbage_per_closed: int = 0, thaw_min: int = 200_000, age_passes: int = AGE_PASSES,
                 collector: _Collector | None = None) -> None:
        self.connections = connections or (lambda: 0)
        self.burst, self.thaw_min = burst, thaw_min
        self.garbage_per_closed = garbage_per_closed or GARBAGE_PER_CLOSED
        self.gc: _Collector = collector or gc  # the module has these functions
        self.last = self.since = self.connections()  # open now; open at the last freeze (or fewer since)
        self.frozen_open = 0  # connections frozen (open at a freeze) and, as far as we know, still open
        self.closed = 0  # frozen connections closed since the last thaw (the count's drops, seen every pass)
        self.freezes = self.thaws = 0
        # Objects moved out of sight since the last thaw (each freeze counts what it moves; some
        # have since been freed by reference counting).  ``gc.get_freeze_count()`` walks every
        # frozen object: 50-100 ms at 10,000 players, a stall of every table whenever /metrics
        # was read (docs/scaling.md "No freeze").
        self.frozen = 0
        # What aged is frozen every ``age_passes`` young passes, so that the periodic full
        # collection walks only what aged since (at 10,000 players it walked ten minutes of
        # aging: 0.4-0.8 s).  Cycles among them would wait for a thaw: their share is estimated
        # from each full collection (what it found unreachable of what it walked; 0 in every
        # run measured) and counted with the closed connections' (``garbage``).
        self.age_passes, self.passes = age_passes, 0
        self.share = AGED_GARBAGE_SHARE  # until a full collection measures it
        self.aged_garbage = 0.0

    def _freeze(self) -> int:
        """Freeze the old generation, counting what moves (a walk of the old generation only:
        what aged since the last freeze, never the frozen ones); returns that count."""
        moved = len(self.gc.get_objects(2))
        self.gc.freeze()
        self.frozen += moved
        self.passes = 0
        return moved

    def garbage(self) -> int:
        """Objects estimated to be cyclic garbage among the frozen ones."""
        return self.closed * self.garbage_per_closed + int(self.aged_garbage)

    def after_young_pass(self) -> str | None:
        """Called right after a collection of the young generations: thaw, freeze or nothing."""
        now = self.connections()
        gone = min(max(0, self.last - now), self.frozen_open)  # counted as frozen ones: a thaw errs early
        self.closed += gone
        self.frozen_open -= gone
        self.last = now
        garbage = self.garbage()
        if garbage >= self.thaw_min and garbage >= self.gc.get_freeze_count() - garbage:
            self.gc.unfreeze()
            self.gc.collect()
            self.frozen, self.aged_garbage = 0, 0.0
            self._freeze()
            self.closed, self.since, self.frozen_open, self.thaws = 0, now, now, self.thaws + 1
            return "thaw"
        if now - self.since >= self.burst:
            self._freeze()
            self.since, self.frozen_open, self.freezes = now, now, self.freezes + 1
            return "freeze"
        self.since = min(self.since, now)
        self.passes += 1
        if self.passes >= self.age_passes:  # right after a young pass: only the old generation moves
            self.aged_garbage += self._freeze() * self.share
            self.freezes += 1
            return "age"
        return None

    def full(self) -> None:
        """The periodic full collection: what aged since the last freeze, then freeze the rest."""
        found = self.gc.collect()
        walked = found + self._freeze()
        if walked:
            self.share = found / walked
        self.since = self.frozen_open = self.connections()
        self.freezes += 1


async def _collect(period: float = YOUNG_PERIOD, full_every: float = FULL_EVERY, freezer: Freezer | None = None) -> None:
    """Collect the young generations on a clock, both in one pass, and the old one now and then.

    CPython starts a collection when allocations minus deallocations pass a
    threshold; a busy room frees an old table state for each new one, so that
    count stays low while the young generation grows to 100,000+ objects, and
    the collection that finally comes stopped every table for 70-130 ms
    (measured at 4,000 players).  A pass costs about what is alive of what was
    born since the last one (a table's state lives until its next move,
    seconds), so passes on a clock stay small: generation 1 every 0.5 s took
    50-85 ms a pass at 10,000 players, every 0.1 s a fifth of it
    (docs/scaling.md "Garbage collection at 10,000 players").  Each pass takes
    generations 0 and 1 together: a separate generation-0 pass in between
    scanned every surviving object twice on its way to the old generation,
    for 9 % of the server's CPU at 10,000 players (docs/scaling.md "Fifth
    round").  Explicit collections never trigger a full one, and cyclic
    garbage that reached the old generation (a closed connection's objects)
    would otherwise stay for ever: a full collection runs every
    ``full_every`` seconds.  With a :class:`Freezer`, that full collection
    walks only what aged since the last freeze, and bursts of connections
    are frozen as they come."""
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(period)
        if time.monotonic() - last_full >= full_every:
            if freezer is not None:
                freezer.full()
            else:
                gc.collect()
            last_full = time.monotonic()
        else:
            gc.collect(1)
            if freezer is not None:
                freezer.after_young_pass()


class _Gauges(Protocol):
    def gauge(self, name: str, read: Callable[[], float], help_text: str) -> None: ...


class _Collections:
    """A ``gc.callbacks`` entry: logs slow collections (a full one stops every table at once) and
    counts every collection's passes and time per generation, logged when the server stops
    (docs/scaling.md "A move's cost in one process": what the collector costs a move)."""

    def __init__(self, limit: float = 0.05) -> None:
        self.limit = limit
        self.started = self.cpu_started = 0.0
        self.passes = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started, self.cpu_started = time.perf_counter(), time.thread_time()
        elif self.started:
            took = time.perf_counter() - self.started
            generation = info["generation"]
            self.passes[generation] += 1
            self.seconds[generation] += took
            if took > self.limit or generation == 2:  # a full one always: what it found tells a leak from cycles
                # The CPU time too: on a busy machine the wall time is mostly waiting for a core.
                log.log(logging.WARNING if took > self.limit else logging.INFO,
                        "garbage collection of generation %d took %.0f ms (%.0f ms of CPU; %d unreachable)",
                        generation, took * 1000, (time.thread_time() - self.cpu_started) * 1000, info.get("collected", 0))

    def summary(self) -> str:
        return ", ".join(f"generation {g}: {n} passes, {s * 1000:.0f} ms"
                         for g, (n, s) in enumerate(zip(self.passes, self.seconds, strict=True)))


@contextlib.asynccontextmanager
async def tuned_gc(metrics: _Gauges | None = None, *, full_every: float = FULL_EVERY, freeze: bool = True,
                   connections: Callable[[], int] | None = None) -> AsyncIterator[None]:
    """Tune the collector while the block runs (inside the server's event loop), then undo it:
    thresholds, frozen objects, the slow-collection logger and the clock-driven collector
    (a full collection every ``full_every`` seconds; with ``freeze``, a :class:`Freezer`
    that counts ``connections``).  With ``metrics``, ``/metrics`` shows the seconds spent
    collecting (a load run reads the collector's share of the CPU in its measured window:
    bench/load.py) and the frozen objects."""
    thresholds = gc.get_threshold()
    callback = _Collections()
    gc.callbacks.append(callback)
    freezer = Freezer(connections) if freeze else None
    if metrics is not None:
        metrics.gauge("freezeout_gc_seconds", lambda: sum(callback.seconds),
                      "seconds this process spent in the cyclic garbage collector while serving")
        # Counted as they are frozen, not by gc.get_freeze_count(): that walks every frozen object.
        metrics.gauge("freezeout_gc_frozen_objects", lambda: float(freezer.frozen if freezer is not None else 0),
                      "objects moved out of the collector's sight (gc.freeze) since the last thaw: what lives long")
        if freezer is not None:
            metrics.gauge("freezeout_gc_thaws", lambda: float(freezer.thaws),
                          "thaws: frozen objects collected again, to take back closed connections' cycles")
    # Everything alive after start-up (modules, the bots' tables) is moved out of the
    # collector's sight; a full collection waits for the clock above: CPython's own rule
    # (the third threshold, counted in generation-1 passes: ten a second here) is put out of
    # reach, since a full pass over a room of 10,000 connections stops every table at once.
    if freezer is not None:
        freezer.frozen = len(gc.get_objects())  # every generation: all of it is frozen now
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 20, 1_000_000)
    collector = asyncio.create_task(_collect(full_every=full_every, freezer=freezer), name="gc-collector")
    try:
        yield
    finally:
        collector.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await collector
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(callback)
        log.info("garbage collection while serving: %s%s", callback.summary(),
                 f"; {freezer.freezes} freezes, {freezer.thaws} thaws" if freezer is not None else "")
