"""The ASGI application: ``create_app(settings, clock=...)``.

The database engine, the store, the room and its table actors are created
in the lifespan, not at import time; tests inject a fake clock and their own
settings (design principle 8).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.middleware.gzip import GZipMiddleware

from freezeout.server.accounts import Passwords, RateLimiter
from freezeout.server.api import ApiError, router
from freezeout.server.clock import Clock, SystemClock
from freezeout.server.context import Context
from freezeout.server.db import create_engine, run_migrations
from freezeout.server.room import Room
from freezeout.server.settings import Settings
from freezeout.server.store import Store
from freezeout.server.ws import websocket_endpoint

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def _web_dir(settings: Settings) -> Path:
    if settings.web_dir:
        return Path(settings.web_dir)
    return Path(__file__).resolve().parent.parent / "web"


async def _watch_event_loop(period: float = 0.05, limit: float = 0.1) -> None:
    """Log when the event loop was blocked: every table shares it, so a stall is everyone's latency."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(period)
        late = loop.time() - before - period
        if late > limit:
            log.warning("event loop blocked for %.0f ms", late * 1000)


def _watch_gc(limit: float = 0.05) -> None:
    """Log slow garbage collections (a full collection stops every table at once)."""
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            took = time.perf_counter() - started[0]
            if took > limit:
                log.warning("garbage collection of generation %d took %.0f ms", info["generation"], took * 1000)

    gc.callbacks.append(callback)


async def _collect_young(period: float = 0.05, older_every: int = 10) -> None:
    """Collect the young generations on a clock, in small steps.

    CPython starts a collection when allocations minus deallocations pass a
    threshold; a busy room frees an old table state for each new one, so that
    count stays low while the young generation grows to 100,000+ objects, and
    the collection that finally comes stopped every table for 70-130 ms
    (measured at 4,000 players).  Collecting generation 0 every 50 ms and
    generation 1 every 0.5 s keeps each pass to the objects born since the
    last one: a few milliseconds."""
    ticks = 0
    while True:
        await asyncio.sleep(period)
        ticks += 1
        gc.collect(1 if ticks % older_every == 0 else 0)


async def _sweep_sessions(store: Store, clock: Clock, period: float) -> None:
    """Delete expired sessions at start and then every ``period`` seconds, so
    the table holds only sessions that can still log someone in."""
    while True:
        try:
            removed = await store.delete_expired_sessions(clock.now())
            if removed:
                log.info("deleted %d expired sessions", removed)
        except SQLAlchemyError as error:  # the database may be briefly unavailable; try next time
            log.warning("could not delete expired sessions: %s", error)
        await asyncio.sleep(period)


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    settings = settings or Settings()
    clock = clock or SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(settings.resolved_database_url())
        await run_migrations(engine)
        store = Store(engine)
        await store.start()
        room = Room(settings=settings, store=store, clock=clock)
        app.state.ctx = Context(
            settings=settings, clock=clock, store=store, room=room, passwords=Passwords(settings),
            limiter=RateLimiter(settings.login_max_failures, settings.login_window_seconds, clock),
            signups=RateLimiter(settings.signup_max_per_address, settings.signup_window_seconds, clock),
        )
        await room.open()
        watchdog = asyncio.create_task(_watch_event_loop())
        sweeper = asyncio.create_task(_sweep_sessions(store, clock, settings.session_sweep_seconds), name="sessions")
        if not any(getattr(cb, "__qualname__", "").startswith("_watch_gc") for cb in gc.callbacks):
            _watch_gc()
        collector: asyncio.Task[None] | None = None
        if settings.gc_tuning:
            # Game states are many small immutable tuples freed by reference counting; the
            # cyclic collector's passes over a large heap were the server's p99 stalls.  Young
            # generations are collected on a clock (above); a full collection (it scans every
            # connection's objects, so it is long at 10,000 players) waits for 1,000
            # generation-1 passes (about 8 minutes) and CPython's own rule (the old
            # generation grew by 25%).
            # The trade-off: cyclic garbage that reached the old generation (closed
            # connections) is reclaimed that much later.
            gc.freeze()
            gc.set_threshold(10_000, 20, 1000)
            collector = asyncio.create_task(_collect_young(), name="gc-young")
        try:
            yield
        finally:
            if collector is not None:
                collector.cancel()
            watchdog.cancel()
            sweeper.cancel()
            await room.close()
            await store.close()

    app = FastAPI(title="Freezeout", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # the page's scripts shrink about 4x
    app.include_router(router)
    app.add_api_websocket_route("/ws", websocket_endpoint)

    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": {"code": error.code, "message": error.message}}, status_code=error.status,
                            headers=error.headers)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(_: Request, error: SQLAlchemyError) -> JSONResponse:
        log.error("database error: %s", error)
        return JSONResponse({"error": {"code": "storage", "message": "the database is unavailable; try again"}},
                            status_code=503)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
        first: Any = error.errors()[0] if error.errors() else {"msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"error": {"code": "bad_message", "message": f"{where}: {first['msg']}"}}, status_code=400)

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        context: Context | None = getattr(request.app.state, "ctx", None)
        try:
            assert context is not None
            await context.store.ping()
        except Exception:
            return JSONResponse({"status": "unavailable"}, status_code=503)
        return JSONResponse({"status": "ok"})

    web = _web_dir(settings)
    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")
        index = web / "index.html"

        @app.get("/", include_in_schema=False)
        async def home() -> FileResponse:
            return FileResponse(index)

    return app
