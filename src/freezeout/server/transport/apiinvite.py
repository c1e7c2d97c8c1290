"""A private table's creator at work (issue #37, docs/protocol.md "Private tables"): the invite
link read and renewed, places held for named accounts, seat requests approved or refused, a
player removed before a freezeout starts (table/hosting.py); and a finished game of a private
table shown as its table is."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from freezeout.server.storage.users import UserRow
from freezeout.server.table.state import Refused
from freezeout.server.transport.apicore import ApiError, Body, ctx, http_gate, refused
from freezeout.server.transport.auth import AuthDep, PostAuth
from freezeout.server.transport.tablegate import address_of, gate, invite_of, shown_secret

__all__ = ["game_gate", "router"]

router = APIRouter(prefix="/api")


async def _creators(request: Request, table_id: str, user: UserRow | None) -> str:
    """The table's invite secret, for its creator: anyone else who may see the table is refused."""
    await http_gate(request, table_id, user)
    privacy = await ctx(request).room.privacy_of(table_id)
    if user is None or privacy is None or privacy.created_by != user.id:
        raise ApiError(403, "forbidden", "only the table's creator shares and renews its invite link")
    if privacy.invite is None:
        raise ApiError(409, "illegal", "a public table has no invite link: anyone may join it from the lobby")
    return privacy.invite


class Reserve(Body):
    name: Annotated[str, Field(min_length=1, max_length=64)]  # the account's name (any it went by)
    slot: Annotated[int, Field(ge=0, le=9)] | None = None
    seconds: Annotated[float, Field(gt=0, le=3600, allow_inf_nan=False)] | None = None  # default 300


class Place(Body):
    slot: Annotated[int, Field(ge=0, le=9)]


class Approval(Body):
    on: bool


class Answer(Body):
    user_id: Annotated[int, Field(ge=1)]
    approve: bool


@router.get("/tables/{table_id}/invite")
async def get_invite(request: Request, table_id: str, found: AuthDep) -> dict[str, Any]:
    """A private table's invite link, held places and seat requests, for its creator."""
    secret = await _creators(request, table_id, found.user)
    assert found.user is not None
    try:  # the table's owner tells them: this process, or a cluster's worker (cluster/gateway.py)
        shown = await ctx(request).room.host(table_id, found.user, "guests", {})
    except Refused as error:
        if error.code != "not_found":
            raise refused(error) from None
        shown = {"guests": None}  # a table retired from memory: nobody sits or waits there
    return {"invite": invite_of(table_id, secret), **shown}


async def _host(request: Request, table_id: str, user: UserRow | None, op: str, **args: Any) -> dict[str, Any]:
    await _creators(request, table_id, user)
    assert user is not None
    try:
        return await ctx(request).room.host(table_id, user, op, args)
    except Refused as error:
        raise refused(error) from None


@router.post("/tables/{table_id}/invite")
async def renew_invite(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    """A new invite secret for the creator's private table: every older link stops at once."""
    done = await _host(request, table_id, found.user, "renew")
    return {"invite": invite_of(table_id, done.pop("secret")), **done}


@router.post("/tables/{table_id}/reserve")
async def reserve(request: Request, table_id: str, body: Reserve, found: PostAuth) -> dict[str, Any]:
    """Hold a place for the account ``name`` (``seconds``, 300 by default): nobody else takes it
    meanwhile, and that account sees the table without the link."""
    await _creators(request, table_id, found.user)
    guest = await ctx(request).store.accounts.by_any_name(body.name)
    if guest is None:
        raise ApiError(404, "not_found", f"no player {body.name!r}")
    return await _host(request, table_id, found.user, "reserve", guest=guest, slot=body.slot, seconds=body.seconds)


@router.post("/tables/{table_id}/unreserve")
async def unreserve(request: Request, table_id: str, body: Place, found: PostAuth) -> dict[str, Any]:
    return await _host(request, table_id, found.user, "unreserve", slot=body.slot)


@router.post("/tables/{table_id}/approval")
async def approval(request: Request, table_id: str, body: Approval, found: PostAuth) -> dict[str, Any]:
    """Approve each seat from now on (``on``), or let anyone with the link sit."""
    return await _host(request, table_id, found.user, "approval", on=body.on)


@router.post("/tables/{table_id}/requests")
async def answer(request: Request, table_id: str, body: Answer, found: PostAuth) -> dict[str, Any]:
    """Approve or refuse the seat request of the account ``user_id``."""
    return await _host(request, table_id, found.user, "answer", user_id=body.user_id, approve=body.approve)


@router.post("/tables/{table_id}/remove")
async def remove(request: Request, table_id: str, body: Place, found: PostAuth) -> dict[str, Any]:
    """Take a player off a place before the freezeout starts."""
    return await _host(request, table_id, found.user, "remove", slot=body.slot)


async def game_gate(request: Request, table_id: str, user: UserRow | None, players: Any, game_id: str) -> None:
    """A finished game's downloads: a player of the game sees them (any name of the account);
    anyone else as they may see its table — refused as ``no finished game`` (what an unknown
    game answers), or ``rate_limited``."""
    if user is not None:
        names = await ctx(request).store.accounts.names_of(user)
        if any(name in players for name in names):
            return
    try:
        await gate(ctx(request), table_id, user, shown_secret(request), address_of(request))
    except Refused as error:
        if error.code == "rate_limited":
            raise refused(error) from None
        raise ApiError(404, "not_found", f"no finished game {game_id!r}") from None


async def visible_games(request: Request, user: UserRow | None, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A profile's games less those of private tables the asker may not see by their account
    (a player of the game, the table's creator or a member of it)."""
    room = ctx(request).room
    names = set(await ctx(request).store.accounts.names_of(user)) if user is not None else set()
    shown = []
    for game in games:
        privacy = await room.privacy_of(str(game.get("table")))
        if privacy is None or not privacy.private or privacy.by_account(user.id if user else None) \
                or names & set(game.get("players") or ()):
            shown.append(game)
    return shown
