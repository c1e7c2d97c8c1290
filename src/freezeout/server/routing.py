"""What gateways and table owners say to each other over the bus (bus.py), in one place.

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

from freezeout.server.store import UserRow

__all__ = [
    "REQUEST_PREFIX", "Versioned", "decode", "encode", "table_update", "user_from_json", "user_json", "versioned",
]

REQUEST_PREFIX = "req:"  # reply_to of an answer to a request (not a connection)
MOVED = "moved"  # reply_to of "this worker does not own the table"

_HEAD = re.compile(rb'^\{"type":"(snapshot|update)","version":(\d+)(?:,"since":(\d+))?')


def encode(body: dict[str, Any]) -> bytes:
    return orjson.dumps(body)


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


def table_update(texts: dict[str, str], seats: dict[int, int]) -> bytes:
    """An update: ``texts`` by seat (``"-"``: everyone without a seat), ``seats`` the seat of
    each seated account."""
    return orjson.dumps({"k": "update", "texts": texts, "seats": {str(u): s for u, s in seats.items()}})
