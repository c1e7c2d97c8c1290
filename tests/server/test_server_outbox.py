"""The outbox's direct path writes WebSocket frames itself: they must be what a client parses."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from freezeout.server.clock import FakeClock
from freezeout.server.transport.wsoutbox import DirectWriter, IdlePings, text_frame

from serverkit import fast_settings, heads_up_table, serve


def parsed(data: bytes) -> tuple[Frame, bytes]:
    """The first frame in ``data`` as a client reads it (unmasked: from a server), and what is left."""
    reader = StreamReader()
    reader.feed_data(data)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        return done.value, bytes(reader.buffer)
    raise AssertionError("the frame is incomplete")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])  # each length encoding and its edges
def test_a_text_frame_is_one_unmasked_final_frame_of_the_text(size):
    payload = b"x" * size
    frame, rest = parsed(text_frame(payload))
    assert frame.opcode is Opcode.TEXT and frame.fin and frame.data == payload and rest == b""


def test_a_text_frame_carries_utf8_text():
    text = '{"name":"Žluťoučký kůň","cards":"7d??"}'
    frame, _ = parsed(text_frame(text.encode()))
    assert frame.data.decode() == text


@pytest.mark.parametrize("compression", [False, True])
async def test_updates_go_straight_to_the_socket_with_or_without_compression(tmp_path, monkeypatch, compression):
    """A table's updates take the direct path (our frames, or permessage-deflate's through
    ``websockets``) and every seat reads each version in order."""
    written: list[str] = []
    write = DirectWriter.write

    def counting(self: DirectWriter, text: str) -> None:
        written.append(text)
        write(self, text)

    monkeypatch.setattr(DirectWriter, "write", counting)
    async with serve(fast_settings(tmp_path, ws_compression=compression), FakeClock()) as h:
        table, ana, bo = await heads_up_table(h)
        for p in (ana, bo):
            await p.join(table)
        actor = h.table(table)
        for _ in range(3):
            version = actor.state.version
            for p in (ana, bo):
                await p.until_version(version)
            mover = ana if ana.view["viewer"] == actor.state.table_game.to_act else bo
            await mover.send({"type": "act", "version": version, "move": "call" if "call" in mover.view["legal"]["moves"] else "check"})
            for p in (ana, bo):
                await p.until_version(version + 1)
        for p in (ana, bo):
            versions = [m["version"] for m in p.messages if m["type"] == "update"]
            assert versions == sorted(versions) and not p.errors
        assert sum('"type":"update"' in text for text in written) >= 6  # both seats' updates, directly


async def test_spectators_share_one_text_and_each_gets_it_whole(harness):
    """One text per audience: the spectators' update is framed once and every spectator
    reads it whole, between the seats' own texts."""
    table, ana, bo = await heads_up_table(harness)
    eve, cy = await harness.guests(2)
    for p in (eve, ana, cy, bo):  # spectators and seats interleaved among the followers
        await p.join(table)
    actor = harness.table(table)
    version = actor.state.version
    mover = ana if ana.view["viewer"] == actor.state.table_game.to_act else bo
    await mover.send({"type": "act", "version": version, "move": "call" if "call" in mover.view["legal"]["moves"] else "check"})
    updates = {}
    for p in (eve, cy, ana, bo):
        await p.until_version(version + 1)
        updates[p] = p.latest
    assert updates[eve] == updates[cy] and updates[eve]["view"]["viewer"] is None
    assert updates[ana]["view"]["viewer"] != updates[bo]["view"]["viewer"]


# -- keepalive pings only on quiet connections (wsoutbox.IdlePings) ------------------------------


class _Timer:
    def __init__(self, at: float, callback) -> None:
        self.at, self.callback, self.cancelled = at, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class _Loop:
    """A loop whose time moves only when told, running the timers that fall due."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[_Timer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback) -> _Timer:
        timer = _Timer(self.now + delay, callback)
        self.timers.append(timer)
        return timer

    def advance_to(self, moment: float) -> None:
        while due := sorted((t for t in self.timers if not t.cancelled and t.at <= moment), key=lambda t: t.at):
            timer = due[0]
            self.timers.remove(timer)
            self.now = timer.at
            timer.callback()
        self.now = moment


class _Protocol:
    """What IdlePings needs of uvicorn's sans-I/O protocol: its keepalive, which pings and,
    once the pong is in, schedules the next ping through the instance's attribute."""

    def __init__(self, loop: _Loop, interval: float) -> None:
        self.loop, self.ping_interval = loop, interval
        self.pings: list[float] = []
        self.ping_timer = loop.call_later(interval, self.send_keepalive_ping)  # as at the handshake

    def send_keepalive_ping(self) -> None:
        self.ping_timer = None
        self.pings.append(self.loop.time())

    def pong(self) -> None:
        self.schedule_ping()

    def schedule_ping(self) -> None:
        self.ping_timer = self.loop.call_later(self.ping_interval, self.send_keepalive_ping)


def _installed(interval: float = 20.0) -> tuple[_Loop, _Protocol, IdlePings]:
    loop = _Loop()
    protocol = _Protocol(loop, interval)

    class _Receive:  # starlette's WebSocket keeps the protocol's bound ``receive``
        def __init__(self) -> None:
            self.__self__ = protocol

    websocket = type("W", (), {"_receive": _Receive()})()
    pings = IdlePings.of(websocket, loop)  # type: ignore[arg-type]
    assert pings is not None
    return loop, protocol, pings


def test_a_silent_connection_is_pinged_every_interval():
    loop, protocol, _ = _installed()
    loop.advance_to(20.0)
    assert protocol.pings == [20.0]
    protocol.pong()
    loop.advance_to(60.0)
    assert protocol.pings == [20.0, 40.0]


def test_a_connection_that_speaks_is_not_pinged_until_it_falls_silent_for_an_interval():
    loop, protocol, pings = _installed()
    for moment in (5.0, 19.0, 30.0, 45.0):  # the peer's messages: each proves it alive
        loop.advance_to(moment)
        pings.heard()
    loop.advance_to(64.9)
    assert protocol.pings == []
    loop.advance_to(65.0)  # one interval after its last message: a ping, as for any silent peer
    assert protocol.pings == [65.0]


def test_a_ping_already_in_flight_is_answered_as_before_and_the_next_waits_for_silence():
    loop, protocol, pings = _installed()
    loop.advance_to(20.0)
    assert protocol.pings == [20.0]
    loop.advance_to(21.0)
    protocol.pong()  # uvicorn schedules the next ping with the instance's method: ours
    loop.advance_to(30.0)
    pings.heard()
    loop.advance_to(49.9)
    assert protocol.pings == [20.0]
    loop.advance_to(50.0)
    assert protocol.pings == [20.0, 50.0]


def test_removed_the_protocol_has_its_own_keepalive_back():
    _, protocol, pings = _installed()
    pings.remove()
    assert "send_keepalive_ping" not in vars(protocol)


async def test_the_served_connections_keepalive_waits_for_silence(tmp_path, monkeypatch):
    """Under the real uvicorn (as `freezeout serve`), every connection's keepalive is ours."""
    installed: list[IdlePings | None] = []
    of = IdlePings.of

    def recording(websocket, loop):
        installed.append(of(websocket, loop))
        return installed[-1]

    monkeypatch.setattr(IdlePings, "of", staticmethod(recording))
    async with serve(fast_settings(tmp_path), FakeClock()) as h:
        table, ana, bo = await heads_up_table(h)
        for p in (ana, bo):
            await p.join(table)
        assert installed and all(p is not None for p in installed)
        for pings in installed:
            assert pings is not None and pings.protocol.send_keepalive_ping == pings.due
            assert pings.protocol.ping_timer is not None
