"""Table chat (issue #37) over real WebSocket connections (in-process server, fake clock):
the players' room and the spectators' room, the table's system lines, the limits on a line
(length, control characters, the rate, a ban), and that no line reaches a record or export."""

from __future__ import annotations

from typing import Any

import pytest

from freezeout.server.chattext import MAX_CHAT
from freezeout.server.storage.users import UserRow
from freezeout.server.table.chat import TableChat
from freezeout.server.table.state import Refused
from freezeout.server.transport.protocol import SERVER_MESSAGE


def chat_of(player: Any) -> list[dict[str, Any]]:
    return [m for m in player.messages if m["type"] == "chat" and m["room"] != "system"]


async def said(player: Any, text: str) -> dict[str, Any]:
    return await player.until(lambda m: m["type"] == "chat" and m.get("text") == text)


async def two_and_a_watcher(source: Any) -> tuple[str, Any, Any, Any]:
    """ana and bo at a heads-up table and eve, a guest, watching it: all three following the
    table (``source``: a server's or a cluster gateway's players)."""
    ana, bo, eve = await source.player(), await source.player(), await source.player()
    await ana.register("ana")
    await bo.register("bo")
    await eve.guest()
    table = await ana.create([None, None])
    await bo.post(f"/api/tables/{table}/sit")
    for p in (ana, bo, eve):
        await p.join(table)
    return table, ana, bo, eve


async def heads_up_and_a_guest(harness) -> tuple[str, Any, Any, Any]:
    """ana and bo playing heads-up, and eve, a guest, watching: all following the table."""
    table, ana, bo, eve = await two_and_a_watcher(harness)
    await harness.settle()
    for p in (ana, bo, eve):
        await p.until_version(harness.table(table).state.version)
    return table, ana, bo, eve


async def test_players_and_spectators_each_read_their_own_room(harness):
    table, ana, bo, eve = await heads_up_and_a_guest(harness)
    await ana.send({"type": "chat", "text": "good luck"})
    line = await said(bo, "good luck")
    SERVER_MESSAGE.validate_python(line)
    assert line["room"] == "players" and line["author"] == "ana" and isinstance(line["at"], float)
    await said(ana, "good luck")  # the author gets its own line too
    await eve.send({"type": "chat", "text": "ana bluffs"})
    spectators = await said(eve, "ana bluffs")
    assert spectators["room"] == "spectators"
    # A marker said after both: whoever got it has been sent everything before it.
    await bo.send({"type": "chat", "text": "thanks"})
    await said(ana, "thanks")
    await bo.send({"type": "ping"})
    await bo.until(lambda m: m["type"] == "pong")
    await eve.send({"type": "chat", "text": "marker"})
    await said(eve, "marker")
    assert [m["text"] for m in chat_of(ana)] == ["good luck", "thanks"]
    assert [m["text"] for m in chat_of(bo)] == ["good luck", "thanks"]
    assert [m["text"] for m in chat_of(eve)] == ["ana bluffs", "marker"]  # never the players' room
    # The history route gives each their own room.
    for player, texts in ((ana, ["good luck", "thanks"]), (eve, ["ana bluffs", "marker"])):
        history = (await player.http.get(f"/api/tables/{table}/chat")).json()
        assert [line["text"] for line in history["lines"] if line["room"] != "system"] == texts


@pytest.mark.parametrize(("text", "code"), [
    ("x" * (MAX_CHAT + 1), "too_long"),
    ("hi\u0007there", "bad_message"),
    ("new\nline", "bad_message"),
    ("\u202egnp.exe", "bad_message"),
    ("   ", "bad_message"),
])
async def test_a_bad_line_is_refused_and_nothing_is_stored(harness, text, code):
    table, ana, _bo, _ = await harness.heads_up_with_a_spectator()
    await ana.send({"type": "chat", "text": text, "id": 7})
    error = await ana.error()
    assert (error["code"], error["ref"]) == (code, 7), error
    assert await harness.ctx.store.chat.history(table, ("players", "spectators")) == []


async def test_markup_is_kept_as_text_and_a_chat_needs_a_table(harness):
    _table, ana, bo, _ = await harness.heads_up_with_a_spectator()
    xss = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    await ana.send({"type": "chat", "text": xss})
    assert (await said(bo, xss))["text"] == xss  # shown as text by the page (tests/web/test_web_chat.py)
    loner = await harness.player()
    await loner.guest()
    await loner.connect()
    await loner.send({"type": "chat", "text": "hello?", "id": "c1"})
    assert (await loner.error())["code"] == "not_joined"


async def test_a_chat_flood_is_refused_per_account(harness):
    table, ana, bo, _ = await harness.heads_up_with_a_spectator()
    limit = harness.settings.chat_messages_per_window
    for n in range(limit):
        await ana.send({"type": "chat", "text": f"spam {n}"})
        await said(ana, f"spam {n}")
    await ana.send({"type": "chat", "text": "one too many", "id": "flood"})
    error = await ana.error()
    assert error["code"] == "rate_limited" and error["ref"] == "flood"
    assert len(await harness.ctx.store.chat.history(table, ("players",))) == limit
    await harness.advance(harness.settings.chat_window_seconds + 1)
    await ana.send({"type": "chat", "text": "later"})
    await said(bo, "later")


async def test_a_banned_account_cannot_chat_nor_open_tables(harness):
    _table, ana, bo, _ = await harness.heads_up_with_a_spectator()
    assert await harness.ctx.store.chat.ban(ana.user["id"], harness.clock.now())
    await ana.send({"type": "chat", "text": "let me talk", "id": 1})
    error = await ana.error()
    assert error["code"] == "banned"
    response = await ana.post("/api/tables", {"slots": [None, None]})
    assert response.status_code == 403 and response.json()["error"]["code"] == "banned", response.text
    assert await harness.ctx.store.chat.unban(ana.user["id"])
    await ana.send({"type": "chat", "text": "sorry"})
    await said(bo, "sorry")


async def test_system_lines_tell_joins_and_leaves_to_both_rooms(harness):
    ana, bo, eve = await harness.player(), await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    await eve.guest()
    table = await ana.create([None, None, None])  # a third place: the game waits, bo may leave
    for p in (ana, eve):
        await p.join(table)
    await bo.post(f"/api/tables/{table}/sit")
    for p in (ana, eve):
        line = await p.until(lambda m: m["type"] == "chat" and m["room"] == "system")
        assert (line["system"], line["author"], line["author_id"]) == ("join", "bo", bo.user["id"])
    history = (await eve.http.get(f"/api/tables/{table}/chat")).json()["lines"]
    assert [(h["system"], h["author"]) for h in history] == [("join", "ana"), ("join", "bo")]
    await bo.post(f"/api/tables/{table}/stand")
    line = await eve.until(lambda m: m["type"] == "chat" and m.get("system") == "leave")
    assert line["author"] == "bo"


async def test_chat_never_reaches_the_log_records_or_exports(harness, policies):
    table, ana, bo, eve = await heads_up_and_a_guest(harness)
    secret = "chat-only-words-xyzzy"
    await ana.send({"type": "chat", "text": secret})
    await said(bo, secret)
    await eve.send({"type": "chat", "text": secret + "-spectator"})
    await said(eve, secret + "-spectator")
    await harness.play_out(table, [ana, bo], policies["calling"], watchers=(eve,))
    entries = await harness.ctx.store.log.table_entries(table)
    assert entries and not any(secret in str(e.data) for e in entries)
    game_id = harness.table(table).state.game_id
    for path in (f"/api/games/{game_id}/record", f"/api/games/{game_id}/phh", f"/api/games/{game_id}/stars",
                 f"/api/games/{game_id}/events", f"/api/tables/{table}/games", f"/api/games/{game_id}/hands/1/steps"):
        response = await ana.http.get(path)
        assert response.status_code == 200, (path, response.text)
        assert secret not in response.text, path
    # The bust and a rematch offer are system lines (not log entries of their own).
    await ana.send({"type": "rematch"})
    offer = await eve.until(lambda m: m["type"] == "chat" and m.get("system") == "rematch")
    assert offer["author"] == "ana"
    lines = await harness.ctx.store.chat.history(table, ("system",))
    assert {"bust", "rematch"} <= {line["system"] for line in lines}


async def test_bots_never_chat(harness):
    table, _ana, _bo, _ = await harness.heads_up_with_a_spectator()
    state = harness.table(table).state
    chat = TableChat(harness.ctx.store.engine, harness.settings)
    bot = UserRow(999, "bot-easy", "bot", None, 1500.0, 0)
    with pytest.raises(Refused) as refused:
        await chat.say(state, bot, "beep", harness.clock.now())
    assert refused.value.code == "forbidden"
    assert await harness.ctx.store.chat.history(table, ("players", "spectators")) == []
