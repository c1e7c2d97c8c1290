"""The HTTP API under ``/api`` (docs/protocol.md): the lobby, tables, quick play, bots.

Every state-changing request passes the CSRF check (auth.py ``PostAuth``); the
account routes (session, register, log-in, tokens) are apiaccounts.py's.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from freezeout.rules.games import HOUSE_GAME
from freezeout.server import elo
from freezeout.server.gamespec import FORMATS
from freezeout.server.storage.store import UserRow
from freezeout.server.table.botseat import BOT_LEVELS
from freezeout.server.table.formats import GAMES
from freezeout.server.table.gameinfo import catalogue, describe, house, with_format
from freezeout.server.table.room import listing_filter
from freezeout.server.table.state import Refused
from freezeout.server.transport.apiaccounts import address_key, guest_account, seen
from freezeout.server.transport.apicore import ApiError, Body, ctx, http_gate, refused
from freezeout.server.transport.auth import Auth, AuthDep, PostAuth, need_user
from freezeout.server.transport.protocol import BuyIn, CashChips, Intent, Sit, Stand, TransferId
from freezeout.server.transport.tablegate import invite_of

__all__ = ["router"]

router = APIRouter(prefix="/api")


class NewTable(Body):
    """A new table.  A freezeout names its places (``slots``: bot levels, or None for a human);
    a cash table (``format: "cash"``, issue #25) its ``seats`` (default: the game's most) and
    ``cash`` options (gamespec.CashOptions), and opens empty (seats are bought into)."""

    slots: Annotated[list[str | None], Field(min_length=2, max_length=10)] = [None, None]  # noqa: RUF012 (pydantic copies it)
    ranked: bool = False
    sit: bool = True
    game: Annotated[str, Field(max_length=16)] | None = None  # an engine code or a mix; None: the house game
    format: Annotated[str, Field(max_length=16)] | None = None  # "freezeout" (None) or "cash"
    seats: Annotated[int, Field(ge=2, le=10)] | None = None  # a cash table's
    cash: dict[str, Any] | None = None  # a cash table's options, checked by CashOptions.from_json
    private: bool = False  # issue #37: listed nowhere, reached by its invite link (never with ranked)
    approval: bool = False  # a private table's creator approves each seat (table/guestlist.py)


class BuyInRequest(Body):
    """C1: a seat at a cash table for ``chips`` of the balance (the WebSocket's ``buy_in``)."""

    chips: CashChips
    slot: Annotated[int, Field(ge=0, le=9)] | None = None  # within the table's own size: table/intents.py
    transfer: TransferId = None
    post: bool | None = None


class CashBotRequest(Body):
    """A cash table's "add a bot" (table/room.py ``add_cash_bot``): the bot's level."""

    level: Annotated[str, Field(max_length=16)]


class QuickPlay(Body):
    bot: str | None = None  # None: medium, or the strongest bot that plays the game
    game: Annotated[str, Field(max_length=16)] | None = None


class SitRequest(Body):
    slot: Annotated[int, Field(ge=0, le=9)] | None = None  # within the table's own size: table/intents.py


@router.post("/quickplay")
async def quickplay(request: Request, response: Response, body: QuickPlay, found: PostAuth) -> dict[str, Any]:
    """One click: a guest (unless logged in) against a bot, unranked, started at once."""
    user = found.user
    extra: dict[str, Any] = {}
    if user is None:
        user, extra = await guest_account(request, response)
    else:
        await _refuse_banned(request, user)
    try:
        room = ctx(request).room
        bot = body.bot if body.bot is not None else room.quickplay_bot(body.game)
        actor = await room.create(user, [None, bot], ranked=False, sit=True, address=address_key(request), game=body.game)
    except Refused as error:
        raise refused(error) from None
    return {"table": with_format(actor.summary()), **extra}


@router.get("/bots")
async def bots(request: Request, game: str | None = None) -> dict[str, Any]:
    """The bot ladder and the game it is for (table.gameinfo.describe): quick play's house game,
    or with ``game`` only the bots that play it (what a table of it offers)."""
    if game is None:
        return {"levels": list(BOT_LEVELS), "game": house()}
    from freezeout.server.gamespec import GameRefused, GameSpec

    try:
        return {"levels": list(ctx(request).room.bot_levels(GameSpec.parse(game))), "game": describe(game)}
    except GameRefused as error:
        raise ApiError(400, "bad_message", str(error)) from None


@router.get("/catalogue")
async def game_catalogue(request: Request) -> dict[str, Any]:
    """Every game a table can deal (table.gameinfo.catalogue): what the lobby's game picker offers,
    with each game's rating family, betting structure, seat range per format (C12) and bots."""
    from freezeout.server.gamespec import GameSpec, seat_ranges

    room = ctx(request).room
    return {"games": catalogue(elo.family, seat_ranges, lambda code: room.bot_levels(GameSpec(code))),
            "house": HOUSE_GAME}


@router.get("/tables")
async def list_tables(request: Request, status: str | None = None, limit: int = 50, after: str | None = None,
                      format: str | None = None, game: str | None = None) -> dict[str, Any]:
    """The tables, newest first, a page at a time: ``next`` (or null) is the ``after`` of the next page;
    only those of ``format`` (freezeout, cash) and ``game`` (a code: NT, FO/8, HORSE …) if asked."""
    try:
        format, game = listing_filter(format, game)
    except Refused as error:
        raise ApiError(422, error.code, error.message) from None
    try:
        tables, cursor = ctx(request).room.listing(status, limit=max(1, min(limit, 200)), after=after,
                                                   format=format, game=game)
    except Refused as error:
        raise refused(error) from None
    return {"tables": [with_format(table) for table in tables], "next": cursor}


@router.post("/tables")
async def create_table(request: Request, body: NewTable, found: PostAuth) -> dict[str, Any]:
    user = need_user(found)
    await _refuse_banned(request, user)
    if body.ranked:
        await seen(request, user)
    slots, sit = _places(body)
    try:
        actor = await ctx(request).room.create(user, slots, ranked=body.ranked, sit=sit, address=address_key(request),
                                               game=body.game, format=body.format, cash=body.cash, private=body.private,
                                               approval=body.approval)
    except Refused as error:
        raise refused(error) from None
    summary = with_format(actor.summary())
    invite = actor.invite  # the creator alone is told the invite link
    return {"table": summary, **({"invite": invite_of(summary["id"], invite)} if invite else {})}


async def _refuse_banned(request: Request, user: UserRow) -> None:
    """A banned account opens no table (issue #37, ``freezeout moderation ban``)."""
    if await ctx(request).store.chat.banned(user.id):
        raise ApiError(403, "banned", "your account is banned from opening tables and chatting (a moderator's decision)")


def _places(body: NewTable) -> tuple[list[str | None], bool]:
    """A new table's places and whether its creator sits down, as its format takes them
    (table/formats.py ``places``: a freezeout's as sent, a cash table's ``seats`` empty places).
    An unknown format is the room's to refuse (table/room.py): its places are read as a freezeout's."""
    opening = GAMES.get(body.format or FORMATS[0], GAMES[FORMATS[0]])
    try:
        return opening.places(body.game, list(body.slots), body.seats, body.sit, frozenset(body.model_fields_set))
    except Refused as error:
        raise refused(error) from None


@router.get("/tables/{table_id}")
async def get_table(request: Request, table_id: str, found: AuthDep) -> dict[str, Any]:
    await http_gate(request, table_id, found.user)
    try:
        return {"table": with_format(await ctx(request).room.summary(table_id))}
    except Refused as error:
        raise refused(error) from None


async def _table_intent(request: Request, table_id: str, found: Auth, msg: Intent,
                        response: Response | None = None) -> dict[str, Any]:
    user = need_user(found)
    await http_gate(request, table_id, user)
    try:
        table = ctx(request).room.get(table_id)
        return {"table": await table.request(user, msg)}
    except Refused as error:
        if error.code == "pending" and response is not None:  # a private table's seat waits for its creator
            response.status_code = 202
            return {"table": table.summary(), "pending": True, "message": error.message}
        raise refused(error) from None


@router.post("/tables/{table_id}/sit")
async def sit(request: Request, response: Response, table_id: str, found: PostAuth,
              body: SitRequest | None = None) -> dict[str, Any]:
    if found.user is not None:
        await seen(request, found.user)
    return await _table_intent(request, table_id, found, Sit(type="sit", slot=body.slot if body else None), response)


@router.post("/tables/{table_id}/buy_in")
async def buy_in(request: Request, response: Response, table_id: str, body: BuyInRequest,
                 found: PostAuth) -> dict[str, Any]:
    """C1: take a seat at a cash table with ``chips`` of the balance, as the WebSocket's ``buy_in``."""
    if found.user is not None:
        await seen(request, found.user)
    return await _table_intent(request, table_id, found, BuyIn(type="buy_in", chips=body.chips, slot=body.slot,
                                                               transfer=body.transfer, post=body.post), response)


@router.post("/tables/{table_id}/bots")
async def add_cash_bot(request: Request, table_id: str, body: CashBotRequest, found: PostAuth) -> dict[str, Any]:
    """A bot of ``level`` that plays the game buys in at a cash table (docs/protocol.md "Bots at cash tables")."""
    user = need_user(found)
    await http_gate(request, table_id, user)
    try:
        return {"table": with_format(await ctx(request).room.add_cash_bot(table_id, user, body.level))}
    except Refused as error:
        raise refused(error) from None


@router.post("/tables/{table_id}/stand")
async def stand(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    return await _table_intent(request, table_id, found, Stand(type="stand"))
