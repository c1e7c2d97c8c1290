"""Failover drill (issue #13): kill -9 workers and gateways of a local cluster mid-hand.

Starts PostgreSQL and redis-server on loopback, 2 gateways and 3 workers
(``freezeout serve --role …``, as ``freezeout cluster`` does), opens
``--tables`` tables of two scripted humans and a bot, each human on a gateway
of its own, and plays.  Then, ``--kills`` times, at a random moment, it
SIGKILLs a worker that owns tables (``--gateway-kills``: a gateway) and
starts a new one in its place (``--redis-restarts``: kills redis-server and
starts it again empty; every table must move on and be listed again).  It measures, per worker kill, how long until
every table of the dead worker is owned by another (``/readyz`` of the
others), and checks against PostgreSQL's log:

* **lost**: every version a client was told is in the log, with the moves
  the client saw (write before tell survives the owner's death);
* **duplicated**: every human move in the log was sent by that seat's client
  (its key), decided on a version before it with nothing but ``resume``
  entries between;
* **moves** (issue #23): every move carries a key (docs/protocol.md
  "Resending"); moves acknowledged (``applied``) = moves in the log, none
  lost (sent, never refused, not in the log), none applied twice (a key in two
  entries), none acknowledged at another version than the log's, none
  refused as ``stale`` that the log applied;
* **stuck**: every table of a killed worker makes a move again within 30 s;
* no turn was forfeited (the humans always move within a second or resend).

Moves are sent exactly during takeovers: before each worker kill, the humans
of the victim's tables hold the move they decide (at most ``--hold`` seconds)
and send it right after the kill, while the gateways still route to the dead
worker.  Clients resend a move that got no answer within ``--resend`` seconds,
with the same key (the bus delivers at most once; the key makes the resend
safe), and reconnect to the other gateway, with ``since``, when theirs dies.
Every keyed request first sent between a kill and the new owner (a move, and
with ``--cash`` a buy-in, top-up or cash-out) is counted, with what became of
it (``during_takeovers``: applied once, refused by code, lost, applied
twice); a drill that killed a worker and sent none fails.

With ``--cash``, a player who is not seated also decides again every 1-2 s
(whether to buy in), not only when the table tells something: a table
where nobody chose to buy in tells nothing more, and such a table was what
the drill used to report as stalled after a Redis restart.

    .venv/bin/python bench/cluster.py --kills 20 --gateway-kills 20 --redis-restarts 5

``DRILL_DEBUG=1`` prints every move sent and every error answered (stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import websockets

from freezeout.server.cluster.local import Process, readiness, start_process, stop_processes, wait_ready
from freezeout.server.cluster.localservers import LocalPostgres, LocalRedis

ENV = {"FREEZEOUT_TURN_SECONDS": "8", "FREEZEOUT_PAUSE_SECONDS": "1", "FREEZEOUT_BOT_DELAY_MIN": "0.2",
       "FREEZEOUT_BOT_DELAY_MAX": "0.6", "FREEZEOUT_LEASE_SECONDS": "3", "FREEZEOUT_RENEW_SECONDS": "1",
       "FREEZEOUT_CLAIM_SECONDS": "0.25", "FREEZEOUT_FOLLOW_REFRESH_SECONDS": "1", "FREEZEOUT_ACCESS_LOG": "0",
       "FREEZEOUT_SIGNUP_MAX_PER_ADDRESS": "100000", "FREEZEOUT_MAX_OPEN_TABLES_PER_ADDRESS": "1000"}


@dataclass
class Seen:
    """Per table: what its clients were told (version -> moves, None: a catch-up) and sent."""

    updates: dict[int, list[tuple[int, str]] | None] = field(default_factory=dict)
    sent: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (version decided on, seat)
    acked: dict[str, int] = field(default_factory=dict)  # key -> the version ``applied`` named
    refused: dict[str, str] = field(default_factory=dict)  # key -> the error's code
    during: dict[str, str] = field(default_factory=dict)  # key -> intent type, first sent while the table had no live owner
    resends: int = 0
    transfers: dict[str, str] = field(default_factory=dict)  # --cash: transfer id -> the key of its request
    errors: dict[str, int] = field(default_factory=dict)  # error answers by code (busy ones included)
    orphaned: bool = False  # its owner was killed and no other has taken it yet
    last_version: int = 0


RETRY = ("busy", "storage")  # refusals that change nothing and pass: the same key again later
READY = 600.0  # how long a process may take to be ready: on a machine this busy a start takes minutes


class Human:
    def __init__(self, gateways: list[Process], first: int, table: str, cookie: str, seen: Seen, rng: random.Random,
                 resend: float) -> None:
        self.gateways, self.index, self.table, self.cookie = gateways, first, table, cookie
        self.seen, self.rng, self.resend = seen, rng, resend
        self.version: int | None = None
        self.reconnects = 0
        self.ws: Any = None
        self.latest: dict[str, Any] | None = None  # the last snapshot or update
        self.pending: dict[str, dict[str, Any]] = {}  # key -> the intent, until answered
        self.answered: dict[str, asyncio.Event] = {}
        self.hold: asyncio.Event | None = None  # set by the drill: send only once it is set (a kill)
        self.holding = False
        self.stopping = False  # decide no new move (the drill is ending)
        self.rematched = 0  # the game whose rematch this client accepted
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_the_way: set[str] = set()  # keys sent at least once

    async def run(self) -> None:
        while True:
            url = self.gateways[self.index % len(self.gateways)].url.replace("http", "ws") + "/ws"
            try:
                async with websockets.connect(url, additional_headers={"Cookie": f"fz_session={self.cookie}"},
                                              open_timeout=5, ping_interval=2, ping_timeout=4) as ws:
                    await ws.send(json.dumps({"type": "join", "table": self.table, "since": self.version}))
                    self.ws = ws
                    for key, move in list(self.pending.items()):  # unanswered: the same key again
                        if key not in self.on_the_way:
                            continue
                        self.seen.resends += 1
                        await ws.send(json.dumps(move))
                    async for text in ws:
                        msg = json.loads(text)
                        if msg["type"] in ("applied", "error"):
                            self.on_answer(msg)
                            continue
                        move = self.on_message(msg)
                        if move is not None:
                            self._background(self.act(move))
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, TimeoutError):
                pass
            self.ws = None
            self.reconnects += 1
            self.index += 1  # the other gateway
            await asyncio.sleep(0.1)

    def _background(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def on_answer(self, msg: dict[str, Any]) -> None:
        key = msg.get("key") if msg["type"] == "applied" else msg.get("ref")
        if msg["type"] == "error":
            self.seen.errors[msg["code"]] = self.seen.errors.get(msg["code"], 0) + 1
            if os.environ.get("DRILL_DEBUG"):
                print(f"{time.time():.2f} {self.table} {self.index % 2} error {msg}", file=sys.stderr, flush=True)
        if not isinstance(key, str) or key not in self.pending:
            return
        if msg["type"] == "applied":
            self.seen.acked[key] = msg["version"]
        elif msg["code"] in RETRY:
            return  # not applied, nothing changed: the resend loop sends it again
        else:
            self.seen.refused[key] = msg["code"]
        del self.pending[key]
        self.answered.pop(key).set()
        # Answered: decide on what we know (an update that came meanwhile was not acted on), unless
        # the ``applied`` came before its update (a cluster: two channels), which will decide.
        latest = self.latest
        if latest is not None and (msg["type"] == "error" or latest["version"] >= msg["version"]):
            move = self.decide(latest)
            if move is not None:
                self._background(self.act(move))

    def on_message(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        if msg["type"] not in ("snapshot", "update"):
            return None
        previous, version = self.version, msg["version"]
        self.version = version
        self.latest = msg
        self.seen.last_version = max(self.seen.last_version, version)
        if msg["type"] == "update":
            single = previous is not None and version == previous + 1
            moves = [(e["seat"], e["kind"]) for e in msg["events"] if e["type"] == "action_taken"] if single else None
            if self.seen.updates.get(version) is None:
                self.seen.updates[version] = moves
        return self.decide(msg)

    def decide(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The move to make on ``msg`` (a snapshot or update), unless one is still unanswered:
        a client that follows the protocol resends that one rather than deciding another."""
        view = msg["view"]
        if view is None or self.pending or self.stopping:
            return None
        key = secrets.token_urlsafe(12)
        if view["finished"]:
            if self.rematched == msg["table"]["game"]:
                return None
            self.rematched = msg["table"]["game"]
            return {"type": "rematch", "key": key, "id": key}
        if view["legal"] is not None and view["to_act"] == view["viewer"]:
            moves = view["legal"]["moves"]
            move = "check" if "check" in moves else "call" if self.rng.random() < 0.85 else "fold"
            self.seen.sent[key] = (msg["version"], view["viewer"])
            return {"type": "act", "version": msg["version"], "move": move, "key": key, "id": key}
        return None

    def describe(self) -> str:
        """What this client last knew (for a problem's report)."""
        view = (self.latest or {}).get("view") or {}
        me = view.get("you")
        seat = view["seats"][me] if me is not None and view.get("seats") else None
        return (f"v{self.version} pending {[m['type'] for m in self.pending.values()]} in_hand {view.get('in_hand')} "
                f"to_act {view.get('to_act')} you {me} seat {seat} refused_at {getattr(self, 'refused_at', None)} "
                f"{getattr(self, 'last_refusal', '')}")

    def debug(self, what: str) -> None:
        if os.environ.get("DRILL_DEBUG"):
            print(f"{time.time():.2f} {self.table} {id(self) % 1000} {what}", file=sys.stderr, flush=True)

    async def act(self, move: dict[str, Any]) -> None:
        """Send (after a human's moment; held while the drill is about to kill this table's owner),
        and send again with the same key every ``resend`` seconds until it is answered; a
        reconnect sends it again at once (``run``)."""
        key = move["key"]
        self.pending[key] = move
        answered = self.answered[key] = asyncio.Event()
        await asyncio.sleep(self.rng.uniform(0.05, 0.3))
        hold = self.hold
        if hold is not None:
            self.holding = True
            await hold.wait()
            self.holding = False
        if self.seen.orphaned and key in self.seen.sent:  # a move or (--cash) a buy-in, top-up or cash-out
            self.seen.during[key] = move["type"]
        first = True
        while key in self.pending:
            ws = self.ws
            if ws is not None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    self.seen.resends += not first
                    first = False
                    self.on_the_way.add(key)
                    self.debug(f"send {move}")
                    await ws.send(json.dumps(move))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(answered.wait(), self.resend)


async def read_log(pg: str, table: str) -> dict[int, tuple[str, dict[str, Any]]]:
    conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://"))
    try:
        rows = await conn.fetch("SELECT seq, kind, data, at FROM table_log WHERE table_id = $1 ORDER BY seq", table)
    finally:
        await conn.close()
    return {r["seq"]: (r["kind"], {**json.loads(r["data"]), "_at": r["at"]}) for r in rows}


def check(log: dict[int, tuple[str, dict[str, Any]]], seen: Seen, in_flight: set[str]) -> dict[str, list[str]]:
    """What went wrong at one table; ``in_flight``: keys still unanswered when the log was read."""
    lost, doubled, moves = [], [], []
    for version, told in seen.updates.items():
        if version not in log:
            lost.append(f"version {version} was told but is not in the log")
            continue
        kind, data = log[version]
        for seat, _ in told or ():
            if kind != "act" or int(data["seat"]) != seat:
                lost.append(f"version {version}: a client saw seat {seat} move, the log has {kind} {data}")
    bot: int | None = None  # the bot's seat in the game being played (slot 2; seats move at a rematch)
    cash_bots: set[int] = set()  # --cash: the seats a bot took (bots fill a table where a human sits alone)
    keyed: dict[str, list[int]] = {}
    for seq, (kind, data) in sorted(log.items()):
        if kind == "start":
            bot = list(data["seat_slots"]).index(2)
        elif kind == "sit":
            (cash_bots.add if data.get("kind") == "bot" else cash_bots.discard)(int(data["slot"]))
        key = (data.get("intent") or {}).get("key")
        if key is not None:
            keyed.setdefault(key, []).append(seq)
        human = (kind == "act" and int(data["seat"]) != bot and int(data["seat"]) not in cash_bots
                 and data.get("move") != "timeout")
        if not human:
            continue
        sent = seen.sent.get(key) if key is not None else None
        between = [log[v][0] for v in range(sent[0] + 1, seq)] if sent is not None else []
        if sent is None or sent[1] != int(data["seat"]) or any(k != "resume" for k in between):
            doubled.append(f"seq {seq}: seat {data['seat']} moved without its client sending that move ({key}, {sent})")
    for key, seqs in keyed.items():
        if len(seqs) > 1:
            moves.append(f"key {key} applied twice: {seqs}")
        acked = seen.acked.get(key)
        if acked is None and key not in in_flight:
            moves.append(f"key {key} applied at {seqs[0]}, never acknowledged")
        elif acked is not None and acked != seqs[0]:
            moves.append(f"key {key} acknowledged at {acked}, applied at {seqs[0]}")
        if key in seen.refused:
            moves.append(f"key {key} refused as {seen.refused[key]} but applied at {seqs[0]}")
    for key in seen.sent:
        if key not in keyed and key not in seen.refused and key not in in_flight:
            moves.append(f"key {key} lost: sent, never refused, not in the log (acknowledged: {seen.acked.get(key)})")
    return {"lost": lost, "doubled": doubled, "moves": moves}


async def owners(workers: list[Process]) -> dict[str, str]:
    found: dict[str, str] = {}
    answers = await asyncio.gather(*(asyncio.to_thread(readiness, w) for w in workers))
    for answer in answers:
        for table in (answer or {}).get("tables", {}) or {}:
            found[table] = str(answer["node"])  # type: ignore[index]
    return found


async def open_tables(gateway: Process, count: int) -> list[tuple[str, list[str]]]:
    tables = []
    async with httpx.AsyncClient(base_url=gateway.url, timeout=60) as http:
        for _ in range(count):
            guests = []
            for _ in range(2):
                http.cookies.clear()
                csrf = (await http.get("/api/session")).json()["csrf"]
                response = await http.post("/api/guest", headers={"X-CSRF-Token": csrf})
                guests.append((response.json()["csrf"], response.cookies["fz_session"]))
            headers = [{"X-CSRF-Token": c, "Cookie": f"fz_session={s}"} for c, s in guests]
            http.cookies.clear()
            for _ in range(5):  # busy (503): no worker has taken the new table yet; a client tries again
                response = await http.post("/api/tables", json={"slots": [None, None, "easy"]}, headers=headers[0])
                if response.status_code != 503:
                    break
            if response.status_code != 200:
                raise RuntimeError(f"opening a table: {response.status_code} {response.text}")
            table = response.json()["table"]["id"]
            (await http.post(f"/api/tables/{table}/sit", headers=headers[1])).raise_for_status()
            tables.append((table, [s for _, s in guests]))
    return tables


CASH_OPTIONS = {"big_blind": 200}  # buy-ins 4000 to 20000 (C1's defaults); the grant is 10000
CASH_RETRY_CODES = ("insufficient", "illegal")  # a cash request the rules refused: try another later


class CashHuman(Human):
    """A registered player at a cash table (``--cash``): buys in when not seated, plays its
    hands (check, call, sometimes fold), and between hands now and then tops up or cashes
    out, every request keyed, the buy-ins and top-ups with a transfer id of its own.  Once
    ``finishing``, it only plays out its hand and leaves."""

    def __init__(self, *args: Any, name: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name = name
        self.transfers = 0
        self.left_with = 0  # C3: a return within 30 minutes needs at least the chips one left with
        self.refused_at = -1  # the version a cash request was refused at: no other until the table moves
        self.finishing = False
        self.seated: bool | None = None
        self.last_refusal = ""

    async def run(self) -> None:
        self._background(self._think_again())
        await super().run()

    async def _think_again(self) -> None:
        """A player not seated (or leaving at the end) decides again now and then, not only when
        the table tells something: otherwise a table where nobody chose to buy in (or one
        player sits alone) tells nothing more, and its players never decide again (the drill's
        stall, not the server's).  A seated player decides on the table's messages only."""
        while True:
            await asyncio.sleep(self.rng.uniform(1.0, 2.0))
            latest = self.latest
            if latest is None or self.pending or self.stopping or self.ws is None or self.holding:
                continue
            view = latest["view"] or {}
            if view.get("you") is not None and not self.finishing:  # seated: a player decides on the table's news
                continue  # (deciding every second between hands, they cashed out so often that hardly a hand was played)
            move = self.decide(latest)
            if move is not None:
                self._background(self.act(move))

    def on_answer(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "error" and msg.get("code") in CASH_RETRY_CODES:
            self.refused_at = self.version or 0
            self.last_refusal = f"{msg.get('code')}: {msg.get('message')}"
            # C3: the room counts the chips one left with at the hand's end (a leave asked for
            # during a hand takes what the hand brought); the refusal names the least buy-in
            least = re.search(r"a buy-in here is (\d+) to", str(msg.get("message", "")))
            if least is not None:  # it says what to bring: back with that at once, not once the table moves
                self.left_with = max(self.left_with, int(least.group(1)))
                self.refused_at = -1
        super().on_answer(msg)

    def decide(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        view = msg["view"]
        if view is None or view.get("format") != "cash" or self.pending or self.stopping:
            return None
        me, version = view["you"], msg["version"]
        self.seated = me is not None
        key = secrets.token_urlsafe(12)
        if me is None:
            if self.finishing or version <= self.refused_at or self.rng.random() < 0.5:
                return None
            self.transfers += 1
            transfer = f"{self.name}-b{self.transfers}-{secrets.token_hex(3)}"
            chips = min(20000, max(self.rng.choice((4000, 5000, 6000)), self.left_with))
            self.seen.sent[key] = (version, -1)
            self.seen.transfers[transfer] = key
            return {"type": "buy_in", "chips": chips, "transfer": transfer, "key": key, "id": key}
        seat = view["seats"][me]
        if view.get("legal") is not None and view["to_act"] == me:
            moves = view["legal"]["moves"]
            move = "check" if "check" in moves else "call" if self.rng.random() < 0.85 else "fold"
            self.seen.sent[key] = (version, me)
            return {"type": "act", "version": version, "move": move, "key": key, "id": key}
        if seat["leaving"] or (view["in_hand"] and not self.finishing):
            return None
        roll = self.rng.random()
        if self.finishing or roll < 0.1:  # a cash-out (between hands) or a leave at the hand's end (C3)
            self.left_with = seat["stack"]
            self.seen.sent[key] = (version, -1)
            return {"type": "stand", "key": key, "id": key}
        if version <= self.refused_at:  # a refused top-up waits for the table to move; a cash-out does not
            return None
        if roll < 0.2:
            self.transfers += 1
            transfer = f"{self.name}-t{self.transfers}-{secrets.token_hex(3)}"
            self.seen.sent[key] = (version, -1)
            self.seen.transfers[transfer] = key
            return {"type": "top_up", "chips": 1000, "transfer": transfer, "key": key, "id": key}
        return None


async def open_cash_tables(gateway: Process, pg: str, count: int, per_table: int = 3) -> list[tuple[str, list[tuple[str, str]]]]:
    """``count`` cash tables of 4 seats, each with ``per_table`` registered players (name, cookie).
    A table is written straight into PostgreSQL as room.py's ``create`` would (its row and its
    ``create`` entry, no owner yet): a worker takes it as it takes any new table.  (Until
    ``POST /api/tables`` takes ``"format": "cash"``: branch cashlobby.)"""
    from freezeout.server.gamespec import GameSpec

    spec = GameSpec.parse_cash("NT", CASH_OPTIONS)
    tables: list[tuple[str, list[tuple[str, str]]]] = []
    conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://"))
    try:
        async with httpx.AsyncClient(base_url=gateway.url, timeout=60) as http:
            for _ in range(count):
                table = "t" + secrets.token_hex(6)
                data = {"slots": [None] * 4, "ranked": False, "created_by": None, "game": spec.to_json()}
                async with conn.transaction():
                    await conn.execute("INSERT INTO tables (id, created_at, closed) VALUES ($1, $2, false)", table, time.time())
                    await conn.execute("INSERT INTO table_log (table_id, seq, at, kind, data, epoch) "
                                       "VALUES ($1, 1, $2, 'create', $3, NULL)", table, time.time(), json.dumps(data))
                players = []
                for _ in range(per_table):
                    http.cookies.clear()
                    name = "p" + secrets.token_hex(4)
                    csrf = (await http.get("/api/session")).json()["csrf"]
                    response = await http.post("/api/register", json={"name": name, "password": "correct horse"},
                                               headers={"X-CSRF-Token": csrf})
                    response.raise_for_status()
                    players.append((name, response.cookies["fz_session"]))
                tables.append((table, players))
    finally:
        await conn.close()
    return tables


async def cash_checks(pg: str, seen: dict[str, Seen], humans: list[CashHuman]) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """After everyone left: ``freezeout ledger check`` green, every acknowledged buy-in and
    top-up in the ledger exactly once (and a refused one not at all), no table holding chips
    (0 stuck seats), no seat taken."""
    problems: dict[str, list[str]] = {"ledger": [], "double_buy_ins": [], "stuck_seats": []}
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "freezeout.cli", "ledger", "check", "--db", pg],
                                   capture_output=True, text=True, timeout=600)
    said = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        problems["ledger"].append(f"ledger check exited {done.returncode}: {said}")
    conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://"))
    try:
        rows = await conn.fetch("SELECT transfer_id, kind, table_id, amount FROM ledger WHERE table_id = ANY($1::text[])",
                                list(seen))
        sits = await conn.fetch("SELECT table_id, data FROM table_log WHERE table_id = ANY($1::text[]) "
                                "AND kind IN ('sit', 'top_up')", list(seen))
    finally:
        await conn.close()
    by_id: dict[str, int] = {}
    for r in rows:  # a client's id is filed as cash:<account>:<id> (storage/ledger.py client_transfer)
        named = r["transfer_id"].split(":", 2)[-1] if r["transfer_id"].startswith("cash:") else r["transfer_id"]
        by_id[named] = by_id.get(named, 0) + 1
    keyed_entries: dict[str, int] = {}
    for r in sits:
        key = (json.loads(r["data"]).get("intent") or {}).get("key")
        if key is not None:
            keyed_entries[key] = keyed_entries.get(key, 0) + 1
    for table, s in seen.items():
        for transfer, key in s.transfers.items():
            count = by_id.get(transfer, 0)
            if count > 1 or keyed_entries.get(key, 0) > 1:
                problems["double_buy_ins"].append(f"{table} {transfer}: {count} ledger rows, {keyed_entries.get(key)} entries")
            if key in s.acked and count != 1:
                problems["double_buy_ins"].append(f"{table} {transfer}: acknowledged, {count} ledger rows")
            if key in s.refused and count != 0:
                problems["double_buy_ins"].append(f"{table} {transfer}: refused as {s.refused[key]}, yet {count} rows")
    signs = {"buy_in": 1, "top_up": 1, "cash_out": -1, "rake": -1}
    held: dict[str, int] = {}
    for r in rows:
        held[r["table_id"]] = held.get(r["table_id"], 0) + signs[r["kind"]] * r["amount"]
    problems["stuck_seats"] += [f"{t}: the ledger still puts {c} chips on it after everyone left" for t, c in held.items() if c]
    problems["stuck_seats"] += [f"{h.table} {h.name}: still seated at the end ({h.describe()})" for h in humans if h.seated]
    kinds: dict[str, int] = {}
    for r in rows:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    refusals: dict[str, int] = {}
    for s in seen.values():
        for key, code in s.refused.items():
            if key in s.transfers.values():
                refusals[code] = refusals.get(code, 0) + 1
    return problems, {"ledger_check": said, "ledger_rows": kinds, "transfers_sent": sum(len(s.transfers) for s in seen.values()),
                      "transfers_refused": refusals}


async def drill(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="fz-cluster-") as tmp:
        base = Path(tmp)
        base.chmod(0o755)  # PostgreSQL runs as the postgres user under it
        postgres, redis = LocalPostgres(base / "pg"), LocalRedis(base / "redis")
        postgres.start()
        redis.start()
        from freezeout.server.cluster.local import cluster_env  # passwords and the bus secret (issue #23)

        env = {**os.environ, **ENV, **cluster_env(postgres, redis, base / "secrets")}
        gateways = [start_process("gateway", args.port + i, env, base / f"gateway-{i}.log") for i in range(2)]
        workers = [start_process("worker", args.port + 100 + i, env, base / f"worker-{i}.log") for i in range(3)]
        tasks: list[asyncio.Task[None]] = []
        try:
            await asyncio.to_thread(wait_ready, [*gateways, *workers], READY)
            humans: list[Human]
            if args.cash:
                cash_tables = await open_cash_tables(gateways[0], postgres.url, args.tables)
                tables = [(table, [cookie for _, cookie in players]) for table, players in cash_tables]
                seen = {table: Seen() for table, _ in tables}
                humans = [CashHuman(gateways, i, table, cookie, seen[table], random.Random(rng.random()), args.resend, name=name)
                          for table, players in cash_tables for i, (name, cookie) in enumerate(players)]
            else:
                tables = await open_tables(gateways[0], args.tables)
                seen = {table: Seen() for table, _ in tables}
                humans = [Human(gateways, i, table, cookie, seen[table], random.Random(rng.random()), args.resend)
                          for table, cookies in tables for i, cookie in enumerate(cookies)]
            tasks = [asyncio.create_task(h.run()) for h in humans]
            takeovers: list[float] = []
            stuck: list[str] = []
            idle: list[str] = []  # cash tables whose players cannot afford a seat (not a problem)
            kills: list[tuple[float, str]] = []
            plan = ["worker"] * args.kills + ["gateway"] * args.gateway_kills + ["redis"] * args.redis_restarts
            rng.shuffle(plan)
            for number, kind in enumerate(plan, 1):
                await asyncio.sleep(rng.uniform(0.5, args.max_up))
                if kind == "redis":  # kill -9 and start again empty, on the same port
                    before = {t: max(s.updates, default=0) for t, s in seen.items()}
                    kills.append((time.time(), "redis"))
                    redis.stop()
                    redis.start()
                    stuck.extend(await _stalled(seen, before, f"kill {number} (redis)", humans, postgres.url, idle))
                    stuck.extend(await _unlisted(gateways[0], set(seen), f"kill {number} (redis)"))
                    print(json.dumps({"kill": number, "redis": True}), flush=True)
                    continue
                if kind == "gateway":
                    index = rng.randrange(len(gateways))
                    kills.append((time.time(), f"gateway {index}"))
                    os.kill(gateways[index].popen.pid, signal.SIGKILL)
                    gateways[index].popen.wait()
                    gateways[index] = start_process("gateway", gateways[index].port, env, base / f"gateway-{index}.log")
                    await asyncio.to_thread(wait_ready, [gateways[index]], READY)
                    print(json.dumps({"kill": number, "gateway": index}), flush=True)
                    continue
                owned = await owners(workers)
                by_node = {str((readiness(w) or {}).get("node")): i for i, w in enumerate(workers)}
                victims = [n for n in by_node if any(o == n for o in owned.values())]
                if not victims:
                    continue
                node = rng.choice(victims)
                index = by_node[node]
                theirs = [t for t, o in owned.items() if o == node and t in seen]  # not a table left by a 503
                before = {t: max(s.updates, default=0) for t, s in seen.items()}
                # Moves during the takeover: the victim's humans hold the move they decide, and send it
                # right after the kill, while the gateways still route to the dead worker.
                held = [h for h in humans if h.table in theirs]
                release = asyncio.Event()
                for h in held:
                    h.hold = release
                hold_until = time.monotonic() + args.hold
                while not any(h.holding for h in held) and time.monotonic() < hold_until:
                    await asyncio.sleep(0.02)
                killed = time.monotonic()
                kills.append((time.time(), f"worker {node}"))
                os.kill(workers[index].popen.pid, signal.SIGKILL)
                workers[index].popen.wait()
                for t in theirs:
                    seen[t].orphaned = True
                for h in held:
                    h.hold = None
                release.set()
                others = [w for i, w in enumerate(workers) if i != index]
                while True:
                    now_owned = await owners(others)
                    if all(t in now_owned for t in theirs):
                        break
                    if time.monotonic() - killed > 60:
                        stuck.extend(f"kill {number}: {t} not taken over in 60 s" for t in theirs if t not in now_owned)
                        break
                    await asyncio.sleep(0.05)
                took = time.monotonic() - killed
                takeovers.append(took)
                for t in theirs:
                    seen[t].orphaned = False
                workers[index] = start_process("worker", workers[index].port, env, base / f"worker-{index}.log")
                stuck.extend(await _stalled({t: seen[t] for t in theirs}, before, f"kill {number}", humans, postgres.url, idle))
                print(json.dumps({"kill": number, "worker": node, "tables": len(theirs), "takeover_s": round(took, 2)}),
                      flush=True)
                await asyncio.to_thread(wait_ready, [workers[index]], READY)
            await asyncio.sleep(3)
            cashers = [h for h in humans if isinstance(h, CashHuman)]
            if cashers:  # everyone plays out their hand and leaves with their chips
                for h in cashers:
                    h.finishing = True
                    if h.latest is not None and not h.pending:
                        move = h.decide(h.latest)
                        if move is not None:
                            h._background(h.act(move))
                leave_until = time.monotonic() + 90
                while any(h.seated or h.pending for h in cashers) and time.monotonic() < leave_until:
                    await asyncio.sleep(0.2)
            stopped = time.time()
            for h in humans:  # no new moves; the ones on their way are answered
                h.stopping = True
            drain_until = time.monotonic() + 30
            while any(h.pending for h in humans) and time.monotonic() < drain_until:
                await asyncio.sleep(0.1)
            in_flight = {key for h in humans for key in h.pending}
            problems: dict[str, list[str]] = {"lost": [], "doubled": [], "moves": [], "stuck": stuck, "forfeits": []}
            entries = moves = keyed = 0
            in_log: dict[str, int] = {}  # intent key -> entries naming it, at every table
            for table, _ in tables:
                log = await read_log(postgres.url, table)
                entries += len(log)
                moves += sum(1 for k, _ in log.values() if k == "act")
                keyed += sum(1 for k, d in log.values() if k == "act" and "intent" in d)
                for _, d in log.values():
                    if (named := (d.get("intent") or {}).get("key")) is not None:
                        in_log[named] = in_log.get(named, 0) + 1
                found = check(log, seen[table], in_flight)
                for key, values in found.items():
                    problems[key] += [f"{table} {v}" for v in values]
                problems["forfeits"] += [f"{table} seq {s}: {d} ({_after_kill(kills, d['_at'])})" for s, (k, d) in log.items()
                                         if k == "act" and d.get("move") == "timeout" and d["_at"] < stopped]
            cash: dict[str, Any] = {}
            if cashers:
                found_cash, cash = await cash_checks(postgres.url, seen, cashers)
                problems.update(found_cash)
            ordered = sorted(takeovers)
            all_seen = list(seen.values())
            sent = {key for s in all_seen for key in s.sent}
            during = {key: kind for s in all_seen for key, kind in s.during.items()}
            taken_over = _during_takeovers(during, all_seen, in_log, in_flight)
            if takeovers and not during:
                problems["takeovers"] = ["no move or cash request was sent while a killed worker's tables had no owner"]
            acked = {key: s.acked[key] for s in all_seen for key in s.sent if key in s.acked}
            refused = {key: s.refused[key] for s in all_seen for key in s.sent if key in s.refused}
            return {
                "worker_kills": len(takeovers), "gateway_kills": plan.count("gateway"), "redis_restarts": plan.count("redis"), "tables": len(tables),
                "log_entries": entries, "moves": moves, "reconnects": sum(h.reconnects for h in humans),
                "takeover_s_median": round(ordered[len(ordered) // 2], 2) if ordered else None,
                "takeover_s_max": round(ordered[-1], 2) if ordered else None,
                "moves_keyed": {"sent": len(sent), "acknowledged": len(acked), "in_log": keyed,
                                "refused": len(refused), "refused_stale": sum(1 for c in refused.values() if c == "stale"),
                                "in_flight": len(in_flight), "resends": sum(s.resends for s in all_seen),
                                "sent_during_takeover": len(during), "acknowledged_during_takeover": len(set(during) & set(acked))},
                "during_takeovers": taken_over,
                "errors": {code: sum(s.errors.get(code, 0) for s in all_seen) for code in sorted({c for s in all_seen for c in s.errors})},
                "counts": {key: len(values) for key, values in problems.items()}, "problems": problems,
                **({"cash": cash} if cash else {}),
                **({"idle_tables": idle} if idle else {}),
            }
        finally:
            for task in tasks:
                task.cancel()
            stop_processes([*gateways, *workers])
            if args.logs:
                for log in sorted(base.glob("*.log")):
                    print(f"== {log.name}\n" + log.read_text(errors="replace")[-3000:], file=sys.stderr)
            redis.stop()
            postgres.stop()


def _during_takeovers(during: dict[str, str], seen: list[Seen], in_log: dict[str, int], in_flight: set[str]) -> dict[str, Any]:
    """What became of each request first sent between a worker's kill and its tables' new
    owner: applied once (acknowledged, one entry), refused (by code, and none in the log), lost
    (neither), applied twice (two entries)."""
    acked = {key for s in seen for key in s.acked}
    refused = {key: code for s in seen for key, code in s.refused.items()}
    outcome: dict[str, Any] = {"sent": len(during), "by_type": {}, "applied_once": 0, "refused": {}, "lost": 0,
                               "applied_twice": 0, "refused_but_applied": 0, "in_flight": 0,
                               "acknowledged_without_entry": 0}
    for key, kind in during.items():
        outcome["by_type"][kind] = outcome["by_type"].get(kind, 0) + 1
        entries = in_log.get(key, 0)
        if entries > 1:
            outcome["applied_twice"] += 1
        if key in refused:
            outcome["refused"][refused[key]] = outcome["refused"].get(refused[key], 0) + 1
            outcome["refused_but_applied"] += entries > 0
        elif key in acked and entries == 1:
            outcome["applied_once"] += 1
        elif key in acked and entries == 0:  # applied without an entry of its own (e.g. a leave marked on a seat)
            outcome["acknowledged_without_entry"] += 1
        elif key in in_flight:
            outcome["in_flight"] += 1
        elif entries == 0:
            outcome["lost"] += 1
    return outcome


def _priced_out(players: list[Human]) -> bool:
    """Every cash player of a table but one at the most is out of a seat and was refused a buy-in at the table's
    present version (``insufficient``: the balance; ``illegal``: C3's return with fewer chips
    than one left with): nobody asks again until the table moves, and nothing can move it.  An
    empty table (or one player waiting alone) whose others lack the chips to sit is the room
    working, not a stall."""
    out = [h for h in players if not (isinstance(h, CashHuman) and h.seated)]
    return bool(players) and len(players) - len(out) <= 1 and all(
        isinstance(h, CashHuman) and h.seated is False and h.version is not None and h.refused_at >= h.version for h in out)


async def _stalled(seen: dict[str, Seen], before: dict[str, int], what: str, humans: list[Human], pg: str,
                   idle: list[str] | None = None) -> list[str]:
    """The tables of ``seen`` that tell no new version within 30 s, each with what its log and its
    clients had then (the log's last entries; each client's version, unanswered intents and turn).
    A cash table whose players are all priced out (:func:`_priced_out`) goes to ``idle`` instead,
    with each player's last refusal."""
    deadline = time.monotonic() + 30
    while any(max(s.updates, default=0) <= before[t] for t, s in seen.items()) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    found = []
    for t, s in seen.items():
        if max(s.updates, default=0) > before[t]:
            continue
        log = await read_log(pg, t)
        tail = [f"{seq} {kind}" for seq, (kind, _) in sorted(log.items())[-3:]]
        players = [h for h in humans if h.table == t]
        clients = [f"v{h.version} pending {[m['type'] for m in h.pending.values()]} "
                   f"to_act {((h.latest or {}).get('view') or {}).get('to_act')}" for h in players]
        if idle is not None and _priced_out(players):
            refusals = [h.last_refusal for h in players if isinstance(h, CashHuman)]
            idle.append(f"{what}: {t} no second player can buy in (log ends {tail}; refused {refusals})")
            continue
        found.append(f"{what}: {t} made no move in 30 s (log ends {tail}; clients {clients})")
    return found


async def _unlisted(gateway: Process, tables: set[str], what: str) -> list[str]:
    """The tables missing from the gateway's lobby 30 s on (its Redis copy is rewritten by the owners)."""
    deadline = time.monotonic() + 30
    listed: set[str] = set()
    async with httpx.AsyncClient(base_url=gateway.url, timeout=10) as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                listed = {t["id"] for t in (await http.get("/api/tables?limit=200")).json()["tables"]}
            if tables <= listed:
                return []
            await asyncio.sleep(0.5)
    return [f"{what}: {t} is not in the lobby 30 s on" for t in sorted(tables - listed)]


def _after_kill(kills: list[tuple[float, str]], at: float) -> str:
    before = [(t, what) for t, what in kills if t <= at]
    return f"{at - before[-1][0]:.1f} s after killing {before[-1][1]}" if before else "before any kill"


def main() -> int:
    parser = argparse.ArgumentParser(description="kill -9 workers and gateways of a local cluster (issue #13)")
    parser.add_argument("--kills", type=int, default=20, help="workers killed")
    parser.add_argument("--gateway-kills", type=int, default=20)
    parser.add_argument("--redis-restarts", type=int, default=0, help="times redis-server is killed and started empty")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--max-up", type=float, default=4.0, help="longest time between kills (s)")
    parser.add_argument("--resend", type=float, default=1.5, help="a client resends an unanswered move after (s)")
    parser.add_argument("--hold", type=float, default=2.0,
                        help="before a worker kill, wait this long at most for a move of its tables to send right after it")
    parser.add_argument("--cash", action="store_true",
                        help="cash tables: registered players buy in, top up, play and cash out (issue #25)")
    parser.add_argument("--port", type=int, default=18500)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--logs", action="store_true", help="print the end of each process's log at the end")
    args = parser.parse_args()
    report = asyncio.run(drill(args))
    print(json.dumps(report, indent=2))
    bad = sum(report["counts"].values())
    print(f"{report['worker_kills']} worker and {report['gateway_kills']} gateway kills, "
          f"{report['redis_restarts']} Redis restarts: "
          f"{'nothing lost, duplicated or stuck, no forfeit' if not bad else f'{bad} problems'}", file=sys.stderr)
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
