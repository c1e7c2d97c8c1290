"""The HTTP API's play chips (C9, docs/protocol.md "Play chips"): the asker's balance and
whether they may reload, their ledger a page at a time (each row with the balance after
it: the plot), their cash sessions, the daily reload, and a table's ledger as CSV.

Chips move only in storage/ledger.py; this module only asks it and says why it refused."""

from __future__ import annotations

import csv
import io
import re
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field

from freezeout.server.storage.ledger import LedgerError, client_transfer
from freezeout.server.storage.users import UserRow
from freezeout.server.transport.apicore import ApiError, Body, ctx, http_gate
from freezeout.server.transport.auth import Auth, AuthDep, PostAuth

__all__ = ["router"]

router = APIRouter(prefix="/api")

# A client's transfer id: the server files it under the account (``reload:<account>:<id>``),
# so no client can reach another account's transfer, nor a grant's.
_CLIENT_TRANSFER = re.compile(r"[A-Za-z0-9_-]{8,64}")


class ReloadRequest(Body):
    transfer: Annotated[str, Field(max_length=64)]


def _user(found: Auth) -> UserRow:
    if found.user is None:
        raise ApiError(401, "unauthorized", "log in or play as a guest first")
    return found.user


def _refused(error: LedgerError) -> ApiError:
    return ApiError(error.status, error.code, error.message)


@router.get("/me/balance")
async def my_balance(request: Request, found: AuthDep) -> dict[str, Any]:
    """The asker's play chips, and whether they may reload now (``can_reload``; if not,
    ``reload_refused`` says why and ``next_reload_at`` from when the daily limit allows it)."""
    user = _user(found)
    context = ctx(request)
    return await context.store.ledger.account(user.id, context.clock.now())


@router.get("/me/ledger")
async def my_ledger(request: Request, found: AuthDep, limit: int = 50, before: int | None = None) -> dict[str, Any]:
    """The asker's ledger rows, newest first, ``limit`` at a time (at most 200); ``next`` is the
    ``before`` of the next page (null on the last)."""
    user = _user(found)
    if before is not None and before <= 0:
        raise ApiError(400, "bad_message", f"before must be a positive row id, not {before}")
    size = max(1, min(limit, 200))
    rows = await ctx(request).store.ledger.history(user.id, size + 1, before)
    page = rows[:size]
    return {"rows": [row.public() for row in page], "next": page[-1].id if len(rows) > size else None}


@router.get("/me/sessions")
async def my_sessions(request: Request, found: AuthDep) -> dict[str, Any]:
    """The asker's cash sessions, newest first, each with its result (``net``) and its table's
    name for people (``label``, as the PokerStars export names the table; #31 item 9)."""
    from freezeout.server.table.exportnames import table_label

    sessions = await ctx(request).store.ledger.sessions(_user(found).id)
    return {"sessions": [{**session, "label": table_label(str(session["table"]))} for session in sessions]}


@router.post("/me/reload")
async def my_reload(request: Request, body: ReloadRequest, found: PostAuth) -> dict[str, Any]:
    """The daily reload (C9), idempotent by the client's ``transfer`` id: a retry answers the
    first result (``replayed: true``) and moves nothing."""
    user = _user(found)
    if not _CLIENT_TRANSFER.fullmatch(body.transfer):
        raise ApiError(400, "bad_message", "transfer must be 8-64 letters, digits, _ or -")
    context = ctx(request)
    try:
        moved = await context.store.ledger.reload(user.id, client_transfer("reload", user.id, body.transfer), context.clock.now())
    except LedgerError as error:
        raise _refused(error) from None
    return {"balance": moved.balance, "row": moved.public(), "replayed": moved.replayed}


@router.get("/tables/{table_id}/ledger.csv")
async def table_ledger(request: Request, table_id: str, found: AuthDep) -> Response:
    """A table's chips per player as CSV: bought in, topped up, cashed out, net (the house's
    line holds the table's rake); a private table's only for those who may see it."""
    await http_gate(request, table_id, found.user)
    sheet = await ctx(request).store.ledger.table_sheet(table_id)
    if sheet is None:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["player", "bought_in", "topped_up", "cashed_out", "rake", "net"])
    for line in sheet:
        writer.writerow([_cell(line["player"]), line["bought_in"], line["topped_up"], line["cashed_out"], line["rake"],
                         line["net"]])
    headers = {"Content-Disposition": f'attachment; filename="{table_id}.ledger.csv"'}
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers=headers)


def _cell(text: str) -> str:
    """A name made safe for a spreadsheet: one starting like a formula is quoted with ``'``."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
