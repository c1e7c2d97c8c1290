"""The door of every route keyed by a table's id (issue #37, docs/protocol.md "Private tables").

A private table (table/privacy.py) is seen by its creator, the accounts that hold a place
at it, and whoever shows its invite secret: as the ``invite`` query parameter or the
``X-Invite`` header over HTTP, as ``invite`` in the WebSocket's ``join``.  Anyone else
gets exactly what a table that does not exist answers (``404 not_found``, ``no table
'…'``), and each such answer counts against the client address: past
``table_misses_per_address`` in ``table_miss_window_seconds`` the address's requests for
tables it cannot see are refused as ``rate_limited`` (429) — the same whether the table
exists or not, so guessing secrets (or ids) ends there.  Public tables are not limited.

The creator reads the invite link (``GET /api/tables/{id}/invite``) and renews it (``POST``:
a new secret; every older link stops at once): transport/apiinvite.py.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from freezeout.server.storage.users import UserRow
from freezeout.server.table.privacy import Privacy
from freezeout.server.table.state import Refused
from freezeout.server.transport.context import Context

__all__ = ["INVITE_HEADER", "INVITE_QUERY", "address_of", "gate", "invite_of", "no_table", "shown_secret"]

INVITE_QUERY, INVITE_HEADER = "invite", "x-invite"


def no_table(table_id: str) -> Refused:
    """The one answer for a table that does not exist, and for a private one the asker may not see."""
    return Refused("not_found", f"no table {table_id!r}")


async def gate(context: Context, table_id: str, user: UserRow | None, secret: str | None, address: str) -> Privacy:
    """Who may see ``table_id``, if the asker may; else :class:`Refused` (``not_found``, counted
    against ``address``; ``rate_limited`` once the address has missed too often)."""
    room = context.room
    user_id = user.id if user is not None else None
    key = f"ip:{address}"
    wait = room.misses.retry_after(key)
    if wait is not None:  # no database read for a limited address: what memory knows passes, nothing else
        known = room.known_privacy(table_id)
        if known is not None and known.by_account(user_id):
            return known
        raise Refused("rate_limited", f"too many requests for tables that do not exist from your address: "
                                      f"try again in {int(wait) + 1} s")
    privacy = await room.privacy_of(table_id)
    if privacy is not None and privacy.by_account(user_id):
        return privacy  # a public table, or one the account belongs to: no secret, no count
    if privacy is not None and privacy.admits(user_id, secret):
        return privacy
    room.misses.fail(key)
    raise no_table(table_id)


def shown_secret(request: HTTPConnection) -> str | None:
    """The invite secret a request shows: the ``invite`` query parameter, else the ``X-Invite`` header."""
    return request.query_params.get(INVITE_QUERY) or request.headers.get(INVITE_HEADER) or None


def address_of(request: HTTPConnection) -> str:
    return request.client.host if request.client else "?"


def invite_of(table_id: str, secret: str) -> dict[str, Any]:
    """What the creator is told of the link: the secret and the page's address of it."""
    return {"secret": secret, "path": f"/#/table/{table_id}?invite={secret}"}
