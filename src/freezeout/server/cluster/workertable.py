"""A table driven by a worker of a cluster: the same actor, its messages on the bus.

In one process a table tells its changes to the sockets that follow it.  On
a worker nobody's socket is here: the connections live on gateways.  So a
change is published once per table (``Updates``) with every seat's text, and
each gateway hands each of its connections the text of that connection's
seat (hidden cards never reach another seat's socket).  Snapshots, catch-ups
and errors for one connection go to its gateway's inbox.  The connections a
gateway has following the table are ``Conn`` objects here like local ones,
so ``online`` (R26, R29), presence and the queue limits work unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from freezeout.server.cluster.bus import Command, Update
from freezeout.server.cluster.routing import EVICTED, chat_update, presence_update, table_update
from freezeout.server.table.actor import TableActor
from freezeout.server.table.chat import players_of
from freezeout.server.table.handle import Conn
from freezeout.server.table.state import TableState
from freezeout.server.transport.protocol import presence_text
from freezeout.server.wire import dumps

__all__ = ["Outlet", "OwnedTable", "RemoteConn", "lobby_record"]


class Outlet(Protocol):
    """Where an owned table's messages go (the worker queues them for the bus in order)."""

    def publish(self, update: Update) -> None: ...

    def reply(self, gateway: str, command: Command) -> None: ...

    def lobby(self, table_id: str, record: bytes | None) -> None: ...


@dataclass(eq=False)
class RemoteConn:
    """A connection of ``gateway`` (named ``conn_id`` there) following a table here; ``seen``
    is when the gateway last said it still follows (monotonic seconds)."""

    conn: Conn
    gateway: str
    conn_id: str
    seen: float
    reported: int | None = -1  # the version its gateway last said it had (-1: not said yet)


def lobby_record(state: TableState, summary: dict[str, Any]) -> bytes:
    return orjson.dumps({"summary": summary, "created_by": state.created_by})


def _lobby_key(state: TableState) -> tuple[Any, ...]:
    """What the lobby shows, less the version (which changes at every move); a cash table's
    average pot and hands per hour change as its hands end (table/cashlobby.py)."""
    return (state.status, state.game, tuple(state.slots), state.players, state.hand_stats.count,
            state.table_game.lobby_key() if state.table_game is not None else ())


class OwnedTable(TableActor):
    def __init__(self, state: TableState, *, outlet: Outlet, **kwargs: Any) -> None:
        super().__init__(state, **kwargs)
        self.outlet = outlet
        self.remote: dict[tuple[str, str], RemoteConn] = {}
        self._listed: tuple[Any, ...] | None = None

    def remote_conn(self, gateway: str, conn_id: str, user: Any, now: float) -> tuple[RemoteConn, bool]:
        """The connection ``conn_id`` of ``gateway``; True when it is new here."""
        key = (gateway, conn_id)
        found = self.remote.get(key)
        if found is not None:
            found.seen = now
            return found, False
        table_id = self.state.id

        def send(text: str) -> None:
            self.outlet.reply(gateway, Command(table_id, "", conn_id, text.encode()))

        found = self.remote[key] = RemoteConn(Conn(user, send), gateway, conn_id, now)
        return found, True

    def forget(self, gateway: str, conn_id: str) -> None:
        found = self.remote.pop((gateway, conn_id), None)
        if found is not None:
            self.detach(found.conn)

    def _evict(self, conn: Conn, told: str) -> None:
        """A gateway's connection put out (a private table's link renewed, table/actor.py): the
        gateway is told to drop it and tell its socket, as one process does (cluster/gateway.py)."""
        found = next((key for key, remote in self.remote.items() if remote.conn is conn), None)
        conn.evicted = True
        self.followers.remove(conn)
        if found is None:
            conn.send(told)
            return
        del self.remote[found]
        self.outlet.reply(found[0], Command(self.state.id, "", EVICTED + found[1], told.encode()))

    def list_in_lobby(self, force: bool = False) -> None:
        key = _lobby_key(self.state)
        if force or key != self._listed:
            self._listed = key
            self.outlet.lobby(self.state.id, lobby_record(self.state, self.summary()))

    def send_transient(self, user: Any, gateway: str, conn_id: str) -> Conn:
        """A connection that is not following the table (its gateway has not re-attached it
        after an owner change yet): its intents are answered, it is not online."""
        table_id = self.state.id

        def send(text: str) -> None:
            self.outlet.reply(gateway, Command(table_id, "", conn_id, text.encode()))

        return Conn(user, send)

    def _tell_update(self) -> None:
        """Every seat's text in one update: the gateways pick each connection's."""
        state = self.state
        seats: dict[int, int] = {}
        wanted: list[int | None] = [None]
        if state.table_game is not None:
            for seat in range(len(state.players)):
                slot = state.seat_slot(seat)
                if slot.kind != "bot" and slot.user_id is not None:
                    seats[slot.user_id] = seat
                    wanted.append(seat)
        texts = self.fanout.update_texts(state, self.clock.now(), wanted)
        body = table_update({("-" if seat is None else str(seat)): text for seat, text in texts.items()}, seats)
        self.outlet.publish(Update(state.id, state.version, body))
        self.list_in_lobby()

    def _tell_presence(self) -> None:
        online = self.followers.changed(self.state)
        if online is None:
            return
        self.outlet.publish(Update(self.state.id, self.state.version, presence_update(presence_text(online))))

    def _tell_chat(self, line: dict[str, Any], muted: frozenset[int] = frozenset()) -> None:
        """A chat line once for all gateways, with who holds a place: each gateway gives it to
        the followers of its room but those who muted its author (table.chat.audience)."""
        body = chat_update(dumps(line), str(line["room"]), players_of(self.state), muted)
        self.outlet.publish(Update(self.state.id, self.state.version, body))
