"""A connection's way out: the send loop, which never lets the table wait on a socket.

A table's actor (or a gateway's fan-out) calls :meth:`Outbox.send`, which only
queues.  One task per connection writes the queue out.  What a connection may
cost is bounded (docs/protocol.md "Limits"): queued characters
(``ws_outbox_bytes``: a client that cannot keep up is dropped) and how long a
send may stay blocked (a peer that stopped reading is cut off by the room's
watchdog through ``link.blocked_since``, and ``transport.abort()`` frees its
socket and kernel buffers at once: it counts as offline).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any

from starlette.websockets import WebSocket

from freezeout.server.settings import Settings
from freezeout.server.transport.links import Link
from freezeout.server.transport.protocol import error_text

__all__ = ["Outbox", "bound_send_buffer", "transport_of"]

log = logging.getLogger(__name__)


def transport_of(websocket: WebSocket) -> Any:
    """The connection's transport under uvicorn (its ``receive`` is a method of the
    connection's protocol object), else None.  ASGI cannot abort a connection, and a
    graceful close must first flush what is pending, which never happens towards a peer
    that stopped reading: only ``transport.abort()`` frees such a socket."""
    owner = getattr(getattr(websocket, "_receive", None), "__self__", None)
    transport = getattr(owner, "transport", None)
    return transport if callable(getattr(transport, "abort", None)) else None


def bound_send_buffer(transport: Any, size: int) -> None:
    """A fixed kernel send buffer for the connection.  Linux grows an autotuned one to 4 MB
    for a peer that stopped reading, and a send only blocks (and the connection is cut off,
    ``ws_send_timeout_seconds`` later) once it is full: at a quiet table that took an hour,
    holding megabytes all along.  Game messages are a few KB: a small buffer is plenty."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


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
        self.closed = asyncio.Event()
        self.stalled = False
        self.finished = False  # the endpoint has returned
        self.link = Link(address=link_address, end=self.end, abort=self.abort)
        self.task: asyncio.Task[None] | None = None

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
        if self._queued + len(text) > self.settings.ws_outbox_bytes:  # the client cannot keep up: drop it
            self.abort()
            return
        self._queued += len(text)
        self._queue.put_nowait(text)

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
                await websocket.send_text(text)
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
                    self.loop.call_later(self.settings.ws_send_timeout_seconds,
                                         lambda: None if self.finished else self.abort())

    @property
    def done(self) -> bool:
        return self.task is not None and self.task.done()

    async def close(self) -> None:
        """The endpoint is returning: let the last error (a flood, a log-out) go out first, then stop."""
        self.finished = True
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
