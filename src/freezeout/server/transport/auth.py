"""Who is asking an HTTP route or opening a WebSocket (docs/protocol.md "Authentication"):
an API token, a session cookie, or nobody; and the CSRF check of state-changing requests
(double submit, or the session's token; API-token requests are exempt since no cookie is
involved).  The routes that log in and out live in apiaccounts.py.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from freezeout.server.accounts import token_hash
from freezeout.server.storage.store import UserRow
from freezeout.server.transport.apicore import ApiError, ctx
from freezeout.server.transport.context import Context

__all__ = ["CSRF_COOKIE", "CSRF_SHAPE", "DEVICE_COOKIE", "SESSION_COOKIE", "Auth", "AuthDep", "PostAuth",
           "csrf_cookie", "identify", "need_session", "need_user", "secure"]

SESSION_COOKIE, CSRF_COOKIE, DEVICE_COOKIE = "fz_session", "fz_csrf", "fz_device"


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
    expected = found.csrf if found.user is not None else csrf_cookie(request)
    if not sent or not expected or not secrets.compare_digest(_octets(sent), _octets(expected)):
        raise ApiError(403, "csrf", "missing or wrong X-CSRF-Token header")
    return found


def _octets(text: str) -> bytes:
    """A header or cookie value as bytes for :func:`secrets.compare_digest`, which refuses a
    ``str`` with a non-ASCII character (a 500 before, #23): the server decodes headers as
    Latin-1, and a lone surrogate passes too, so any value compares, and unequal ones fail."""
    return text.encode("utf-8", "surrogatepass")


CSRF_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # secrets.token_urlsafe(24) is 32 of these


def csrf_cookie(request: Request) -> str | None:
    """The ``fz_csrf`` cookie if it looks like a token this server mints, else None: junk
    in it is neither compared nor echoed back by ``/api/session``."""
    value = request.cookies.get(CSRF_COOKIE)
    return value if value is not None and CSRF_SHAPE.fullmatch(value) else None


AuthDep = Annotated[Auth, Depends(auth)]
PostAuth = Annotated[Auth, Depends(post_auth)]


def need_user(found: Auth, *, registered: bool = False) -> UserRow:
    if found.user is None:
        raise ApiError(401, "unauthorized", "log in or play as a guest first")
    if registered and found.user.kind != "user":
        raise ApiError(403, "forbidden", "only registered accounts may do this")
    return found.user


def need_session(found: Auth) -> UserRow:
    """API tokens are managed from a logged-in session: a token cannot mint or keep others."""
    user = need_user(found, registered=True)
    if found.bearer:
        raise ApiError(403, "forbidden", "manage API tokens from a logged-in session, not with a token")
    return user


def secure(request: Request) -> bool:
    """Whether cookies are set ``Secure``: the ``cookie_secure`` setting, or whether the request came over https."""
    setting = ctx(request).settings.cookie_secure
    return request.url.scheme == "https" if setting is None else setting
