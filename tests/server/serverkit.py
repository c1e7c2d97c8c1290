"""Helpers shared by the server tests (imported as ``serverkit``; the fixtures
are re-exported by conftest.py). Fixtures for the game server tests.

``harness``: the real app served by uvicorn inside the test's event loop on
a free loopback port, with a :class:`FakeClock` so that every clock rule is
driven by ``clock.advance`` instead of sleeps.  ``Player`` is a client with
its own cookie jar and a real WebSocket.  ``postgres_url``: a throwaway
PostgreSQL cluster (initdb/pg_ctl as the ``postgres`` user), skipped with a
reason when the binaries are absent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import shutil
import socket
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest
import uvicorn
import websockets

from freezeout.server.app import create_app
from freezeout.server.clock import FakeClock
from freezeout.server.cluster.localservers import LocalPostgres, ServerUnavailable, with_database
from freezeout.server.settings import Settings, async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import Store
from freezeout.server.table.actor import TableActor
from freezeout.server.transport.context import Context
from freezeout.server.transport.httpguard import http_protocol

# How long a wait may last before a test gives up. Tests wait for conditions
# (a message, a version), so a passing test never waits this long; it only has
# to outlast a machine so busy that a server answers in seconds, not millis.
FAIL_SAFE_SECONDS = 180.0


def fast_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'db.sqlite'}",
        "argon2_time_cost": 1,
        "argon2_memory_kib": 1024,
        "bot_delay_min": 0.0,
        "bot_delay_max": 0.0,
        "deck_seed": "tests",
        "test_mode": True,
        # Fake time stands still while a test plays many moves: a deep message bucket
        # (test_server_limits.py tests the real limits).
        "ws_message_burst": 1000,
        "lobby_push_seconds": 0.02,
        "web_dir": str(tmp_path / "no-web"),
        "cash_bot_fill_seconds": None,  # bots fill a lone human's cash table only where a test asks
    }
    values.update(overrides)
    return Settings(**values)


class Player:
    """One client: HTTP with its own cookies, and one WebSocket to a table."""

    def __init__(self, harness: Harness) -> None:
        self.h = harness
        self.http = httpx.AsyncClient(base_url=harness.base_url, timeout=FAIL_SAFE_SECONDS)
        self.csrf = ""
        self.user: dict[str, Any] | None = None
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None  # last snapshot or update
        self.errors: list[dict[str, Any]] = []

    async def start(self) -> Player:
        self.csrf = (await self.http.get("/api/session")).json()["csrf"]
        return self

    async def post(self, path: str, body: Any = None, *, csrf: str | None = None) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf if csrf is None else csrf}
        return await self.http.post(path, json=body, headers=headers)

    def _session(self, response: httpx.Response) -> httpx.Response:
        if response.status_code == 200:
            data = response.json()
            self.user, self.csrf = data.get("user"), data.get("csrf", self.csrf)
        return response

    async def register(self, name: str, password: str = "correct horse") -> Player:
        response = self._session(await self.post("/api/register", {"name": name, "password": password}))
        assert response.status_code == 200, response.text
        return self

    async def guest(self) -> Player:
        response = self._session(await self.post("/api/guest"))
        assert response.status_code == 200, response.text
        return self

    async def create(self, slots: list[str | None], *, ranked: bool = False, sit: bool = True) -> str:
        response = await self.post("/api/tables", {"slots": slots, "ranked": ranked, "sit": sit})
        assert response.status_code == 200, response.text
        return str(response.json()["table"]["id"])

    async def connect(self) -> None:
        cookie = self.http.cookies.get("fz_session")
        headers = {"Cookie": f"fz_session={cookie}"} if cookie else {}
        # the opening handshake waits as long as any other wait here: websockets' own 10 s ran out
        # on a loaded machine (four test workers beside other jobs), far from any fault
        self.ws = await websockets.connect(self.h.ws_url, additional_headers=headers, max_size=2**22,
                                           open_timeout=FAIL_SAFE_SECONDS)

    async def join(self, table: str, since: int | None = None) -> dict[str, Any]:
        if self.ws is None:
            await self.connect()
        msg: dict[str, Any] = {"type": "join", "table": table}
        if since is not None:
            msg["since"] = since
        await self.send(msg)
        return await self.until(lambda m: m["type"] in ("snapshot", "update"))

    async def send(self, msg: Any) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self, timeout: float = FAIL_SAFE_SECONDS) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(msg)
        if msg["type"] in ("snapshot", "update"):
            self.latest = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        return msg

    async def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = FAIL_SAFE_SECONDS) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(msg):
                return msg

    async def until_version(self, version: int) -> None:
        if self.latest is not None and self.latest["version"] >= version:
            return
        await self.until(lambda m: m["type"] in ("snapshot", "update") and m["version"] >= version)

    async def error(self) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == "error")

    async def until_closed(self, timeout: float = FAIL_SAFE_SECONDS) -> websockets.ConnectionClosed:
        """Read until the server closes the connection; returns how it closed it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                await self.recv(max(0.01, deadline - time.monotonic()))
            except websockets.ConnectionClosed as close:
                return close

    @property
    def view(self) -> dict[str, Any] | None:
        return self.latest["view"] if self.latest else None

    @property
    def version(self) -> int:
        assert self.latest is not None
        return int(self.latest["version"])

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None
        await self.http.aclose()


class Harness:
    def __init__(self, app: Any, clock: FakeClock, settings: Settings) -> None:
        self.app, self.clock, self.settings = app, clock, settings
        self.base_url = self.ws_url = ""
        self.players: list[Player] = []

    @property
    def ctx(self) -> Context:
        context: Context = self.app.state.ctx
        return context

    def table(self, table_id: str) -> TableActor:
        return self.ctx.room.tables[table_id]

    async def settle(self) -> None:
        """Let every table finish what is due now (twice: one table's step may wake another)."""
        for _ in range(2):
            for actor in list(self.ctx.room.tables.values()):
                await actor.sync()

    async def player(self) -> Player:
        player = await Player(self).start()
        self.players.append(player)
        return player

    async def guests(self, count: int) -> list[Player]:
        """``count`` new players, each a guest."""
        return [await (await self.player()).guest() for _ in range(count)]

    async def heads_up_with_a_spectator(self) -> tuple[str, Player, Player, Player]:
        """ana and bo (registered) playing heads-up, and a spectator, all following the table."""
        ana, bo, eve = await self.player(), await self.player(), await self.player()
        await ana.register("ana")
        await bo.register("bo")
        table = await ana.create([None, None])
        await bo.post(f"/api/tables/{table}/sit")
        for p in (ana, bo, eve):
            await p.join(table)
        await self.settle()
        state = self.table(table).state
        assert state.table_game is not None, "the second sitter starts the game"
        for p in (ana, bo, eve):  # each has read the view of the game (a join may come before it starts)
            await p.until_version(state.version)
        return table, ana, bo, eve

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle()

    async def play_out(self, table_id: str, players: list[Player], policy: Callable[[dict[str, Any], random.Random], dict[str, Any]],
                       *, watchers: tuple[Player, ...] = (), seed: int = 0, max_steps: int = 20000) -> None:
        """Drive a table to the end of its game: the seat to act moves by ``policy``
        over its WebSocket; between hands the fake clock skips the pause (R30)."""
        rng = random.Random(seed)
        actor = self.table(table_id)
        for _ in range(max_steps):
            await self.settle()
            state = actor.state
            for p in [*players, *watchers]:
                await p.until_version(state.version)
            t = state.tournament
            if t is not None and t.finished and state.ended:
                return
            if t is None or not t.in_hand:
                await self.advance(self.settings.pause_seconds)
                continue
            mover = next((p for p in players if p.view and p.view["viewer"] == t.to_act), None)
            assert mover is not None, f"nobody to move for seat {t.to_act}"
            assert mover.view is not None and mover.view["legal"] is not None
            await mover.send({"type": "act", "version": state.version, **policy(mover.view, rng)})
        raise AssertionError("the game did not end")


def random_policy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal move, amounts between the minimum and the stack."""
    legal = view["legal"]
    weights = {"fold": 0.15, "check": 0.5, "call": 0.5, "bet": 0.25, "raise": 0.15, "allin": 0.03}
    moves = legal["moves"]
    move = rng.choices(moves, [weights[m] for m in moves])[0]
    if move in ("bet", "raise"):
        low, high = legal["min_to"], legal["max_to"]
        amount = low if rng.random() < 0.8 else rng.randint(low, min(high, 3 * low))
        return {"move": move, "amount": amount}
    return {"move": move}


def calling_policy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    moves = view["legal"]["moves"]
    if "allin" in moves and rng.random() < 0.15:
        return {"move": "allin"}
    return {"move": "call" if "call" in moves else "check"}


@pytest.fixture
def policies() -> dict[str, Callable[[dict[str, Any], random.Random], dict[str, Any]]]:
    return {"random": random_policy, "calling": calling_policy}


@contextlib.asynccontextmanager
async def serve(settings: Settings, clock: FakeClock, *, tune_process: bool = False, **app_options: Any,
                ) -> AsyncIterator[Harness]:
    """The app on a free loopback port (``app_options``: create_app's, e.g. a cluster's bus)."""
    app = create_app(settings, clock=clock, tune_process=tune_process, **app_options)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    # An idle keep-alive connection is never closed under a test: uvicorn's 5 s default raced
    # httpx's reuse of it on a loaded machine (the request met a closing socket: ReadError).
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536, lifespan="on",
                            http=http_protocol(settings.http_header_timeout_seconds),
                            timeout_keep_alive=int(FAIL_SAFE_SECONDS * 10),
                            ws_per_message_deflate=settings.ws_compression)  # as `freezeout serve` (server/cli.py)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    harness = Harness(app, clock, settings)
    harness.base_url, harness.ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    try:
        yield harness
    finally:
        for player in harness.players:
            await player.close()
        server.should_exit = True
        await task


async def heads_up_table(h: Harness) -> tuple[str, Player, Player]:
    """ana (who made it) and bo registered at a heads-up table, bo sat and the
    table settled (its first hand dealt); returns (table, ana, bo)."""
    ana, bo = await h.player(), await h.player()
    await ana.register("ana")
    await bo.register("bo")
    table = await ana.create([None, None])
    await bo.post(f"/api/tables/{table}/sit")
    await h.settle()
    return table, ana, bo


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with serve(fast_settings(tmp_path), FakeClock()) as h:
        yield h


# -- PostgreSQL ------------------------------------------------------------
@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server on 127.0.0.1 and a free port, for the whole session (the same
    helper ``freezeout cluster`` uses: cluster.localservers.LocalPostgres)."""
    base = Path(tempfile.mkdtemp(prefix="fz-pg-"))
    try:
        server = LocalPostgres(base)
        server.start()
    except ServerUnavailable as error:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(str(error))
    try:
        yield server.admin_url  # the superuser's (with its password): tests make databases of their own
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


async def fresh_database(postgres_url: str) -> str:
    """A new, empty database on the session's PostgreSQL; returns its URL."""
    name = f"fz_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(postgres_url.replace("postgresql://", "postgres://"))
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    return with_database(postgres_url, name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database: SQLite, or one made on the session's PostgreSQL and dropped after."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    server = request.getfixturevalue("postgres_url")
    url = await fresh_database(server)
    name = urlsplit(url).path.lstrip("/")
    yield url
    admin = await asyncpg.connect(server.replace("postgresql://", "postgres://"))
    await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    await admin.close()


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """A started store on a fresh migrated ``db_url`` (SQLite, and PostgreSQL)."""
    engine = create_engine(async_database_url(db_url))
    await run_migrations(engine)
    opened = Store(engine)
    await opened.start()
    try:
        yield opened
    finally:
        await opened.close()
