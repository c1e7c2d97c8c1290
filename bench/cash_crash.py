"""Cash crash drill (issue #25 "Safe under faults"): ``kill -9`` at every step of a buy-in,
a top-up and a cash-out, restart, retry, and prove no chip was lost, made or moved twice.

The server runs as its own process on SQLite with ``FREEZEOUT_CRASH_AT=<phase>:<kind>``
(server/storage/crashpoint.py), which makes it die as ``kill -9`` would at one step of a
chip movement:

- ``received``  the intent is validated, its ledger rows known, nothing written;
- ``written``   the log entry and its ledger rows are written, the transaction not committed;
- ``committed`` committed, the table has neither applied it nor told anyone;
- ``told``      the update went out, the ``applied`` reply did not.

For each step and each movement (a buy-in; a top-up; a cash-out between hands, which is
the ``stand`` entry's; a cash-out at a hand's end, which rides with the move that ends the
hand the player was leaving) one :class:`Case` plays the movement through the public
WebSocket with an intent key and a transfer id of its own, is killed at that step,
restarts the server (without the hook) and sends the very same message again.  Then:

* ``freezeout ledger check --db URL`` exits 0 (conservation, docs/ledger.md);
* the movement is in the ledger exactly once (its transfer id / its kind for the table);
* the balances are right (the player's, and the table's chips are the seats' stacks);
* the seat is not stuck: the player can still play a hand and leave with their chips.

    .venv/bin/python bench/cash_crash.py                 # every case
    .venv/bin/python bench/cash_crash.py --only committed:buy_in

tests/server/test_server_cash_crash.py runs every case (marked slow).  Every request goes to
127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

from serverproc import ServerProcess

PHASES = ("received", "written", "committed", "told")
BIG_BLIND = 200
GRANT = 10_000  # FREEZEOUT_LEDGER_GRANT's default
WAIT = 180.0  # a fail-safe: every wait below is for a condition; only a broken server waits this long
START = 900.0  # how long a server may take to start on a machine this busy (a fail-safe too)


@dataclass(frozen=True)
class Case:
    movement: str  # buy_in | top_up | stand | hand_end
    phase: str

    @property
    def kind(self) -> str:
        return {"buy_in": "buy_in", "top_up": "top_up"}.get(self.movement, "cash_out")

    @property
    def name(self) -> str:
        return f"{self.phase}:{self.movement}"

    @property
    def crash_at(self) -> str:
        return f"{self.phase}:{self.kind}"


CASES = [Case(movement, phase) for movement in ("buy_in", "top_up", "stand", "hand_end") for phase in PHASES]


def cash_create_entry(seats: int = 4, **options: Any) -> dict[str, Any]:
    """A cash table's ``create`` entry, as room.py writes one (``GameSpec.parse_cash``)."""
    from freezeout.server.gamespec import GameSpec

    spec = GameSpec.parse_cash("NT", {"big_blind": BIG_BLIND, **options})
    return {"slots": [None] * seats, "ranked": False, "created_by": None, "game": spec.to_json()}


def insert_cash_table(db: Path, table: str, seats: int = 4, **options: Any) -> None:
    """Open a cash table in a stopped server's SQLite database: its row and its ``create``
    entry in one transaction (storage/tablelog.py ``create_table``); the server rebuilds it
    on start (room.py ``open``).  Until ``POST /api/tables`` takes ``"format": "cash"``
    (branch cashlobby), this is how a drill opens one."""
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("INSERT INTO tables (id, created_at, closed) VALUES (?, ?, 0)", (table, time.time()))
        conn.execute("INSERT INTO table_log (table_id, seq, at, kind, data, epoch) VALUES (?, 1, ?, 'create', ?, NULL)",
                     (table, time.time(), json.dumps(cash_create_entry(seats, **options))))


def ledger_check(db_url: str, src: str | None = None) -> tuple[int, str]:
    """``freezeout ledger check --db URL``: its exit code and what it printed."""
    import os

    env = {**os.environ, **({"PYTHONPATH": src} if src else {})}
    done = subprocess.run([sys.executable, "-m", "freezeout.cli", "ledger", "check", "--db", db_url],
                          capture_output=True, text=True, env=env, timeout=300)
    return done.returncode, (done.stdout + done.stderr).strip()


def ledger_rows(db: Path, table: str | None = None) -> list[dict[str, Any]]:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        conn.row_factory = sqlite3.Row
        where, args = ("WHERE table_id = ?", (table,)) if table else ("", ())
        return [dict(r) for r in conn.execute(f"SELECT * FROM ledger {where} ORDER BY id", args)]


def balance(db: Path, account: int) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        row = conn.execute("SELECT balance FROM balances WHERE account_id = ?", (account,)).fetchone()
    return int(row[0]) if row else 0


class Client:
    """One account over HTTP (cookie, CSRF) and one WebSocket to a table; keeps the latest view."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.cookie = self.csrf = ""
        self.user_id = 0
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.inbox: list[dict[str, Any]] = []

    async def register(self) -> Client:
        async with httpx.AsyncClient(base_url=self.url, timeout=WAIT) as http:
            csrf = (await http.get("/api/session")).json()["csrf"]
            response = await http.post("/api/register", json={"name": self.name, "password": "correct horse"},
                                       headers={"X-CSRF-Token": csrf})
            response.raise_for_status()
            self.cookie, self.csrf = response.cookies["fz_session"], response.json()["csrf"]
            self.user_id = int(response.json()["user"]["id"])
        return self

    async def join(self, url: str, table: str) -> None:
        """(Re)connect to ``url``'s server and follow ``table`` until its snapshot arrives."""
        self.url = url
        await self.close()
        ws_url = url.replace("http", "ws", 1) + "/ws"
        self.ws = await websockets.connect(ws_url, additional_headers={"Cookie": f"fz_session={self.cookie}"},
                                           open_timeout=WAIT, max_size=2**22)
        self.inbox.clear()
        await self.ws.send(json.dumps({"type": "join", "table": table}))
        await self.until(lambda m: m["type"] == "snapshot")

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def until(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message (already received or to come) that ``match``es; raises
        ConnectionClosed when the server goes away first."""
        async with asyncio.timeout(WAIT):
            while True:
                for index, msg in enumerate(self.inbox):
                    if match(msg):
                        del self.inbox[: index + 1]
                        return msg
                self.inbox.clear()
                msg = json.loads(await self.ws.recv())
                if msg["type"] in ("snapshot", "update"):
                    self.view, self.version = msg["view"], msg["version"]
                self.inbox.append(msg)

    async def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send a keyed intent and wait for its answer: ``applied`` or ``error``."""
        await self.send(msg)
        key, ref = msg.get("key"), msg.get("id")
        return await self.until(lambda m: (m["type"] == "applied" and m.get("key") == key)
                                or (m["type"] == "error" and m.get("ref") == ref))

    async def seen(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The view once it ``match``es (now, or at a later update)."""
        if self.view is None or not match(self.view):
            await self.until(lambda m: m["type"] in ("snapshot", "update") and match(m["view"]))
        assert self.view is not None
        return self.view

    async def settled(self, version: int) -> dict[str, Any]:
        """The view once the table's version reached ``version``."""
        if self.version < version:
            await self.until(lambda m: m["type"] in ("snapshot", "update") and m["version"] >= version)
        assert self.view is not None
        return self.view


TRACE: list[float] = []  # --trace: when the drill started, to print each stage's time


def stage(what: str) -> None:
    if TRACE:
        print(f"  {time.monotonic() - TRACE[0]:7.1f} s  {what}", file=sys.stderr, flush=True)


def keyed(msg: dict[str, Any]) -> dict[str, Any]:
    key = "k" + secrets.token_hex(8)
    return {**msg, "key": key, "id": key}


class Drill:
    """A template database (two accounts, one cash table) copied for each case."""

    def __init__(self, workdir: Path, src: str | None) -> None:
        self.workdir, self.src = workdir, src
        self.template = workdir / "template"
        self.table = "tcash" + secrets.token_hex(4)
        self.accounts: dict[str, tuple[str, str, int]] = {}

    async def prepare(self) -> None:
        self.template.mkdir(parents=True)
        server = ServerProcess(self.template, src=self.src)
        await asyncio.to_thread(server.start, START)
        try:
            for name in ("ana", "bo"):
                c = await Client(server.url, name).register()
                self.accounts[name] = (c.cookie, c.csrf, c.user_id)
        finally:
            server.stop()
        insert_cash_table(server.db, self.table, seats=4)

    def server(self, case: Case) -> ServerProcess:
        where = self.workdir / case.name.replace(":", "-")
        where.mkdir()
        for suffix in ("", "-wal", "-shm"):
            source = self.template / f"bench.sqlite{suffix}"
            if source.exists():
                shutil.copy(source, where / source.name)
        # Long turns: nobody times out while the server is down or the drill waits; short pauses.
        return ServerProcess(where, src=self.src, FREEZEOUT_PAUSE_SECONDS="0.5", FREEZEOUT_TURN_SECONDS="600",
                             FREEZEOUT_CRASH_AT=case.crash_at)

    def client(self, name: str, url: str) -> Client:
        c = Client(url, name)
        c.cookie, c.csrf, c.user_id = self.accounts[name]
        return c

    async def run(self, case: Case) -> dict[str, Any]:
        """One case: set up, crash at the step, restart, retry, check.  Returns what was
        found (``problems`` empty when everything held)."""
        server = self.server(case)
        await asyncio.to_thread(server.start, START)
        stage(f"{case.name}: the server is up")
        ana, bo = self.client("ana", server.url), self.client("bo", server.url)
        problems: list[str] = []
        table, db = self.table, server.db
        try:
            await ana.join(server.url, table)
            buy = keyed({"type": "buy_in", "chips": 5000, "slot": 0, "transfer": f"ana-buy-{secrets.token_hex(4)}"})
            top = keyed({"type": "top_up", "chips": 1000, "transfer": f"ana-top-{secrets.token_hex(4)}"})
            stand = keyed({"type": "stand"})
            if case.movement == "buy_in":
                doomed = buy
            else:
                assert (await ana.ask(buy))["type"] == "applied"
                doomed = top if case.movement == "top_up" else stand
            if case.movement == "hand_end":
                await bo.join(server.url, table)
                answer = await bo.ask(keyed({"type": "buy_in", "chips": 5000, "slot": 1}))
                assert answer["type"] == "applied", answer
                await ana.seen(lambda v: v["in_hand"])  # two players with chips: a hand is dealt at once
                assert (await ana.ask(stand))["type"] == "applied"  # leaves at the hand's end (C3)
                view = await ana.settled(ana.version)
                mover = ana if view["to_act"] == 0 else bo
                await mover.settled(ana.version)
                doomed = keyed({"type": "act", "version": mover.version, "move": "fold"})  # ends the hand heads-up
                sender = mover
            else:
                sender = ana
            stage("sending the doomed request")
            await sender.send(doomed)
            with contextlib.suppress(Exception):  # until the server dies under it
                await sender.until(lambda m: False)
            exited = await asyncio.to_thread(server.process.wait, WAIT)  # type: ignore[union-attr]
            if exited != 137:
                problems.append(f"the server exited with {exited}, not at the crash hook (137)")
            stage(f"the server died ({exited})")
            server.env.pop("FREEZEOUT_CRASH_AT")
            await asyncio.to_thread(server.start, START)
            stage("restarted")
            for c in (ana, bo):  # every tab open before the crash reconnects
                if c.ws is not None:
                    await c.join(server.url, table)
            answer = await sender.ask(doomed)  # the same message: the same key and transfer id
            if answer["type"] != "applied":
                problems.append(f"the retry was answered {answer}")
            stage(f"the retry: {answer['type']}")
            rows = ledger_rows(db, table)
            ana_rows = [r for r in rows if r["account_id"] == ana.user_id]
            kinds = [r["kind"] for r in ana_rows]
            want = {"buy_in": ["buy_in"], "top_up": ["buy_in", "top_up"]}.get(case.movement, ["buy_in", "cash_out"])
            if kinds != want:
                problems.append(f"ana's ledger rows at the table are {kinds}, expected {want} (each once)")
            if case.movement in ("buy_in", "top_up") and [r["transfer_id"] for r in ana_rows][-1] != f"cash:{ana.user_id}:{doomed['transfer']}":
                problems.append(f"the movement's row is not filed under its transfer id {doomed['transfer']}")
            view = await ana.settled(answer.get("version", 0))
            seat = view["seats"][0]
            on_table = {"buy_in": 5000, "top_up": 6000}.get(case.movement, 0)
            cashed = sum(r["amount"] for r in ana_rows if r["kind"] == "cash_out")
            if balance(db, ana.user_id) != GRANT - on_table - (5000 if on_table == 0 else 0) + cashed:
                problems.append(f"ana's balance is {balance(db, ana.user_id)}")
            if on_table and (seat["player"] != "ana" or seat["stack"] != on_table):
                problems.append(f"ana's seat after the retry: {seat}, expected {on_table} chips")
            if not on_table and seat["player"] is not None:
                problems.append(f"ana left, yet seat 0 holds {seat}")
            problems += await self.not_stuck(server, table, ana, bo, cashed)
            stage("played a hand and left")
            code, said = ledger_check(server.db_url, self.src)
            stage("ledger checked")
            if code != 0:
                problems.append(f"ledger check exited {code}: {said}")
            buys = [r for r in ledger_rows(db) if r["kind"] in ("buy_in", "top_up")]
            ids = [r["transfer_id"] for r in buys]
            if len(ids) != len(set(ids)):
                problems.append("a transfer id twice in the ledger")
            return {"case": case.name, "crash_at": case.crash_at, "ledger_check": said, "rows": len(ledger_rows(db)),
                    "problems": problems}
        finally:
            for c in (ana, bo):
                await c.close()
            server.stop()

    async def not_stuck(self, server: ServerProcess, table: str, ana: Client, bo: Client, cashed: int) -> list[str]:
        """After the retry, the seat still plays and lets go: ana (back at the table when she
        left) and bo play a hand, then both leave; every chip comes home."""
        problems: list[str] = []
        if bo.ws is None:
            await bo.join(server.url, table)
        if cashed:  # C3: back within 30 minutes with at least the chips she left with
            answer = await ana.ask(keyed({"type": "buy_in", "chips": max(5000, cashed), "slot": 0}))
            if answer["type"] != "applied":
                return [f"ana cannot sit again after her cash-out: {answer}"]
        if bo.view is not None and bo.view["seats"][1]["player"] is None:
            answer = await bo.ask(keyed({"type": "buy_in", "chips": 5000, "slot": 1}))
            if answer["type"] != "applied":
                return [f"bo cannot buy in: {answer}"]
        await ana.seen(lambda v: v["in_hand"])  # two players with chips: a hand is dealt at once
        for c in (ana, bo):  # both leave at the hand's end (C3), after playing it out
            answer = await c.ask(keyed({"type": "stand"}))
            if answer["type"] != "applied":
                problems.append(f"{c.name} cannot leave: {answer}")
        for _ in range(200):
            view = await ana.settled(max(ana.version, bo.version))
            if all(s["player"] is None for s in view["seats"]):
                break
            if not view["in_hand"]:
                return [f"the hand is over, yet seats are taken: {view['seats']}"]
            mover = ana if view["to_act"] == 0 else bo
            mview = await mover.settled(max(ana.version, bo.version))
            moves = mview["legal"]["moves"]
            answer = await mover.ask(keyed({"type": "act", "version": mover.version,
                                            "move": "check" if "check" in moves else "call"}))
            if answer["type"] != "applied":
                return [f"a move in the hand after the crash was refused: {answer}"]
        else:
            return ["the seats were not freed"]
        total = balance(server.db, ana.user_id) + balance(server.db, bo.user_id) + balance(server.db, 0)
        if total != 2 * GRANT:
            problems.append(f"ana + bo + the house hold {total} chips, not {2 * GRANT}")
        return problems


async def drill(args: argparse.Namespace) -> list[dict[str, Any]]:
    cases = [c for c in CASES if not args.only or c.name in args.only]
    with tempfile.TemporaryDirectory(prefix="fz-cash-crash-") as tmp:
        d = Drill(Path(tmp), args.server_src)
        await d.prepare()
        results = []
        for case in cases:
            started = time.monotonic()
            result = await d.run(case)
            result["seconds"] = round(time.monotonic() - started, 1)
            print(json.dumps(result), flush=True)
            results.append(result)
        return results


def main() -> int:
    parser = argparse.ArgumentParser(description="kill -9 at every step of a buy-in, top-up and cash-out (issue #25)")
    parser.add_argument("--only", nargs="*", help="cases by name, e.g. committed:buy_in told:hand_end")
    parser.add_argument("--trace", action="store_true", help="print each stage's time")
    parser.add_argument("--server-src", help="run the server from another checkout's src/ (PYTHONPATH)")
    args = parser.parse_args()
    if args.trace:
        TRACE.append(time.monotonic())
    results = asyncio.run(drill(args))
    bad = [r for r in results if r["problems"]]
    print(f"{len(results)} cases, {len(bad)} with problems", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
