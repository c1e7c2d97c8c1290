"""What every HTTP exchange passes through (docs/protocol.md "HTTP API"):

* :func:`http_protocol` is uvicorn's HTTP protocol with a deadline for a
  request's head: a connection that sends no request, or its headers a byte at
  a time ("slowloris"), is cut off after ``http_header_timeout_seconds``
  (uvicorn itself waits for ever until the first request);
* :class:`BodyLimit` refuses a request body over ``max_body_bytes`` with 413
  before reading it (by its ``Content-Length``), or as soon as a body without
  one grows past the limit, and one that takes longer than
  ``http_body_timeout_seconds`` to arrive with 408;
* :class:`SecurityHeaders` adds a strict Content-Security-Policy (the page
  loads nothing from elsewhere), ``X-Frame-Options: DENY``,
  ``Referrer-Policy``, ``X-Content-Type-Options`` and friends to every answer;
* :func:`install_error_handlers` makes every error, the framework's own
  (unknown route, wrong method, malformed body, a crash) included, answer in
  the documented shape ``{"error": {"code": "...", "message": "..."}}``.

Both middlewares are plain ASGI: they add no task and no copy of a body.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["CONTENT_SECURITY_POLICY", "BodyLimit", "SecurityHeaders", "error_body", "http_protocol", "install_error_handlers"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# index.html's one inline style (the hidden icon sprite's ``position:absolute``) is allowed by its hash.
_SPRITE_STYLE = "'sha256-/3kWSXHts8LrwfemLzY9W0tOv5I4eLIhrf0pT8cU0WI='"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; "
    f"style-src 'self' 'unsafe-hashes' {_SPRITE_STYLE}; "
    "img-src 'self'; font-src 'self'; connect-src 'self'; media-src 'none'; object-src 'none'; "
    "worker-src 'none'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
]
_HSTS = (b"strict-transport-security", b"max-age=31536000")
_NO_STORE = (b"cache-control", b"no-store")

# The error code of each HTTP status the framework itself may answer with.
_CODES = {400: "bad_message", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
          408: "too_slow", 409: "conflict", 413: "too_large", 415: "bad_message", 422: "bad_message", 429: "rate_limited",
          500: "internal", 503: "unavailable"}


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


_CLOSE = {"Connection": "close"}  # a body too slow to wait for: the connection ends with the answer


class BodyRefused(StarletteHTTPException):
    """Raised from ``receive`` when a body without a length grows past the limit (413), or
    when a body does not arrive in time (408): FastAPI lets an HTTPException through its
    body parsing, and the error handler answers it."""


def http_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools), cutting off a connection whose request head has
    not arrived ``header_timeout`` seconds after the connection opened or the request began.
    Between requests uvicorn's own keep-alive timeout closes an idle connection."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HeadDeadline(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._expire)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _expire(self) -> None:
            self._head_timer = None
            log.info("cutting off a connection from %s: no request head within %g s", self.client, header_timeout)
            self.transport.abort()

    return HeadDeadline


class BodyLimit:
    def __init__(self, app: ASGIApp, *, limit: int, timeout: float) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = next((value for name, value in scope["headers"] if name == b"content-length"), None)
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await _send_error(send, 400, "bad_message", "Content-Length is not a number")
                return
            if declared > self.limit:  # refused before a byte of the body is read
                await _send_error(send, 413, "too_large", f"request bodies are at most {self.limit} bytes")
                return
        received = 0
        limit, timeout = self.limit, self.timeout
        loop = asyncio.get_running_loop()
        deadline: float | None = None
        complete = False

        async def limited() -> Message:
            nonlocal received, deadline, complete
            if complete:  # the body is in: what follows (a disconnect) may wait as long as it likes
                return await receive()
            if deadline is None:
                deadline = loop.time() + timeout
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise BodyRefused(408, f"the request body did not arrive within {timeout:g} s", _CLOSE) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyRefused(413, f"request bodies are at most {limit} bytes")
                complete = not message.get("more_body", False)
            return message

        await self.app(scope, limited, send)


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = JSONResponse(error_body(code, message)).body
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
        *_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(_HEADERS)
        if scope.get("scheme") == "https":
            extra.append(_HSTS)
        if scope["path"].startswith("/api/"):
            extra.append(_NO_STORE)  # sessions, CSRF tokens and private records: never in a shared cache

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in extra if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)


def install_error_handlers(app: FastAPI) -> None:
    """Every error answers ``{"error": {"code", "message"}}`` (the API's own ``ApiError`` is handled in app.py)."""

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        code = _CODES.get(error.status_code, "http_error")
        return JSONResponse(error_body(code, str(error.detail)), status_code=error.status_code, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
        first: Any = error.errors()[0] if error.errors() else {"msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse(error_body("bad_message", f"{where}: {first['msg']}"), status_code=400)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(_: Request, error: SQLAlchemyError) -> JSONResponse:
        log.error("database error: %s", error)
        return JSONResponse(error_body("storage", "the database is unavailable; try again"), status_code=503)

    @app.exception_handler(Exception)
    async def crashed(_: Request, error: Exception) -> JSONResponse:  # logged by the framework too
        return JSONResponse(error_body("internal", "internal server error"), status_code=500)
