"""The WebSocket endpoint ``/ws``: parse, authenticate, hand intents to the
table's actor, and write the actor's messages out without ever blocking it.

Malformed or forged input gets an ``error`` message and changes nothing; a
client that cannot keep up is disconnected instead of slowing the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlparse

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from freezeout.server.accounts import token_hash
from freezeout.server.api import ApiError, identify
from freezeout.server.context import Context
from freezeout.server.protocol import CLIENT_MESSAGE, Join
from freezeout.server.store import UserRow
from freezeout.server.table import Conn, TableActor
from freezeout.server.tablestate import Refused
from freezeout.server.wire import dumps

__all__ = ["websocket_endpoint"]

MAX_MESSAGE = 8192
OUTBOX_LIMIT = 2000


def _error(code: str, message: str, ref: Any = None) -> str:
    return dumps({"type": "error", "code": code, "message": message, "ref": ref, "version": None})


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    return origin is None or urlparse(origin).netloc == websocket.headers.get("host")


async def websocket_endpoint(websocket: WebSocket) -> None:
    context: Context = websocket.app.state.ctx
    if not _same_origin(websocket):  # no cross-site WebSocket hijacking of a session cookie
        await websocket.close(code=1008)
        return
    await websocket.accept()
    outbox: asyncio.Queue[str | None] = asyncio.Queue()
    closed = asyncio.Event()

    def send(text: str) -> None:
        if closed.is_set():
            return
        if outbox.qsize() >= OUTBOX_LIMIT:  # the client cannot keep up: drop it
            closed.set()
            outbox.put_nowait(None)
            return
        outbox.put_nowait(text)

    async def write() -> None:
        """Write the outbox out; however this ends, the connection is closed, so the reader
        below stops too (it never waits on anything but the next message: no task per message)."""
        try:
            while (text := await outbox.get()) is not None:
                await websocket.send_text(text)
        finally:
            with contextlib.suppress(Exception):
                await websocket.close(code=1008 if closed.is_set() else 1000)

    writer = asyncio.create_task(write())
    try:
        found = await identify(context, websocket.headers, websocket.cookies)
        user: UserRow | None = found.user
    except ApiError as error:
        send(_error("forbidden", error.message))
        user = None
    actor: TableActor | None = None
    conn: Conn | None = None
    try:
        while not closed.is_set() and not writer.done():
            text = await websocket.receive_text()
            if len(text) > MAX_MESSAGE:
                send(_error("bad_message", f"messages are at most {MAX_MESSAGE} characters"))
                continue
            try:
                raw = json.loads(text)
            except ValueError:
                send(_error("bad_message", "not JSON"))
                continue
            ref = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), (str, int)) else None
            try:
                msg = CLIENT_MESSAGE.validate_python(raw)
            except ValidationError as error:
                first = error.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                send(_error("bad_message", f"{where}: {first['msg']}" if where else first["msg"], ref))
                continue
            if isinstance(msg, Join):
                if msg.token:
                    user = await context.store.api_token_user(token_hash(msg.token))
                    if user is None:
                        send(_error("forbidden", "unknown API token", ref))
                        continue
                try:
                    new_actor = context.room.get(msg.table)
                except Refused as refusal:
                    send(_error(refusal.code, refusal.message, ref))
                    continue
                if actor is not None and conn is not None:
                    actor.detach(conn)
                actor, conn = new_actor, Conn(user, send)
                actor.attach(conn, msg.since)
            elif msg.type == "ping":
                send(dumps({"type": "pong", "now": context.clock.now()}))
            elif actor is None or conn is None:
                send(_error("not_joined", "join a table first", ref))
            else:
                actor.intent(conn.user, msg.model_dump(), conn)
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    finally:
        if actor is not None and conn is not None:
            actor.detach(conn)
        outbox.put_nowait(None)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer
        with contextlib.suppress(Exception):
            await websocket.close()
