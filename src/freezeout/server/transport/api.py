"""The HTTP API under ``/api`` (docs/protocol.md): accounts, lobby, downloads.

Every state-changing request passes the CSRF check (double submit, or the
session's token); API-token requests are exempt since no cookie is involved.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from freezeout.rules.games import HOUSE_GAME
from freezeout.server import elo
from freezeout.server.accounts import (
    DISPLAY_MAX,
    check_display,
    display_name,
    guest_name,
    name_key,
    new_token,
    token_hash,
    valid_name,
    valid_password,
)
from freezeout.server.gamespec import FORMATS
from freezeout.server.storage.store import TOKEN_ID_LENGTH, NameTaken, UserRow
from freezeout.server.table.botseat import BOT_LEVELS
from freezeout.server.table.cashmove import leave_lists
from freezeout.server.table.formats import GAMES
from freezeout.server.table.gameinfo import catalogue, describe, house, with_format
from freezeout.server.table.room import listing_filter
from freezeout.server.table.state import Refused
from freezeout.server.transport.context import Context
from freezeout.server.transport.protocol import BuyIn, CashChips, Intent, Sit, Stand, TransferId
from freezeout.server.transport.tablegate import address_of, gate, invite_of, shown_secret

__all__ = ["ApiError", "Auth", "Body", "http_gate", "identify", "router"]

router = APIRouter(prefix="/api")
SESSION_COOKIE, CSRF_COOKIE, DEVICE_COOKIE = "fz_session", "fz_csrf", "fz_device"
DEVICE_MAX_AGE = 400 * 86400  # the longest a browser keeps a cookie


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


_STATUS = {"not_found": 404, "forbidden": 403, "not_seated": 403, "bad_message": 400, "storage": 503, "busy": 503,
           "rate_limited": 429}


def refused(error: Refused) -> ApiError:
    headers = {"Retry-After": "60"} if error.code == "rate_limited" else None
    return ApiError(_STATUS.get(error.code, 409), error.code, error.message, headers)


async def http_gate(request: Request, table_id: str, user: UserRow | None) -> None:
    """A route keyed by a table's id: the asker may see the table (transport/tablegate.py), else
    what a table that does not exist answers (or ``rate_limited``)."""
    try:
        await gate(ctx(request), table_id, user, shown_secret(request), address_of(request))
    except Refused as error:
        raise refused(error) from None


@dataclass(frozen=True, slots=True)
class Auth:
    """Who is asking.  ``credential`` is the hash of the session cookie or API token used
    (sockets opened with it close when it is logged out or revoked) and ``expires_at``
    its expiry."""

    user: UserRow | None
    csrf: str | None = None
    bearer: bool = False
    credential: str | None = None
    expires_at: float | None = None


def ctx(request: Request) -> Context:
    context: Context = request.app.state.ctx
    return context


async def identify(context: Context, headers: Any, cookies: Any) -> Auth:
    """Who is asking: an API token (Authorization: Bearer), a session cookie, or nobody."""
    header = headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        hashed = token_hash(header[7:].strip())
        token = await context.store.tokens.find(hashed, context.clock.now())
        if token is None:
            raise ApiError(401, "unauthorized", "unknown, revoked or expired API token")
        return Auth(token[0], bearer=True, credential=hashed, expires_at=token[1])
    cookie = cookies.get(SESSION_COOKIE)
    if cookie:
        hashed = token_hash(cookie)
        found = await context.store.sessions.find(hashed, context.clock.now())
        if found is not None:
            return Auth(found[0], found[1], credential=hashed, expires_at=found[2])
    return Auth(None)


async def auth(request: Request) -> Auth:
    return await identify(ctx(request), request.headers, request.cookies)


async def post_auth(request: Request) -> Auth:
    """:func:`auth` plus the CSRF check for state-changing requests."""
    found = await identify(ctx(request), request.headers, request.cookies)
    if found.bearer:
        return found
    sent = request.headers.get("x-csrf-token", "")
    expected = found.csrf if found.user is not None else _csrf_cookie(request)
    if not sent or not expected or not secrets.compare_digest(_octets(sent), _octets(expected)):
        raise ApiError(403, "csrf", "missing or wrong X-CSRF-Token header")
    return found


def _octets(text: str) -> bytes:
    """A header or cookie value as bytes for :func:`secrets.compare_digest`, which refuses a
    ``str`` with a non-ASCII character (a 500 before, #23): the server decodes headers as
    Latin-1, and a lone surrogate passes too, so any value compares, and unequal ones fail."""
    return text.encode("utf-8", "surrogatepass")


_CSRF_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # secrets.token_urlsafe(24) is 32 of these


def _csrf_cookie(request: Request) -> str | None:
    """The ``fz_csrf`` cookie if it looks like a token this server mints, else None: junk
    in it is neither compared nor echoed back by ``/api/session``."""
    value = request.cookies.get(CSRF_COOKIE)
    return value if value is not None and _CSRF_SHAPE.fullmatch(value) else None


AuthDep = Annotated[Auth, Depends(auth)]
PostAuth = Annotated[Auth, Depends(post_auth)]


def _need_user(found: Auth, *, registered: bool = False) -> UserRow:
    if found.user is None:
        raise ApiError(401, "unauthorized", "log in or play as a guest first")
    if registered and found.user.kind != "user":
        raise ApiError(403, "forbidden", "only registered accounts may do this")
    return found.user


def _need_session(found: Auth) -> UserRow:
    """API tokens are managed from a logged-in session: a token cannot mint or keep others."""
    user = _need_user(found, registered=True)
    if found.bearer:
        raise ApiError(403, "forbidden", "manage API tokens from a logged-in session, not with a token")
    return user


def _secure(request: Request) -> bool:
    setting = ctx(request).settings.cookie_secure
    return request.url.scheme == "https" if setting is None else setting


async def _start_session(request: Request, response: Response, user: UserRow) -> dict[str, Any]:
    context = ctx(request)
    token, hashed = new_token()
    csrf = secrets.token_urlsafe(24)
    now = context.clock.now()
    max_age = int(context.settings.session_days * 86400)
    await context.store.sessions.create(hashed, user.id, csrf, now, now + max_age)
    secure = _secure(request)
    await _seen(request, user, response)
    response.set_cookie(SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="lax", secure=secure)
    response.set_cookie(CSRF_COOKIE, csrf, max_age=max_age, httponly=False, samesite="lax", secure=secure)
    return {"user": user.public(), "csrf": csrf}


async def _seen(request: Request, user: UserRow, response: Response | None = None) -> None:
    """Note where an account is: its client address and its browser's ``fz_device`` cookie
    (given one, with ``response``, when it has none).  Ranked games between accounts seen at
    one address or device are not rated (elo.py "Rings")."""
    device = request.cookies.get(DEVICE_COOKIE)
    if device is None or _CSRF_SHAPE.fullmatch(device) is None:
        device = None
        if response is not None:
            device = secrets.token_urlsafe(18)
            response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_MAX_AGE, httponly=True, samesite="lax",
                                secure=_secure(request))
    await ctx(request).store.sightings.seen(user.id, ctx(request).clock.now(), device=device,
                                  address=request.client.host if request.client else None)


class Body(BaseModel):
    """Every HTTP request body: strict as the WebSocket's messages (protocol.py), so a
    number is a JSON number of its kind (``"5000"``, ``5000.0``, ``true`` are no chips), a
    flag is ``true`` or ``false``, a name a string; unknown fields are refused.  Anything
    else is ``400 bad_message`` naming the field, and nothing changes (#32-4)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Credentials(Body):
    name: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=256)]


class NewToken(Body):
    label: Annotated[str, Field(max_length=64)] = ""
    days: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None


class NewTable(Body):
    """A new table.  A freezeout names its places (``slots``: bot levels, or None for a human);
    a cash table (``format: "cash"``, issue #25) its ``seats`` (default: the game's most) and
    ``cash`` options (gamespec.CashOptions), and opens empty (seats are bought into)."""

    slots: Annotated[list[str | None], Field(min_length=2, max_length=10)] = [None, None]
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


class DisplayName(Body):
    display: Annotated[str, Field(max_length=4 * DISPLAY_MAX)]


class QuickPlay(Body):
    bot: str | None = None  # None: medium, or the strongest bot that plays the game
    game: Annotated[str, Field(max_length=16)] | None = None


class SitRequest(Body):
    slot: Annotated[int, Field(ge=0, le=9)] | None = None  # within the table's own size: table/intents.py


@router.get("/session")
async def session(request: Request, response: Response, found: AuthDep) -> dict[str, Any]:
    csrf = found.csrf or _csrf_cookie(request) or secrets.token_urlsafe(24)
    if found.csrf is None and not _csrf_cookie(request):
        response.set_cookie(CSRF_COOKIE, csrf, httponly=False, samesite="lax", secure=_secure(request))
    return {"user": found.user.public() if found.user else None, "csrf": csrf}


def _address_key(request: Request) -> str:
    return f"ip:{request.client.host if request.client else '?'}"


def _check_signups(request: Request) -> str:
    """Refuse a new account when this address made too many lately; returns its key."""
    key = _address_key(request)
    wait = ctx(request).signups.retry_after(key)
    if wait is not None:
        raise ApiError(429, "rate_limited", "too many new accounts from this address; try again later",
                       {"Retry-After": str(int(wait) + 1)})
    return key


@router.post("/register")
async def register(request: Request, response: Response, body: Credentials, _: PostAuth) -> dict[str, Any]:
    context = ctx(request)
    key = _check_signups(request)
    name = display_name(body.name)
    if not valid_name(name):
        raise ApiError(400, "bad_name", "names are 2-24 letters, digits, _ or -, not starting with bot- or guest-, "
                                        "and not a bot's, a guest's or the house's name")
    if not valid_password(body.password):
        raise ApiError(400, "bad_password", "passwords are 8 to 200 characters")
    taken = await context.store.accounts.by_name(name)
    if taken is not None:  # before the slow hash; the unique key decides
        raise ApiError(409, "name_taken", f"the name {name!r} is taken by {taken.name!r} (names are compared without case)")
    await _refuse_look_alike(context, name)
    try:
        user = await context.store.accounts.create(name, "user", await context.passwords.hash(body.password), context.clock.now())
    except NameTaken:
        raise ApiError(409, "name_taken", f"the name {name!r} is taken (names are compared without case)") from None
    context.signups.fail(key)
    return await _start_session(request, response, user)


@router.post("/login")
async def login(request: Request, response: Response, body: Credentials, _: PostAuth) -> dict[str, Any]:
    """Failures count per (account, address) and per address, never per account alone: a
    stranger guessing a password locks only himself out, not the owner at home."""
    context = ctx(request)
    address = _address_key(request)
    account = f"name:{name_key(body.name)}|{address}"
    waits = [w for w in (context.limiter.retry_after(account), context.address_limiter.retry_after(address)) if w is not None]
    if waits:
        raise ApiError(429, "rate_limited", "too many failed log-ins from here; try again later",
                       {"Retry-After": str(int(max(waits)) + 1)})
    user = await context.store.accounts.by_name(body.name)
    if user is None or user.password_hash is None:  # as slow as a wrong password: the timing tells no names (#23)
        ok = await context.passwords.verify_nobody(body.password)
    else:
        ok = await context.passwords.verify(user.password_hash, body.password)
    if user is None or not ok:
        context.limiter.fail(account)
        context.address_limiter.fail(address)
        raise ApiError(401, "bad_credentials", "wrong name or password")
    context.limiter.reset(account)
    return await _start_session(request, response, user)


@router.post("/logout")
async def logout(request: Request, response: Response, found: PostAuth) -> dict[str, Any]:
    """End the session, and close every WebSocket opened with it; the player leaves the room, so
    every waiting list they are on (C13)."""
    context = ctx(request)
    if found.credential is not None and not found.bearer:
        await context.store.sessions.delete(found.credential)
        context.links.end_all(found.credential, "unauthorized", "you logged out")
        if found.user is not None and found.user.kind == "user":  # a guest is on no list (C9: no play chips)
            await leave_lists(context.room, found.user.id)
    response.delete_cookie(SESSION_COOKIE)
    return {"ok": True}


async def _refuse_look_alike(context: Context, name: str, user: UserRow | None = None) -> None:
    """409 when ``name`` reads like a name another account goes or went by (#23-7)."""
    other = await context.store.accounts.look_alike(name, besides=user.id if user is not None else None)
    if other is not None:
        raise ApiError(409, "name_taken", f"{name!r} looks too much like the name {other!r} of another player "
                                          "(I, l and 1, O and 0, rn and m … read alike): choose another")


async def _guest(request: Request, response: Response) -> tuple[UserRow, dict[str, Any]]:
    """A guest named ``Guest 4821``: four random digits while few are taken, more digits
    once they run short (the unique name decides; names with ``Guest`` are guests' only)."""
    context = ctx(request)
    key = _check_signups(request)
    for attempt in range(12):
        digits = _guest_digits[0] + attempt // 3
        number = 10 ** (digits - 1) + secrets.randbelow(9 * 10 ** (digits - 1))
        try:
            user = await context.store.accounts.create(guest_name(number), "guest", None, context.clock.now())
        except NameTaken:
            continue
        _guest_digits[0] = digits  # where names were last free: a full room does not retry short ones each time
        context.signups.fail(key)
        return user, await _start_session(request, response, user)
    raise ApiError(503, "storage", "could not create a guest; try again")


_guest_digits = [4]  # how many digits guests' numbers have now (this process)


RENAMES_PER_DAY = 3


@router.post("/me/display")
async def set_display(request: Request, body: DisplayName, found: PostAuth) -> dict[str, Any]:
    """Choose the name shown for you (guests too): at the tables you sit down to from now
    on, in the lobby, on the leaderboard, your profile and hand histories.  2-20 Latin
    letters, digits, spaces, ``_ - . '``; not a bot's, a guest's or the house's name, and
    not one that reads like another player's (``AIice`` beside ``Alice``).  A name once
    taken stays the account's; ``RENAMES_PER_DAY`` new ones a day."""
    context = ctx(request)
    user = _need_user(found)
    name, problem = check_display(body.display)
    if name == user.shown:  # as it is already (a guest's own "Guest 4821" too)
        return {"user": user.public()}
    if problem is not None:
        raise ApiError(400, "bad_name", problem)
    taken = await context.store.accounts.by_name(name)
    if taken is not None and taken.id != user.id:
        raise ApiError(409, "name_taken", f"the name {name!r} is taken (names are compared without case)")
    await _refuse_look_alike(context, name, user)
    now = context.clock.now()
    if await context.store.accounts.renames_since(user.id, now - 86400) >= RENAMES_PER_DAY:
        raise ApiError(429, "rate_limited", f"at most {RENAMES_PER_DAY} new names a day: try again tomorrow",
                       {"Retry-After": "86400"})
    try:
        changed = await context.store.accounts.set_display(user.id, name, now)
    except NameTaken:  # chosen by someone else at the same moment
        raise ApiError(409, "name_taken", f"the name {name!r} is taken") from None
    return {"user": changed.public()}


@router.post("/guest")
async def guest(request: Request, response: Response, _: PostAuth) -> dict[str, Any]:
    return (await _guest(request, response))[1]


@router.post("/quickplay")
async def quickplay(request: Request, response: Response, body: QuickPlay, found: PostAuth) -> dict[str, Any]:
    """One click: a guest (unless logged in) against a bot, unranked, started at once."""
    user = found.user
    extra: dict[str, Any] = {}
    if user is None:
        user, extra = await _guest(request, response)
    else:
        await _refuse_banned(request, user)
    try:
        room = ctx(request).room
        bot = body.bot if body.bot is not None else room.quickplay_bot(body.game)
        actor = await room.create(user, [None, bot], ranked=False, sit=True, address=_address_key(request), game=body.game)
    except Refused as error:
        raise refused(error) from None
    return {"table": with_format(actor.summary()), **extra}


@router.post("/tokens")
async def create_token(request: Request, found: PostAuth, body: NewToken | None = None) -> dict[str, Any]:
    """A new API token for external bots; it expires (``days``, default ``api_token_days``)."""
    context = ctx(request)
    user = _need_session(found)
    settings, now = context.settings, context.clock.now()
    days = min(body.days if body and body.days else settings.api_token_days, settings.api_token_max_days)
    token, hashed = new_token()
    if not await context.store.tokens.create(hashed, user.id, now, expires_at=now + days * 86400,
                                                label=body.label if body else "", limit=settings.api_tokens_per_user):
        raise ApiError(409, "illegal", f"at most {settings.api_tokens_per_user} live API tokens: revoke one first")
    return {"token": token, "id": hashed[:TOKEN_ID_LENGTH], "expires_at": now + days * 86400}


@router.get("/tokens")
async def list_tokens(request: Request, found: AuthDep) -> dict[str, Any]:
    user = _need_session(found)
    return {"tokens": await ctx(request).store.tokens.of(user.id, ctx(request).clock.now())}


@router.delete("/tokens/{token_id}")
async def revoke_token(request: Request, token_id: str, found: PostAuth) -> dict[str, Any]:
    """Revoke a token at once: requests with it are refused, and its WebSockets are closed."""
    context = ctx(request)
    user = _need_session(found)
    hashed = await context.store.tokens.revoke(user.id, token_id)
    if hashed is None:
        raise ApiError(404, "not_found", f"no API token {token_id!r}")
    context.links.end_all(hashed, "unauthorized", "this API token was revoked")
    return {"ok": True}


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
    user = _need_user(found)
    await _refuse_banned(request, user)
    if body.ranked:
        await _seen(request, user)
    slots, sit = _places(body)
    try:
        actor = await ctx(request).room.create(user, slots, ranked=body.ranked, sit=sit, address=_address_key(request),
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
    user = _need_user(found)
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
        await _seen(request, found.user)
    return await _table_intent(request, table_id, found, Sit(type="sit", slot=body.slot if body else None), response)


@router.post("/tables/{table_id}/buy_in")
async def buy_in(request: Request, response: Response, table_id: str, body: BuyInRequest,
                 found: PostAuth) -> dict[str, Any]:
    """C1: take a seat at a cash table with ``chips`` of the balance, as the WebSocket's ``buy_in``."""
    if found.user is not None:
        await _seen(request, found.user)
    return await _table_intent(request, table_id, found, BuyIn(type="buy_in", chips=body.chips, slot=body.slot,
                                                               transfer=body.transfer, post=body.post), response)


@router.post("/tables/{table_id}/bots")
async def add_cash_bot(request: Request, table_id: str, body: CashBotRequest, found: PostAuth) -> dict[str, Any]:
    """A bot of ``level`` that plays the game buys in at a cash table (docs/protocol.md "Bots at cash tables")."""
    user = _need_user(found)
    await http_gate(request, table_id, user)
    try:
        return {"table": with_format(await ctx(request).room.add_cash_bot(table_id, user, body.level))}
    except Refused as error:
        raise refused(error) from None


@router.post("/tables/{table_id}/stand")
async def stand(request: Request, table_id: str, found: PostAuth) -> dict[str, Any]:
    return await _table_intent(request, table_id, found, Stand(type="stand"))
