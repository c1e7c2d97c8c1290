"""What every HTTP route under ``/api`` shares (docs/protocol.md): the error it raises,
the request's :class:`Context`, the table gate, and the strict body model.

A module of its own so that the routers (api.py, apiaccounts.py, apichat.py …) and the
authentication (auth.py) all stand on it without importing one another.
"""

from __future__ import annotations

from fastapi import Request
from pydantic import BaseModel, ConfigDict

from freezeout.server.storage.store import UserRow
from freezeout.server.table.state import Refused
from freezeout.server.transport.context import Context
from freezeout.server.transport.tablegate import address_of, gate, shown_secret

__all__ = ["ApiError", "Body", "ctx", "http_gate", "refused"]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


_STATUS = {"not_found": 404, "forbidden": 403, "not_seated": 403, "bad_message": 400, "storage": 503, "busy": 503,
           "rate_limited": 429}


def refused(error: Refused) -> ApiError:
    headers = {"Retry-After": "60"} if error.code == "rate_limited" else None
    return ApiError(_STATUS.get(error.code, 409), error.code, error.message, headers)


def ctx(request: Request) -> Context:
    context: Context = request.app.state.ctx
    return context


async def http_gate(request: Request, table_id: str, user: UserRow | None) -> None:
    """A route keyed by a table's id: the asker may see the table (transport/tablegate.py), else
    what a table that does not exist answers (or ``rate_limited``)."""
    try:
        await gate(ctx(request), table_id, user, shown_secret(request), address_of(request))
    except Refused as error:
        raise refused(error) from None


class Body(BaseModel):
    """Every HTTP request body: strict as the WebSocket's messages (protocol.py), so a
    number is a JSON number of its kind (``"5000"``, ``5000.0``, ``true`` are no chips), a
    flag is ``true`` or ``false``, a name a string; unknown fields are refused.  Anything
    else is ``400 bad_message`` naming the field, and nothing changes (#32-4)."""

    model_config = ConfigDict(extra="forbid", strict=True)
