"""Crash drill (issue #10, finding 11): ``kill -9`` the server at random moments
of a 4-player game of two humans and two bots, and restart it.

Two scripted humans (guests, real WebSockets, a short thinking time) and two
bots play game after game (rematches).  At each of ``--crashes`` random
moments the server is killed with SIGKILL, stays down for a random time (up to
``--max-down`` seconds) and is started again on the same SQLite database.
After each restart the drill checks, against the database itself:

* every acknowledged entry is there: each version a client received an
  update for is in the table's log, and each move a client saw taken is that
  very move (write before tell, design principle 7);
* the table resumes: a new move is made after the restart;
* nobody is forfeited for the outage: no ``timeout`` entry in the log at all
  (the humans always move within a second, so any forfeit is the outage's);
* no move is lost or applied twice (issue #23): every move carries a key
  (docs/protocol.md "Resending"), and before each kill the drill waits (up to
  a second) for a human to decide a move, which is sent as the server dies;
  a move without an answer is sent again with its key after the reconnect.
  Moves acknowledged (``applied``) = moves in the log, none lost, none in two
  entries, none refused as ``stale`` and applied.

Turns are short (``--turn`` seconds, 5 by default) so that most outages last
longer than the turn's time left: the hardest case for the restore.

    .venv/bin/python bench/crash_drill.py                          # this checkout's server
    .venv/bin/python bench/crash_drill.py --server-src /tmp/main/src --crashes 10   # another one's

Every request goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from serverproc import ServerProcess


def drill_server(workdir: Path, src: str | None, turn: float) -> ServerProcess:
    """The drill's server: short turns, quick bots and pauses (many moves to crash between)."""
    return ServerProcess(workdir, src=src, FREEZEOUT_TURN_SECONDS=str(turn), FREEZEOUT_PAUSE_SECONDS="1",
                         FREEZEOUT_BOT_DELAY_MIN="0.2", FREEZEOUT_BOT_DELAY_MAX="0.6")


@dataclass
class Seen:
    """What the clients were told: per version, the moves (seat, kind) it carried (None: not known)."""

    updates: dict[int, list[tuple[int, str]] | None] = field(default_factory=dict)
    sent: int = 0
    keys: set[str] = field(default_factory=set)  # every move's key
    acked: dict[str, int] = field(default_factory=dict)  # key -> the version ``applied`` named
    refused: dict[str, str] = field(default_factory=dict)  # key -> the error's code
    at_kill: set[str] = field(default_factory=set)  # keys sent as the server was killed
    resends: int = 0
    last_version: int = 0
    games: int = 0


class Human:
    """A guest who follows the table over a WebSocket (reconnecting with ``since``) and moves on its turn."""

    def __init__(self, server: ServerProcess, table: str, cookie: str, seen: Seen, seed: int) -> None:
        self.server, self.table, self.cookie, self.seen = server, table, cookie, seen
        self.rng = random.Random(seed)
        self.version: int | None = None
        self.pending: dict[str, dict[str, Any]] = {}  # key -> the move, until answered
        self.hold: asyncio.Event | None = None  # set by the drill: send once it is set (the kill)
        self.holding = False
        self.latest: dict[str, Any] | None = None

    async def run(self) -> None:
        url = self.server.url.replace("http", "ws") + "/ws"
        while True:
            try:
                async with websockets.connect(url, additional_headers={"Cookie": f"fz_session={self.cookie}"},
                                              open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "join", "table": self.table, "since": self.version}))
                    for move in list(self.pending.values()):  # no answer came: the same key again
                        self.seen.resends += 1
                        await ws.send(json.dumps(move))
                    async for text in ws:
                        await self.on_message(ws, json.loads(text))
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, TimeoutError):
                await asyncio.sleep(0.2)

    async def on_message(self, ws: Any, msg: dict[str, Any]) -> None:
        if msg["type"] in ("applied", "error"):
            key = msg.get("key") if msg["type"] == "applied" else msg.get("ref")
            if isinstance(key, str) and self.pending.pop(key, None) is not None:
                if msg["type"] == "applied":
                    self.seen.acked[key] = msg["version"]
                else:
                    self.seen.refused[key] = msg["code"]
                latest = self.latest  # answered: act on what we know, unless its update is still to come
                if latest is not None and (msg["type"] == "error" or latest["version"] >= msg["version"]):
                    await self.decide(ws, latest)
            return
        if msg["type"] not in ("snapshot", "update"):
            return
        self.latest = msg
        previous, version = self.version, msg["version"]
        self.version = version
        self.seen.last_version = max(self.seen.last_version, version)
        if msg["type"] == "update":
            # One entry's update carries that entry's moves; a catch-up (after a reconnect) carries
            # several entries' under the last version: only that the version exists is known then.
            single = previous is not None and version == previous + 1
            moves = [(e["seat"], e["kind"]) for e in msg["events"] if e["type"] == "action_taken"] if single else None
            if self.seen.updates.get(version) is None:
                self.seen.updates[version] = moves
        await self.decide(ws, msg)

    async def decide(self, ws: Any, msg: dict[str, Any]) -> None:
        """Move on ``msg`` unless a move is still unanswered (then that one is resent, not another)."""
        view, version = msg["view"], msg["version"]
        if view is None or self.pending:
            return
        if view["finished"]:
            await ws.send('{"type": "rematch"}')
        elif view["legal"] is not None and view["to_act"] == view["viewer"]:
            await asyncio.sleep(self.rng.uniform(0.1, 0.6))
            moves = view["legal"]["moves"]
            move = "check" if "check" in moves else "call" if self.rng.random() < 0.85 else "fold"
            if "allin" in moves and self.rng.random() < 0.05:
                move = "allin"
            key = secrets.token_urlsafe(12)
            act = self.pending[key] = {"type": "act", "version": version, "move": move, "key": key, "id": key}
            self.seen.keys.add(key)
            hold = self.hold
            if hold is not None:  # the drill kills the server now: this move goes out as it dies
                self.holding = True
                await hold.wait()
                self.holding = False
                self.seen.at_kill.add(key)
            await ws.send(json.dumps(act))
            self.seen.sent += 1


def read_log(db: Path, table: str) -> dict[int, tuple[str, dict[str, Any]]]:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        rows = conn.execute("SELECT seq, kind, data FROM table_log WHERE table_id = ? ORDER BY seq", (table,)).fetchall()
    return {seq: (kind, json.loads(data)) for seq, kind, data in rows}


def check_moves(log: dict[int, tuple[str, dict[str, Any]]], seen: Seen, in_flight: set[str]) -> list[str]:
    """Moves acknowledged = moves in the log; none lost, none applied twice (issue #23)."""
    problems, keyed = [], {}
    for seq, (_kind, data) in sorted(log.items()):
        key = (data.get("intent") or {}).get("key")
        if key is not None:
            keyed.setdefault(key, []).append(seq)
    for key, seqs in keyed.items():
        if len(seqs) > 1:
            problems.append(f"key {key} applied twice: {seqs}")
        if key in seen.refused:
            problems.append(f"key {key} refused as {seen.refused[key]} but applied at {seqs[0]}")
        elif seen.acked.get(key, seqs[0]) != seqs[0] or (key not in seen.acked and key not in in_flight):
            problems.append(f"key {key} applied at {seqs[0]}, acknowledged at {seen.acked.get(key)}")
    problems += [f"key {key} lost: sent, never refused, not in the log" for key in seen.keys
                 if key not in keyed and key not in seen.refused and key not in in_flight]
    return problems


def check(log: dict[int, tuple[str, dict[str, Any]]], seen: Seen, upto: int) -> list[str]:
    """Every acknowledged version up to ``upto`` is in the log, with the moves the clients saw."""
    problems = []
    for version, moves in seen.updates.items():
        if version > upto:
            continue
        if version not in log:
            problems.append(f"version {version} was told to a client but is not in the log")
            continue
        kind, data = log[version]
        for seat, _move in moves or ():
            if kind != "act" or int(data["seat"]) != seat:
                problems.append(f"version {version}: a client saw seat {seat} move, the log has {kind} {data}")
    return problems


async def drill(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="fz-drill-") as tmp:
        server = drill_server(Path(tmp), args.server_src, args.turn)
        server.start()
        humans: list[asyncio.Task[None]] = []
        crashes: list[dict[str, Any]] = []
        problems: list[str] = []
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
                cookies = []
                for _ in range(2):
                    http.cookies.clear()
                    csrf = (await http.get("/api/session")).json()["csrf"]
                    response = await http.post("/api/guest", headers={"X-CSRF-Token": csrf})
                    cookies.append((response.json()["csrf"], response.cookies["fz_session"]))
                csrf, cookie = cookies[0]
                response = await http.post("/api/tables", json={"slots": [None, None, "easy", "random"]},
                                           headers={"X-CSRF-Token": csrf, "Cookie": f"fz_session={cookie}"})
                table = response.json()["table"]["id"]
                csrf, cookie = cookies[1]
                (await http.post(f"/api/tables/{table}/sit", headers={"X-CSRF-Token": csrf,
                                                                       "Cookie": f"fz_session={cookie}"})).raise_for_status()
            seen = Seen()
            players = [Human(server, table, c, seen, i) for i, (_, c) in enumerate(cookies)]
            humans = [asyncio.create_task(p.run()) for p in players]
            started = time.monotonic()
            for number in range(1, args.crashes + 1):
                await asyncio.sleep(rng.uniform(0.3, args.max_up))
                release = asyncio.Event()  # a move decided now is sent as the server dies
                for p in players:
                    p.hold = release
                hold_until = time.monotonic() + 1.0
                while not any(p.holding for p in players) and time.monotonic() < hold_until:
                    await asyncio.sleep(0.02)
                told = seen.last_version
                server.kill()
                for p in players:
                    p.hold = None
                release.set()
                down = rng.uniform(0.0, args.max_down)
                await asyncio.sleep(down)
                healthy = await asyncio.to_thread(server.start)
                log = read_log(server.db, table)
                lost = check(log, seen, told)
                problems.extend(f"crash {number}: {p}" for p in lost)
                resumed_at = max(log)
                deadline = time.monotonic() + 60
                moved = None
                while time.monotonic() < deadline:  # the table resumes: a move after the restart
                    await asyncio.sleep(0.2)
                    later = read_log(server.db, table)
                    acts = [s for s in later if s > resumed_at and later[s][0] == "act"]
                    if acts:
                        moved = round(time.monotonic() - (deadline - 60), 2)
                        break
                if moved is None:
                    problems.append(f"crash {number}: the table made no move within 60 s of the restart")
                crashes.append({"crash": number, "told_version": told, "down_s": round(down, 2),
                                "restart_s": round(healthy, 2), "first_move_after_s": moved})
                print(json.dumps(crashes[-1]), flush=True)
            await asyncio.sleep(2)
            drain_until = time.monotonic() + 20  # the moves on their way are answered
            while any(p.pending for p in players) and time.monotonic() < drain_until:
                await asyncio.sleep(0.1)
            log = read_log(server.db, table)
            problems.extend(check(log, seen, seen.last_version))
            problems.extend(check_moves(log, seen, {key for p in players for key in p.pending}))
            forfeits = [(s, d) for s, (k, d) in log.items() if k == "act" and d.get("move") == "timeout"]
            problems.extend(f"forfeit at version {s}: {d}" for s, d in forfeits)
            kinds = [k for k, _ in log.values()]
            return {
                "crashes": len(crashes), "seconds": round(time.monotonic() - started, 1),
                "log_entries": len(log), "resume_entries": kinds.count("resume"), "moves": kinds.count("act"),
                "hands": kinds.count("deal"), "games": kinds.count("start"),
                "acknowledged_versions_checked": len(seen.updates), "human_moves_sent": seen.sent,
                "moves_keyed": {"sent": len(seen.keys), "acknowledged": len(seen.acked),
                                "in_log": sum(1 for _, d in log.values() if "intent" in d),
                                "refused": len(seen.refused), "sent_as_the_server_died": len(seen.at_kill),
                                "of_which_acknowledged": len(seen.at_kill & set(seen.acked)), "resends": seen.resends},
                "forfeits": len(forfeits), "problems": problems,
                "down_s_max": max((c["down_s"] for c in crashes), default=0),
                "first_move_after_restart_s_max": max((c["first_move_after_s"] or 0 for c in crashes), default=0),
            }
        finally:
            for task in humans:
                task.cancel()
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description="kill -9 the server at random moments of a game (issue #10)")
    parser.add_argument("--crashes", type=int, default=50)
    parser.add_argument("--max-up", type=float, default=6.0, help="longest time between a restart and the next kill (s)")
    parser.add_argument("--max-down", type=float, default=8.0, help="longest outage (s)")
    parser.add_argument("--turn", type=float, default=5.0, help="FREEZEOUT_TURN_SECONDS for the drill")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--server-src", help="run the server from another checkout's src/ (PYTHONPATH)")
    args = parser.parse_args()
    report = asyncio.run(drill(args))
    print(json.dumps(report, indent=2))
    problems = report["problems"]
    verdict = "every acknowledged entry kept, the table resumed each time, no forfeit" if not problems else f"{len(problems)} problems"
    print(f"{report['crashes']} crashes: {verdict}", file=sys.stderr)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
