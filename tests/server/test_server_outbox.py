"""The outbox's direct path writes WebSocket frames itself: they must be what a client parses."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from freezeout.server.transport.wsoutbox import text_frame


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
