"""The WebSocket endpoint ``/ws``: one connection's life, its jobs each in a module of its own.

- the handshake, a few per turn of the event loop in a connect storm (and the end in a
  disconnect storm: transport/wspacer.py), and who the client is (here: same origin, then the session
  cookie or API token, then the room's connection caps: transport/links.py);
- the way out (transport.wsoutbox.Outbox): the send loop, which never blocks the table;
- the rate (transport.wsthrottle.Throttle): a token bucket per account;
- the one decoder (transport.wsdecode.decode_frame): a frame becomes a typed message or
  a specific ``bad_message``, and the connection stays usable;
- the dispatch (transport.wssession.Session): join a table or the lobby, ping, or hand
  the table (a table.handle.TableHandle) the typed intent.

Malformed or forged input gets an ``error`` message and changes nothing.
What a connection may cost the room is bounded (docs/protocol.md "Limits").
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlparse

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from freezeout.server.storage.store import UserRow
from freezeout.server.transport.apicore import ApiError
from freezeout.server.transport.auth import identify
from freezeout.server.transport.context import Context
from freezeout.server.transport.protocol import error_text
from freezeout.server.transport.wsdecode import MAX_MESSAGE, BadFrame, decode_frame
from freezeout.server.transport.wsoutbox import Outbox
from freezeout.server.transport.wspacer import Pacer
from freezeout.server.transport.wssession import Session
from freezeout.server.transport.wsthrottle import Throttle

__all__ = ["MAX_MESSAGE", "websocket_endpoint"]

log = logging.getLogger(__name__)


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    try:
        return origin is None or urlparse(origin).netloc == websocket.headers.get("host")
    except ValueError:  # "http://[" is no URL: refused, not a traceback (#23)
        return False


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "?"


async def _handshake(context: Context, websocket: WebSocket, outbox: Outbox) -> tuple[UserRow | None, bool]:
    """Who the client is (its session or API token), and whether the room admits the
    connection (transport/links.py's caps per account and address); refused: it is ended."""
    link = outbox.link
    user: UserRow | None = None
    try:
        found = await identify(context, websocket.headers, websocket.cookies)
        user = found.user
        link.user_id, link.credential, link.expires_at = (user.id if user else None), found.credential, found.expires_at
    except ApiError as error:
        outbox.send(error_text("forbidden", error.message))
    refusal = context.links.refusal(link.address, link.user_id)
    if refusal is not None:
        outbox.end("rate_limited", refusal)
        return user, False
    context.links.add(link)
    return user, True


async def websocket_endpoint(websocket: WebSocket) -> None:
    context: Context = websocket.app.state.ctx
    if not _same_origin(websocket):  # no cross-site WebSocket hijacking of a session cookie
        await websocket.close(code=1008)
        return
    await Pacer.of(asyncio.get_running_loop()).turn()  # a connect storm: a few handshakes per loop turn
    await websocket.accept()
    outbox = Outbox(websocket, context.settings, _address(websocket))
    outbox.start()
    link = outbox.link
    user, admitted = await _handshake(context, websocket, outbox)
    session = Session(context, websocket, link, outbox.send, user)
    throttle = Throttle(context.links.bucket(link, context.clock.now()))  # the account's (or address's)
    try:
        while not outbox.closed.is_set() and not outbox.done:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                await Pacer.of(asyncio.get_running_loop()).turn()  # a disconnect storm: a few ends per loop turn
                break
            outbox.heard()  # alive: no keepalive ping needed for a while
            now = context.clock.now()
            if link.expires_at is not None and now >= link.expires_at:
                outbox.end("unauthorized", "your session or API token has expired: log in again")
                break
            throttled = throttle.admit(now)
            if throttled is not None:
                if throttled.close is not None:
                    log.info("closing a connection from %s (user %s): message flood", link.address, link.user_id)
                    outbox.end("rate_limited", throttled.close)
                    break
                if throttled.warning is not None:
                    outbox.send(error_text("rate_limited", throttled.warning))
                continue
            msg = decode_frame(frame)
            if isinstance(msg, BadFrame):
                outbox.send(error_text(msg.code, msg.message, msg.ref))
                continue
            await session.handle(msg, now)
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    finally:
        if admitted:
            context.links.remove(link)
        session.close()
        await outbox.close()
