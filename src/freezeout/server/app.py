"""The ASGI application: ``create_app(settings, clock=...)``.

The database engine, the store, the room and its table actors are created
in the lifespan, not at import time; tests inject a fake clock and their own
settings (design principle 8).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.middleware.gzip import GZipMiddleware

from freezeout.server.accounts import Passwords, RateLimiter
from freezeout.server.clock import Clock, SystemClock
from freezeout.server.cluster.bus import Bus
from freezeout.server.cluster.gateway import GatewayRoom
from freezeout.server.cluster.ownership import worker_name
from freezeout.server.cluster.roles import add_operations, create_worker_app, open_bus
from freezeout.server.gctune import release_transport_cycles, tuned_gc
from freezeout.server.looplag import LoopLag, StallStacks
from freezeout.server.metrics import Metrics
from freezeout.server.oddsdesk import OddsDesk
from freezeout.server.settings import Settings
from freezeout.server.storage.chat import KEEP_DAYS
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.ledger import Amounts
from freezeout.server.storage.store import Store
from freezeout.server.table.cashmove import leave_lists
from freezeout.server.table.chips import holdings
from freezeout.server.table.room import Room
from freezeout.server.transport import (
    apiaccounts,
    apichat,
    apihistory,
    apiinvite,
    apiledger,
    apiluck,
    apiodds,
    apiratings,
    apireview,
    apiwaitlist,
)
from freezeout.server.transport.api import router
from freezeout.server.transport.apicore import ApiError
from freezeout.server.transport.context import Context
from freezeout.server.transport.httpguard import (
    BodyLimit,
    SecurityHeaders,
    error_body,
    install_error_handlers,
)
from freezeout.server.transport.links import Links
from freezeout.server.transport.ws import websocket_endpoint

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def _web_dir(settings: Settings) -> Path:
    if settings.web_dir:
        return Path(settings.web_dir)
    return Path(__file__).resolve().parent.parent / "web"


def _announce_test_mode(settings: Settings) -> None:
    """Test mode says so loudly, at every start: a room in it is not fit for real players."""
    if not settings.test_mode:
        return
    if settings.deck_seed is not None:
        what = f"every deck, seating and bot move follows deck_seed={settings.deck_seed!r} and is predictable"
    else:
        what = "test-only settings are allowed"
    log.warning("*** TEST MODE *** %s; never run a real room like this", what)


async def sweep_sessions(store: Store, now: float, room: Room) -> None:
    """One round of :func:`_sweep_sessions`."""
    for account in await store.sessions.expiring(now):
        await leave_lists(room, account)
    removed = await store.sessions.delete_expired(now)
    tokens = await store.tokens.delete_expired(now)
    await store.chat.purge(now - KEEP_DAYS * 86400)  # chat is kept 30 days (storage/chat.py)
    if removed or tokens:
        log.info("deleted %d expired sessions and %d expired API tokens", removed, tokens)


async def _sweep_sessions(store: Store, clock: Clock, period: float, room: Room) -> None:
    """Delete expired sessions and API tokens at start and then every ``period`` seconds,
    so the database holds only credentials that can still log someone in; an account whose
    last session expired has left the room: it leaves its waiting lists (C13) first."""
    while True:
        try:
            await sweep_sessions(store, clock.now(), room)
        except SQLAlchemyError as error:  # the database may be briefly unavailable; try next time
            log.warning("could not delete expired sessions: %s", error)
        await asyncio.sleep(period)


def create_app(settings: Settings | None = None, *, clock: Clock | None = None, tune_process: bool = False,
               bus: Bus | None = None, name: str | None = None) -> FastAPI:
    """The app.  ``tune_process`` (only ``freezeout serve`` sets it) lets the app change
    process-wide state while it runs: the garbage collector's tuning (``gc_tuning``),
    undone at shutdown.  An app built by a test or another program never touches it.

    ``settings.role`` says what the process is (docs/scaling.md): ``all`` (one process,
    the default), ``gateway`` (this app with a :class:`GatewayRoom`) or ``worker`` (a small
    app of health, readiness and metrics around a :class:`Worker`).  A cluster's bus is
    Redis at ``redis_url`` unless a test passes one (``bus``, started and closed by it)."""
    settings = settings or Settings()
    clock = clock or SystemClock()
    node = name or settings.node_name or worker_name()
    if settings.role == "worker":
        return create_worker_app(settings, clock=clock, bus=bus, name=node, tune_process=tune_process)
    metrics = Metrics(settings.role)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _announce_test_mode(settings)
        engine = create_engine(settings.resolved_database_url())
        await run_migrations(engine)
        store = Store(engine, amounts=Amounts.of(settings), holdings=holdings)
        await store.start()
        own_bus = None
        room: Room
        if settings.role == "gateway":
            own_bus = None if bus is not None else open_bus(settings, metrics)
            cluster_bus = bus or own_bus
            assert cluster_bus is not None
            if own_bus is not None:
                await own_bus.start()
            room = GatewayRoom(name=node, settings=settings, store=store, clock=clock, bus=cluster_bus, metrics=metrics)
            app.state.bus = cluster_bus  # /readyz: not ready while it is unreachable
        else:
            room = Room(settings=settings, store=store, clock=clock)
            room.on_handled = metrics.observe_action
            metrics.gauge("freezeout_tables", lambda: sum(not a.state.private for a in room.tables.values()),
                          "public tables this process drives (a private one is counted nowhere: issue #37)")
        links = Links(per_user=settings.ws_max_per_user, per_address=settings.ws_max_per_address,
                      rate=settings.ws_messages_per_second, burst=settings.ws_message_burst)
        app.state.ctx = Context(
            settings=settings, clock=clock, store=store, room=room, passwords=Passwords(settings),
            limiter=RateLimiter(settings.login_max_failures, settings.login_window_seconds, clock),
            address_limiter=RateLimiter(settings.login_max_failures_per_address, settings.login_window_seconds, clock),
            signups=RateLimiter(settings.signup_max_per_address, settings.signup_window_seconds, clock),
            links=links,
            odds=OddsDesk(settings.odds_per_minute, settings.odds_queue_limit, clock),
        )
        metrics.gauge("freezeout_connections", lambda: len(links), "open WebSocket connections")
        await room.open()
        lag = LoopLag(metrics)
        watchdog = asyncio.create_task(lag.run(), name="loop-lag")  # /metrics: the loop's lag
        stacks = StallStacks(lag) if settings.loop_stall_stacks else None
        if stacks is not None:
            stacks.start()
        release_transport_cycles()  # a closed connection is freed by reference counting ("No freeze")
        sweeper = asyncio.create_task(_sweep_sessions(store, clock, settings.session_sweep_seconds, room), name="sessions")
        stalls = asyncio.create_task(links.watch(settings.ws_send_timeout_seconds), name="stalled-connections")
        async with contextlib.AsyncExitStack() as process:
            if tune_process and settings.gc_tuning:
                await process.enter_async_context(tuned_gc(metrics, full_every=settings.gc_full_seconds,
                                                           freeze=settings.gc_freeze, connections=lambda: len(links)))
            try:
                yield
            finally:
                watchdog.cancel()
                if stacks is not None:
                    stacks.stop()
                sweeper.cancel()
                stalls.cancel()
                await room.close()
                app.state.ctx.odds.close()
                if own_bus is not None:
                    await own_bus.close()
                await store.close()

    # No interactive API docs: they load scripts from a CDN, which the page's CSP (rightly) refuses.
    app = FastAPI(title="Freezeout", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # the page's scripts shrink about 4x
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes, timeout=settings.http_body_timeout_seconds)
    app.add_middleware(SecurityHeaders)
    app.include_router(apiaccounts.router)  # the session, register, log in and out, guests, API tokens
    app.include_router(router)
    app.include_router(apihistory.router)  # game records, downloads, replayer steps
    app.include_router(apiratings.router)  # leaderboards and ratings (R25)
    app.include_router(apiledger.router)  # play chips: balance, ledger, reload, a table's CSV (C9)
    app.include_router(apiwaitlist.router)  # a full cash table's waiting list, "first available" (C13)
    app.include_router(apiinvite.router)  # a private table's invite link (issue #37)
    app.include_router(apichat.router)  # table chat, mutes, reports, notes on players (issue #37)
    app.include_router(apiodds.router)  # the odds calculator (GET /api/odds)
    app.include_router(apireview.router)  # a finished game's review (GET /api/games/{id}/review)
    app.include_router(apiluck.router)  # your luck over recent freezeouts and cash sessions (GET /api/me/luck)
    app.add_api_websocket_route("/ws", websocket_endpoint)
    install_error_handlers(app)

    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error_body(error.code, error.message), status_code=error.status, headers=error.headers)

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        context: Context | None = getattr(request.app.state, "ctx", None)
        try:
            assert context is not None
            await context.store.ping()
        except Exception:
            return JSONResponse({"status": "unavailable"}, status_code=503)
        return JSONResponse({"status": "ok"})

    def readiness(request: Request) -> dict[str, Any]:
        context: Context | None = getattr(request.app.state, "ctx", None)
        if context is None:
            return {"role": settings.role, "node": node, "ready": False}
        room = context.room
        if isinstance(room, GatewayRoom):
            return {"role": "gateway", "node": node, **room.readiness()}
        return {"role": "all", "node": node, "ready": True, "tables": sorted(t for t, actor in room.tables.items() if not actor.state.private)}

    add_operations(app, readiness, metrics)

    web = _web_dir(settings)
    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")
        index = web / "index.html"

        @app.get("/", include_in_schema=False)
        async def home() -> FileResponse:
            return FileResponse(index)

    return app
