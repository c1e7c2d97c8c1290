"""A connection's way out: the send loop, which never lets the table wait on a socket.

A table's actor (or a gateway's fan-out) calls :meth:`Outbox.send`, which never
blocks.  When nothing is waiting and the socket takes more (the usual case),
the text goes out at once as one WebSocket frame written to the connection's
transport (:class:`DirectWriter`): no queue, no task switch, no trip through
the ASGI layers per message (docs/scaling.md "A move's cost in one process":
a room sends four messages per move).  Otherwise it is queued, and one task per
connection writes the queue out through ASGI, waiting while the peer is slow.
What a connection may cost is bounded (docs/protocol.md "Limits"): queued
characters (``ws_outbox_bytes``: a client that cannot keep up is dropped) and
how long a send may stay blocked (a peer that stopped reading is cut off by
the room's watchdog through ``link.blocked_since``, and ``transport.abort()``
frees its socket and kernel buffers at once: it counts as offline).
Keepalive pings go only to connections that went quiet (:class:`IdlePings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from typing import Any

from starlette.websockets import WebSocket

from freezeout.server.settings import Settings
from freezeout.server.transport.links import Link
from freezeout.server.transport.protocol import error_text

__all__ = ["DirectWriter", "IdlePings", "Outbox", "bound_send_buffer", "text_frame", "transport_of"]

log = logging.getLogger(__name__)


def _protocol_of(websocket: WebSocket) -> Any:
    """The server's protocol object of the connection (its ``receive`` is a bound method of it)."""
    return getattr(getattr(websocket, "_receive", None), "__self__", None)


def transport_of(websocket: WebSocket) -> Any:
    """The connection's transport under uvicorn (its ``receive`` is a method of the
    connection's protocol object), else None.  ASGI cannot abort a connection, and a
    graceful close must first flush what is pending, which never happens towards a peer
    that stopped reading: only ``transport.abort()`` frees such a socket."""
    transport = getattr(_protocol_of(websocket), "transport", None)
    return transport if callable(getattr(transport, "abort", None)) else None


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked WebSocket text frame (RFC 6455 5.2: a server never masks)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 65536:
        head = struct.pack("!BBH", 0x81, 126, size)
    else:
        head = struct.pack("!BBQ", 0x81, 127, size)
    return head + payload


class DirectWriter:
    """Writes a text frame straight to the transport of uvicorn's sans-I/O WebSocket protocol
    (``websockets_sansio_impl``, uvicorn's choice when ``websockets`` is installed) — what its
    ASGI ``send`` does once it is writable, without the ASGI layers, the queue and the task
    switch.  Only while that send would not wait (:meth:`ready`); otherwise, and under any
    other server, the outbox's task sends through ASGI as before.  Without extensions (the
    room's default: ``ws_compression`` off) the frame is built here (:func:`text_frame`);
    with permessage-deflate, ``websockets`` builds it, as uvicorn's ``send`` would."""

    __slots__ = ("conn", "frames", "protocol", "transport", "writable")

    def __init__(self, protocol: Any) -> None:
        self.protocol, self.conn = protocol, protocol.conn
        self.transport, self.writable = protocol.transport, protocol.writable
        self.frames = not self.conn.extensions  # plain frames: ours to build

    @classmethod
    def of(cls, websocket: WebSocket) -> DirectWriter | None:
        protocol = _protocol_of(websocket)
        conn = getattr(protocol, "conn", None)
        needed = ("transport", "writable", "close_sent", "disconnected", "handshake_complete", "initial_response")
        if conn is None or not all(hasattr(protocol, name) for name in needed):
            return None
        if not all(hasattr(conn, name) for name in ("state", "extensions", "send_text", "data_to_send")):
            return None
        return cls(protocol)

    def ready(self) -> bool:
        """Whether uvicorn's ``send`` would write at once: open, accepted, not closing, below the
        transport's high-water mark (``writable``: the peer reads what it is sent)."""
        p = self.protocol
        return (self.writable.is_set() and p.handshake_complete and not p.close_sent and not p.disconnected
                and p.initial_response is None and self.conn.state == 1 and not self.transport.is_closing())  # 1: OPEN

    # The frame of the last text written: a table's update is one text per seat, the same object
    # for every connection of that seat (its spectators: one text for all), so each text is
    # encoded and framed once per audience, not once per connection.
    _last: tuple[str, bytes] = ("", text_frame(b""))

    def write(self, text: str) -> None:
        if self.frames:
            last = DirectWriter._last
            if last[0] is not text:
                last = DirectWriter._last = (text, text_frame(text.encode()))
            self.transport.write(last[1])
        else:
            self.conn.send_text(text.encode())
            self.transport.write(b"".join(self.conn.data_to_send()))


class IdlePings:
    """Keepalive pings only for a connection the peer has been silent on for a whole interval.

    uvicorn pings every connection every ``ws_ping_interval`` (``WS_PING_SECONDS``) and
    closes it when the pong is late: a frame out, a frame back and two timers per
    connection and period — at 10,000 connections and 20 s, 500 pings a second, as many
    as half the moves (docs/scaling.md "A move's cost in one process").  A message from
    the peer proves it alive just as well as a pong, so when the ping falls due this
    defers it to one interval after the peer's last message (:meth:`heard`); a silent
    connection is pinged as before.  A connection that dies is therefore still pinged
    at most one interval after the last thing it sent, and closed one timeout later:
    the same bound as uvicorn's (presence, R26's instant forfeit).

    It replaces the ``send_keepalive_ping`` of uvicorn's sans-I/O protocol object (the
    instance's attribute, which ``schedule_ping`` reads each time); under any other
    protocol :meth:`of` gives None and uvicorn's own pings stay."""

    __slots__ = ("last", "loop", "ping", "protocol")

    def __init__(self, protocol: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.protocol, self.loop = protocol, loop
        self.ping = protocol.send_keepalive_ping  # uvicorn's: sends the ping, starts the pong deadline
        self.last = loop.time()  # when the peer last sent a message (the handshake, at first)

    @classmethod
    def of(cls, websocket: WebSocket, loop: asyncio.AbstractEventLoop) -> IdlePings | None:
        """Installed on the connection's protocol when it keeps uvicorn's keepalive (else None)."""
        protocol = _protocol_of(websocket)
        needed = ("ping_interval", "ping_timer", "send_keepalive_ping", "schedule_ping")
        if protocol is None or not all(hasattr(protocol, name) for name in needed):
            return None
        if not protocol.ping_interval or "send_keepalive_ping" in vars(protocol):  # no pings, or not uvicorn's own
            return None
        pings = cls(protocol, loop)
        protocol.send_keepalive_ping = pings.due
        timer = protocol.ping_timer  # the first ping, scheduled at the handshake with uvicorn's method
        if timer is not None:
            timer.cancel()
            protocol.ping_timer = loop.call_later(protocol.ping_interval, pings.due)
        return pings

    def heard(self) -> None:
        """The peer sent a message: it is alive now."""
        self.last = self.loop.time()

    def due(self) -> None:
        """The ping's time: sent only if the peer has been silent for the whole interval."""
        protocol = self.protocol
        protocol.ping_timer = None
        quiet = self.loop.time() - self.last
        interval = protocol.ping_interval
        if quiet < interval:
            protocol.ping_timer = self.loop.call_later(interval - quiet, self.due)
        else:
            self.ping()

    def remove(self) -> None:
        """Give the protocol its own method back (no cycle between it and this object)."""
        with contextlib.suppress(AttributeError):
            if vars(self.protocol).get("send_keepalive_ping") == self.due:
                del self.protocol.send_keepalive_ping


def bound_send_buffer(transport: Any, size: int) -> None:
    """A fixed kernel send buffer for the connection.  Linux grows an autotuned one to 4 MB
    for a peer that stopped reading, and a send only blocks (and the connection is cut off,
    ``ws_send_timeout_seconds`` later) once it is full: at a quiet table that took an hour,
    holding megabytes all along.  Game messages are a few KB: a small buffer is plenty."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def _ended(code: str, message: str) -> None:
    """A closed connection's ``end``: nothing left to end."""


def _aborted() -> None:
    """A closed connection's ``abort``: nothing left to cut off."""


class Outbox:
    """The connection's queue out and the task that writes it; ``closed`` set: the connection
    is ending (no more sends; the reader stops)."""

    def __init__(self, websocket: WebSocket, settings: Settings, link_address: str) -> None:
        self.websocket, self.settings = websocket, settings
        self.loop = asyncio.get_running_loop()
        self.transport = transport_of(websocket)
        bound_send_buffer(self.transport, settings.ws_send_buffer_bytes)
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._queued = 0  # characters waiting (bounded: ws_outbox_bytes)
        self._sending = False  # the task is sending a text through ASGI
        self.direct = DirectWriter.of(websocket) if settings.ws_direct_send else None
        self.pings = IdlePings.of(websocket, self.loop)
        self.closed = asyncio.Event()
        self.stalled = False
        self.finished = False  # the endpoint has returned
        self.link = Link(address=link_address, end=self.end, abort=self.abort)
        self.task: asyncio.Task[None] | None = None
        self._deadline: asyncio.TimerHandle | None = None  # a peer that never answers our close is cut off

    def start(self) -> None:
        self.task = asyncio.create_task(self._write())

    def abort(self) -> None:
        """Cut the connection off at once (the peer stopped reading or cannot keep up)."""
        if not self.stalled:
            log.info("cutting off a connection from %s (user %s): it does not read what it is sent",
                     self.link.address, self.link.user_id)
        self.stalled = True
        self.closed.set()
        if self.transport is not None:
            self.transport.abort()  # the reader gets its disconnect at once
        self._queue.put_nowait(None)

    def send(self, text: str) -> None:
        if self.closed.is_set():
            return
        direct = self.direct
        if direct is not None and not self._sending and self._queue.empty() and direct.ready():
            try:  # nothing waits before it: at once, in order
                direct.write(text)
            except Exception:  # the transport is gone: end it as a failed send would
                self.abort()
            return
        if self._queued + len(text) > self.settings.ws_outbox_bytes:  # the client cannot keep up: drop it
            self.abort()
            return
        self._queued += len(text)
        self._queue.put_nowait(text)

    def heard(self) -> None:
        """The peer sent a message (its keepalive ping waits: :class:`IdlePings`)."""
        if self.pings is not None:
            self.pings.heard()

    def end(self, code: str, message: str) -> None:
        """A last ``error``, then a normal close (log-out, a revoked token, a flood)."""
        if self.closed.is_set():
            return
        self._queue.put_nowait(error_text(code, message))
        self.closed.set()
        self._queue.put_nowait(None)

    async def _write(self) -> None:
        """Write the queue out; however this ends, the connection is closed, so the reader
        stops too (it never waits on anything but the next message: no task per message).
        While a send is blocked, ``link.blocked_since`` says since when (Room's watchdog)."""
        link, websocket = self.link, self.websocket
        try:
            while (text := await self._queue.get()) is not None:
                self._queued -= len(text)
                link.blocked_since = self.loop.time()
                self._sending = True
                await websocket.send_text(text)
                self._sending = False
                link.blocked_since = None
        except Exception:  # the peer is gone, or the server closed it (keepalive): end it for sure
            if not self.closed.is_set():
                self.abort()
        finally:
            link.blocked_since = None
            if not self.stalled:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1008 if self.closed.is_set() else 1000)
                if self.closed.is_set():  # we closed it: a peer that never answers the close is cut off
                    self._deadline = self.loop.call_later(self.settings.ws_send_timeout_seconds,
                                                          lambda: None if self.finished else self.abort())

    @property
    def done(self) -> bool:
        return self.task is not None and self.task.done()

    async def close(self) -> None:
        """The endpoint is returning: let the last error (a flood, a log-out) go out first, then stop."""
        self.finished = True
        if self.pings is not None:
            self.pings.remove()
        self._queue.put_nowait(None)
        if self.task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.task, 1.0)
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if not self.stalled:
            with contextlib.suppress(Exception):
                await self.websocket.close()
        self._release()

    def _release(self) -> None:
        """Break the closed connection's reference cycles, so that reference counting frees it
        at once (docs/scaling.md "No freeze"): its link's ``end`` and ``abort`` are this
        outbox's methods (outbox -> link -> method -> outbox), and a cycle kept every object
        the outbox reaches (the ASGI WebSocket, uvicorn's protocol, the ``websockets`` parser,
        the transport: about 85) for the cyclic collector — frozen, until a thaw."""
        self.link.end, self.link.abort = _ended, _aborted
        if self._deadline is not None:  # it would keep this outbox (and all it reaches) for seconds
            self._deadline.cancel()
            self._deadline = None
