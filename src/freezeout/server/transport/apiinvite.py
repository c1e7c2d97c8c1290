"""A private table's invite link (issue #37, docs/protocol.md "Private tables"): its creator
reads it and renews it; a finished game of a private table is shown as its table is."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from freezeout.server.storage.users import UserRow
from freezeout.server.table.state import Refused
from freezeout.server.transport.api import ApiError, AuthDep, PostAuth, ctx, http_gate, refused
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


@router.get("/tables/{table_id}/invite")
async def get_invite(request: Request, table_id: str, found: AuthDep) -> dict[str, Any]:
    """A private table's invite link, for its creator."""
    return {"invite": invite_of(table_id, await _creators(request, table_id, found.user))}


@router.post("/tables/{table_id}/invite")
async def renew_invite(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    """A new invite secret for the creator's private table: every older link stops at once."""
    await _creators(request, table_id, found.user)
    assert found.user is not None
    try:
        secret = await ctx(request).room.renew_invite(table_id, found.user)
    except Refused as error:
        raise refused(error) from None
    return {"invite": invite_of(table_id, secret)}


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
