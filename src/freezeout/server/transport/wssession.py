"""What a connection's messages do, once decoded: join a table, watch the lobby, ping, or an intent.

One job: dispatch a typed client message (transport/wsdecode.py).  A connection follows
one table at a time (or the lobby) through its table.handle.TableHandle — the
local actor or a gateway's remote table, the same to this code — and hands it
the intents, typed.  An API token in ``join`` identifies the connection
(issue #23); a ``sit`` first notes where the account is, as the HTTP API does
(elo.py "Rings").
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from starlette.websockets import WebSocket

from freezeout.server.accounts import token_hash
from freezeout.server.storage.store import UserRow
from freezeout.server.table.handle import Conn, TableHandle
from freezeout.server.table.state import Refused
from freezeout.server.transport.auth import CSRF_SHAPE, DEVICE_COOKIE
from freezeout.server.transport.context import Context
from freezeout.server.transport.links import Link
from freezeout.server.transport.protocol import BuyIn, Join, Ping, Sit, WatchLobby, error_text, pong_text
from freezeout.server.transport.tablegate import gate
from freezeout.server.transport.wsdecode import ClientMessage

__all__ = ["Session"]

log = logging.getLogger(__name__)


class Session:
    def __init__(self, context: Context, websocket: WebSocket, link: Link, send: Callable[[str], None],
                 user: UserRow | None) -> None:
        self.context, self.websocket, self.link, self.send = context, websocket, link, send
        self.user = user
        self.table: TableHandle | None = None
        self.conn: Conn | None = None
        self.joined: tuple[str, str | None] = ("", None)  # the table followed and the invite secret it was joined with

    async def handle(self, msg: ClientMessage, now: float) -> None:
        if isinstance(msg, Join):
            await self._join(msg, now)
        elif isinstance(msg, WatchLobby):  # follow the lobby instead of a table
            self._leave_table()
            self.context.room.lobby.watch(self.link, self.send)
        elif isinstance(msg, Ping):
            self.send(pong_text(now))
        elif self.table is None or self.conn is None or self.conn.evicted:
            self.send(error_text("not_joined", "join a table first", msg.id))
        else:
            if isinstance(msg, (Sit, BuyIn)) and not await self._still_invited(msg.id):
                return
            if isinstance(msg, Sit) and self.conn.user is not None:  # as POST /api/tables/{id}/sit (elo.py "Rings")
                try:
                    await self._seen(self.conn.user, now)
                except Exception:  # unrecorded, the seat could dodge the ring rule: not taken
                    log.warning("could not record a sighting of user %s", self.conn.user.id, exc_info=True)
                    self.send(error_text("storage", "the database refused; try again", msg.id))
                    return
            self.table.intent(self.conn.user, msg, self.conn)

    async def _join(self, msg: Join, now: float) -> None:
        context = self.context
        if msg.token:
            hashed = token_hash(msg.token)
            found = await context.store.tokens.find(hashed, now)
            if found is None:
                self.send(error_text("forbidden", "unknown or expired API token", msg.id))
                return
            self.user = found[0]
            context.links.identify(self.link, self.user.id, hashed, found[1])
        try:
            await gate(context, msg.table, self.user, msg.invite, self.link.address)
            table = context.room.get(msg.table)
        except Refused as refusal:
            self.send(error_text(refusal.code, refusal.message, msg.id))
            return
        self._leave_table()
        context.room.lobby.unwatch(self.link)
        self.table, self.conn = table, Conn(self.user, self.send)
        self.joined = (msg.table, msg.invite)
        table.attach(self.conn, msg.since)

    async def _still_invited(self, ref: str | int | None) -> bool:
        """A seat is taken only while the table may be seen: a private table's link renewed since
        this connection joined by it no longer seats anyone (transport/tablegate.py)."""
        try:
            await gate(self.context, self.joined[0], self.user, self.joined[1], self.link.address)
        except Refused as refusal:
            self.send(error_text(refusal.code, refusal.message, ref))
            if refusal.code == "not_found":
                self._leave_table()
            return False
        return True

    def _leave_table(self) -> None:
        if self.table is not None and self.conn is not None and not self.conn.evicted:
            self.table.detach(self.conn)
        self.table = self.conn = None

    def close(self) -> None:
        """The connection ended: it follows nothing any more."""
        self._leave_table()
        self.context.room.lobby.unwatch(self.link)

    async def _seen(self, user: UserRow, now: float) -> None:
        """Note where an account taking a seat is: its client address and its browser's
        ``fz_device`` cookie, as transport/apiaccounts.py's ``seen`` does for a seat taken over HTTP — else a ring
        could sit its puppets over the WebSocket and its games would be rated (issue #23)."""
        websocket = self.websocket
        device = websocket.cookies.get(DEVICE_COOKIE)
        if device is not None and CSRF_SHAPE.fullmatch(device) is None:
            device = None
        await self.context.store.sightings.seen(user.id, now, device=device,
                                      address=websocket.client.host if websocket.client else None)
