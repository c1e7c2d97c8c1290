"""What gateways and table owners say to each other over the bus (cluster/bus.py), in one place.

A gateway holds connections and no game state; the worker that owns a table
holds the table.  Between them travel:

- **to the owner** (its inbox, ``Commands``), per table: ``attach`` /
  ``detach`` a connection, a connection's ``intent``, an HTTP ``request``
  (sit, stand, the summary) that wants an answer, and ``refresh``: every
  connection the gateway has following the table, with the version each has
  seen (a new owner learns its followers from it, a lost update is caught up
  by it, and a gateway that stops refreshing is dead: its connections go).
- **to a gateway** (its inbox): a text for one connection (a snapshot, a
  catch-up, an error), the answer to a request, or ``moved`` (this worker
  does not own the table: route again).
- **to every follower** (``Updates``, per table): a change with each seat's
  text (the gateway picks each connection's by its account: hidden cards
  stay with their owner), who is online, or ``owner`` (a new owner: refresh
  now rather than at the next period).

Every body is JSON (orjson).  A connection is named by the gateway
(``reply_to``); accounts travel as the fields the table needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from freezeout.server.storage.store import UserRow
from freezeout.server.transport.protocol import INTENT, Intent
from freezeout.server.wire import Fragment

__all__ = [
    "EVICTED", "MOVED", "REQUEST_PREFIX", "AddBot", "Alive", "Answer", "AttachConn", "ChatText", "DetachConn", "ForConn", "Host", "OwnerChanged",
    "PresenceText",
    "Refresh", "Request", "TableTexts", "ToOwner", "Versioned", "decode_answer", "decode_command", "decode_update",
    "encode_answer", "encode_command", "owner_update", "presence_update", "table_update", "user_from_json", "user_json",
    "versioned",
]

REQUEST_PREFIX = "req:"  # reply_to of an answer to a request (not a connection)
MOVED = "moved"  # reply_to of "this worker does not own the table"
EVICTED = "evicted:"  # reply_to of "this connection follows the table no more" (a private table's link renewed)

_HEAD = re.compile(rb'^\{"type":"(snapshot|update)","version":(\d+)(?:,"since":(\d+))?')


# -- to the owner: one type per command, one serializer each --------------------------------
def _intent_json(intent: Intent) -> Fragment:
    """The intent as the client's JSON, written by its model at once (no dict in between)."""
    return Fragment(intent.model_dump_json())


@dataclass(frozen=True, slots=True)
class AttachConn:
    """Connection ``conn`` of the gateway follows the table from version ``since`` (None: a snapshot)."""

    conn: str
    user: UserRow | None
    since: int | None

    def to_json(self) -> dict[str, Any]:
        return {"op": "attach", "conn": self.conn, "user": user_json(self.user), "since": self.since}


@dataclass(frozen=True, slots=True)
class DetachConn:
    conn: str

    def to_json(self) -> dict[str, Any]:
        return {"op": "detach", "conn": self.conn}


@dataclass(frozen=True, slots=True)
class ForConn:
    """A connection's intent (its answer goes to that connection)."""

    conn: str
    user: UserRow | None
    intent: Intent

    def to_json(self) -> dict[str, Any]:
        return {"op": "intent", "conn": self.conn, "user": user_json(self.user), "msg": _intent_json(self.intent)}


@dataclass(frozen=True, slots=True)
class Request:
    """An HTTP request that waits for the answer ``req``: an intent, or (None) the table's summary."""

    req: str
    user: UserRow | None
    intent: Intent | None

    def to_json(self) -> dict[str, Any]:
        msg = _intent_json(self.intent) if self.intent is not None else {"type": "summary"}
        return {"op": "request", "req": self.req, "user": user_json(self.user), "msg": msg}


@dataclass(frozen=True, slots=True)
class AddBot:
    """A cash table's "add a bot" (table/room.py ``seat_cash_bot``) asked through a gateway:
    answered as a :class:`Request` is, with the table's summary or the refusal."""

    req: str
    user: UserRow | None
    level: str

    def to_json(self) -> dict[str, Any]:
        return {"op": "add_bot", "req": self.req, "user": user_json(self.user), "level": self.level}


@dataclass(frozen=True, slots=True)
class Host:
    """A private table's creator's request (table/hosting.py ``run``: ``name`` and its ``args``,
    an account held a place for as ``guest``) asked through a gateway: answered as a
    :class:`Request` is, with what the creator is shown."""

    req: str
    user: UserRow | None
    name: str
    args: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        args = {key: value for key, value in self.args.items() if key != "guest"}
        guest = self.args.get("guest")
        return {"op": "host", "req": self.req, "user": user_json(self.user), "name": self.name, "args": args,
                "guest": user_json(guest) if isinstance(guest, UserRow) else None}


@dataclass(frozen=True, slots=True)
class Refresh:
    """Every connection of the gateway following the table: (its name, account, version seen)."""

    conns: tuple[tuple[str, UserRow | None, int | None], ...]

    def to_json(self) -> dict[str, Any]:
        return {"op": "refresh", "conns": [[conn, user_json(user), since] for conn, user, since in self.conns]}


@dataclass(frozen=True, slots=True)
class Alive:
    """The gateway is alive: its connections at every table of this worker are still there."""

    def to_json(self) -> dict[str, Any]:
        return {"op": "alive"}


ToOwner = AttachConn | DetachConn | ForConn | Request | AddBot | Host | Refresh | Alive


def encode_command(command: ToOwner) -> bytes:
    return orjson.dumps(command.to_json())


def _since(value: object) -> int | None:
    return value if isinstance(value, int) else None


def decode_command(body: bytes) -> ToOwner:
    """A gateway's command; ValueError (or a pydantic ValidationError, a ValueError too) when malformed."""
    data = decode(body)
    op = data.get("op")
    if op == "intent":
        return ForConn(str(data["conn"]), user_from_json(data.get("user")), INTENT.validate_python(data["msg"]))
    if op == "attach":
        return AttachConn(str(data["conn"]), user_from_json(data.get("user")), _since(data.get("since")))
    if op == "detach":
        return DetachConn(str(data["conn"]))
    if op == "request":
        msg = data["msg"]
        intent = None if isinstance(msg, dict) and msg.get("type") == "summary" else INTENT.validate_python(msg)
        return Request(str(data["req"]), user_from_json(data.get("user")), intent)
    if op == "add_bot":
        return AddBot(str(data["req"]), user_from_json(data.get("user")), str(data["level"]))
    if op == "host":
        guest = user_from_json(data.get("guest"))
        return Host(str(data["req"]), user_from_json(data.get("user")), str(data["name"]),
                    {**dict(data.get("args") or {}), **({"guest": guest} if guest is not None else {})})
    if op == "refresh":
        return Refresh(tuple((str(conn), user_from_json(user), _since(since)) for conn, user, since in data["conns"]))
    if op == "alive":
        return Alive()
    raise ValueError(f"unknown command {op!r}")


# -- to a gateway: a request's answer ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a :class:`Request`: the table's summary, or the refusal (code, message)."""

    summary: dict[str, Any] | None = None
    error: tuple[str, str] | None = None


def encode_answer(answer: Answer) -> bytes:
    return orjson.dumps({"error": list(answer.error)} if answer.error is not None else {"ok": answer.summary})


def decode_answer(body: bytes) -> Answer:
    data = decode(body)
    if "error" in data:
        code, message = data["error"]
        return Answer(error=(str(code), str(message)))
    return Answer(summary=dict(data["ok"]))


# -- to every follower of a table -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableTexts:
    """A change: ``texts`` by seat (``"-"``: everyone without a seat), ``seats`` the seat of each
    seated account (by its id as text)."""

    texts: dict[str, str]
    seats: dict[str, int]


@dataclass(frozen=True, slots=True)
class PresenceText:
    text: str


@dataclass(frozen=True, slots=True)
class ChatText:
    """A chat line (table/chat.py) for the followers of ``room``: ``players`` are the accounts
    holding a place, who read the players' room and not the spectators'."""

    text: str
    room: str
    players: frozenset[int]
    muted: frozenset[int] = frozenset()  # the accounts that muted the line's author: not sent it


@dataclass(frozen=True, slots=True)
class OwnerChanged:
    worker: str
    epoch: int


TableNews = TableTexts | PresenceText | ChatText | OwnerChanged


def table_update(texts: dict[str, str], seats: dict[int, int]) -> bytes:
    """An update: ``texts`` by seat (``"-"``: everyone without a seat), ``seats`` the seat of each
    seated account."""
    return orjson.dumps({"k": "update", "texts": texts, "seats": {str(u): s for u, s in seats.items()}})


def presence_update(text: str) -> bytes:
    return orjson.dumps({"k": "presence", "text": text})


def chat_update(text: str, room: str, players: frozenset[int], muted: frozenset[int] = frozenset()) -> bytes:
    return orjson.dumps({"k": "chat", "text": text, "room": room, "players": sorted(players), "muted": sorted(muted)})


def owner_update(worker: str, epoch: int) -> bytes:
    return orjson.dumps({"k": "owner", "worker": worker, "epoch": epoch})


def decode_update(body: bytes) -> TableNews | None:
    """A table's news; None for a kind this gateway does not know."""
    data = decode(body)
    kind = data.get("k")
    if kind == "update":
        return TableTexts(data["texts"], data["seats"])
    if kind == "presence":
        return PresenceText(str(data["text"]))
    if kind == "chat":
        return ChatText(str(data["text"]), str(data["room"]), frozenset(int(u) for u in data["players"]),
                        frozenset(int(u) for u in data.get("muted", ())))
    if kind == "owner":
        return OwnerChanged(str(data.get("worker")), int(data.get("epoch") or 0))
    return None


def decode(body: bytes) -> dict[str, Any]:
    value = orjson.loads(body)
    if not isinstance(value, dict):
        raise ValueError("a bus message is a JSON object")
    return value


def user_json(user: UserRow | None) -> dict[str, Any] | None:
    """What a table needs of an account (never its password hash)."""
    if user is None:
        return None
    return {"id": user.id, "name": user.name, "kind": user.kind, "rating": user.rating, "games": user.ranked_games,
            "display": user.display}


def user_from_json(data: dict[str, Any] | None) -> UserRow | None:
    if data is None:
        return None
    display = data.get("display")
    return UserRow(int(data["id"]), str(data["name"]), str(data["kind"]), None, float(data["rating"]), int(data["games"]),
                   str(display) if display is not None else None)


@dataclass(frozen=True, slots=True)
class Versioned:
    """A snapshot or catch-up sent to one connection: it brings the connection to ``version``;
    a catch-up carries what it was computed from (``since``: its events are those after it)."""

    kind: str
    version: int
    since: int | None


def versioned(text: bytes) -> Versioned | None:
    """The kind, version and ``since`` of a snapshot or catch-up text (TableActor writes
    ``type``, ``version`` and a catch-up's ``since`` first); None for anything else."""
    found = _HEAD.match(text)
    if found is None:
        return None
    since = found.group(3)
    return Versioned(found.group(1).decode(), int(found.group(2)), int(since) if since is not None else None)
