"""What the transport holds of a table: a :class:`TableHandle`, whoever drives the table.

In one process the handle is the table's actor (table/actor.py); on a gateway of a
cluster it is the way to the table's owner (gateway.RemoteTable).  The
WebSocket endpoint and the HTTP API talk to this one interface and never know
which: a connection follows a table (``attach`` / ``detach``), hands it typed
intents (``intent``), and an HTTP request waits for the table's answer
(``request``).  A connection is a :class:`Conn`: the account and a ``send``
that never blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from freezeout.server.storage.store import UserRow
from freezeout.server.table.commands import Intent

__all__ = ["Conn", "TableHandle"]


@dataclass(eq=False)
class Conn:
    """One client connection following a table; ``send`` must not block.  ``pending``
    counts its commands waiting in the table's queue (bounded: ``conn_queue_limit``)."""

    user: UserRow | None
    send: Callable[[str], None]
    pending: int = 0
    evicted: bool = False  # a private table's link it came in by was revoked (table/actor.py): it follows no more


class TableHandle(Protocol):
    """A table as transport/ws.py and transport/api.py see it (TableActor, gateway.RemoteTable)."""

    def attach(self, conn: Conn, since: int | None = None) -> None:
        """Follow the table: a snapshot (or the catch-up after version ``since``), then every update."""
        ...

    def detach(self, conn: Conn) -> None: ...

    def intent(self, user: UserRow | None, intent: Intent, conn: Conn | None = None) -> None:
        """Hand the table a client's intent; the answer (an ``error``, an ``applied``) goes to ``conn``."""
        ...

    async def request(self, user: UserRow | None, intent: Intent) -> dict[str, Any]:
        """An intent from HTTP: the table's summary once applied, or :class:`~table.state.Refused`."""
        ...

    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it (as last known, for a remote table)."""
        ...
