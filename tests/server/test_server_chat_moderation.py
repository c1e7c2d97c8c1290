"""Mutes, reports, bans and notes on players (issue #37): each checked by account, each bad
request a clear refusal that changes nothing; the operator's ``freezeout moderation``
command; migration 0010; the 30-day purge; a chat line through a cluster's gateway."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine as sync_engine
from sqlalchemy import inspect
from test_server_chat import two_and_a_watcher

from freezeout.cli import main
from freezeout.server.chattext import MAX_NOTE
from freezeout.server.storage.chat import KEEP_DAYS, REPORTS_PER_HOUR
from freezeout.server.storage.db import _alembic_config
from polling import eventually

from clusterkit import cluster_settings, serve_cluster


async def chatting(harness) -> tuple[str, Any, Any, Any]:
    """ana and bo playing heads-up, eve (a guest) watching; ana has said "hello"."""
    table, ana, bo, eve = await two_and_a_watcher(harness)
    await ana.send({"type": "chat", "text": "hello"})
    await bo.until(lambda m: m["type"] == "chat" and m.get("text") == "hello")
    return table, ana, bo, eve


def line_id(player: Any, text: str) -> int:
    return next(m["id"] for m in player.messages if m["type"] == "chat" and m.get("text") == text)


async def test_a_mute_is_the_muters_own_and_muting_oneself_is_refused(harness):
    table, ana, bo, _ = await chatting(harness)
    me = await bo.http.put(f"/api/chat/mutes/{bo.user['id']}", headers={"X-CSRF-Token": bo.csrf})
    assert me.status_code == 400 and me.json()["error"]["code"] == "self"
    assert (await bo.http.get("/api/chat/mutes")).json() == {"muted": []}
    unknown = await bo.http.put("/api/chat/mutes/99999", headers={"X-CSRF-Token": bo.csrf})
    assert unknown.status_code == 404
    muted = await bo.http.put(f"/api/chat/mutes/{ana.user['id']}", headers={"X-CSRF-Token": bo.csrf})
    assert muted.json() == {"muted": [ana.user["id"]]}
    texts = [line["text"] for line in (await bo.http.get(f"/api/tables/{table}/chat")).json()["lines"]]
    assert "hello" not in texts  # bo no longer reads ana's lines
    texts = [line["text"] for line in (await ana.http.get(f"/api/tables/{table}/chat")).json()["lines"]]
    assert "hello" in texts  # ana still reads her own
    no_csrf = await bo.http.delete(f"/api/chat/mutes/{ana.user['id']}")
    assert no_csrf.status_code == 403
    await bo.http.delete(f"/api/chat/mutes/{ana.user['id']}", headers={"X-CSRF-Token": bo.csrf})
    assert (await bo.http.get("/api/chat/mutes")).json() == {"muted": []}


async def test_reports_go_to_the_moderation_list_once_each(harness, tmp_path, capsys):
    table, ana, bo, _ = await chatting(harness)
    hello = line_id(bo, "hello")
    own = await ana.post("/api/chat/reports", {"message": hello})
    assert own.status_code == 400 and own.json()["error"]["code"] == "self"
    first = await bo.post("/api/chat/reports", {"message": hello})
    assert first.status_code == 200, first.text
    again = await bo.post("/api/chat/reports", {"message": hello})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_reported"
    missing = await bo.post("/api/chat/reports", {"message": 10**9})
    assert missing.status_code == 404
    forged = await bo.post("/api/chat/reports", {"message": "1 OR 1=1"})
    assert forged.status_code == 400
    reports = await harness.ctx.store.chat.reports()
    assert [(r.author, r.author_id, r.reporter_id, r.text) for r in reports] == [("ana", ana.user["id"], bo.user["id"], "hello")]
    # The operator reads the list and bans by account (id or registered name).
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    assert await asyncio.to_thread(main, ["moderation", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "'hello'" in out and f"account {ana.user['id']}" in out and table in out
    assert await asyncio.to_thread(main, ["moderation", "ban", "ana", "--db", db]) == 0
    assert "banned account" in capsys.readouterr().out
    assert await harness.ctx.store.chat.banned(ana.user["id"])
    await ana.send({"type": "chat", "text": "am I banned?"})
    assert (await ana.error())["code"] == "banned"
    assert await asyncio.to_thread(main, ["moderation", "unban", str(ana.user["id"]), "--db", db]) == 0
    assert not await harness.ctx.store.chat.banned(ana.user["id"])
    assert await asyncio.to_thread(main, ["moderation", "ban", "nobody-here", "--db", db]) == 1
    assert "no account 'nobody-here'" in capsys.readouterr().err


async def test_a_report_flood_is_refused(harness):
    table, ana, bo, _ = await chatting(harness)
    store, now = harness.ctx.store.chat, harness.clock.now()
    ids = [(await store.post(table, "players", _row(ana), f"line {n}", now - 60 * n, limit=10**6, window=1))["id"]
           for n in range(REPORTS_PER_HOUR + 1)]
    for message in ids[:REPORTS_PER_HOUR]:
        assert (await bo.post("/api/chat/reports", {"message": message})).status_code == 200
    flood = await bo.post("/api/chat/reports", {"message": ids[-1]})
    assert flood.status_code == 429 and flood.json()["error"]["code"] == "rate_limited"
    assert len(await store.reports()) == REPORTS_PER_HOUR


def _row(player: Any) -> Any:
    from freezeout.server.storage.users import UserRow

    return UserRow(player.user["id"], player.user["name"], "user", None, 1500.0, 0)


async def test_a_note_is_seen_only_by_its_author(harness):
    _, ana, bo, eve = await chatting(harness)
    target = bo.user["id"]
    xss = "<script>alert(1)</script> calls too much"
    put = await ana.http.put(f"/api/notes/{target}", json={"text": xss, "label": "red"},
                             headers={"X-CSRF-Token": ana.csrf})
    assert put.status_code == 200, put.text
    assert (await ana.http.get(f"/api/notes/{target}")).json()["note"]["text"] == xss  # kept as text
    assert (await ana.http.get("/api/notes")).json()["notes"][str(target)]["label"] == "red"
    # Nobody else reads it: not bo, not eve.
    for other in (bo, eve):
        assert (await other.http.get("/api/notes")).json()["notes"] == {}
        assert (await other.http.get(f"/api/notes/{target}")).json()["note"] is None
    for body, code in (({"text": "x" * (MAX_NOTE + 1)}, "too_long"), ({"text": "a\u0000b"}, "bad_message"),
                       ({"text": "ok", "label": "gold"}, "bad_message"), ({"text": ""}, "bad_message"),
                       ({"text": "ok", "html": "<b>"}, "bad_message")):
        refused = await ana.http.put(f"/api/notes/{target}", json=body, headers={"X-CSRF-Token": ana.csrf})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code, (body, refused.text)
    myself = await ana.http.put(f"/api/notes/{ana.user['id']}", json={"text": "me"}, headers={"X-CSRF-Token": ana.csrf})
    assert myself.status_code == 400 and myself.json()["error"]["code"] == "self"
    assert (await ana.http.get(f"/api/notes/{target}")).json()["note"]["text"] == xss  # nothing changed
    gone = await ana.http.delete(f"/api/notes/{target}", headers={"X-CSRF-Token": ana.csrf})
    assert gone.json()["deleted"] is True
    assert (await ana.http.get("/api/notes")).json()["notes"] == {}
    assert (await eve.http.get("/api/notes")).status_code == 200
    anonymous = await (await harness.player()).http.get("/api/notes")
    assert anonymous.status_code == 401


async def test_lines_older_than_thirty_days_are_purged(harness):
    table, ana, _bo, _ = await chatting(harness)
    store, now = harness.ctx.store.chat, harness.clock.now()
    await store.post(table, "players", _row(ana), "ancient", now - KEEP_DAYS * 86400 - 1, limit=10, window=1)
    assert await store.purge(now - KEEP_DAYS * 86400) == 1
    texts = [line["text"] for line in await store.history(table, ("players",))]
    assert "hello" in texts and "ancient" not in texts


def test_migration_0010_adds_the_chat_tables_and_takes_them_away(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.sqlite'}"
    engine = sync_engine(url)
    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0009")
    chat_tables = {"chat_messages", "chat_mutes", "chat_reports", "chat_bans", "player_notes"}
    assert not chat_tables & set(inspect(engine).get_table_names())
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0010")
    assert chat_tables <= set(inspect(engine).get_table_names())
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0009")
    assert not chat_tables & set(inspect(engine).get_table_names())
    engine.dispose()


@pytest.mark.parametrize("room", ["players", "spectators"])
async def test_a_line_reaches_its_room_through_a_clusters_gateway(tmp_path, room):
    async with serve_cluster(cluster_settings(tmp_path, ws_message_burst=1000)) as cluster:
        await cluster.worker("w1")
        table, ana, bo, eve = await two_and_a_watcher(cluster.gateway)
        await eventually(lambda: cluster.owner(table) is not None, "an owner")
        author, reader, outsider = (ana, bo, eve) if room == "players" else (eve, eve, ana)
        text = f"through the bus to the {room}"
        await author.send({"type": "chat", "text": text})
        line = await reader.until(lambda m: m["type"] == "chat" and m.get("text") == text)
        assert line["room"] == room
        await author.send({"type": "chat", "text": "marker"})
        await reader.until(lambda m: m["type"] == "chat" and m.get("text") == "marker")
        await outsider.send({"type": "chat", "text": "own marker"})
        await outsider.until(lambda m: m["type"] == "chat" and m.get("text") == "own marker")
        if outsider is not author:
            assert not [m for m in outsider.messages if m["type"] == "chat" and m.get("text") == text]


async def _a_muted_authors_lines_are_not_sent_to_the_muter(ana: Any, bo: Any) -> None:
    """bo mutes ana (by account, stored): her next line reaches her and not bo's socket, whatever
    client reads it; his own marker, sent after hers in the table's order, shows he was sent
    everything before it.  Unmuted, her lines reach him again."""
    muted = await bo.http.put(f"/api/chat/mutes/{ana.user['id']}", headers={"X-CSRF-Token": bo.csrf})
    assert muted.status_code == 200, muted.text
    await ana.send({"type": "chat", "text": "psst"})
    await ana.until(lambda m: m["type"] == "chat" and m.get("text") == "psst")  # the author reads her own
    await bo.send({"type": "chat", "text": "marker"})
    await bo.until(lambda m: m["type"] == "chat" and m.get("text") == "marker")
    assert not [m for m in bo.messages if m["type"] == "chat" and m.get("text") == "psst"]
    await bo.http.delete(f"/api/chat/mutes/{ana.user['id']}", headers={"X-CSRF-Token": bo.csrf})
    await ana.send({"type": "chat", "text": "heard again"})
    await bo.until(lambda m: m["type"] == "chat" and m.get("text") == "heard again")


async def test_the_server_sends_no_line_of_a_muted_author_to_the_muter(harness):
    _table, ana, bo, _ = await chatting(harness)
    await _a_muted_authors_lines_are_not_sent_to_the_muter(ana, bo)


async def test_through_a_clusters_gateway_a_muted_authors_line_is_not_sent_to_the_muter(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path, ws_message_burst=1000)) as cluster:
        await cluster.worker("w1")
        table, ana, bo, _ = await two_and_a_watcher(cluster.gateway)
        await eventually(lambda: cluster.owner(table) is not None, "an owner")
        await _a_muted_authors_lines_are_not_sent_to_the_muter(ana, bo)


async def test_a_replayers_names_find_their_accounts_and_an_unknown_tables_chat_is_no_table(harness):
    _table, ana, bo, _ = await chatting(harness)
    found = (await bo.http.get("/api/accounts/ids", params=[("name", "ana"), ("name", "nobody-at-all")])).json()
    assert found == {"ids": {"ana": ana.user["id"], "nobody-at-all": None}}
    assert (await bo.http.get("/api/accounts/ids", params=[("name", str(n)) for n in range(11)])).status_code == 400
    unknown = await bo.http.get("/api/tables/t0123456789ab/chat")  # as every route keyed by a table's id
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
