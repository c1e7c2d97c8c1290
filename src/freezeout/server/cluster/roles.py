"""What every process of a cluster answers besides the game, and the worker's own app.

Every process (``all``, ``gateway``, ``worker``) serves ``/healthz`` (it is
alive and its database answers), ``/readyz`` (it is doing its job: a worker
names the tables it owns, at which epoch) and ``/metrics`` (Prometheus text).
A worker holds no connections, so its app is only these three around a
:class:`Worker`; it listens on its own port so that an orchestrator can
probe it like any other process.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from freezeout.server.clock import Clock
from freezeout.server.cluster.bus import Bus
from freezeout.server.cluster.worker import Worker
from freezeout.server.gctune import tuned_gc
from freezeout.server.looplag import LoopLag
from freezeout.server.metrics import Metrics
from freezeout.server.settings import Settings
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.ledger import Amounts
from freezeout.server.storage.store import Store
from freezeout.server.table.chips import holdings

__all__ = ["add_operations", "create_worker_app", "open_bus"]


def open_bus(settings: Settings, metrics: Metrics | None = None) -> Bus:
    """The cluster's bus: Redis at ``redis_url``, every message sealed under the bus secret (a
    gateway or worker without either cannot work).  Frames that do not open (forged, replayed:
    an attack, or a process with another secret) are counted in ``metrics``
    (``freezeout_bus_refused_total{what=command|update|lobby record}``)."""
    if not settings.redis_url:
        raise ValueError("a gateway or worker needs redis_url (FREEZEOUT_REDIS_URL or --redis)")
    from freezeout.server.cluster.redisbus import RedisBus
    from freezeout.server.cluster.sealing import Seal

    seal = Seal(settings.bus_secrets(), max_age=settings.bus_max_age_seconds)

    def refused(what: str) -> None:
        if metrics is not None:
            metrics.count("freezeout_bus_refused_total", what=what)

    return RedisBus(settings.redis_connection_url(), seal, on_refused=refused)


def add_operations(app: FastAPI, readiness: Callable[[Request], dict[str, Any]], metrics: Metrics) -> None:
    """``/readyz`` and ``/metrics``.  A process with a bus (``app.state.bus``: a gateway's or a
    worker's) is ready only while the bus is reachable too (``"bus": "up"``): a gateway that
    cannot reach Redis cannot route a move, a worker cannot hear one (issue #32)."""

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        answer = readiness(request)
        bus: Bus | None = getattr(request.app.state, "bus", None)
        if bus is not None:
            up = await bus.reachable()
            answer = {**answer, "bus": "up" if up else "unreachable", "ready": bool(answer.get("ready")) and up}
        return JSONResponse(answer, status_code=200 if answer.get("ready") else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_text() -> PlainTextResponse:
        return PlainTextResponse(metrics.render(), media_type="text/plain; version=0.0.4")


def create_worker_app(settings: Settings, *, clock: Clock, bus: Bus | None, name: str,
                      tune_process: bool = False) -> FastAPI:
    metrics = Metrics("worker")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(settings.resolved_database_url())
        await run_migrations(engine)
        store = Store(engine, amounts=Amounts.of(settings), holdings=holdings)  # a table's transfer may open an old account (C9)
        await store.start()
        own_bus = None if bus is not None else open_bus(settings, metrics)
        if own_bus is not None:
            await own_bus.start()
        worker = Worker(name=name, settings=settings, store=store, bus=bus or own_bus, clock=clock,  # type: ignore[arg-type]
                        metrics=metrics)
        app.state.worker, app.state.store, app.state.bus = worker, store, bus or own_bus
        await worker.start()
        lag = asyncio.create_task(LoopLag(metrics).run(), name="loop-lag")  # /metrics: the loop's lag
        async with contextlib.AsyncExitStack() as process:
            if tune_process and settings.gc_tuning:
                await process.enter_async_context(tuned_gc(metrics, full_every=settings.gc_full_seconds,
                                                           freeze=settings.gc_freeze))
            try:
                yield
            finally:
                lag.cancel()
                await worker.stop(release=True)
                if own_bus is not None:
                    await own_bus.close()
                await store.close()

    app = FastAPI(title="Freezeout worker", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        store: Store | None = getattr(request.app.state, "store", None)
        try:
            assert store is not None
            async with asyncio.timeout(5):
                await store.ping()
        except Exception:
            return JSONResponse({"status": "unavailable"}, status_code=503)
        return JSONResponse({"status": "ok"})

    def readiness(request: Request) -> dict[str, Any]:
        worker: Worker | None = getattr(request.app.state, "worker", None)
        if worker is None:
            return {"role": "worker", "node": name, "ready": False}
        return {"role": "worker", "node": name, **worker.readiness()}

    add_operations(app, readiness, metrics)
    return app
