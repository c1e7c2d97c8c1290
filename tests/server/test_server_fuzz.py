"""Bad input: hypothesis-generated malformed and forged messages over a real
WebSocket get a clear error, change nothing, and the server keeps serving
everyone else."""

from __future__ import annotations

import asyncio
import contextlib
import json
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

from freezeout.server.app import create_app

from serverkit import fast_settings, free_port


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
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
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
