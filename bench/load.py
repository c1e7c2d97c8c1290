"""Load test of the game server on loopback (issues #4 and #13).

Starts ``freezeout serve`` as a separate process on a fresh SQLite database
(or, with ``--cluster``, a local cluster: PostgreSQL, redis-server,
``--gateways`` gateways and ``--workers`` workers, bench/clusterload.py, the
players spread over the gateways), then simulates players: each is a guest with a real WebSocket connection who
acts with a human-like thinking time.  Reports connected players, actions per
second, the p50/p99 latency from an action sent to *every* seat of the table
having received the resulting update, the server's CPU and memory, the
client's CPU and what the rest of the machine used meanwhile (client, server
and anything else share the same cores, so a busy machine shows up there).
The client is kept cheap (bench/lean_ws.py, uvloop, orjson) for that reason.  A
second phase measures bot-only throughput (complete hands per second, no
thinking time, no pause between hands).

    .venv/bin/python bench/load.py --players 2000 --duration 30
    .venv/bin/python bench/load.py --players 10000 --table-size 4   # the target
    .venv/bin/python bench/load.py --cluster --gateways 1 --workers 2 --skip-bots \
        --pin "worker=1 worker=0 gateway=0 postgres=0 redis=0 client=0"

With ``--cluster`` the report has each process's CPU-seconds over the
measured window (from /proc), each worker's actions (its /metrics), and the
CPU-seconds per action of each role: what a worker core and a gateway core
cost per action, and the messages through each gateway per CPU-second.

Every request goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import psutil

from clusterload import ClusterTarget, Pinning, Quota, SingleTarget, lag_between
from fulltables import parse_sizes, size_refused, sizes_table, with_ratios
from lean_ws import LeanConnection, connect
from serverproc import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
HOUSE = "NT"  # the house game: a table created without "game" plays it
CASH = "cash"  # --cash: the house game at cash tables (issue #25)


def client_loop() -> Any:
    """uvloop for the client too when it is installed: 10,000 sockets cost it far less CPU."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# Every guest comes from loopback: the per-address limits (sign-ups, tables, connections) are lifted.
PER_ADDRESS_UNLIMITED = {name: "1000000" for name in (
    "FREEZEOUT_SIGNUP_MAX_PER_ADDRESS", "FREEZEOUT_MAX_OPEN_TABLES_PER_ADDRESS", "FREEZEOUT_TABLES_PER_HOUR_PER_ADDRESS",
    "FREEZEOUT_WS_MAX_PER_ADDRESS")}


def machine_busy_percent(since: Any) -> float:
    """CPU used by the whole machine since ``since`` (``psutil.cpu_times()``), in the same
    unit as a process's ``cpu_percent`` (100 = one core busy).  Whatever else runs on the
    machine competes with the server and the client, so the report shows it."""
    now = psutil.cpu_times()
    total = sum(now) - sum(since)
    idle = (now.idle - since.idle) + (getattr(now, "iowait", 0.0) - getattr(since, "iowait", 0.0))
    return 100.0 * (os.cpu_count() or 1) * (total - idle) / total if total > 0 else 0.0


@dataclass
class Pending:
    version: int
    sent: float
    seen: set[int] = field(default_factory=set)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each latency's action was sent (perf_counter)
    actions: int = 0
    messages: dict[int, int] = field(default_factory=dict)  # per gateway: messages in and out while measuring
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    connected: int = 0
    measuring: bool = False
    pending: dict[str, Pending] = field(default_factory=dict)  # table -> the action in flight
    update_bytes: list[int] = field(default_factory=list)  # the size of each update a seat received while measuring


class ClientStalls:
    """The load client's own stalls while measuring (its event loop late, its collector's
    pauses): a move's latency is read on the client, so a client that stalls adds to it
    (reported as ``client_stalls``; a run whose client stalled measured the client)."""

    def __init__(self) -> None:
        self.gc_ms: list[float] = []
        self.late_ms: list[float] = []
        self._started = 0.0
        self._task: asyncio.Task[None] | None = None

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started:
            self.gc_ms.append((time.perf_counter() - self._started) * 1000)

    async def _watch(self, period: float = 0.01) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(period)
            self.late_ms.append((loop.time() - before - period) * 1000)

    @staticmethod
    def quiet_collector() -> None:
        """Turn the client's collector off until :meth:`stop` (called before the warm-up, whose
        first moments absorb this last collection).  The newest view of each of 10,000 players
        stays alive until the next one replaces it, so CPython's count of allocations passes
        its threshold only now and then, and each pass then scans every kept view: passes of
        100-220 ms, 10 in 30 s, each delaying every update then in flight (measured at 10,000
        players).  The few cycles the client makes in a minute can wait."""
        gc.collect()
        gc.freeze()
        gc.disable()

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        self._task = asyncio.create_task(self._watch())

    def stop(self) -> dict[str, float]:
        gc.callbacks.remove(self._gc)
        gc.enable()
        gc.unfreeze()
        if self._task is not None:
            self._task.cancel()
        late = self.late_ms or [0.0]
        return {"loop_late_ms_p99": round(percentile(late, 0.99), 1), "loop_late_ms_max": round(max(late), 1),
                "gc_passes": len(self.gc_ms), "gc_ms_total": round(sum(self.gc_ms), 1),
                "gc_ms_max": round(max(self.gc_ms, default=0.0), 1)}


def machine_probe_ms(loops: int = 2_000_000) -> float:
    """How fast this machine's core runs Python right now: the best of three timings of a
    fixed loop, before the server starts and after the players stop.  On a shared host the
    same loop took 0.87-1.27 s minutes apart: runs whose probes differ that much are not
    comparable, and a report quotes the probe with its p99."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for i in range(loops):
            total += i
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 1)


def latency_timeline(stats: Stats, t0: float) -> list[list[float]]:
    """Per second of the measured window: [second, moves, p50 ms, p99 ms, max ms] of the moves
    sent in it (a tail from a burst shows as a few bad seconds; from queueing, as every second)."""
    seconds: dict[int, list[float]] = {}
    for sent, latency in zip(stats.sent_at, stats.latencies, strict=True):
        seconds.setdefault(int(sent - t0), []).append(latency)
    return [[s, len(xs), round(percentile(xs, 0.5) * 1000, 1), round(percentile(xs, 0.99) * 1000, 1), round(max(xs) * 1000, 1)]
            for s, xs in sorted(seconds.items())]


async def make_guest(http: httpx.AsyncClient) -> tuple[str, str]:
    """A guest session; cookies are passed explicitly so that one client can set up many guests."""
    pre = f"{random.getrandbits(64):016x}"  # double submit: the same value as header and cookie
    response = await http.post("/api/guest", headers={"X-CSRF-Token": pre, "Cookie": f"fz_csrf={pre}"})
    response.raise_for_status()
    return response.json()["csrf"], response.cookies["fz_session"]


async def setup_tables(url: str, players: int, size: int, game: str = HOUSE, concurrency: int = 16) -> list[list[str]]:
    """Guests at ``players // size`` tables of ``size`` humans playing ``game`` (an engine code or a
    mix, docs/protocol.md "Games"); returns each table's session cookies."""
    body: dict[str, Any] = {"slots": [None] * size, **({"game": game} if game != HOUSE else {})}
    semaphore = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=httpx.Limits(max_connections=concurrency)) as shared:

        async def guest_cookie() -> tuple[str, str]:
            return await make_guest(shared)

        async def one_table() -> list[str]:
            async with semaphore:
                csrf, cookie = await guest_cookie()
                response = await shared.post("/api/tables", json=body,
                                             headers={"X-CSRF-Token": csrf, "Cookie": f"fz_session={cookie}"})
                response.raise_for_status()
                table = response.json()["table"]["id"]
                cookies = [cookie]
                for _ in range(size - 1):
                    csrf, cookie = await guest_cookie()
                    response = await shared.post(f"/api/tables/{table}/sit",
                                                 headers={"X-CSRF-Token": csrf, "Cookie": f"fz_session={cookie}"})
                    response.raise_for_status()
                    cookies.append(cookie)
                return [table, *cookies]

        return await asyncio.gather(*(one_table() for _ in range(players // size)))


CASH_OPTIONS = {"big_blind": 200, "rake_bp": 500, "rake_cap": 300}  # 5 % rake, capped: a rake row a hand with a pot


async def register(http: httpx.AsyncClient, name: str) -> str:
    """A registered account (cash tables seat accounts only: play chips are an account's)."""
    pre = f"{random.getrandbits(64):016x}"
    response = await http.post("/api/register", json={"name": name, "password": "correct horse"},
                               headers={"X-CSRF-Token": pre, "Cookie": f"fz_csrf={pre}"})
    response.raise_for_status()
    return str(response.cookies["fz_session"])


def insert_cash_tables(db: Path, count: int, size: int) -> list[str]:
    """Open ``count`` cash tables of ``size`` seats in a stopped server's SQLite database, as
    room.py's ``create`` writes one (the row and its ``create`` entry); the server rebuilds them
    on start.  (Until ``POST /api/tables`` takes ``"format": "cash"``: branch cashlobby.)"""
    from freezeout.server.gamespec import GameSpec

    spec = GameSpec.parse_cash(HOUSE, CASH_OPTIONS)
    ids = [f"tc{index:06d}{random.getrandbits(24):06x}" for index in range(count)]
    data = orjson.dumps({"slots": [None] * size, "ranked": False, "created_by": None, "game": spec.to_json()}).decode()
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        now = time.time()
        conn.executemany("INSERT INTO tables (id, created_at, closed) VALUES (?, ?, 0)", [(t, now) for t in ids])
        conn.executemany("INSERT INTO table_log (table_id, seq, at, kind, data, epoch) VALUES (?, 1, ?, 'create', ?, NULL)",
                         [(t, now, data) for t in ids])
    return ids


async def setup_cash_tables(target: SingleTarget | ClusterTarget, players: int, size: int, concurrency: int = 16,
                            ) -> list[list[str]]:
    """``players`` registered accounts at ``players // size`` cash tables: the accounts are made on
    the running server, which is then stopped, given the tables and started again.  Each player
    buys in over its WebSocket (``Player`` with ``cash``)."""
    if not isinstance(target, SingleTarget) or not target.server.db_url.startswith("sqlite"):
        raise SystemExit("--cash runs on the single server with SQLite (tables are opened in its database)")
    semaphore = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=target.urls[0], timeout=120,
                                 limits=httpx.Limits(max_connections=concurrency)) as shared:

        async def one(index: int) -> str:
            async with semaphore:
                return await register(shared, f"cash{index:05d}{random.getrandbits(16):04x}")

        cookies = await asyncio.gather(*(one(i) for i in range(players // size * size)))
    target.stop()
    ids = insert_cash_tables(target.server.db, players // size, size)
    await asyncio.to_thread(target.start)
    return [[table, *cookies[i * size:(i + 1) * size]] for i, table in enumerate(ids)]


def ledger_rows(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=60)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])


def held_cards(view: dict[str, Any]) -> list[str]:
    """The viewer's own cards, as two-character texts (``"7d"``): its seat's ``cards`` (docs/protocol.md
    "View"; ``??`` marks a card hidden from the viewer, never its own in a draw game)."""
    text = view["seats"][view["viewer"]]["cards"] or ""
    return [text[i:i + 2] for i in range(0, len(text), 2) if text[i:i + 2] != "??"]


def engine_action(seat: int, message: dict[str, Any]) -> Any:
    """The engine's move for a client message, read as the server reads it (``act``: the move
    word and amount, R10/V2/V3/V7; ``draw``: discard or stand pat, V11)."""
    from freezeout.cards import parse_cards
    from freezeout.rules.actions import Action, ActionKind

    if message["type"] == "draw":
        cards = message.get("cards")
        return Action(seat, ActionKind.DISCARD, cards=tuple(parse_cards(cards))) if cards else Action(seat, ActionKind.STANDPAT)
    assert message["type"] == "act", message
    return Action.parse(seat, message["move"], message.get("amount"))


def played_freezeout(game: str, seed: int, max_moves: int = 3000) -> Any:
    """A four-handed freezeout of ``game`` played through :func:`choose_move` and the engine
    alone (no server): yields ``(tournament after the move, the move's message)``.  The
    engine raises on any move the rules refuse (tests/bench/test_load_moves.py)."""
    from freezeout.bots.match import deck_of, shuffled, tournament_config
    from freezeout.rules.tournament import Tournament
    from freezeout.rules.views import view_dicts

    rng = random.Random(seed)
    tournament = Tournament.start(tournament_config(game, ("a", "b", "c", "d"), button=seed % 4))
    cards = deck_of(game)
    for _ in range(max_moves):
        if tournament.finished:
            return
        if not tournament.in_hand:
            tournament, _ = tournament.deal_deck(shuffled(cards, rng), shuffled(cards, rng))
            continue
        seat = tournament.to_act
        view = view_dicts(tournament, [seat])[seat]
        assert view["legal"] is not None and view["to_act"] == view["viewer"] == seat
        message = choose_move(view, rng)
        tournament, _ = tournament.act(engine_action(seat, message))
        yield tournament, message


def choose_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The simulated player's move, read from the view's ``legal`` only (as the page and
    examples/bot_client.py do), in any game: a ``draw`` message when ``legal.moves`` is
    ``["standpat", "discard"]`` (V11: up to ``legal.draw`` of the cards it holds), else an ``act``.

    The same habits in every game, so that games differ by their rules and not by how the
    simulated players play them: check when it can; facing a bet fold a quarter of the time,
    raise (or bet) a tenth, else call; a stud bring-in (V7) completes a fifth of the time.  A
    bet or raise goes to ``min_to``, which is legal in every structure: no limit and pot limit
    (V2) allow ``min_to``..``max_to``, fixed limit (V3) only ``legal.sizes`` — the smallest,
    ``min_to``, then the others with the same odds as no limit's bigger bets."""
    legal = view["legal"]
    moves = legal["moves"]
    if "discard" in moves:  # V11
        held = held_cards(view)
        count = rng.randint(0, min(int(legal["draw"]), len(held)))
        return {"type": "draw", "cards": "".join(rng.sample(held, count))}
    if "bringin" in moves:  # V7: bring in, or complete to the small bet
        if "complete" in moves and rng.random() < 0.2:
            return {"type": "act", "move": "complete"}
        return {"type": "act", "move": "bringin"}
    word = "raise" if "raise" in moves else "bet" if "bet" in moves else "complete" if "complete" in moves else None
    if "check" in moves:
        if word is not None and rng.random() < 0.1:
            return {"type": "act", "move": word, "amount": _bet_size(legal, rng)}
        return {"type": "act", "move": "check"}
    if rng.random() < 0.25:
        return {"type": "act", "move": "fold"}
    if word is not None and rng.random() < 0.1:
        return {"type": "act", "move": word, "amount": _bet_size(legal, rng)}
    return {"type": "act", "move": "call"}


def _bet_size(legal: dict[str, Any], rng: random.Random) -> int:
    """A legal total for a bet or raise: a fixed size (V3), or from ``min_to`` up to at most
    twice it within ``max_to`` (no limit; pot limit's ``max_to`` is the pot, V2)."""
    sizes = legal.get("sizes")
    if sizes:
        return int(rng.choice(sizes))
    low, high = int(legal["min_to"]), int(legal["max_to"])
    return rng.randint(low, max(low, min(high, 2 * low)))


class Player:
    """One simulated human: a real WebSocket connection (bench/lean_ws.py) that acts after a
    human-like thinking time.  Everything runs in callbacks (a timer for the thinking time),
    so a player costs the client no task and no task switch per message."""

    def __init__(self, table: str, size: int, stats: Stats, think: tuple[float, float], rng: random.Random,
                 gateway: int = 0, cash_seat: int | None = None, *, keyed: bool = False) -> None:
        self.table, self.size, self.stats, self.think, self.rng = table, size, stats, think, rng
        self.keyed = keyed  # each move carries a "key", as the page's do: the server answers "applied" too
        self.cash_seat = cash_seat  # a cash table (--cash): the seat this player buys in at
        self.asking = False  # --cash: a buy-in or top-up is on its way (one at a time)
        self.topped = -1  # --cash: the hand after which it last topped up
        self.gateway = gateway  # the index of the gateway this player is connected to
        self.conn: LeanConnection | None = None
        self.thinking: asyncio.TimerHandle | None = None
        self.rematched = False
        self.latest: tuple[int, dict[str, Any]] | None = None  # the newest version and view received
        self.leaving = False  # stop() was called: what still arrives on the closing connection is ignored

    def opened(self, conn: LeanConnection) -> None:
        self.conn, self.leaving = conn, False
        self.stats.connected += 1
        conn.send_text(orjson.dumps({"type": "join", "table": self.table}))

    def received(self, conn: LeanConnection, text: bytes) -> None:
        if self.leaving:  # a storm closes this connection: no new thinking timer (it would act on no view)
            return
        stats = self.stats
        if stats.measuring:
            stats.messages[self.gateway] = stats.messages.get(self.gateway, 0) + 1
        msg = orjson.loads(text)
        kind = msg["type"]
        if kind == "update" and stats.measuring:
            stats.update_bytes.append(len(text))
        if kind == "applied" or kind == "error":
            self.asking = False
        if kind == "error":
            stats.errors += 1
            stats.error_codes[msg["code"]] = stats.error_codes.get(msg["code"], 0) + 1
            return
        if kind not in ("snapshot", "update") or msg["view"] is None:
            return
        view = msg["view"]
        if self.latest is None or msg["version"] > self.latest[0]:
            self.latest = (msg["version"], view)
        if self.cash_seat is not None:
            view = self.cash_view(conn, msg["version"], view)
        pending = stats.pending.get(self.table)
        if pending is not None and msg["version"] > pending.version:
            pending.seen.add(view["viewer"])
            if len(pending.seen) == self.size:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - pending.sent)
                    stats.sent_at.append(pending.sent)
                del stats.pending[self.table]
        if view["legal"] is not None and view["to_act"] == view["viewer"] and self.thinking is None:
            delay = self.rng.uniform(*self.think)
            self.thinking = asyncio.get_running_loop().call_later(delay, self.act)
        if view["finished"] and not self.rematched:
            self.rematched = True  # once per game: every later update also shows the game over
            conn.send_text(b'{"type":"rematch"}')
        elif not view["finished"]:
            self.rematched = False

    def cash_view(self, conn: LeanConnection, version: int, view: dict[str, Any]) -> dict[str, Any]:
        """A cash table's view in a freezeout view's words (``viewer``, ``legal``, ``finished``);
        buys in when not seated and tops up between hands when short, once per version."""
        me = view["you"]
        if not self.asking:
            key = f"k{random.getrandbits(64):016x}"  # keyed: the answer is ``applied`` or an error
            if me is None:
                self.asking = True
                conn.send_text(orjson.dumps({"type": "buy_in", "chips": 5000, "slot": self.cash_seat, "key": key}))
            elif (not view["in_hand"] and view["seats"][me]["stack"] < 2000 and not view["seats"][me]["leaving"]
                  and view["hand"] > self.topped):
                self.asking, self.topped = True, view["hand"]
                conn.send_text(orjson.dumps({"type": "top_up", "chips": 3000, "key": key}))
        return {**view, "viewer": me, "legal": view.get("legal"), "finished": False}

    def act(self) -> None:
        """Move on the newest view, as a person looking at the page would: a snapshot sent as
        the player joins may be overtaken by a step in flight (a forfeit of the turn), and a
        move on the older version would be refused as stale."""
        self.thinking = None
        if self.latest is None or self.conn is None or self.leaving:
            return  # disconnected since (a storm): the reconnected player thinks again on its next view
        version, view = self.latest
        if self.cash_seat is not None:
            view = {**view, "viewer": view["you"], "legal": view.get("legal")}
        if view["legal"] is None or view["to_act"] != view["viewer"]:
            return  # no longer this player's turn
        message = choose_move(view, self.rng)
        self.stats.pending[self.table] = Pending(version, time.perf_counter())
        if self.keyed:
            message["key"] = f"k{self.rng.getrandbits(64):016x}"
        self.conn.send_text(orjson.dumps({**message, "version": version}))
        self.stats.actions += self.stats.measuring
        if self.stats.measuring:
            self.stats.messages[self.gateway] = self.stats.messages.get(self.gateway, 0) + 1

    def stop(self) -> None:
        self.leaving = True
        if self.thinking is not None:
            self.thinking.cancel()
            self.thinking = None  # a player reconnected after a storm thinks again on its next view
        if self.conn is not None:
            self.conn.close()


async def open_players(ws_urls: list[str], players: list[tuple[Player, str]], concurrency: int = 256) -> list[LeanConnection]:
    """Connect every player to its gateway (a bounded number of handshakes at a time, so the
    server's backlog never overflows)."""
    semaphore = asyncio.Semaphore(concurrency)

    async def one(p: Player, cookie: str) -> LeanConnection:
        async with semaphore:
            return await connect(ws_urls[p.gateway], {"Cookie": f"fz_session={cookie}"}, p.opened, p.received)

    return await asyncio.gather(*(one(p, cookie) for p, cookie in players))


async def sample_rss(target: SingleTarget | ClusterTarget, duration: float, every: float | None,
                     ) -> list[tuple[float, float]]:
    """Wait ``duration`` seconds; with ``every``, note the processes' RSS (MB, summed) that often
    (a soak's memory curve), printing each sample to stderr as it is taken."""
    if not every:
        await asyncio.sleep(duration)
        return []
    series: list[tuple[float, float]] = []
    start = time.monotonic()
    for k in range(1, int(duration // every) + 2):
        at = min(k * every, duration)
        await asyncio.sleep(max(0.0, at - (time.monotonic() - start)))
        if series and at == series[-1][0]:
            break
        point = (at, round(sum(target.rss_mb().values()), 1))
        series.append(point)
        print(f"rss at {point[0]:.0f} s: {point[1]} MB", file=sys.stderr, flush=True)
    return series


async def storms(at: list[float], everyone: list[tuple[Player, str]], conns: list[LeanConnection], ws_urls: list[str],
                 stats: Stats, timeout: float) -> list[dict[str, float]]:
    """At each of ``at`` (seconds from now) every player disconnects at once (a disconnect storm)
    and, once every connection is closed, connects again at once (a connect storm).  ``conns`` is
    updated in place (the run's end closes the new ones); returns each storm's timings."""
    done: list[dict[str, float]] = []
    start = time.monotonic()
    for when in sorted(at):
        await asyncio.sleep(max(0.0, when - (time.monotonic() - start)))
        began = time.monotonic()
        for p, _ in everyone:
            p.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(c.closed for c in conns)), timeout)
        closed = time.monotonic()
        stats.pending.clear()  # an action in flight at the storm is never answered to everyone
        for p, _ in everyone:
            p.conn, p.latest = None, None
        stats.connected = 0  # counted again as each reconnects
        print(f"storm at {when:g} s: {len(conns)} closed in {closed - began:.1f} s, reconnecting", file=sys.stderr, flush=True)
        conns[:] = await asyncio.wait_for(open_players(ws_urls, everyone), timeout)
        done.append({"at": when, "disconnect_seconds": round(closed - began, 1),
                     "connect_seconds": round(time.monotonic() - closed, 1)})
    return done


def lag_report(readings: list[tuple[str, dict[str, dict[str, Any]]]]) -> dict[str, Any]:
    """Each process's event-loop lag per phase (between consecutive readings) and its largest
    since it started (the last reading's ``max``)."""
    found: dict[str, Any] = {}
    for name in readings[-1][1]:
        phases = {phase: lag_between(readings[i - 1][1][name], reading[name])
                  for i, (phase, reading) in enumerate(readings) if i and name in reading and name in readings[i - 1][1]}
        last = readings[-1][1][name]
        found[name] = {"max_ms": round(last["max"] * 1000, 1), "frozen_objects": last["frozen"], **phases}
    return found


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def make_target(args: argparse.Namespace, workdir: Path, game: str = HOUSE, **env: str) -> SingleTarget | ClusterTarget:
    pinning = Pinning.parse(args.pin)
    profile = Path(args.profile).resolve() / game.replace("/", "-") if args.profile else None
    if profile:
        profile.mkdir(parents=True, exist_ok=True)
    if args.cluster:
        workdir.chmod(0o755)  # PostgreSQL runs as the postgres user under it
        workdir.parent.chmod(0o755)
        return ClusterTarget(workdir, gateways=args.gateways, workers=args.workers, pinning=pinning,
                             quota=Quota.parse(args.quota),
                             profile=profile,
                             FREEZEOUT_WORKER_MAX_TABLES="1000000", **env)
    return SingleTarget(workdir, args.db, pinning, src=args.src, profile=None if args.py_spy else profile, **env)


def sample_server(args: argparse.Namespace, target: SingleTarget | ClusterTarget, game: str) -> subprocess.Popen[bytes] | None:
    """With ``--py-spy``, a sampling profile of the single server over the measured window
    (py-spy's own process reads the server's stacks: far less overhead than cProfile inside it),
    as collapsed stacks into the ``--profile`` folder."""
    if not args.py_spy or not isinstance(target, SingleTarget) or not args.profile:
        return None
    out = Path(args.profile).resolve() / game.replace("/", "-") / "server.pyspy.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([args.py_spy, "record", "--pid", str(target.server.ps.pid), "--duration", str(int(args.duration)),
                             "--rate", "250", "--format", "raw", "--nonblocking", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def throttling(target: SingleTarget | ClusterTarget) -> dict[str, dict[str, float]]:
    """CFS periods and throttled periods so far of every process under a ``--quota``."""
    return target.quota.throttled() if isinstance(target, ClusterTarget) else {}


def per_action(cpu: dict[str, float], actions: float) -> dict[str, float]:
    """Milliseconds of CPU per action, per process and per role (summed over its processes)."""
    found = {name: round(1000 * seconds / actions, 3) for name, seconds in cpu.items()} if actions else {}
    for role in ("gateway", "worker"):
        named = [seconds for name, seconds in cpu.items() if name.startswith(role + "-")]
        if named and actions:
            found[role + "s"] = round(1000 * sum(named) / actions, 3)
    return found


async def human_phase(args: argparse.Namespace, workdir: Path, game: str = HOUSE) -> dict[str, Any]:
    """Players at tables of ``game``: set up, connect, warm up, then measure ``args.duration``.
    The result's ``raw`` keeps the samples, so that runs of one game can be pooled."""
    cash = game == CASH
    probe_before = machine_probe_ms()
    gc_env = {**({"FREEZEOUT_GC_FULL_SECONDS": str(args.gc_full_every)} if args.gc_full_every else {}),
              **({"FREEZEOUT_GC_FREEZE": "0"} if args.no_gc_freeze else {})}
    target = make_target(args, workdir, game, **PER_ADDRESS_UNLIMITED, **gc_env, FREEZEOUT_PAUSE_SECONDS=str(args.pause))
    try:
        target.start()
        Pinning.parse(args.pin).pin_client()
        started = time.monotonic()
        if cash:
            tables = await setup_cash_tables(target, args.players, args.table_size)
        else:
            tables = await setup_tables(target.urls[0], args.players, args.table_size, game)
        setup_seconds = time.monotonic() - started
        stats = Stats()
        ws_urls = [url.replace("http", "ws", 1) + "/ws" for url in target.urls]
        rng = random.Random(1)
        everyone: list[tuple[Player, str]] = []
        for index, entry in enumerate(tables):
            table, cookies = entry[0], entry[1:]
            for seat, cookie in enumerate(cookies):  # a table's seats on different gateways
                everyone.append((Player(table, args.table_size, stats, (args.think_min, args.think_max),
                                        random.Random(rng.random()), (index + seat) % len(ws_urls),
                                        cash_seat=seat if cash else None, keyed=args.keys), cookie))
        lag_readings = [("setup", target.loop_lag())]
        conns = await asyncio.wait_for(open_players(ws_urls, everyone), args.handshake_timeout)
        lag_readings.append(("connect", target.loop_lag()))
        ClientStalls.quiet_collector()
        await asyncio.sleep(args.warmup)
        lag_readings.append(("warmup", target.loop_lag()))
        me = psutil.Process()
        me.cpu_percent(None)
        machine = psutil.cpu_times()
        cpu_before, actions_before, throttle_before = target.cpu(), target.actions(), throttling(target)
        gc_before = target.gc_seconds()
        rows_before = ledger_rows(target.server.db) if cash and isinstance(target, SingleTarget) else 0
        target.profiling(True)
        sampler = sample_server(args, target, game)
        stats.measuring = True
        stalls = ClientStalls()
        stalls.start()
        t0, window_at = time.perf_counter(), time.time()
        print(f"{game}: measuring {args.duration:g} s with {stats.connected} players", file=sys.stderr, flush=True)
        storming = asyncio.ensure_future(storms([float(x) for x in args.storms.split(",")] if args.storms else [],
                                                 everyone, conns, ws_urls, stats, args.handshake_timeout))
        rss_series = await sample_rss(target, args.duration, args.rss_every)
        storm_times = await storming  # a storm late in the window ends before the window is read
        elapsed = time.perf_counter() - t0
        lag_readings.append(("window", target.loop_lag()))
        stats.measuring = False
        client_stalls = stalls.stop()
        target.profiling(False)
        if sampler is not None:
            try:
                await asyncio.to_thread(sampler.wait, 180)  # it writes its file at the end of its --duration
            except subprocess.TimeoutExpired:
                sampler.kill()
        cpu_after, actions_after, throttle_after = target.cpu(), target.actions(), throttling(target)
        gc_after = target.gc_seconds()
        rows_after = ledger_rows(target.server.db) if cash and isinstance(target, SingleTarget) else 0
        client_cpu = me.cpu_percent(None)
        busy = machine_busy_percent(machine)
        cpu = {name: round(cpu_after[name] - cpu_before.get(name, 0.0), 2) for name in cpu_after}
        served = sum(cpu.values())
        worker_actions = {name: round(actions_after[name] - actions_before.get(name, 0.0)) for name in actions_after}
        actions = sum(worker_actions.values()) if worker_actions else stats.actions
        rss = target.rss_mb()
        for p, _ in everyone:
            p.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(c.closed for c in conns)), 30)
        await asyncio.sleep(2.0)  # the server's loop-lag monitor samples the disconnect storm's tail
        lag_readings.append(("disconnect", target.loop_lag()))
        server_lag = lag_report(lag_readings)
        probe_after = machine_probe_ms()
        return {
            "game": game,
            "valid": stats.errors == 0,  # a run with refused moves measured refusals, not the room
            "players_connected": stats.connected,
            "tables": len(tables),
            "setup_seconds": round(setup_seconds, 1),
            "actions_per_second": round(stats.actions / elapsed, 1),
            "latency_ms_p50": round(percentile(stats.latencies, 0.50) * 1000, 1),
            "latency_ms_p99": round(percentile(stats.latencies, 0.99) * 1000, 1),
            "latency_samples": len(stats.latencies),
            "latency_timeline": latency_timeline(stats, t0),
            **({"ledger_rows_per_second": round((rows_after - rows_before) / elapsed, 1),
                "ledger_rows": rows_after - rows_before} if cash else {}),
            "errors": stats.errors,
            "error_codes": stats.error_codes,
            "server_cpu_percent": round(100 * served / elapsed, 1),
            "cpu_seconds": cpu,
            **({"worker_actions": worker_actions} if worker_actions else {}),
            "cpu_ms_per_action": per_action(cpu, actions),
            # the collector's share of each process's CPU in the window (its own clock, from /metrics)
            "gc_percent_of_cpu": {name: round(100 * (gc_after[name] - gc_before.get(name, 0.0)) / cpu[name], 1)
                                  for name in gc_after if cpu.get(name)},
            "gateway_messages_per_second": {f"gateway-{g + 1}": round(n / elapsed, 1) for g, n in sorted(stats.messages.items())},
            "gateway_messages_per_cpu_second": {f"gateway-{g + 1}": round(n / cpu[f"gateway-{g + 1}"], 1)
                                                for g, n in sorted(stats.messages.items()) if cpu.get(f"gateway-{g + 1}")},
            "server_rss_mb": rss,
            "client_cpu_percent": round(client_cpu, 1),
            "client_stalls": client_stalls,
            # the server's event-loop lag (server/looplag.py): its largest since it started, and per
            # phase (connect storm, warm-up, the window with any --storms, the disconnect storm)
            "server_loop_lag_max_ms": max((v["max_ms"] for v in server_lag.values()), default=None),
            "server_loop_lag": server_lag,
            **({"storms": storm_times} if storm_times else {}),
            "other_cpu_percent": round(max(0.0, busy - 100 * served / elapsed - client_cpu), 1),
            "measured_seconds": round(elapsed, 1),
            "window_started_at": round(window_at, 3),  # the server's log lines carry the same clock ("at")
            "pinning": Pinning.parse(args.pin).describe(),
            **({"quota": Quota.parse(args.quota).describe(),
                "throttled": {name: {key: round(value - throttle_before[name][key], 2) for key, value in after.items()}
                              for name, after in throttle_after.items()}} if throttle_after else {}),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "machine_probe_ms": [probe_before, probe_after],
            **({"server_rss_mb_series": rss_series} if rss_series else {}),
            "update_bytes_mean": round(sum(stats.update_bytes) / len(stats.update_bytes), 1) if stats.update_bytes else None,
            "update_bytes_p99": percentile([float(b) for b in stats.update_bytes], 0.99) if stats.update_bytes else None,
            "updates_received": len(stats.update_bytes),
            "raw": {"latencies": stats.latencies, "update_bytes": stats.update_bytes, "actions": stats.actions,
                    "elapsed": elapsed, "cpu_seconds": served, "connected": stats.connected, "errors": stats.errors,
                    "error_codes": stats.error_codes, "load_average": list(os.getloadavg())},
        }
    finally:
        target.stop()
        if args.server_log:
            Path(args.server_log).write_text(target.log_text())
        problems = target.warnings()
        if problems:
            kinds: dict[str, int] = {}
            for line in problems:
                key = " ".join(w for w in line.split() if not w[0].isdigit())
                kinds[key] = kinds.get(key, 0) + 1
            print(f"server warnings ({len(problems)}): {kinds}; last: {problems[-3:]}", file=sys.stderr)


async def bot_phase(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    # Tables of bots alone exist only in test mode (a real room requires a human place).
    server = ServerProcess(workdir, db_url=args.db, **PER_ADDRESS_UNLIMITED, FREEZEOUT_PAUSE_SECONDS="0",
                           FREEZEOUT_BOT_DELAY_MIN="0", FREEZEOUT_BOT_DELAY_MAX="0", FREEZEOUT_TEST_MODE="1",
                           FREEZEOUT_BOT_ONLY_TABLES="1", FREEZEOUT_MAX_OPEN_TABLES_PER_USER="1000000")
    try:
        server.start()
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            csrf, _ = await make_guest(http)
            for _ in range(args.bot_tables):
                slots = [args.bot_level] * args.bot_table_size
                (await http.post("/api/tables", json={"slots": slots, "sit": False}, headers={"X-CSRF-Token": csrf})).raise_for_status()

        async def hands() -> int:
            if args.db:  # PostgreSQL: count with the driver the server uses
                import asyncpg

                conn = await asyncpg.connect(args.db.replace("postgresql://", "postgres://", 1))
                try:
                    return int(await conn.fetchval("SELECT count(*) FROM table_log WHERE kind = 'deal'"))
                finally:
                    await conn.close()
            with contextlib.closing(sqlite3.connect(server.db, timeout=30)) as db:
                return int(db.execute("SELECT count(*) FROM table_log WHERE kind = 'deal'").fetchone()[0])

        await asyncio.sleep(2)
        server.ps.cpu_percent(None)
        first, t0 = await hands(), time.perf_counter()
        await asyncio.sleep(args.bot_duration)
        last, elapsed = await hands(), time.perf_counter() - t0
        return {
            "bot_tables": args.bot_tables,
            "bot_level": args.bot_level,
            "seats_per_table": args.bot_table_size,
            "hands_per_second": round((last - first) / elapsed, 1),
            "server_cpu_percent": round(server.ps.cpu_percent(None), 1),
            "server_rss_mb": round(server.ps.memory_info().rss / 2**20, 1),
        }
    finally:
        server.stop()


def pooled(game: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One row of the side-by-side table: every run of ``game`` pooled (their samples together)."""
    latencies = [x for r in runs for x in r["raw"]["latencies"]]
    sizes = [float(b) for r in runs for b in r["raw"]["update_bytes"]]
    actions = sum(r["raw"]["actions"] for r in runs)
    elapsed = sum(r["raw"]["elapsed"] for r in runs)
    cpu = sum(r["raw"]["cpu_seconds"] for r in runs)
    errors: dict[str, int] = {}
    for r in runs:
        for code, n in r["raw"]["error_codes"].items():
            errors[code] = errors.get(code, 0) + n
    return {
        "game": game,
        "runs": len(runs),
        "players": min(r["raw"]["connected"] for r in runs),
        "actions_per_second": round(actions / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "samples": len(latencies),
        "cpu_ms_per_action": round(1000 * cpu / actions, 3) if actions else None,
        "server_cpu_percent": round(100 * cpu / elapsed, 1) if elapsed else 0.0,
        "bytes_per_update_mean": round(sum(sizes) / len(sizes), 1) if sizes else None,
        "bytes_per_update_p99": percentile(sizes, 0.99) if sizes else None,
        "errors": sum(r["raw"]["errors"] for r in runs),
        "error_codes": errors,
        "load_average": [r["raw"]["load_average"][0] for r in runs],
    }


def side_by_side(rows: list[dict[str, Any]]) -> str:
    """The table of issue #22 "Speed": each game's p99 against the house game's of the same run."""
    house = next((row for row in rows if row["game"] == HOUSE), None)
    head = (f"{'game':<8} {'players':>7} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'p99/NT':>6} {'CPU-ms/act':>10} "
            f"{'B/upd':>7} {'B/upd p99':>9} {'errors':>6}  load avg (1 min, per run)")
    lines = [head, "-" * len(head)]
    for row in rows:
        ratio = row["p99_ms"] / house["p99_ms"] if house and house["p99_ms"] else float("nan")
        row["p99_ratio_to_house"] = round(ratio, 2)
        lines.append(
            f"{row['game']:<8} {row['players']:>7} {row['actions_per_second']:>7} {row['p50_ms']:>7} {row['p99_ms']:>7} "
            f"{ratio:>6.2f} {row['cpu_ms_per_action'] or 0:>10.3f} {row['bytes_per_update_mean'] or 0:>7.0f} "
            f"{row['bytes_per_update_p99'] or 0:>9.0f} {row['errors']:>6}  {', '.join(f'{x:.2f}' for x in row['load_average'])}"
            + ("  INVALID (refused moves)" if row["errors"] else ""))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description="Load test of the Freezeout server on loopback")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--table-size", type=int, default=4, choices=range(2, 11), metavar="2..10",
                        help="seats per table (C12: the house game's freezeout 4 at most; --cash and other games up to their maximum)")
    parser.add_argument("--sizes", help="side by side (issue #34): these table sizes (e.g. 4,9) one after the other, each on a fresh "
                                        "server with the same players, of --game, or with --cash of cash tables; ratios to the smallest")
    parser.add_argument("--game", default=HOUSE, help="the game every table plays: an engine code (FO/8, F7S/8, F2L3D) or a mix (HORSE, 8GAME)")
    parser.add_argument("--games", help="side by side: these games (comma-separated, e.g. NT,FO/8,F7S/8,F2L3D) one after the other, "
                                        "each on a fresh server with the same players and settings, then a table")
    parser.add_argument("--rounds", type=int, default=1, help="with --games: go through the games this many times (interleaved) and pool each game's runs")
    parser.add_argument("--src", help="run the server from this checkout's src/ (a before/after comparison)")
    parser.add_argument("--think-min", type=float, default=1.0, help="human-like thinking time (s)")
    parser.add_argument("--think-max", type=float, default=4.0)
    parser.add_argument("--pause", type=float, default=4.0, help="R30 pause between hands (s)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--bot-tables", type=int, default=50)
    parser.add_argument("--bot-table-size", type=int, default=2)
    parser.add_argument("--bot-level", default="random")
    parser.add_argument("--bot-duration", type=float, default=20.0)
    parser.add_argument("--rss-every", type=float, help="sample the server's RSS this often during the run (a soak)")
    parser.add_argument("--storms", help="a soak: seconds into the window (comma-separated) at which every player "
                        "disconnects at once and then reconnects at once (a disconnect and a connect storm)")
    parser.add_argument("--gc-full-every", type=float,
                        help="the server's full garbage collection this often (s; default 600: a short run sees one)")
    parser.add_argument("--no-gc-freeze", action="store_true",
                        help="the server without gctune.Freezer (the collector as before issue #32: a comparison)")
    parser.add_argument("--skip-humans", action="store_true")
    parser.add_argument("--cash", action="store_true",
                        help="also the same players at cash tables of the house game (issue #25): buy-ins, rake, top-ups; "
                             "reports p99 and ledger rows per second next to the freezeout's, then `freezeout ledger check`")
    parser.add_argument("--server-log", help="keep the server's log of the human phase here")
    parser.add_argument("--db", help="a fresh, empty PostgreSQL database URL (default: a temporary SQLite file)")
    parser.add_argument("--skip-bots", action="store_true")
    parser.add_argument("--cluster", action="store_true", help="a local cluster (PostgreSQL, Redis, gateways, workers)")
    parser.add_argument("--gateways", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--profile", help="cProfile (CPU time) the server (a cluster: the first gateway and worker) over the measured window "
                                          "into this directory (a folder per game)")
    parser.add_argument("--keys", action="store_true",
                        help="every move carries a key, as the page's do (the server also answers each with applied)")
    parser.add_argument("--handshake-timeout", type=float, default=300.0,
                        help="seconds for every player's WebSocket handshake (a busy machine needs more)")
    parser.add_argument("--py-spy", help="with --profile: this py-spy binary samples the single server over the measured window "
                                         "instead of cProfile (not a dependency: e.g. pip install --target /tmp/pyspy py-spy)")
    parser.add_argument("--quota", help='a CPU budget per process of a role (cgroup CFS quota, cores), e.g. "worker=0.25"')
    parser.add_argument("--pin", help='cores per role for taskset, e.g. "worker=1 gateway=0 postgres=0 redis=0 client=0"')
    args = parser.parse_args()
    raise_fd_limit()
    if args.sizes:
        return compare_sizes(args)
    for refused in filter(None, [None if args.skip_humans else size_refused(args.game, False, args.table_size),
                                 size_refused(HOUSE, True, args.table_size) if args.cash else None]):
        parser.error(refused)
    if args.games:
        return compare_games(args, [g.strip() for g in args.games.split(",") if g.strip()])
    report: dict[str, Any] = {"cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="fz-load-") as tmp:
        if not args.skip_humans:
            (Path(tmp) / "h").mkdir()
            with asyncio.Runner(loop_factory=client_loop()) as runner:
                report["humans"] = runner.run(human_phase(args, Path(tmp) / "h", args.game))
            report["humans"].pop("raw")
            print(json.dumps({"humans": report["humans"]}), flush=True)
        if args.cash:
            (Path(tmp) / "c").mkdir()
            with asyncio.Runner(loop_factory=client_loop()) as runner:
                report["cash"] = runner.run(human_phase(args, Path(tmp) / "c", CASH))
            report["cash"].pop("raw")
            done = subprocess.run([sys.executable, "-m", "freezeout.cli", "ledger", "check", "--db",
                                   f"sqlite:///{Path(tmp) / 'c' / 'bench.sqlite'}"], capture_output=True, text=True,
                                  env={**os.environ, **({"PYTHONPATH": args.src} if args.src else {})}, timeout=600)
            report["cash"]["ledger_check"] = {"exit": done.returncode, "said": (done.stdout + done.stderr).strip()[-500:]}
            print(json.dumps({"cash": report["cash"]}), flush=True)
        if not args.skip_bots:
            (Path(tmp) / "b").mkdir()
            report["bots"] = asyncio.run(bot_phase(args, Path(tmp) / "b"))
    print(json.dumps(report, indent=2))
    if "humans" in report:
        h = report["humans"]
        verdict = "meets" if h["latency_ms_p99"] < 100 else "misses"
        print(f"{h['game']}: {h['players_connected']} players on {h['tables']} tables: {h['actions_per_second']} actions/s, "
              f"p50 {h['latency_ms_p50']} ms, p99 {h['latency_ms_p99']} ms ({verdict} the p99 < 100 ms target); "
              f"CPU % server {h['server_cpu_percent']}, client {h['client_cpu_percent']}, "
              f"others {h['other_cpu_percent']}; RSS MB {h['server_rss_mb']}; "
              f"bytes per update {h['update_bytes_mean']} (p99 {h['update_bytes_p99']}); load average {h['load_average']}; "
              f"server event-loop lag max {h['server_loop_lag_max_ms']} ms", file=sys.stderr)
        if h["errors"]:
            print(f"INVALID: the server refused {h['errors']} messages {h['error_codes']}", file=sys.stderr)
            return 1
    if "cash" in report:
        c = report["cash"]
        freeze = report.get("humans", {})
        print(f"cash: {c['players_connected']} players on {c['tables']} tables: {c['actions_per_second']} actions/s, "
              f"p50 {c['latency_ms_p50']} ms, p99 {c['latency_ms_p99']} ms (freezeout: p99 {freeze.get('latency_ms_p99')} ms); "
              f"{c['ledger_rows_per_second']} ledger rows/s; refused {c['error_codes']}; "
              f"ledger check exit {c['ledger_check']['exit']}: {c['ledger_check']['said']}", file=sys.stderr)
        if c["ledger_check"]["exit"] != 0:
            return 1
    return 0


def compare_games(args: argparse.Namespace, games: list[str]) -> int:
    """Issue #22 "Speed": each game in turn, on a fresh server each, the same players and settings;
    with ``--rounds`` the games alternate so that a busy spell of the shared machine falls on all."""
    runs: dict[str, list[dict[str, Any]]] = {game: [] for game in games}
    with tempfile.TemporaryDirectory(prefix="fz-load-") as tmp:
        for round_ in range(args.rounds):
            for index, game in enumerate(games):
                workdir = Path(tmp) / f"{round_}-{index}"
                workdir.mkdir()
                with asyncio.Runner(loop_factory=client_loop()) as runner:
                    result = runner.run(human_phase(args, workdir, game))
                runs[game].append(result)
                summary = {k: v for k, v in result.items() if k != "raw"}
                print(json.dumps(summary), file=sys.stderr, flush=True)
    rows = [pooled(game, runs[game]) for game in games]
    table = side_by_side(rows)
    print(json.dumps({"games": rows, "players": args.players, "table_size": args.table_size, "duration": args.duration,
                      "rounds": args.rounds, "think": [args.think_min, args.think_max], "pause": args.pause,
                      "load_average": [round(x, 2) for x in os.getloadavg()]}, indent=2))
    print(table)
    return 1 if any(row["errors"] for row in rows) else 0


def compare_sizes(args: argparse.Namespace) -> int:
    """Issue #34 "Speed": the same players at tables of each of ``--sizes`` seats in turn, on a fresh
    server each (cash tables of the house game with ``--cash``, else freezeouts of ``--game``); p50/p99,
    CPU-ms per action and bytes per update per size, and their ratios to the smallest size."""
    try:
        sizes = parse_sizes(args.sizes)
    except ValueError as bad:
        raise SystemExit(f"--sizes: {bad}") from None
    game = CASH if args.cash else args.game
    for size in sizes:
        refused = size_refused(HOUSE if args.cash else args.game, args.cash, size)
        if refused:
            raise SystemExit(f"--sizes: {refused}")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="fz-load-") as tmp:
        for round_ in range(args.rounds):
            for size in sizes:
                workdir = Path(tmp) / f"{round_}-{size}"
                workdir.mkdir()
                with asyncio.Runner(loop_factory=client_loop()) as runner:
                    result = runner.run(human_phase(argparse.Namespace(**{**vars(args), "table_size": size}), workdir, game))
                print(json.dumps({"table_size": size, **{k: v for k, v in result.items() if k != "raw"}}),
                      file=sys.stderr, flush=True)
                rows.append({"table_size": size, "result": result})
    pooled_rows = [{"table_size": size, **pooled(game, [r["result"] for r in rows if r["table_size"] == size])}
                   for size in sizes]
    print(json.dumps({"sizes": with_ratios(pooled_rows), "game": game, "players": args.players, "duration": args.duration,
                      "rounds": args.rounds, "think": [args.think_min, args.think_max], "pause": args.pause,
                      "load_average": [round(x, 2) for x in os.getloadavg()]}, indent=2))
    print(sizes_table(pooled_rows))
    return 1 if any(row["errors"] for row in pooled_rows) else 0


if __name__ == "__main__":
    sys.exit(main())
