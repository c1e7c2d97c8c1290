"""A closed WebSocket is freed by reference counting, not left in cycles for the collector
(issue #32 item 12, docs/scaling.md "No freeze").

With 10,000 players the connections are frozen out of the full collection (server/gctune.py's
Freezer), and whatever a closed one leaves in reference cycles stays until a thaw walks every
frozen object.  So every way a connection ends — the peer closes it, idle or following a
table, or the room closes it (a message flood) — must leave (almost) nothing for
``gc.collect()``.  The server runs under the real uvicorn in the test's loop; the clients are
bare sockets that speak just enough WebSocket (their own objects are in no cycle), and the
count is of objects, not time: deterministic."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import uvicorn

from freezeout.server.app import create_app
from freezeout.server.clock import FakeClock
from freezeout.server.transport.wsoutbox import Outbox
from polling import eventually

from serverkit import FAIL_SAFE_SECONDS, fast_settings

EACH = 5  # connections per way of ending
GARBAGE_PER_CONNECTION = 3  # objects gc.collect() may find per closed connection (85 before)


class BareClient(asyncio.Protocol):
    """One WebSocket client: the handshake, masked text frames out, the server's frames read
    only to answer its close (and then close the socket, as a client should)."""

    def __init__(self, port: int, cookie: str = "") -> None:
        self.port, self.cookie = port, cookie
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.texts: list[str] = []
        self.upgraded = self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{self.cookie}\r\n".encode())

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded:
            head, found, rest = self.buffer.partition(b"\r\n\r\n")
            if not found:
                return
            assert head.startswith(b"HTTP/1.1 101"), head
            self.upgraded, self.buffer = True, rest
        while len(self.buffer) >= 2:
            opcode, size, start = self.buffer[0] & 0x0F, self.buffer[1] & 0x7F, 2
            if size == 126:
                size, start = int.from_bytes(self.buffer[2:4], "big"), 4
            elif size == 127:
                size, start = int.from_bytes(self.buffer[2:10], "big"), 10
            if len(self.buffer) < start + size:
                return
            payload, self.buffer = self.buffer[start:start + size], self.buffer[start + size:]
            if opcode == 0x1:
                self.texts.append(payload.decode())
            elif opcode == 0x8 and self.transport is not None:  # the server closes: answer, then hang up
                self.transport.write(b"\x88\x80\x00\x00\x00\x00")
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.transport = None

    def send(self, message: dict[str, Any]) -> None:
        payload = json.dumps(message).encode()
        assert len(payload) < 126 and self.transport is not None
        self.transport.write(bytes((0x81, 0x80 | len(payload))) + b"\x00\x00\x00\x00" + payload)  # a zero mask


class BareHttp(asyncio.Protocol):
    """One HTTP/1.1 request on a socket of its own, read to the server's hang-up."""

    def __init__(self, request: bytes) -> None:
        self.request, self.response, self.lost = request, b"", False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self.response += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True


class Room:
    """The app under uvicorn, a public table, ana's session, and the outboxes closed so far
    (the endpoint's last step)."""

    def __init__(self, server: uvicorn.Server, port: int) -> None:
        self.server, self.port = server, port
        self.table = self.cookies = self.csrf = ""
        self.closed = 0

    def ws(self, *, as_ana: bool = False) -> BareClient:
        return BareClient(self.port, f"Cookie: {self.cookies}\r\n" if as_ana else "")

    async def log_out(self) -> BareHttp:
        """ana logs out: the room closes every WebSocket of her session."""
        request = BareHttp(f"POST /api/logout HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nCookie: {self.cookies}\r\n"
                           f"X-CSRF-Token: {self.csrf}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
        await asyncio.get_running_loop().create_connection(lambda: request, "127.0.0.1", self.port)
        return request


@pytest.fixture
async def room(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Room]:
    close = Outbox.close

    async def counting(self: Outbox) -> None:
        await close(self)
        served.closed += 1

    monkeypatch.setattr(Outbox, "close", counting)
    app = create_app(fast_settings(tmp_path), clock=FakeClock())
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=65536, lifespan="on"))
    served = Room(server, int(listener.getsockname()[1]))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    await eventually(lambda: server.started or task.done(), "the server to start")
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{served.port}", timeout=FAIL_SAFE_SECONDS) as http:
        csrf = (await http.get("/api/session")).json()["csrf"]
        answer = await http.post("/api/register", json={"name": "ana", "password": "correct horse"},
                                 headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 200, answer.text
        served.csrf = answer.json()["csrf"]
        answer = await http.post("/api/tables", json={"slots": [None, None], "sit": True},
                                 headers={"X-CSRF-Token": served.csrf})
        assert answer.status_code == 200, answer.text
        served.table = str(answer.json()["table"]["id"])
        served.cookies = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    try:
        yield served
    finally:
        server.should_exit = True
        await task


async def test_closed_connections_leave_no_reference_cycles(room):
    """Five idle connections and five following a table hang up; the room closes five more
    (their account logged out).  Before: about 85 objects in cycles each."""
    loop = asyncio.get_running_loop()
    idle, following = [room.ws() for _ in range(EACH)], [room.ws() for _ in range(EACH)]
    logged_out = [room.ws(as_ana=True) for _ in range(EACH)]
    clients = [*idle, *following, *logged_out]
    for client in clients:
        await loop.create_connection(lambda c=client: c, "127.0.0.1", room.port)
    await eventually(lambda: all(c.upgraded for c in clients), "every connection upgraded")
    for client in following:
        client.send({"type": "join", "table": room.table})
    await eventually(lambda: all(any('"snapshot"' in text for text in c.texts) for c in following),
                     "every follower's snapshot")
    gc.collect()
    gc.disable()  # every cycle made from here on waits for the count below
    try:
        for client in [*idle, *following]:
            assert client.transport is not None
            client.transport.close()  # the peer hangs up
        request = await room.log_out()
        server = room.server
        await eventually(lambda: room.closed == len(clients) and all(c.lost for c in clients) and request.lost
                         and not server.server_state.connections and not server.server_state.tasks,
                         "every connection ended")
        for _ in range(3):  # what the last callbacks scheduled (a transport's connection_lost)
            await asyncio.sleep(0)
        assert request.response.startswith(b"HTTP/1.1 200"), request.response[:200]
        assert all(any('"you logged out"' in text for text in c.texts) for c in logged_out)
        found = gc.collect()
    finally:
        gc.enable()
    assert found <= GARBAGE_PER_CONNECTION * len(clients), f"{found / len(clients):.0f} objects in cycles per connection"
