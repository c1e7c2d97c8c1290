"""A complete external bot for the Freezeout server (docs/protocol.md).

It signs up (or logs in), asks for an API token, opens a heads-up table
against a house bot (or joins ``--table``), then plays over the WebSocket
until the game is over and prints the final standings as JSON.

    python examples/bot_client.py --server http://127.0.0.1:8000 --name robo --password 'a long secret'

Only ``httpx`` and ``websockets`` are needed.

Every intent carries a random ``key`` and is sent again, with the same key, until
the server answers it (``applied`` or an ``error``): after a reconnect, and after
RESEND_SECONDS of silence.  The server applies a key at most once
(docs/protocol.md "Resending"), so a move lost with a connection or a server is
neither lost nor applied twice.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets

RANKS = "23456789TJQKA"
RESEND_SECONDS = 4.0  # resend an intent unanswered for this long (a table changing server)
GIVE_UP_SECONDS = 60.0  # then stop: the table has moved on anyway


class Pending:
    """The intents sent but not answered yet, by key (their ``id`` is the key, so an
    ``error``'s ``ref`` names it).  No I/O and no clock of its own: ``now`` is given."""

    def __init__(self, new_key: Callable[[], str] = lambda: secrets.token_urlsafe(12)) -> None:
        self.new_key = new_key
        self.sent: dict[str, tuple[str, float, float]] = {}  # key -> (text, last sent, first sent)

    def intent(self, message: dict[str, Any], now: float) -> str:
        """The text of a new intent: ``message`` with a fresh key, remembered until answered."""
        key = self.new_key()
        text = json.dumps({**message, "id": key, "key": key})
        self.sent[key] = (text, now, now)
        return text

    def answered(self, msg: dict[str, Any]) -> None:
        """Forget the intent an ``applied`` or an ``error`` answers."""
        if msg.get("type") == "applied":
            self.sent.pop(str(msg.get("key")), None)
        elif msg.get("type") == "error" and msg.get("ref") is not None:
            self.sent.pop(str(msg["ref"]), None)

    def due(self, now: float, after: float = RESEND_SECONDS) -> list[str]:
        """The texts to send again (the same key): those unanswered for ``after`` seconds
        (0 after a reconnect: all of them); those unanswered for GIVE_UP_SECONDS are dropped."""
        out = []
        for key, (text, at, first) in list(self.sent.items()):
            if now - first > GIVE_UP_SECONDS:
                del self.sent[key]
            elif now - at >= after:
                self.sent[key] = (text, now, first)
                out.append(text)
        return out

    def acting_at(self, version: int) -> bool:
        """Whether a move decided on ``version`` is still unanswered (then do not decide again)."""
        return any(json.loads(text).get("version") == version for text, _, _ in self.sent.values())


def decide(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A simple strategy: raise with a pair or two big cards, otherwise check or call small bets."""
    legal = view["legal"]
    me = view["seats"][view["viewer"]]
    cards = me["cards"] or ""
    ranks = sorted((RANKS.index(cards[i]) for i in (0, 2)), reverse=True) if len(cards) == 4 else [0, 0]
    strong = ranks[0] == ranks[1] or ranks[1] >= RANKS.index("T")
    moves = legal["moves"]
    word = "raise" if "raise" in moves else "bet" if "bet" in moves else None
    if strong and word and rng.random() < 0.7:
        return {"move": word, "amount": legal["min_to"]}
    if "check" in moves:
        return {"move": "check"}
    if legal["call"] <= me["stack"] // 8 or strong:
        return {"move": "call"}
    return {"move": "fold"}


async def sign_in(http: httpx.AsyncClient, name: str, password: str) -> str:
    """Register or log in, and return a fresh API token."""
    csrf = (await http.get("/api/session")).json()["csrf"]
    body = {"name": name, "password": password}
    response = await http.post("/api/register", json=body, headers={"X-CSRF-Token": csrf})
    if response.status_code == 409:
        response = await http.post("/api/login", json=body, headers={"X-CSRF-Token": csrf})
    response.raise_for_status()
    csrf = response.json()["csrf"]
    response = await http.post("/api/tokens", headers={"X-CSRF-Token": csrf})
    response.raise_for_status()
    return str(response.json()["token"])


async def play(server: str, name: str, password: str, table: str | None, against: str, ranked: bool, seed: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        token = await sign_in(http, name, password)
        auth = {"Authorization": f"Bearer {token}"}
        if table is None:
            response = await http.post("/api/tables", json={"slots": [None, against], "ranked": ranked}, headers=auth)
            response.raise_for_status()
            table = str(response.json()["table"]["id"])
        else:
            response = await http.post(f"/api/tables/{table}/sit", json={}, headers=auth)
            if response.status_code != 200:
                print(f"could not sit: {response.text}", file=sys.stderr)
    return await follow(server.replace("http", "ws", 1).rstrip("/") + "/ws", table, token, random.Random(seed))


async def follow(ws_url: str, table: str, token: str, rng: random.Random) -> dict[str, Any]:
    """Play at ``table`` over the WebSocket until the game is over; return the standings."""
    version = None
    pending = Pending()
    while True:  # reconnect after a dropped connection and resume from the last version seen
        try:
            async with websockets.connect(ws_url) as ws:
                await ws.send(json.dumps({"type": "join", "table": table, "token": token, "since": version}))
                for again in pending.due(time.monotonic(), after=0):  # lost with the old connection?
                    await ws.send(again)
                while True:
                    try:
                        text = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:  # silence: resend what is unanswered for a while
                        for again in pending.due(time.monotonic()):
                            await ws.send(again)
                        continue
                    msg = json.loads(text)
                    pending.answered(msg)
                    if msg["type"] == "error":
                        print(f"server: {msg['code']}: {msg['message']}", file=sys.stderr)
                        continue
                    if msg["type"] not in ("snapshot", "update"):
                        continue
                    version = msg["version"]
                    view = msg["view"]
                    if view is None:
                        continue
                    if view["finished"]:
                        places = {s["player"]: s["place"] for s in view["seats"]}
                        return {"table": table, "game": msg["table"]["game_id"], "places": places}
                    if view["legal"] is not None and view["to_act"] == view["viewer"] and not pending.acting_at(version):
                        move = {"type": "act", "version": version, **decide(view, rng)}
                        await ws.send(pending.intent(move, time.monotonic()))
        except (OSError, websockets.ConnectionClosed):
            await asyncio.sleep(1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--name", default="example-bot")
    parser.add_argument("--password", default="example-bot-password")
    parser.add_argument("--table", help="join this table instead of opening one")
    parser.add_argument("--against", default="easy", help="house bot level for a new table")
    parser.add_argument("--ranked", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = asyncio.run(play(args.server, args.name, args.password, args.table, args.against, args.ranked, args.seed))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
