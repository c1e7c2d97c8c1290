"""The account routes under ``/api`` (docs/protocol.md "Accounts"): the session, registering,
logging in and out, playing as a guest, choosing a display name, and API tokens.

Who is asking is auth.py's; these routes make and end the credentials it reads.
Kept apart from api.py's tables and lobby (issue #33): an account's life is one topic.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from freezeout.server.accounts import (
    DISPLAY_MAX,
    check_display,
    display_name,
    guest_name,
    name_key,
    new_token,
    valid_name,
    valid_password,
)
from freezeout.server.storage.store import TOKEN_ID_LENGTH, NameTaken, UserRow
from freezeout.server.table.cashmove import leave_lists
from freezeout.server.transport.apicore import ApiError, Body, ctx
from freezeout.server.transport.auth import (
    CSRF_COOKIE,
    CSRF_SHAPE,
    DEVICE_COOKIE,
    SESSION_COOKIE,
    AuthDep,
    PostAuth,
    csrf_cookie,
    need_session,
    need_user,
    secure,
)
from freezeout.server.transport.context import Context

__all__ = ["address_key", "guest_account", "router", "seen"]

router = APIRouter(prefix="/api")
DEVICE_MAX_AGE = 400 * 86400  # the longest a browser keeps a cookie


async def start_session(request: Request, response: Response, user: UserRow) -> dict[str, Any]:
    context = ctx(request)
    token, hashed = new_token()
    csrf = secrets.token_urlsafe(24)
    now = context.clock.now()
    max_age = int(context.settings.session_days * 86400)
    await context.store.sessions.create(hashed, user.id, csrf, now, now + max_age)
    https = secure(request)
    await seen(request, user, response)
    response.set_cookie(SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="lax", secure=https)
    response.set_cookie(CSRF_COOKIE, csrf, max_age=max_age, httponly=False, samesite="lax", secure=https)
    return {"user": user.public(), "csrf": csrf}


async def seen(request: Request, user: UserRow, response: Response | None = None) -> None:
    """Note where an account is: its client address and its browser's ``fz_device`` cookie
    (given one, with ``response``, when it has none).  Ranked games between accounts seen at
    one address or device are not rated (elo.py "Rings")."""
    device = request.cookies.get(DEVICE_COOKIE)
    if device is None or CSRF_SHAPE.fullmatch(device) is None:
        device = None
        if response is not None:
            device = secrets.token_urlsafe(18)
            response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_MAX_AGE, httponly=True, samesite="lax",
                                secure=secure(request))
    await ctx(request).store.sightings.seen(user.id, ctx(request).clock.now(), device=device,
                                  address=request.client.host if request.client else None)


class Credentials(Body):
    name: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=256)]


class NewToken(Body):
    label: Annotated[str, Field(max_length=64)] = ""
    days: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None


class DisplayName(Body):
    display: Annotated[str, Field(max_length=4 * DISPLAY_MAX)]


@router.get("/session")
async def session(request: Request, response: Response, found: AuthDep) -> dict[str, Any]:
    csrf = found.csrf or csrf_cookie(request) or secrets.token_urlsafe(24)
    if found.csrf is None and not csrf_cookie(request):
        response.set_cookie(CSRF_COOKIE, csrf, httponly=False, samesite="lax", secure=secure(request))
    return {"user": found.user.public() if found.user else None, "csrf": csrf}


def address_key(request: Request) -> str:
    return f"ip:{request.client.host if request.client else '?'}"


def _check_signups(request: Request) -> str:
    """Refuse a new account when this address made too many lately; returns its key."""
    key = address_key(request)
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
    return await start_session(request, response, user)


@router.post("/login")
async def login(request: Request, response: Response, body: Credentials, _: PostAuth) -> dict[str, Any]:
    """Failures count per (account, address) and per address, never per account alone: a
    stranger guessing a password locks only himself out, not the owner at home."""
    context = ctx(request)
    address = address_key(request)
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
    return await start_session(request, response, user)


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


async def guest_account(request: Request, response: Response) -> tuple[UserRow, dict[str, Any]]:
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
        return user, await start_session(request, response, user)
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
    user = need_user(found)
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
    return (await guest_account(request, response))[1]


@router.post("/tokens")
async def create_token(request: Request, found: PostAuth, body: NewToken | None = None) -> dict[str, Any]:
    """A new API token for external bots; it expires (``days``, default ``api_token_days``)."""
    context = ctx(request)
    user = need_session(found)
    settings, now = context.settings, context.clock.now()
    days = min(body.days if body and body.days else settings.api_token_days, settings.api_token_max_days)
    token, hashed = new_token()
    if not await context.store.tokens.create(hashed, user.id, now, expires_at=now + days * 86400,
                                                label=body.label if body else "", limit=settings.api_tokens_per_user):
        raise ApiError(409, "illegal", f"at most {settings.api_tokens_per_user} live API tokens: revoke one first")
    return {"token": token, "id": hashed[:TOKEN_ID_LENGTH], "expires_at": now + days * 86400}


@router.get("/tokens")
async def list_tokens(request: Request, found: AuthDep) -> dict[str, Any]:
    user = need_session(found)
    return {"tokens": await ctx(request).store.tokens.of(user.id, ctx(request).clock.now())}


@router.delete("/tokens/{token_id}")
async def revoke_token(request: Request, token_id: str, found: PostAuth) -> dict[str, Any]:
    """Revoke a token at once: requests with it are refused, and its WebSockets are closed."""
    context = ctx(request)
    user = need_session(found)
    hashed = await context.store.tokens.revoke(user.id, token_id)
    if hashed is None:
        raise ApiError(404, "not_found", f"no API token {token_id!r}")
    context.links.end_all(hashed, "unauthorized", "this API token was revoked")
    return {"ok": True}
