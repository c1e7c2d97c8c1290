"""The page's table connection never loses a move (issue #23 item 3; docs/protocol.md
"Resending"): every intent carries a random key, and one that got no answer is sent
again with the same key after a reconnect (and after a silence) until the server
answers it; the server applies a key at most once.  The connection is driven here
over a scripted WebSocket, so that the test chooses when the socket dies."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

FAKE_SOCKETS_JS = """async () => {
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
    open() { this.readyState = 1; this.onopen && this.onopen(); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { if (this.readyState === 3) return; this.readyState = 3; this.onclose && this.onclose(); }
    feed(msg) { this.onmessage && this.onmessage({data: JSON.stringify(msg)}); }
  }
  window.WebSocket = FakeSocket;
  const {TableConnection} = await import('/static/js/conn.js');
  const conn = new TableConnection('t000000000001', {onMessage() {}});
  window.__fzResend = {sockets, conn};
}"""


def frames(page, index: int) -> list[dict]:
    return list(page.evaluate("i => window.__fzResend.sockets[i].sent", index))


def test_a_move_sent_on_a_dying_socket_is_sent_again_with_its_key(new_page):
    page = new_page()
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    page.evaluate(FAKE_SOCKETS_JS)
    page.evaluate("window.__fzResend.sockets[0].open()")
    page.evaluate("window.__fzResend.sockets[0].feed({type: 'snapshot', version: 5, view: null})")
    sent_id = page.evaluate("window.__fzResend.conn.send({type: 'act', version: 5, move: 'call'})")
    page.evaluate("window.__fzResend.conn.send({type: 'ping'})")
    first = frames(page, 0)
    act = next(f for f in first if f["type"] == "act")
    assert act["id"] == sent_id and re.fullmatch(r"[A-Za-z0-9_-]{8,64}", act["key"])
    assert "key" not in next(f for f in first if f["type"] == "ping")  # only intents are keyed

    page.evaluate("window.__fzResend.sockets[0].close()")  # the socket dies before any answer
    page.wait_for_function("() => window.__fzResend.sockets.length === 2")  # the reconnect (after its backoff)
    page.evaluate("window.__fzResend.sockets[1].open()")
    again = frames(page, 1)
    assert again[0] == {"type": "join", "table": "t000000000001", "since": 5}
    assert again[1] == act  # the same move, the same key and id: applied at most once

    page.evaluate("window.__fzResend.conn.resend(0)")  # silence: sent again, still the same
    assert frames(page, 1)[2:] == [act]
    page.evaluate("k => window.__fzResend.sockets[1].feed({type: 'applied', key: k.key, version: 6, ref: k.id})", act)
    page.evaluate("window.__fzResend.conn.resend(0)")  # answered: never sent again
    assert len(frames(page, 1)) == 3

    refused = page.evaluate("window.__fzResend.conn.send({type: 'act', version: 6, move: 'fold'})")
    page.evaluate("r => window.__fzResend.sockets[1].feed({type: 'error', code: 'illegal', message: 'no', ref: r})", refused)
    page.evaluate("window.__fzResend.conn.resend(0)")  # an error answers it too
    assert [f["id"] for f in frames(page, 1)[3:]] == [refused]
    page.evaluate("window.__fzResend.conn.close()")
    assert page.errors == []
