"""Bad input: hypothesis-generated malformed and forged messages over a real
WebSocket get a clear error, change nothing, and the server keeps serving
everyone else."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from freeports import free_port
from freezeout.server.app import create_app

from serverkit import fast_settings


class ThreadServer:
    """The app on a real port, served from a thread (hypothesis tests are synchronous)."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        # Floods are tested apart (test_server_limits.py): here every message is answered.
        self.app = create_app(fast_settings(tmp_path, bot_delay_min=0.0, ws_messages_per_second=10_000.0,
                                            ws_message_burst=10_000))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws_max_size=65536))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(3)
        if self.thread.is_alive():
            self.server.force_exit = True
            self.thread.join(10)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with ThreadServer(tmp_path_factory.mktemp("fuzz")) as server, contextlib.ExitStack() as stack:
        base = f"http://127.0.0.1:{server.port}"
        sockets = []
        cookies = []
        clients = [httpx.Client(base_url=base) for _ in range(2)]
        csrfs = []
        for i, client in enumerate(clients):
            csrf = client.get("/api/session").json()["csrf"]
            response = client.post("/api/register", json={"name": f"fuzz{i}", "password": "password1"},
                                   headers={"X-CSRF-Token": csrf})
            csrfs.append(response.json()["csrf"])
            cookies.append(client.cookies.get("fz_session"))
        table = clients[0].post("/api/tables", json={"slots": [None, None]}, headers={"X-CSRF-Token": csrfs[0]}).json()["table"]["id"]
        clients[1].post(f"/api/tables/{table}/sit", headers={"X-CSRF-Token": csrfs[1]}).raise_for_status()
        for cookie in cookies:
            ws = stack.enter_context(
                connect(f"ws://127.0.0.1:{server.port}/ws", additional_headers={"Cookie": f"fz_session={cookie}"},
                        max_queue=None)  # never stop reading: unread updates must not block the close
            )
            ws.send(json.dumps({"type": "join", "table": table}))
            sockets.append(ws)
        yield {"server": server, "table": table, "sockets": sockets, "base": base, "http": clients[0]}
        for client in clients:
            client.close()


def next_reply(ws: Any) -> dict[str, Any]:
    """The next message that answers a client message (not a table update)."""
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=120))
        if msg["type"] in ("error", "pong"):
            return msg


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
forged = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "dont_wait", "resign", "rematch", "sit", "stand", "join", "bogus", "ACT", ""])},
    optional={
        "version": st.one_of(st.integers(min_value=10**6), st.integers(max_value=-1), st.text(max_size=3), st.none()),
        "move": st.one_of(st.sampled_from(["fold", "call", "timeout", "resign", "raise", "bet"]), st.text(max_size=5)),
        "amount": json_values,
        "seat": st.integers(-2, 5),
        "table": st.text(max_size=10),
        "player": st.text(max_size=5),
    },
).filter(lambda m: not (m["type"] in ("resign", "rematch", "stand") and set(m) == {"type"}))
garbage = st.one_of(st.text(max_size=60), st.binary(max_size=30).map(lambda b: b.decode("latin-1")), json_values.map(json.dumps))


def _server_version(live: dict[str, Any]) -> int:
    return int(live["http"].get(f"/api/tables/{live['table']}").json()["table"]["version"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=st.one_of(forged.map(json.dumps), garbage))
def test_malformed_and_forged_messages_get_an_error_and_change_nothing(live, message):
    ws = live["sockets"][0]
    before = _server_version(live)
    ws.send(message)
    reply = next_reply(ws)
    if reply["type"] == "pong":  # '{"type": "ping"}' is the one harmless message garbage can produce
        return
    assert reply["type"] == "error" and reply["code"] and reply["message"]
    assert _server_version(live) == before


def test_the_server_keeps_serving_everyone_else(live):
    for _ in range(20):
        live["sockets"][0].send("{" * 50)
    other = live["sockets"][1]
    other.send(json.dumps({"type": "ping"}))
    assert next_reply(other)["type"] == "pong"
    assert httpx.get(f"{live['base']}/healthz").json() == {"status": "ok"}
    live["sockets"][0].send("x" * 9000)
    assert next_reply(live["sockets"][0])["code"] == "bad_message"
    asyncio.run(asyncio.sleep(0))


class Tracebacks(logging.Handler):
    """Every log record that carries an exception (uvicorn's "Exception in ASGI application")."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(record)


@pytest.fixture
def tracebacks() -> Iterator[Tracebacks]:
    handler = Tracebacks()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


# Header and cookie values as they can come off the wire: any Latin-1 octets but CR, LF and
# NUL (h11/httptools refuse those before the app), arbitrary Unicode sent as UTF-8, and very long ones.
_octet = st.integers(1, 255).filter(lambda b: b not in (10, 13))
header_values = st.one_of(
    st.lists(_octet, max_size=40).map(bytes),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"), max_size=30)
    .map(lambda t: t.encode("utf-8")),
    st.integers(1000, 7000).map(lambda n: b"\xe9" * n),
    st.sampled_from([b"\xff\xfe", "é".encode(), "ü".encode("latin-1"), b"\x80", b" ", b"=;,\"\\"]),
)
_endpoints = [("POST", "/api/login", {"name": "fuzz0", "password": "wrong password"}),
              ("POST", "/api/register", {"name": "fuzznew", "password": "password1"}),
              ("POST", "/api/guest", None), ("POST", "/api/logout", None), ("POST", "/api/tables", {"slots": [None, None]}),
              ("GET", "/api/session", None), ("GET", "/api/tokens", None), ("GET", "/api/leaderboard", None)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=st.sampled_from(_endpoints), where=st.sampled_from(["csrf", "csrf-cookie", "session-cookie", "both",
                                                                    "authorization", "origin", "cookie-header"]),
       value=header_values)
def test_any_header_or_cookie_value_gets_a_4xx_never_a_500(live, tracebacks, endpoint, where, value):
    """Issue #23 item 5: a non-ASCII X-CSRF-Token or fz_csrf answered 500 with a traceback
    (``secrets.compare_digest`` on str), without logging in."""
    method, path, body = endpoint
    good = b"A" * 32
    headers: dict[str, bytes] = {"X-CSRF-Token": good, "Cookie": b"fz_csrf=" + good}
    if where in ("csrf", "both"):
        headers["X-CSRF-Token"] = value
    if where in ("csrf-cookie", "both"):
        headers["Cookie"] = b"fz_csrf=" + value
    if where == "session-cookie":
        headers["Cookie"] = b"fz_csrf=" + good + b"; fz_session=" + value
    if where == "cookie-header":
        headers["Cookie"] = value
    if where == "authorization":
        headers["Authorization"] = b"Bearer " + value
    if where == "origin":
        headers["Origin"] = value
    status, answer = raw_exchange(live, method, path, headers, json.dumps(body).encode() if body else b"")
    assert status < 300 or 400 <= status < 500, (status, answer)
    if status >= 400 and answer.startswith(b"{"):  # the HTTP parser answers a control character with a plain 400
        assert json.loads(answer)["error"]["code"]
    assert not tracebacks.records, [r.getMessage() for r in tracebacks.records]


def raw_exchange(live: dict[str, Any], method: str, path: str, headers: dict[str, bytes], body: bytes = b"") -> tuple[int, bytes]:
    """One request written byte for byte (an HTTP client library would refuse or fold odd
    values before they leave), and the status and body of the answer."""
    head = [f"{method} {path} HTTP/1.1".encode(), b"Host: 127.0.0.1", b"Connection: close",
            b"Content-Length: " + str(len(body)).encode()]
    if body:
        head.append(b"Content-Type: application/json")
    head += [name.encode() + b": " + value for name, value in headers.items()]
    with socket.create_connection(("127.0.0.1", live["server"].port), timeout=10) as conn:
        conn.sendall(b"\r\n".join(head) + b"\r\n\r\n" + body)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    status_line, _, rest = b"".join(chunks).partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


def test_a_non_ascii_csrf_token_is_a_403(live, tracebacks):
    for header, cookie in (("é".encode(), b"fz_csrf=" + "é".encode()), (b"\xff" * 32, b"fz_csrf=" + b"\xff" * 32),
                           ("ü".encode("latin-1"), b"fz_csrf=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")):
        status, answer = raw_exchange(live, "POST", "/api/guest", {"X-CSRF-Token": header, "Cookie": cookie})
        assert status == 403 and json.loads(answer)["error"]["code"] == "csrf"
    assert not tracebacks.records


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["Origin", "Cookie", "Authorization", "Host"]), value=header_values)
def test_any_websocket_handshake_header_is_refused_or_accepted_without_a_traceback(live, tracebacks, name, value):
    """The WebSocket's own handshake reads Origin and the session cookie: ``Origin: http://[``
    made ``urlparse`` raise."""
    headers = {"Upgrade": b"websocket", "Connection": b"Upgrade", "Sec-WebSocket-Key": b"dGhlIHNhbXBsZSBub25jZQ==",
               "Sec-WebSocket-Version": b"13", name: value}
    head = [b"GET /ws HTTP/1.1"] + ([] if name == "Host" else [b"Host: 127.0.0.1"])
    head += [key.encode() + b": " + v for key, v in headers.items()]
    with socket.create_connection(("127.0.0.1", live["server"].port), timeout=10) as conn:
        conn.sendall(b"\r\n".join(head) + b"\r\n\r\n")
        status = int(conn.recv(65536).split(b"\r\n", 1)[0].split()[1])
    assert status == 101 or 400 <= status < 500, status
    assert not tracebacks.records, [r.getMessage() for r in tracebacks.records]


def test_an_origin_that_is_no_url_is_refused_without_a_traceback(live, tracebacks):
    for origin in (b"http://[", b"http://[::1", "http://é".encode()):
        headers = [b"GET /ws HTTP/1.1", b"Host: 127.0.0.1", b"Upgrade: websocket", b"Connection: Upgrade",
                   b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", b"Sec-WebSocket-Version: 13", b"Origin: " + origin]
        with socket.create_connection(("127.0.0.1", live["server"].port), timeout=10) as conn:
            conn.sendall(b"\r\n".join(headers) + b"\r\n\r\n")
            assert conn.recv(65536).split()[1] == b"403"
    assert not tracebacks.records, [r.getMessage() for r in tracebacks.records]
