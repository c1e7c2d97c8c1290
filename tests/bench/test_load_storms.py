"""bench/load.py's simulated player across a storm (issue #32 item 12): a player told to stop
while its connection closes must not think again on what still arrives on it.  The 30-minute
soak's client had 13 ``Player.act`` tracebacks after its storms: a view arrived between
``stop()`` and the close, armed a new thinking timer, the storm then cleared the player's
views, and the timer fired on none.  No server, no clock: the timer is a recorded callback."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def load():  # type: ignore[no-untyped-def]  # the bench module
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH))
        import load as module

        yield module


class Conn:
    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.closed = False

    def send_text(self, text: bytes) -> None:
        self.sent.append(text)

    def close(self) -> None:
        self.closed = True


class Timers:
    """Stands in for the loop's ``call_later``: the callbacks are run by the test."""

    def __init__(self) -> None:
        self.due: list[Any] = []

    def call_later(self, _delay: float, callback: Any) -> Any:
        self.due.append(callback)
        return self

    def cancel(self) -> None:
        pass


def update(version: int) -> bytes:
    view = {"legal": {"moves": ["check", "bet"], "min_to": 20, "max_to": 100}, "to_act": 0, "viewer": 0, "finished": False}
    return orjson.dumps({"type": "update", "version": version, "view": view})


def test_a_view_that_arrives_while_the_storm_closes_the_connection_arms_no_move(load, monkeypatch):
    timers = Timers()
    monkeypatch.setattr(load.asyncio, "get_running_loop", lambda: timers)
    player = load.Player("t1", 4, load.Stats(), (1.0, 4.0), random.Random(1))
    conn = Conn()
    player.opened(conn)
    player.received(conn, update(5))
    assert len(timers.due) == 1  # its turn: thinking
    player.stop()  # the storm: every player leaves at once
    player.received(conn, update(6))  # still arriving on the closing connection
    assert len(timers.due) == 1 and player.thinking is None
    player.conn, player.latest = None, None  # what storms() does once every connection is closed
    for callback in timers.due:
        callback()  # a timer armed before would act on nothing: it must return quietly
    assert conn.sent == [b'{"type":"join","table":"t1"}']
    again = Conn()
    player.opened(again)  # reconnected: thinks again on its next view
    player.received(again, update(7))
    assert len(timers.due) == 2
    timers.due[-1]()
    assert orjson.loads(again.sent[-1])["version"] == 7
