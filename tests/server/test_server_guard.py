"""What every HTTP answer carries and refuses (issue #10, findings 2, 5, 10, 12):
bodies over the limit are refused before they are read, connections that
send their request too slowly are cut off, every error has
the documented ``{"error": {...}}`` shape, and every answer carries the
security headers (a strict CSP among them)."""

from __future__ import annotations

import asyncio

import pytest
from argon2 import PasswordHasher, Type, extract_parameters

from freezeout.server.accounts import Passwords
from freezeout.server.clock import FakeClock
from freezeout.server.transport.httpguard import CONTENT_SECURITY_POLICY

from serverkit import fast_settings, serve


async def raw_request(harness, data: bytes) -> bytes:
    """Send the start of a request by hand and read what the server answers to it."""
    host, port = harness.base_url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(4096), 10)
    finally:
        writer.close()


async def test_a_body_over_the_limit_is_refused_before_it_is_read(harness):
    limit = harness.settings.max_body_bytes
    head = (b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n")
    answer = await raw_request(harness, head + b"[" * 1000)  # the answer comes without the other 299,999,000 bytes
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'{"error":{"code":"too_large","message":"request bodies are at most 65536 bytes"}}' in answer
    player = await harness.player()  # a body just under the limit is read as usual
    response = await player.post("/api/login", {"name": "x" * 10, "password": "p" * 10, "pad": "y" * (limit - 200)})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_message"


async def test_a_body_without_a_length_is_cut_at_the_limit(harness):
    player = await harness.player()

    async def chunks():
        for _ in range(64):  # 4 MB, never all read
            yield b"[" * 65536

    response = await player.http.post("/api/login", content=chunks(), headers={"X-CSRF-Token": player.csrf,
                                                                                "Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
    assert (await player.http.get("/healthz")).status_code == 200


async def test_every_error_has_the_documented_shape(harness):
    player = await harness.player()
    response = await player.http.get("/api/no-such-thing")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    response = await player.http.delete("/api/session")
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"
    response = await player.http.post("/api/login", content=b"{not json", headers={
        "X-CSRF-Token": player.csrf, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_message"
    response = await player.post("/api/login", {"name": 5})
    assert response.status_code == 400 and set(response.json()) == {"error"}
    response = await player.http.get("/api/leaderboard", params={"limit": "many"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_message"
    for response in (await player.http.get("/api/tables/nope"), await player.http.get("/static/nope.js")):
        assert response.status_code == 404 and set(response.json()["error"]) == {"code", "message"}


async def test_every_answer_carries_the_security_headers(harness):
    player = await harness.player()
    for response in (await player.http.get("/api/session"), await player.http.get("/nope"), await player.http.get("/healthz")):
        headers = response.headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
    csp = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert csp["default-src"] == "'self'" and csp["script-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY and "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert (await player.http.get("/api/session")).headers["cache-control"] == "no-store"


async def closed_by_the_server(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (a reset counts as closed)."""
    received = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(4096), 30):  # a guard: the server closes it long before
            received += chunk
    except ConnectionResetError:
        pass
    return received


@pytest.mark.parametrize("start", [b"", b"GET /api/session HTTP/1.1\r\nHost: x\r\n"])
async def test_a_connection_without_a_request_head_is_cut_off(tmp_path, start):
    """A connection that sends no request, or its headers a piece at a time (slowloris), is
    closed once ``http_header_timeout_seconds`` pass; a request sent in time is served."""
    async with serve(fast_settings(tmp_path, http_header_timeout_seconds=0.3), FakeClock()) as h:
        host, port = h.base_url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(start)
        await writer.drain()
        try:
            assert await closed_by_the_server(reader) == b""
        finally:
            writer.close()
        player = await h.player()  # served as usual
        assert (await player.http.get("/healthz")).status_code == 200


async def test_a_body_that_does_not_arrive_in_time_is_a_408(tmp_path):
    async with serve(fast_settings(tmp_path, http_body_timeout_seconds=0.3), FakeClock()) as h:
        host, port = h.base_url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"name\": ")  # and nothing more
        await writer.drain()
        try:
            answer = await closed_by_the_server(reader)
        finally:
            writer.close()  # (on a failure too: the server would wait for the body at its shutdown)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b'"code":"too_slow"' in answer


class CountingHasher(PasswordHasher):
    """The room's hasher, counting how often a log-in pays for a verification."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, type=Type.ID)
        self.verified: list[str] = []
        self.hashed = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified.append(str(hash))
        return super().verify(hash, password)

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.hashed += 1
        return super().hash(password, salt=salt)


async def test_a_log_in_costs_one_argon2_verification_whether_or_not_the_name_exists(harness):
    """Issue #23 item 8: an unknown name answered at once (0.004 s against 0.28 s), which told
    which names exist.  Each failed log-in now pays for one verification (or, the very first
    time, the hash of the dummy it verifies against), with the room's own cost."""
    hasher = CountingHasher()
    harness.ctx.passwords = Passwords(harness.settings, hasher)
    owner = await (await harness.player()).register("owner")
    guest = await (await harness.player()).guest()
    stranger = await harness.player()
    hasher.hashed = 0
    costs = []
    for name in ("nobody", "owner", "nobody2", guest.user["name"], "nobody3"):
        before = (len(hasher.verified), hasher.hashed)
        response = await stranger.post("/api/login", {"name": name, "password": "wrong password"})
        assert response.status_code == 401 and response.json()["error"]["code"] == "bad_credentials"
        costs.append((len(hasher.verified) - before[0], hasher.hashed - before[1]))
    assert costs == [(0, 1), (1, 0), (1, 0), (1, 0), (1, 0)]  # the first unknown name makes the dummy
    dummy = hasher.verified[-1]
    assert extract_parameters(dummy) == extract_parameters(hasher.verified[0])  # the same cost as a real hash
    assert (await owner.post("/api/login", {"name": "owner", "password": "correct horse"})).status_code == 200
