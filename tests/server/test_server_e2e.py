"""End to end against a real server process: the example bot, and crash
recovery — SIGKILL mid-hand, restart, and the game ends exactly as an
uninterrupted run of the same deterministic game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

import polling
from freeports import free_port
from freezeout.formats.record import parse_record, replay_record
from freezeout.server.fairness import verify_record

from serverkit import random_policy

#: A new connection per request: a reused idle one can meet the server closing it (keep-alive race).
NO_KEEPALIVE = httpx.Limits(max_keepalive_connections=0)

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``python -m freezeout.cli serve`` with test settings from the environment."""

    def __init__(self, tmp_path: Path, db: str, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db, self.log = db, tmp_path / f"server-{self.port}.log"
        self.env = {
            **os.environ,
            "FREEZEOUT_DECK_SEED": "e2e",
            "FREEZEOUT_TEST_MODE": "1",
            "FREEZEOUT_WS_MESSAGES_PER_SECOND": "500",  # bots and clients here play at machine speed
            "FREEZEOUT_BOT_DELAY_MIN": "0.01",
            "FREEZEOUT_BOT_DELAY_MAX": "0.02",
            "FREEZEOUT_PAUSE_SECONDS": "0.05",
            "FREEZEOUT_ARGON2_TIME_COST": "1",
            "FREEZEOUT_ARGON2_MEMORY_KIB": "1024",
            **env,
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        command = [sys.executable, "-m", "freezeout.cli", "serve", "--port", str(self.port), "--db", self.db]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 300  # a fail-safe only: a busy machine starts a server slowly
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1).json() == {"status": "ok"}:
                    if self.process.poll() is not None:  # somebody else's server answered on our port
                        raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
                    return self
            time.sleep(0.05)
        self.kill()  # never leave a server behind a failed test
        raise RuntimeError("server did not become healthy")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _trace_line(http: httpx.AsyncClient, msg: dict[str, Any]) -> str:
    view = msg.get("view") or {}
    return (f'{str(http.cookies.get("fz_session"))[:6]} {msg["type"]} v{msg.get("version")} {msg.get("code", "")}'
            f' to_act={view.get("to_act")} viewer={view.get("viewer")} legal={view.get("legal") is not None}')


def _log_tail(log: Path) -> str:
    """The server log's last lines, without the event-loop lag warnings of a busy machine."""
    lines = [line for line in log.read_text().splitlines() if "event loop blocked" not in line]
    return "\n".join(lines[-40:])


async def account(server: ServerProcess, name: str) -> tuple[httpx.AsyncClient, str]:
    http = httpx.AsyncClient(base_url=server.url, timeout=180, limits=NO_KEEPALIVE)
    csrf = (await http.get("/api/session")).json()["csrf"]
    response = await http.post("/api/register", json={"name": name, "password": "password123"}, headers={"X-CSRF-Token": csrf})
    response.raise_for_status()
    return http, response.json()["csrf"]


async def play_game(tmp_path: Path, *, crash_after: int | None) -> tuple[dict[str, Any], dict[str, int]]:
    """Two humans and a bot play one game; with ``crash_after`` the server is
    SIGKILLed mid-hand after that many human moves and started again."""
    server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'game.sqlite'}").start()
    crashed = asyncio.Event()
    moves = 0
    try:
        (ana, ana_csrf), (bo, bo_csrf) = await account(server, "ana"), await account(server, "bo")
        response = await ana.post("/api/tables", json={"slots": [None, "easy", None]}, headers={"X-CSRF-Token": ana_csrf})
        table = response.json()["table"]["id"]
        result: dict[str, Any] = {}
        last_seen: dict[str, str] = {}  # per client: the last message, to say where a stuck game stood
        trace: list[str] = []  # every message both clients saw, in short, to say how a game went wrong

        following = {ana: asyncio.Event(), bo: asyncio.Event()}

        async def client(http: httpx.AsyncClient) -> None:
            nonlocal moves
            version: int | None = None
            cookie = http.cookies.get("fz_session")
            while True:
                try:
                    async with websockets.connect(server.url.replace("http", "ws") + "/ws",
                                                  additional_headers={"Cookie": f"fz_session={cookie}"}) as ws:
                        await ws.send(json.dumps({"type": "join", "table": table, "since": version}))
                        async for text in ws:
                            msg = json.loads(text)
                            last_seen[str(http.cookies.get("fz_session"))[:6]] = text[:600]
                            trace.append(_trace_line(http, msg))
                            if msg["type"] == "snapshot":
                                following[http].set()
                            if msg["type"] not in ("snapshot", "update") or msg["view"] is None:
                                continue
                            version, view = msg["version"], msg["view"]
                            if view["finished"]:
                                result["trace"] = trace
                                result["places"] = {s["player"]: s["place"] for s in view["seats"]}
                                result["game_id"] = msg["table"]["game_id"]
                                return
                            if view["legal"] is not None and view["to_act"] == view["viewer"]:
                                # Seeded by the game's position, not the version: a restart adds a log entry.
                                point = [view["hand_number"], view["board"], [(x["stack"], x["bet"]) for x in view["seats"]]]
                                decision = random_policy(view, random.Random(json.dumps(point)))
                                await ws.send(json.dumps({"type": "act", "version": version, **decision}))
                                moves += 1
                                if crash_after is not None and moves == crash_after and not crashed.is_set():
                                    crashed.set()
                                    server.kill()  # mid-hand, maybe with the move in flight
                                    server.start()
                except (OSError, websockets.ConnectionClosed):
                    await asyncio.sleep(0.1)

        async def seat_bo_once_both_follow() -> None:
            # R26: a player who is offline when their turn comes times out at once. The game starts
            # when bo sits, so both must be following the table by then, or the game depends on how
            # fast this machine opens two connections.
            await asyncio.gather(*(event.wait() for event in following.values()))
            (await bo.post(f"/api/tables/{table}/sit", headers={"X-CSRF-Token": bo_csrf})).raise_for_status()

        try:
            await asyncio.wait_for(asyncio.gather(client(ana), client(bo), seat_bo_once_both_follow()), timeout=600)  # a fail-safe, not a speed check
        except TimeoutError:
            raise AssertionError(f"the game did not end; the clients last saw {last_seen}; the server's log ends:\n"
                                 f"{_log_tail(server.log)}") from None

        async def stored() -> bool:  # the game's end is stored a moment after its last move
            return (await ana.get(f"/api/games/{result['game_id']}/record")).status_code == 200

        await polling.eventually(stored, "the finished game's record")
        await ana.aclose()
        await bo.aclose()
    finally:
        server.stop()
    with contextlib.closing(sqlite3.connect(tmp_path / "game.sqlite")) as db:  # the full record: every card
        record = json.loads(db.execute("SELECT record FROM games WHERE id = ?", (result["game_id"],)).fetchone()[0])
    if crash_after is not None:
        assert crashed.is_set(), "the game ended before the crash point:\n" + "\n".join(result["trace"])
    return record, result["places"]


async def test_sigkill_mid_hand_then_restart_ends_as_an_uninterrupted_game(tmp_path):
    clean_dir, crash_dir = tmp_path / "clean", tmp_path / "crash"
    clean_dir.mkdir()
    crash_dir.mkdir()
    clean, clean_places = await play_game(clean_dir, crash_after=None)
    crashed, crashed_places = await play_game(crash_dir, crash_after=17)
    assert crashed_places == clean_places
    for record in (clean, crashed):
        record.pop("game_id")
        for hand in record["hands"]:
            hand.pop("started_at")  # when each hand was dealt: the two runs are played at their own times
    assert crashed == clean  # every card and every move, the same as without the crash
    result = replay_record(parse_record(crashed))
    assert result.finished and dict(result.standings) == crashed_places
    assert verify_record(crashed)["ok"]


def test_the_example_bot_plays_a_game_to_the_end(tmp_path):
    server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'bot.sqlite'}").start()
    try:
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "bot_client.py"), "--server", server.url, "--name", "robo",
             "--password", "robo-password", "--against", "station", "--ranked"],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "*** TEST MODE *** every deck, seating and bot move follows deck_seed='e2e'" in server.log.read_text()
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert sorted(result["places"].values()) == [1, 2]
        board = httpx.get(f"{server.url}/api/leaderboard").json()["players"]
        assert {p["name"] for p in board} == {"robo", "bot-station"}
        record = httpx.get(f"{server.url}/api/games/{result['game']}/record").json()  # stored before the bot saw the end
        assert verify_record(record)["ok"]
        verify = subprocess.run([sys.executable, "-m", "freezeout.cli", "verify-record", "-"], capture_output=True, text=True,
                                check=False, cwd=ROOT)
        assert verify.returncode == 2  # "-" is not a file
    finally:
        server.stop()
