"""The small messages a table sends one connection: a refusal, an applied intent, who is online.

One serializer each (docs/protocol.md); the table's updates and snapshots are
its fan-out's (table/fanout.py).
"""

from __future__ import annotations

from typing import Any

from freezeout.server.wire import dumps

__all__ = ["applied_text", "error_text", "guests_text", "presence_text"]


def error_text(code: str, message: str, ref: str | int | None = None, version: int | None = None) -> str:
    """``error``: the intent (or frame) ``ref`` was refused and nothing changed."""
    return dumps({"type": "error", "code": code, "message": message, "ref": ref, "version": version})


def applied_text(key: str, version: int, ref: str | int | None) -> str:
    """``applied``: a keyed intent is applied (now, or by an earlier copy of it)."""
    return dumps({"type": "applied", "key": key, "version": version, "ref": ref})


def presence_text(online: list[bool]) -> str:
    return dumps({"type": "presence", "online": online})


def guests_text(guests: dict[str, Any]) -> str:
    """``guests``: a private table's held places and seat requests, told to its creator (issue #37)."""
    return dumps({"type": "guests", **guests})
