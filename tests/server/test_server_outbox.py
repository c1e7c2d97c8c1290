"""The outbox's direct path writes WebSocket frames itself: they must be what a client parses."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from freezeout.server.clock import FakeClock
from freezeout.server.transport.wsoutbox import DirectWriter, text_frame

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
