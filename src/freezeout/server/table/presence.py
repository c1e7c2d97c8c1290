"""Who follows a table, and so who is online at it (R26: a player with no connection here is offline).

One job: the table's connections and the presence they make.  A seat is
online when a bot holds it or a connection of its account follows the table
(on any gateway of a cluster: each tells the owner who follows, cluster/workertable.py).
Presence is told only when it changed: a spectator coming or going changes
nothing, and telling every follower of every join would let N followers
re-joining at their message rate cost N² messages.
"""

from __future__ import annotations

from freezeout.server.table.handle import Conn
from freezeout.server.table.state import TableState

__all__ = ["Followers"]


class Followers:
    def __init__(self) -> None:
        self.conns: list[Conn] = []
        self._told: list[bool] = []  # the presence as last told

    def add(self, conn: Conn) -> None:
        self.conns.append(conn)

    def remove(self, conn: Conn) -> bool:
        """Forget ``conn``; False if it was not following."""
        if conn not in self.conns:
            return False
        self.conns.remove(conn)
        return True

    def _connected(self, user_id: int | None) -> bool:
        return any(c.user is not None and c.user.id == user_id for c in self.conns)

    def online(self, state: TableState, seat: int) -> bool:
        slot = state.seat_slot(seat)
        return slot.kind == "bot" or self._connected(slot.user_id)

    def presence(self, state: TableState) -> list[bool]:
        if state.table_game is not None:
            return [self.online(state, seat) for seat in range(len(state.players))]
        return [s.kind == "bot" or (s.taken and self._connected(s.user_id)) for s in state.slots]

    def changed(self, state: TableState) -> list[bool] | None:
        """The presence if it changed since last told (and remember it as told), else None."""
        online = self.presence(state)
        if online == self._told:
            return None
        self._told = online
        return online

    def seat_of(self, state: TableState, conn: Conn) -> int | None:
        return state.seat_of_user(conn.user.id) if conn.user is not None and state.table_game else None
