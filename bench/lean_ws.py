"""A lean WebSocket client connection for the load bench (bench/load.py).

The load client shares the machine's two cores with the server it measures,
so every microsecond it spends per message is taken from the server.  The
``websockets`` library's asyncio client runs a task per connection and wakes
it for every message; with 10,000 connections that overhead was a large part
of the client's CPU.  This keeps the library's sans-I/O protocol (handshake,
framing, masking, ping/pong and close are still ``websockets``' own code)
and drives it from a plain :class:`asyncio.Protocol`: a received frame is
handled by a callback, with no task switch.

Each instance is still one real WebSocket connection over TCP.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

__all__ = ["LeanConnection", "connect"]


class LeanConnection(asyncio.Protocol):
    """One WebSocket: ``on_open()`` once the handshake is done, then ``on_text(text)`` per message."""

    def __init__(self, url: str, headers: dict[str, str], on_open: Callable[[LeanConnection], None],
                 on_text: Callable[[LeanConnection, bytes], None]) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.headers = headers
        self.on_open = on_open
        self.on_text = on_text
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._fragments: list[bytes] = []

    # -- asyncio.Protocol ------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not subclasses
        request = self.ws.connect()
        for name, value in self.headers.items():
            request.headers[name] = value
        self.ws.send_request(request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101 or self.ws.handshake_exc is not None:
                    self._fail(ConnectionError(f"handshake refused: {event.status_code}"))
                    return
                if not self.opened.done():
                    self.opened.set_result(None)
                self.on_open(self)
            elif isinstance(event, Frame):
                self._frame(event)
        self._flush()  # pongs and close replies the protocol queued

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    # -- messages ----------------------------------------------------------------
    def _frame(self, frame: Frame) -> None:
        if frame.opcode is Opcode.TEXT:
            if frame.fin:
                self.on_text(self, bytes(frame.data))
            else:
                self._fragments = [bytes(frame.data)]
        elif frame.opcode is Opcode.CONT and self._fragments:
            self._fragments.append(bytes(frame.data))
            if frame.fin:
                text, self._fragments = b"".join(self._fragments), []
                self.on_text(self, text)

    def send_text(self, text: bytes) -> None:
        """Send one text message (``text`` is UTF-8 encoded already); a
        connection already closing (the end of a run) drops it quietly."""
        if self.ws.state is not State.OPEN:
            return
        self.ws.send_text(text)
        self._flush()

    def close(self) -> None:
        """Start the closing handshake; the server closes the TCP connection."""
        if self.transport is None or self.transport.is_closing():
            return
        self.ws.send_close(1000)
        self._flush()

    def _flush(self) -> None:
        chunks = self.ws.data_to_send()
        if self.transport is None or not chunks:
            return
        data = b"".join(chunks)
        if data:
            self.transport.write(data)
        if chunks[-1] == b"":  # the protocol's signal to close the TCP connection
            self.transport.close()

    def _fail(self, error: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(error)
        if self.transport is not None:
            self.transport.close()


async def connect(url: str, headers: dict[str, str], on_open: Callable[[LeanConnection], None],
                  on_text: Callable[[LeanConnection, bytes], None], timeout: float = 120) -> LeanConnection:
    """Open one connection to ``ws://host:port/path`` and wait for its handshake."""
    uri = parse_uri(url)
    loop = asyncio.get_running_loop()
    _, conn = await asyncio.wait_for(
        loop.create_connection(lambda: LeanConnection(url, headers, on_open, on_text), uri.host, uri.port), timeout)
    await asyncio.wait_for(asyncio.shield(conn.opened), timeout)
    return conn
