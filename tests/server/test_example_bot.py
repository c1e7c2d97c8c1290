"""examples/bot_client.py resends its intents as docs/protocol.md "Resending" says:
every intent carries a random key, and is sent again with that same key after a
reconnect and after a silence, until the server answers it (`applied` or an `error`)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bot_client", ROOT / "examples" / "bot_client.py")
assert _spec is not None and _spec.loader is not None
bot = importlib.util.module_from_spec(_spec)
sys.modules["bot_client"] = bot
_spec.loader.exec_module(bot)


def test_an_intent_carries_a_new_random_key_and_its_id_is_that_key():
    pending = bot.Pending()
    first = json.loads(pending.intent({"type": "act", "version": 3, "move": "call"}, now=0.0))
    second = json.loads(pending.intent({"type": "act", "version": 4, "move": "fold"}, now=0.0))
    assert first["key"] != second["key"] and first["id"] == first["key"]
    assert 8 <= len(first["key"]) <= 64 and all(c.isalnum() or c in "-_" for c in first["key"])
    assert first["type"] == "act" and first["version"] == 3 and first["move"] == "call"


def test_an_unanswered_intent_is_resent_with_the_same_text_after_a_silence_or_a_reconnect():
    pending = bot.Pending()
    text = pending.intent({"type": "act", "version": 3, "move": "call"}, now=100.0)
    assert pending.due(now=100.0 + bot.RESEND_SECONDS / 2) == []  # not yet
    assert pending.due(now=100.0 + bot.RESEND_SECONDS) == [text]  # silence: the same key again
    assert pending.due(now=100.0 + bot.RESEND_SECONDS + 0.1) == []  # resent just now
    assert pending.due(now=100.0 + bot.RESEND_SECONDS + 0.1, after=0) == [text]  # a reconnect: at once
    assert pending.acting_at(3) and not pending.acting_at(4)
    assert pending.due(now=100.0 + bot.GIVE_UP_SECONDS + 1, after=0) == []  # given up after a minute
    assert pending.sent == {}


def test_applied_or_an_error_ends_the_resending():
    pending = bot.Pending()
    one = json.loads(pending.intent({"type": "act", "version": 3, "move": "call"}, now=0.0))
    two = json.loads(pending.intent({"type": "resign"}, now=0.0))
    three = json.loads(pending.intent({"type": "rematch"}, now=0.0))
    pending.answered({"type": "applied", "key": one["key"], "version": 4, "ref": one["id"]})
    pending.answered({"type": "error", "code": "stale", "message": "not applied", "ref": two["id"], "version": 5})
    pending.answered({"type": "update", "version": 6})  # an update answers nothing
    pending.answered({"type": "error", "code": "rate_limited", "message": "slow down", "ref": None})
    assert [json.loads(t)["key"] for t in pending.due(now=0.0, after=0)] == [three["key"]]


def view(version: int, *, finished: bool = False) -> dict[str, Any]:
    seats = [{"player": "robo", "cards": "AsAh", "stack": 1000, "place": 1 if finished else None},
             {"player": "easy", "cards": None, "stack": 1000, "place": 2 if finished else None}]
    legal = None if finished else {"moves": ["fold", "call", "raise"], "call": 10, "min_to": 40}
    return {"viewer": 0, "to_act": 0, "finished": finished, "legal": legal, "seats": seats}


async def test_the_bot_resends_its_move_with_the_same_key_after_a_reconnect():
    """A server that drops the connection as the move arrives: on the next connection the
    bot joins with ``since`` and sends the same move, same key, without deciding anew."""
    received: list[list[dict[str, Any]]] = []

    async def server(ws: Any) -> None:
        seen: list[dict[str, Any]] = []
        received.append(seen)
        join = json.loads(await ws.recv())
        seen.append(join)
        if len(received) == 1:
            await ws.send(json.dumps({"type": "snapshot", "version": 7, "view": view(7), "table": {"game_id": "g1"}}))
            seen.append(json.loads(await ws.recv()))  # the move: lost with the connection
            return
        seen.append(json.loads(await ws.recv()))  # the move again, before anything is sent
        await ws.send(json.dumps({"type": "snapshot", "version": 7, "view": view(7), "table": {"game_id": "g1"}}))
        await ws.send(json.dumps({"type": "applied", "key": seen[-1]["key"], "version": 8, "ref": seen[-1]["id"]}))
        await ws.send(json.dumps({"type": "update", "version": 9, "view": view(9, finished=True),
                                  "table": {"game_id": "g1"}}))
        await ws.wait_closed()

    async with websockets.serve(server, "127.0.0.1", 0) as listening:
        port = listening.sockets[0].getsockname()[1]
        result = await asyncio.wait_for(bot.follow(f"ws://127.0.0.1:{port}", "t1", "tok", random.Random(0)), 60)
    assert result == {"table": "t1", "game": "g1", "places": {"robo": 1, "easy": 2}}
    (join1, move1), (join2, move2) = received
    assert join1["since"] is None and join2["since"] == 7
    assert move1["type"] == "act" and move1["version"] == 7 and move1["key"]
    assert move2 == move1  # the same text: the same key, the same version, not decided anew
