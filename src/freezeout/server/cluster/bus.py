"""How gateways and table owners talk, as three small interfaces.

- :class:`Commands`: a client's intent, taken by whichever gateway holds the
  client's connection, goes to the inbox of the worker that owns the table.
- :class:`Updates`: what a table's owner tells after committing an entry,
  published per table; every gateway with a connection following the table
  receives it and fans it out.
- :class:`Lobby`: each open table's summary as its owner last wrote it, for
  the lobby's list on every gateway; each change is also published on the
  ``LOBBY`` channel (:func:`tell_lobby`), so that gateways push it to the
  connections watching the lobby at once.

There is no presence of accounts across gateways: R26's offline rule asks
whether the player has a connection following *this* table, and the table's
owner knows that from every gateway (each tells it who follows the table,
cluster/gateway.py), so an account's connections elsewhere must not and need not
count.

Delivery is at most once on purpose.  An intent that is lost was never
answered: the client resends it with the same ``key`` and ``version``, and the
table's owner applies a key at most once (table/idempotency.py; docs/protocol.md
"Resending"): a resend of an applied intent is answered ``applied`` again and
changes nothing, one lost before it was applied, overtaken only by a
``resume``, is judged now, and ``stale`` means it was not applied (an intent
without a key is judged strictly at its version).  An update that is lost is
noticed by its gap in versions and the gateway catches up from the owner or
the log, as a reconnecting client does today.  PostgreSQL holds the truth,
so the bus never needs to be durable.

``make run`` is one process without Redis: it uses the in-memory classes
here.  cluster/redisbus.py implements the same interfaces on Redis for a cluster.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = [
    "CLAIMS",
    "LOBBY",
    "Bus",
    "BusUnavailable",
    "Command",
    "Commands",
    "Deliver",
    "Lobby",
    "LocalCommands",
    "LocalLobby",
    "LocalUpdates",
    "Update",
    "Updates",
    "decode_lobby_change",
    "tell_lobby",
]


class BusUnavailable(Exception):
    """The bus could not take a message (Redis is down past the retries): the caller refuses
    the client's intent as busy instead of pretending it was sent."""


@dataclass(frozen=True, slots=True)
class Command:
    """An intent for ``table_id`` from a connection of gateway ``gateway``: ``body`` is the
    client's message as JSON, ``reply_to`` names the connection for the owner's answer."""

    table_id: str
    gateway: str
    reply_to: str
    body: bytes


@dataclass(frozen=True, slots=True)
class Update:
    """What a table's owner tells after committing entry ``version``: ``body`` is the
    serialised message for the gateways (their fan-out picks each seat's part)."""

    table_id: str
    version: int
    body: bytes


Deliver = Callable[[Update], None]  # must not block: a gateway queues the update for its connections


class Commands(Protocol):
    async def send(self, worker: str, command: Command) -> None:
        """Put ``command`` in ``worker``'s inbox; :class:`BusUnavailable` if that cannot be done."""
        ...

    def inbox(self, worker: str) -> AsyncIterator[Command]:
        """``worker``'s commands in the order sent, for ever (it outlives a bus outage)."""
        ...


class Updates(Protocol):
    async def publish(self, update: Update) -> None:
        """Tell every follower of the table; :class:`BusUnavailable` if that cannot be done."""
        ...

    async def publish_many(self, updates: list[Update]) -> None:
        """:meth:`publish` each of ``updates``, in order, in one exchange with the bus where it
        can (a busy worker's updates of one moment); :class:`BusUnavailable` if that cannot be
        done (then any of them may be lost: followers catch up by version)."""
        ...

    async def follow(self, table_id: str, deliver: Deliver, *, timeout: float = 10.0) -> None:
        """Call ``deliver`` with every update of ``table_id`` published after this returns;
        :class:`BusUnavailable` after ``timeout`` seconds without the bus (``deliver`` stays
        registered and gets the updates once the bus is back)."""
        ...

    async def unfollow(self, table_id: str, deliver: Deliver) -> None: ...


class LocalCommands:
    """One process: an asyncio queue per worker name."""

    def __init__(self) -> None:
        self._queues: defaultdict[str, asyncio.Queue[Command]] = defaultdict(asyncio.Queue)

    async def send(self, worker: str, command: Command) -> None:
        self._queues[worker].put_nowait(command)

    async def inbox(self, worker: str) -> AsyncIterator[Command]:
        queue = self._queues[worker]
        while True:
            yield await queue.get()


class LocalUpdates:
    """One process: followers are called directly."""

    def __init__(self) -> None:
        self._followers: defaultdict[str, list[Deliver]] = defaultdict(list)

    async def publish(self, update: Update) -> None:
        for deliver in list(self._followers.get(update.table_id, ())):
            deliver(update)

    async def publish_many(self, updates: list[Update]) -> None:
        for update in updates:
            await self.publish(update)

    async def follow(self, table_id: str, deliver: Deliver, *, timeout: float = 10.0) -> None:
        self._followers[table_id].append(deliver)

    async def unfollow(self, table_id: str, deliver: Deliver) -> None:
        followers = self._followers.get(table_id)
        if followers is not None and deliver in followers:
            followers.remove(deliver)
            if not followers:
                del self._followers[table_id]


class Lobby(Protocol):
    async def put(self, table_id: str, record: bytes) -> None:
        """Store the table's lobby record (its summary and who opened it, as JSON)."""
        ...

    async def remove(self, table_id: str) -> None: ...

    async def records(self) -> dict[str, bytes]:
        """Every open table's record; :class:`BusUnavailable` when the bus cannot say."""
        ...


class LocalLobby:
    """One process: a dict."""

    def __init__(self) -> None:
        self._records: dict[str, bytes] = {}

    async def put(self, table_id: str, record: bytes) -> None:
        self._records[table_id] = record

    async def remove(self, table_id: str) -> None:
        self._records.pop(table_id, None)

    async def records(self) -> dict[str, bytes]:
        return dict(self._records)


# The channel (an Updates "table") on which a gateway that opened a table tells the workers
# to look for tables to take now rather than at their next period.  Table ids start with "t".
CLAIMS = "_claims"
# The channel on which every lobby record written is published too (its table's id, a space,
# the record; nothing after the space: the table left the lobby).  Gateways follow it.
LOBBY = "_lobby"


@dataclass
class Bus:
    """The three parts of the bus together; ``start`` before use, ``close`` after."""

    commands: Commands = field(default_factory=LocalCommands)
    updates: Updates = field(default_factory=LocalUpdates)
    lobby: Lobby = field(default_factory=LocalLobby)

    async def start(self) -> None:
        """Nothing to start in one process (RedisBus starts its subscriber)."""

    async def reachable(self) -> bool:
        """The bus can carry messages now (``/readyz`` says not ready while it cannot); in one
        process it always can."""
        return True

    async def close(self) -> None:
        """Nothing to close in one process."""


async def tell_lobby(bus: Bus, table_id: str, record: bytes | None) -> None:
    """Write (``None``: remove) the table's lobby record, then publish the change on ``LOBBY``;
    :class:`BusUnavailable` if either could not be done (the record is written again by its
    owner every few seconds, and gateways re-read the whole lobby now and then)."""
    if record is None:
        await bus.lobby.remove(table_id)
    else:
        await bus.lobby.put(table_id, record)
    await bus.updates.publish(Update(LOBBY, 0, table_id.encode() + b" " + (record or b"")))


def decode_lobby_change(update: Update) -> tuple[str, bytes | None]:
    """A ``LOBBY`` message as (table id, its record or None)."""
    table_id, _, record = update.body.partition(b" ")
    return table_id.decode(), record or None
