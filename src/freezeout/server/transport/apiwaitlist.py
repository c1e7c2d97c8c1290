"""The HTTP API of a full cash table's waiting list (C13) and "first available"
(docs/protocol.md "Waiting list").  Each request is a table's intent (as the WebSocket's
``waitlist_join``, ``waitlist_leave``, ``decline_seat``), or the room's one join for every
public table of a game and stakes (table/cashmove.py).  Taking a seat offered is a buy-in
(``POST /api/tables/{id}/buy_in``): the room then takes the player off the other
"first available" lists."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from freezeout.server.table.cashmove import first_available, leave_first_available
from freezeout.server.table.commands import DeclineSeat, Intent, WaitlistJoin, WaitlistLeave
from freezeout.server.table.gameinfo import with_format
from freezeout.server.table.state import Refused
from freezeout.server.transport.apicore import ApiError, Body, ctx, refused
from freezeout.server.transport.auth import Auth, PostAuth

__all__ = ["router"]

router = APIRouter(prefix="/api")


class FirstAvailable(Body):
    """Every public table of the game and stakes of ``table``."""

    table: str


def _user(found: Auth) -> Any:
    if found.user is None:
        raise ApiError(401, "unauthorized", "log in or play as a guest first")
    return found.user


async def _intent(request: Request, table_id: str, found: Auth, intent: Intent) -> dict[str, Any]:
    user = _user(found)
    try:
        return {"table": with_format(await ctx(request).room.get(table_id).request(user, intent))}
    except Refused as error:
        raise refused(error) from None


@router.post("/tables/{table_id}/waitlist")
async def join(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    """C13: join the waiting list of a full cash table (the table's summary after, with the list)."""
    return await _intent(request, table_id, found, WaitlistJoin(type="waitlist_join"))


@router.delete("/tables/{table_id}/waitlist")
async def leave(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    """C13: leave it (a seat offered to you passes to the next in line)."""
    return await _intent(request, table_id, found, WaitlistLeave(type="waitlist_leave"))


@router.post("/tables/{table_id}/waitlist/decline")
async def decline(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    """C13: turn the seat offered down (as leaving the list)."""
    return await _intent(request, table_id, found, DeclineSeat(type="decline_seat"))


@router.post("/cash/first_available")
async def join_everywhere(request: Request, body: FirstAvailable, found: PostAuth) -> dict[str, Any]:
    """C13 "first available": the lists of every full public table of the game and stakes of
    ``table``; ``free``: those with a seat now."""
    try:
        return await first_available(ctx(request).room, _user(found), body.table)
    except Refused as error:
        raise refused(error) from None


@router.delete("/cash/first_available")
async def leave_everywhere(request: Request, body: FirstAvailable, found: PostAuth) -> dict[str, Any]:
    """Leave every list of the game and stakes of ``table``."""
    try:
        return await leave_first_available(ctx(request).room, _user(found), body.table)
    except Refused as error:
        raise refused(error) from None
