"""The HTTP API of table chat and notes on players (issue #37, docs/protocol.md "Chat" and
"Notes"): a table's chat as the asker may read it (for a page that joins late and for the
replay), the asker's mutes, reports of a line, and the asker's private notes on players.

Lines are written over the WebSocket (``{"type": "chat"}``, table/chat.py); everything
else is here, each checked by account: a note is only ever read by its author, and a
mute changes only what its author is shown.  The text checks are chattext.py's, the
limits (a report flood, reporting twice, oneself) storage/chat.py's; a refusal changes
nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field, StrictInt

from freezeout.server.chattext import LABELS, ChatRefused, clean_label, clean_note
from freezeout.server.storage.users import UserRow
from freezeout.server.transport.apicore import ApiError, Body, ctx, http_gate
from freezeout.server.transport.auth import Auth, AuthDep, PostAuth

__all__ = ["router"]

router = APIRouter(prefix="/api")

AccountId = Annotated[int, Field(ge=1, le=2**31 - 1)]


class ReportRequest(Body):
    message: Annotated[StrictInt, Field(ge=1, le=2**62)]


class NoteRequest(Body):
    text: Annotated[str, Field(max_length=4000)] = ""
    label: Annotated[str, Field(max_length=16)] | None = None


def _user(found: Auth) -> UserRow:
    if found.user is None:
        raise ApiError(401, "unauthorized", "log in or play as a guest first")
    return found.user


def _refused(error: ChatRefused) -> ApiError:
    return ApiError(error.status, error.code, error.message)


@router.get("/tables/{table_id}/chat")
async def table_chat(request: Request, table_id: str, found: AuthDep) -> dict[str, Any]:
    """The table's lines the asker may read, oldest first: the players' room to an account that
    holds or held a place at the table, else the spectators' room; system lines to all.  Lines
    of accounts the asker muted are left out."""
    context = ctx(request)
    user = found.user
    if len(table_id) > 64:
        raise ApiError(404, "not_found", f"no table {table_id!r}")
    # as every route keyed by a table's id: an unknown table, or a private one without its link, is
    # "no table" (transport/tablegate.py, #37)
    await http_gate(request, table_id, user)
    chat = context.store.chat
    player = user is not None and await chat.sat_at(table_id, user.id)
    room = "players" if player else "spectators"
    hide = set(await chat.mutes(user.id)) if user is not None else set()
    return {"room": room, "lines": await chat.history(table_id, (room, "system"), hide=hide)}


@router.get("/accounts/ids")
async def account_ids(request: Request, name: Annotated[list[str], Query(max_length=10)]) -> dict[str, Any]:
    """The account ids of the names a page shows (a display name too, as a profile link finds
    it; null: nobody): how the replayer finds the asker's notes by its seats' names."""
    accounts = ctx(request).store.accounts
    ids: dict[str, int | None] = {}
    for shown in name:
        found = await accounts.by_any_name(shown[:64])
        ids[shown] = found.id if found is not None else None
    return {"ids": ids}


@router.get("/chat/mutes")
async def my_mutes(request: Request, found: AuthDep) -> dict[str, Any]:
    """The accounts the asker muted (their lines are not shown to the asker)."""
    return {"muted": await ctx(request).store.chat.mutes(_user(found).id)}


@router.put("/chat/mutes/{account}")
async def mute(request: Request, account: AccountId, found: PostAuth) -> dict[str, Any]:
    context = ctx(request)
    user = _user(found)
    try:
        await context.store.chat.mute(user.id, account, context.clock.now())
    except ChatRefused as error:
        raise _refused(error) from None
    return {"muted": await context.store.chat.mutes(user.id)}


@router.delete("/chat/mutes/{account}")
async def unmute(request: Request, account: AccountId, found: PostAuth) -> dict[str, Any]:
    context = ctx(request)
    user = _user(found)
    await context.store.chat.unmute(user.id, account)
    return {"muted": await context.store.chat.mutes(user.id)}


@router.post("/chat/reports")
async def report(request: Request, body: ReportRequest, found: PostAuth) -> dict[str, Any]:
    """Report a line to the moderators (``freezeout moderation list``)."""
    context = ctx(request)
    try:
        await context.store.chat.report(_user(found).id, body.message, context.clock.now())
    except ChatRefused as error:
        raise _refused(error) from None
    return {"reported": body.message}


@router.get("/notes")
async def my_notes(request: Request, found: AuthDep) -> dict[str, Any]:
    """Every note the asker keeps, by the noted account's id, and the labels' palette."""
    notes = await ctx(request).store.chat.notes(_user(found).id)
    return {"notes": {str(k): v for k, v in notes.items()}, "labels": list(LABELS)}


@router.get("/notes/{account}")
async def my_note(request: Request, account: AccountId, found: AuthDep) -> dict[str, Any]:
    notes = await ctx(request).store.chat.notes(_user(found).id, account)
    return {"account": account, "note": notes.get(account)}


@router.put("/notes/{account}")
async def put_note(request: Request, account: AccountId, body: NoteRequest, found: PostAuth) -> dict[str, Any]:
    """Keep (or replace) the asker's note and label on ``account``."""
    context = ctx(request)
    user = _user(found)
    try:
        note = await context.store.chat.put_note(user.id, account, clean_note(body.text), clean_label(body.label),
                                                 context.clock.now())
    except ChatRefused as error:
        raise _refused(error) from None
    return {"account": account, "note": note}


@router.delete("/notes/{account}")
async def delete_note(request: Request, account: AccountId, found: PostAuth) -> dict[str, Any]:
    deleted = await ctx(request).store.chat.delete_note(_user(found).id, account)
    return {"account": account, "deleted": deleted}
