"""The WebSocket endpoint ``/ws``: parse, authenticate, hand intents to the
table's actor (or watch the lobby: lobbyfeed.py), and write the actor's
messages out without ever blocking it.

Malformed or forged input gets an ``error`` message and changes nothing, and
the connection stays usable: a binary frame, text that is not JSON (nested
thousands deep, say) or a message of the wrong shape is one ``bad_message``.
What a connection may cost the room is bounded (docs/protocol.md "Limits"):
messages per second (a token bucket per account, or per address before
log-in, shared by its connections and kept across reconnects; a client that
keeps flooding is closed), queued messages out (a client that cannot keep up is dropped), and
how long a send may stay blocked (a peer that stopped reading is cut off,
so its socket and kernel buffers are freed and it counts as offline).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any
from urllib.parse import urlparse

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from freezeout.server.accounts import token_hash
from freezeout.server.api import _CSRF_SHAPE, DEVICE_COOKIE, ApiError, identify
from freezeout.server.context import Context
from freezeout.server.links import Link
from freezeout.server.protocol import CLIENT_MESSAGE, Join
from freezeout.server.store import UserRow
from freezeout.server.table import Conn, TableActor
from freezeout.server.tablestate import Refused
from freezeout.server.wire import dumps

__all__ = ["websocket_endpoint"]

log = logging.getLogger(__name__)

MAX_MESSAGE = 8192


def _error(code: str, message: str, ref: Any = None) -> str:
    return dumps({"type": "error", "code": code, "message": message, "ref": ref, "version": None})


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    try:
        return origin is None or urlparse(origin).netloc == websocket.headers.get("host")
    except ValueError:  # "http://[" is no URL: refused, not a traceback (#23)
        return False


def _transport(websocket: WebSocket) -> Any:
    """The connection's transport under uvicorn (its ``receive`` is a method of the
    connection's protocol object), else None.  ASGI cannot abort a connection, and a
    graceful close must first flush what is pending, which never happens towards a peer
    that stopped reading: only ``transport.abort()`` frees such a socket."""
    owner = getattr(getattr(websocket, "_receive", None), "__self__", None)
    transport = getattr(owner, "transport", None)
    return transport if callable(getattr(transport, "abort", None)) else None


def _bound_send_buffer(transport: Any, size: int) -> None:
    """A fixed kernel send buffer for the connection.  Linux grows an autotuned one to 4 MB
    for a peer that stopped reading, and a send only blocks (and the connection is cut off,
    ``ws_send_timeout_seconds`` later) once it is full: at a quiet table that took an hour,
    holding megabytes all along.  Game messages are a few KB: a small buffer is plenty."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "?"


async def _seen(context: Context, websocket: WebSocket, user: UserRow, now: float) -> None:
    """Note where an account taking a seat is: its client address and its browser's
    ``fz_device`` cookie, as api.py's ``_seen`` does for a seat taken over HTTP — else a ring
    could sit its puppets over the WebSocket and its games would be rated (issue #23)."""
    device = websocket.cookies.get(DEVICE_COOKIE)
    if device is not None and _CSRF_SHAPE.fullmatch(device) is None:
        device = None
    await context.store.sightings.seen(user.id, now, device=device, address=websocket.client.host if websocket.client else None)


async def websocket_endpoint(websocket: WebSocket) -> None:
    context: Context = websocket.app.state.ctx
    settings = context.settings
    if not _same_origin(websocket):  # no cross-site WebSocket hijacking of a session cookie
        await websocket.close(code=1008)
        return
    await websocket.accept()
    loop = asyncio.get_running_loop()
    transport = _transport(websocket)
    _bound_send_buffer(transport, settings.ws_send_buffer_bytes)
    outbox: asyncio.Queue[str | None] = asyncio.Queue()
    queued = 0  # characters waiting in the outbox (bounded: ws_outbox_bytes)
    closed = asyncio.Event()  # set: the connection is ending (no more sends; the reader stops)
    stalled = False
    finished = False  # the endpoint has returned

    def abort() -> None:
        """Cut the connection off at once (the peer stopped reading or cannot keep up)."""
        nonlocal stalled
        if not stalled:
            log.info("cutting off a connection from %s (user %s): it does not read what it is sent",
                     link.address, link.user_id)
        stalled = True
        closed.set()
        if transport is not None:
            transport.abort()  # the reader gets its disconnect at once
        outbox.put_nowait(None)

    def send(text: str) -> None:
        nonlocal queued
        if closed.is_set():
            return
        if queued + len(text) > settings.ws_outbox_bytes:  # the client cannot keep up: drop it
            abort()
            return
        queued += len(text)
        outbox.put_nowait(text)

    def end(code: str, message: str) -> None:
        """A last ``error``, then a normal close (log-out, a revoked token, a flood)."""
        if closed.is_set():
            return
        outbox.put_nowait(_error(code, message))
        closed.set()
        outbox.put_nowait(None)

    link = Link(address=_address(websocket), end=end, abort=abort)

    async def write() -> None:
        """Write the outbox out; however this ends, the connection is closed, so the reader
        below stops too (it never waits on anything but the next message: no task per message).
        While a send is blocked, ``link.blocked_since`` says since when (Room's watchdog)."""
        nonlocal queued
        try:
            while (text := await outbox.get()) is not None:
                queued -= len(text)
                link.blocked_since = loop.time()
                await websocket.send_text(text)
                link.blocked_since = None
        except Exception:  # the peer is gone, or the server closed it (keepalive): end it for sure
            if not closed.is_set():
                abort()
        finally:
            link.blocked_since = None
            if not stalled:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1008 if closed.is_set() else 1000)
                if closed.is_set():  # we closed it: a peer that never answers the close is cut off
                    loop.call_later(settings.ws_send_timeout_seconds, lambda: None if finished else abort())

    writer = asyncio.create_task(write())
    try:
        found = await identify(context, websocket.headers, websocket.cookies)
        user: UserRow | None = found.user
        link.user_id, link.credential, link.expires_at = (user.id if user else None), found.credential, found.expires_at
    except ApiError as error:
        send(_error("forbidden", error.message))
        user = None
    refusal = context.links.refusal(link.address, link.user_id)
    actor: TableActor | None = None
    conn: Conn | None = None
    if refusal is not None:
        end("rate_limited", refusal)
    else:
        context.links.add(link)
    bucket = context.links.bucket(link, context.clock.now())  # the account's (or address's): reconnecting refills nothing
    warned = False
    try:
        while not closed.is_set() and not writer.done():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            now = context.clock.now()
            if link.expires_at is not None and now >= link.expires_at:
                end("unauthorized", "your session or API token has expired: log in again")
                break
            balance = bucket.take(now)
            if balance < 0:
                if balance <= -bucket.burst:
                    log.info("closing a connection from %s (user %s): message flood", link.address, link.user_id)
                    end("rate_limited", f"too many messages (at most {bucket.rate:g} a second): the connection is closed")
                    break
                if not warned:
                    send(_error("rate_limited", f"too many messages (at most {bucket.rate:g} a second): "
                                                "messages are dropped until you slow down"))
                    warned = True
                continue
            warned = False
            text = message.get("text")
            if text is None:
                send(_error("bad_message", "binary frames are not accepted: send JSON text"))
                continue
            if len(text) > MAX_MESSAGE:
                send(_error("bad_message", f"messages are at most {MAX_MESSAGE} characters"))
                continue
            try:
                raw = orjson.loads(text)  # nesting deeper than 1,024 is a JSONDecodeError, not a RecursionError
            except (orjson.JSONDecodeError, RecursionError):
                send(_error("bad_message", "not JSON"))
                continue
            ref = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), (str, int)) else None
            try:
                msg = CLIENT_MESSAGE.validate_python(raw)
            except (ValidationError, RecursionError) as error:
                send(_error("bad_message", _reason(error), ref))
                continue
            if isinstance(msg, Join):
                if msg.token:
                    hashed = token_hash(msg.token)
                    found_token = await context.store.tokens.find(hashed, now)
                    if found_token is None:
                        send(_error("forbidden", "unknown or expired API token", ref))
                        continue
                    user = found_token[0]
                    context.links.identify(link, user.id, hashed, found_token[1])
                try:
                    new_actor = context.room.get(msg.table)
                except Refused as refusal_:
                    send(_error(refusal_.code, refusal_.message, ref))
                    continue
                if actor is not None and conn is not None:
                    actor.detach(conn)
                context.room.lobby.unwatch(link)
                actor, conn = new_actor, Conn(user, send)
                actor.attach(conn, msg.since)
            elif msg.type == "lobby":  # follow the lobby instead of a table
                if actor is not None and conn is not None:
                    actor.detach(conn)
                actor = conn = None
                context.room.lobby.watch(link, send)
            elif msg.type == "ping":
                send(dumps({"type": "pong", "now": now}))
            elif actor is None or conn is None:
                send(_error("not_joined", "join a table first", ref))
            else:
                if msg.type == "sit" and conn.user is not None:  # as POST /api/tables/{id}/sit (elo.py "Rings")
                    try:
                        await _seen(context, websocket, conn.user, now)
                    except Exception:  # unrecorded, the seat could dodge the ring rule: not taken
                        log.warning("could not record a sighting of user %s", conn.user.id, exc_info=True)
                        send(_error("storage", "the database refused; try again", ref))
                        continue
                actor.intent(conn.user, msg.model_dump(), conn)
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    finally:
        finished = True
        if refusal is None:
            context.links.remove(link)
        if actor is not None and conn is not None:
            actor.detach(conn)
        context.room.lobby.unwatch(link)
        outbox.put_nowait(None)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 1.0)  # the last error (a flood, a log-out) goes out first
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer
        if not stalled:
            with contextlib.suppress(Exception):
                await websocket.close()


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return "the message is nested too deeply"
