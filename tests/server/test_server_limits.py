"""What one client may cost the room (issue #10, findings 3, 4, 5 and 12):
bad frames are a ``bad_message`` on a connection that stays usable; floods of
messages are dropped and then closed; each table's command queue is bounded;
tables need a human place, are capped per account and address, and are
listed a page at a time; a connection whose peer stopped reading is cut off
and counts as offline.  Every wait here is for a condition, never for a time."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
from typing import Any

import pytest
import websockets

from freezeout.server.clock import FakeClock
from freezeout.server.settings import Settings
from freezeout.server.storage.store import LogEntry, UserRow
from freezeout.server.table.actor import Conn, TableActor
from freezeout.server.table.state import initial_state
from freezeout.server.transport.protocol import Stand
from polling import eventually

from serverkit import fast_settings, serve


# -- bad frames (finding 12) -----------------------------------------------------
async def test_bad_frames_are_bad_messages_and_the_connection_stays_usable(harness):
    p = await harness.player()
    await p.guest()
    await p.connect()
    for frame in ("[" * 3000 + "]" * 3000, '{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}", b"\x00\x01binary",
                  b'{"type": "ping"}', "NaN", '{"type": "join", "table": ' + '{"a":' * 1500 + "1" + "}" * 1501):
        await p.ws.send(frame)
        error = await p.error()
        assert error["code"] == "bad_message" and error["message"], frame[:20]
    await p.send({"type": "ping", "id": 5})
    assert (await p.until(lambda m: m["type"] == "pong"))["type"] == "pong"


# -- floods (finding 3) --------------------------------------------------------------
async def test_a_flood_of_moves_is_dropped_and_then_closed(tmp_path):
    settings = fast_settings(tmp_path, ws_messages_per_second=10.0, ws_message_burst=30)
    async with serve(settings, FakeClock()) as h:
        flooder, other = await h.guests(2)
        table = await other.create([None, None, None])
        await flooder.join(table)
        version = h.table(table).state.version
        for i in range(200):  # the sit/stand flood of the issue
            try:
                await flooder.send({"type": "sit" if i % 2 == 0 else "stand"})
            except websockets.ConnectionClosed:
                break
        close = await flooder.until_closed()
        assert close.rcvd is not None and close.rcvd.code == 1008
        codes = [e["code"] for e in flooder.errors]
        assert "rate_limited" in codes and codes[-1] == "rate_limited"
        assert "closed" in flooder.errors[-1]["message"]
        await h.settle()
        assert h.table(table).state.version - version <= settings.ws_message_burst  # a few rows, not 567,600
        await other.join(table)
        await other.send({"type": "ping"})
        assert (await other.until(lambda m: m["type"] == "pong"))["type"] == "pong"  # everyone else is served


async def test_reconnecting_after_a_flood_refills_nothing(tmp_path):
    """The message bucket belongs to the account (before log-in, the address), not to one
    connection: a flooder closed for its rate and reconnecting at once is closed again at its
    first message, and served only once it has slowed down."""
    clock = FakeClock()
    async with serve(fast_settings(tmp_path, ws_messages_per_second=10.0, ws_message_burst=5), clock) as h:
        p = await h.player()
        await p.guest()
        await p.connect()
        for _ in range(20):
            with contextlib.suppress(websockets.ConnectionClosed):
                await p.send({"type": "ping"})
        close = await p.until_closed()
        assert close.rcvd is not None and close.rcvd.code == 1008 and "closed" in p.errors[-1]["message"]
        for attempt in range(2):  # again at once: no fresh burst
            seen = len(p.messages)
            await p.connect()
            await p.send({"type": "ping", "id": attempt})
            await p.until_closed()
            assert [m["type"] for m in p.messages[seen:]] == ["error"] and "closed" in p.errors[-1]["message"]
        other = (await h.guests(1))[0]  # another account is not held back by it
        await other.connect()
        await other.send({"type": "ping"})
        assert (await other.until(lambda m: m["type"] == "pong"))["type"] == "pong"
        clock.advance(2.0)  # slowed down: the bucket refills
        await p.connect()
        await p.send({"type": "ping", "id": "again"})
        assert (await p.until(lambda m: m["type"] == "pong"))["type"] == "pong"


async def test_a_client_that_slows_down_is_served_again(tmp_path):
    clock = FakeClock()
    async with serve(fast_settings(tmp_path, ws_messages_per_second=10.0, ws_message_burst=5), clock) as h:
        p = await h.player()
        await p.guest()
        await p.connect()
        for _ in range(7):
            await p.send({"type": "ping"})
        error = await p.error()
        assert error["code"] == "rate_limited" and "dropped" in error["message"]
        clock.advance(2.0)  # the bucket refills
        await p.send({"type": "ping", "id": "again"})
        assert (await p.until(lambda m: m["type"] == "pong"))["type"] == "pong"


class _MemoryStore:
    async def append(self, entries: Any, ops: Any = ()) -> Any:
        return list(entries)  # committed as given


async def test_a_tables_command_queue_is_bounded():
    """Commands beyond the table's queue (or a connection's share of it) are refused as busy
    at once, so no backlog builds up behind anyone's move."""
    clock = FakeClock()
    settings = Settings(deck_seed="x", test_mode=True, table_queue_limit=8, conn_queue_limit=3)
    entry = LogEntry("t1", 1, clock.now(), "create", {"slots": [None, None], "ranked": False, "created_by": 1})
    actor = TableActor(initial_state(entry), store=_MemoryStore(), clock=clock, settings=settings)
    sent: dict[int, list[dict[str, Any]]] = {}
    conns = [Conn(UserRow(i, f"u{i}", "guest", None, 1500.0, 0), lambda text, i=i: sent.setdefault(i, []).append(json.loads(text)))
             for i in range(5)]
    for _ in range(5):  # nothing runs in between: the actor has not started
        actor.intent(conns[0].user, Stand(type="stand"), conns[0])
    own = [m["message"] for m in sent[0]]
    assert len(own) == 2 and all("at most 3 of your messages" in m for m in own)  # its own share: 3
    for conn in conns[1:]:
        for _ in range(2):
            actor.intent(conn.user, Stand(type="stand"), conn)
    table = [m for i in range(1, 5) for m in sent.get(i, [])]
    assert len(table) == 3 and all(m["code"] == "busy" and "table is busy" in m["message"] for m in table)  # 8 in all
    assert actor._intents == 8
    actor.start()
    try:
        await actor.sync()
        assert actor._intents == 0 and all(c.pending == 0 for c in conns)
    finally:
        await actor.stop()


async def test_followers_hear_of_presence_only_when_it_changes(harness):
    """A spectator joining and leaving changes nobody's presence: the others hear nothing of
    it (else N followers re-joining at their message rate would cost N² messages)."""
    table, ana, bo, eve = await harness.heads_up_with_a_spectator()
    mallory = (await harness.guests(1))[0]
    for _ in range(5):
        await mallory.join(table)
        await mallory.ws.close()
        mallory.ws = None
    await bo.ws.close()  # a player leaves: that is news
    presence = await eve.until(lambda m: m["type"] == "presence")
    assert presence["online"] == [p is not bo for p in sorted((ana, bo), key=lambda p: p.view["viewer"])]
    assert [m for m in eve.messages if m["type"] == "presence"] == [presence]


# -- tables (finding 4) ----------------------------------------------------------------
async def test_every_table_needs_a_human_place(harness):
    ana = await harness.player()
    await ana.register("ana")
    for body in ({"slots": ["easy", "hard"], "sit": False}, {"slots": ["easy", "hard"], "ranked": True, "sit": False},
                 {"slots": ["random", "random", "random"], "sit": False}):
        response = await ana.post("/api/tables", body)
        assert response.status_code == 409 and "human" in response.json()["error"]["message"]
    assert (await ana.post("/api/tables", {"slots": [None, "easy"], "sit": False})).status_code == 200


async def test_a_table_of_bots_alone_from_an_older_server_is_retired_at_start(tmp_path):
    clock = FakeClock()
    async with serve(fast_settings(tmp_path, bot_only_tables=True), clock) as h:  # as an older server allowed
        (player,) = await h.guests(1)
        table = await player.create(["random", "random"], sit=False)
        await h.settle()
        assert h.table(table).state.tournament is not None
    async with serve(fast_settings(tmp_path), clock) as h:
        assert table not in h.ctx.room.tables
        (player,) = await h.guests(1)
        assert (await player.http.get(f"/api/tables/{table}")).status_code == 404


async def test_open_tables_are_capped_per_account_and_per_address(tmp_path):
    settings = fast_settings(tmp_path, max_open_tables_per_user=3, max_open_tables_per_address=5)
    async with serve(settings, FakeClock()) as h:
        first, second = await h.guests(2)
        tables = [await first.create([None, None]) for _ in range(3)]
        response = await first.post("/api/tables", {"slots": [None, None]})
        assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"
        assert (await first.post("/api/quickplay", {"bot": "random"})).status_code == 429
        await second.create([None, None])
        await second.create([None, None])
        response = await second.post("/api/tables", {"slots": [None, None]})  # the address's fifth is taken
        assert response.status_code == 429 and "address" in response.json()["error"]["message"]
        assert (await first.post(f"/api/tables/{tables[0]}/stand")).status_code == 200
        listed = {t["id"] for t in (await first.http.get("/api/tables")).json()["tables"]}
        assert set(tables) <= listed  # a table left empty still waits (for others) until it is retired


async def test_the_table_list_comes_a_page_at_a_time(harness):
    players = [await harness.player() for _ in range(3)]
    made = []
    for p in players:
        await p.guest()
        for _ in range(2):
            made.append(await p.create([None, None]))
            harness.clock.advance(1.0)
    pages, after = [], None
    while True:
        query = {"limit": 4, **({"after": after} if after else {})}
        body = (await players[0].http.get("/api/tables", params=query)).json()
        pages.append([t["id"] for t in body["tables"]])
        after = body["next"]
        if after is None:
            break
    assert [len(page) for page in pages] == [4, 2]
    assert [t for page in pages for t in page] == list(reversed(made))  # newest first, each once
    response = await players[0].http.get("/api/tables", params={"after": "nonsense"})
    assert response.status_code == 400


# -- stalled connections (finding 5) ------------------------------------------------------
async def stalled_socket(h: Any, player: Any) -> Any:
    """A WebSocket of ``player`` that takes one message and then stops reading, with a small
    receive window: what the server sends it piles up in the server's send buffer."""
    host, port = h.base_url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    cookie = player.http.cookies.get("fz_session")
    ws = await websockets.connect(h.ws_url, sock=sock, additional_headers={"Cookie": f"fz_session={cookie}"},
                                  max_queue=1, max_size=2**22)
    await eventually(lambda: len(h.ctx.links) == 1, "one link")
    return ws


async def raw_websocket(h: Any, player: Any) -> socket.socket:
    """A WebSocket opened by hand on a socket with a small receive window, never read after the
    handshake: nothing on the client's side takes in what the server sends."""
    loop = asyncio.get_running_loop()
    host, port = h.base_url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, (host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(sock, (f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                                   f"Cookie: fz_session={player.http.cookies.get('fz_session')}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(sock, 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def text_frame(text: str) -> bytes:
    """One masked client text frame (RFC 6455) of under 126 bytes."""
    payload, mask = text.encode(), os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def test_a_stalled_reader_at_a_quiet_table_is_cut_off_too(tmp_path):
    """A spectator who stops reading at a table where little happens: a few hundred KB sent to
    it fill the connection's small kernel send buffer (``ws_send_buffer_bytes``; an autotuned
    one grows to megabytes first), the send blocks, and it is cut off."""
    settings = fast_settings(tmp_path, ws_send_timeout_seconds=0.3, ws_send_buffer_bytes=4096)
    async with serve(settings, FakeClock()) as h:
        watcher, ana, bo = await h.guests(3)
        table = await ana.create([None, None])
        await bo.post(f"/api/tables/{table}/sit")
        await h.settle()
        sock = await raw_websocket(h, watcher)
        try:
            await eventually(lambda: len(h.ctx.links) == 1, "one link")
            join = text_frame(json.dumps({"type": "join", "table": table}))
            for _ in range(150):  # 150 snapshots of a game in progress, about 2 KB each
                if not h.ctx.links:
                    break
                await asyncio.get_running_loop().sock_sendall(sock, join)
            # The link goes first, the table drops the connection as the link's task ends: wait for both.
            await eventually(lambda: len(h.ctx.links) == 0 and h.table(table).conns == [], "the link and the table's connection to go")
        finally:
            sock.close()


@pytest.mark.parametrize("cut_by", ["blocked_send", "outbox"])
async def test_a_connection_that_stops_reading_is_cut_off_and_counts_as_offline(tmp_path, cut_by):
    """A spectator stops reading while bots play on at full speed.  ``blocked_send``: once a
    send has been blocked for ``ws_send_timeout_seconds`` the server cuts the connection off
    (its socket and buffers are freed); ``outbox``: so it does once more than
    ``ws_outbox_bytes`` wait for it.  Each case turns the other mechanism off, and either way the
    table no longer counts the connection."""
    limits = {"blocked_send": {"ws_send_timeout_seconds": 0.3, "ws_outbox_bytes": 10**12},
              "outbox": {"ws_send_timeout_seconds": 10**6, "ws_outbox_bytes": 50_000}}[cut_by]
    settings = fast_settings(tmp_path, pause_seconds=0.0, bot_only_tables=True, ws_send_buffer_bytes=4096, **limits)
    async with serve(settings, FakeClock()) as h:
        ana = await h.player()
        await ana.register("ana")
        ws = await stalled_socket(h, ana)
        table = await ana.create(["random", "random", "random", "random"], sit=False)  # test mode: plays by itself
        await ws.send(json.dumps({"type": "join", "table": table}))
        actor = h.table(table)
        await eventually(lambda: len(h.ctx.links) == 0, "the link to be cut")  # cut off
        await eventually(lambda: actor.conns == [], "the table to drop the connection")  # offline for the table (R26 presence)
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
