"""What gateways and owners say over the bus is typed: each command reads back as it was sent (cluster/routing.py).

A command is one of a few types with one serializer and one decoder each; an
intent crosses the bus as the client's typed intent (protocol.Intent), never as
a dict the owner would have to trust; a command that does not read is refused
as a whole (the worker drops it with a warning), never half applied.
"""

from __future__ import annotations

import orjson
import pytest

from freezeout.server.cluster.routing import (
    Alive,
    Answer,
    AttachConn,
    DetachConn,
    ForConn,
    OwnerChanged,
    PresenceText,
    Refresh,
    Request,
    TableTexts,
    decode_answer,
    decode_command,
    decode_update,
    encode_answer,
    encode_command,
    owner_update,
    presence_update,
    table_update,
)
from freezeout.server.storage.store import UserRow
from freezeout.server.transport.protocol import Act, Draw, Sit, Stand

ANA = UserRow(7, "ana", "user", None, 1512.5, 3, "Ana")

COMMANDS = [
    AttachConn("c1", ANA, None),
    AttachConn("c1", None, 12),
    DetachConn("c1"),
    ForConn("c1", ANA, Act(type="act", version=12, move="raise", amount=60, key="k-raise-60", id=4)),
    ForConn("c2", ANA, Draw(type="draw", version=3, cards="7d2c")),
    Request("r1", ANA, Sit(type="sit", slot=1)),
    Request("r2", ANA, Stand(type="stand")),
    Request("r3", None, None),  # the summary
    Refresh((("c1", ANA, 12), ("c2", None, None))),
    Alive(),
]


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{type(c).__name__}-{i}" for i, c in enumerate(COMMANDS)])
def test_every_command_reads_back_as_it_was_sent(command):
    assert decode_command(encode_command(command)) == command


def test_an_intent_keeps_the_clients_json_on_the_bus():
    body = orjson.loads(encode_command(ForConn("c1", None, Act(type="act", version=12, move="call"))))
    assert body == {"op": "intent", "conn": "c1", "user": None,
                    "msg": {"id": None, "key": None, "type": "act", "version": 12, "move": "call", "amount": None}}


@pytest.mark.parametrize("body", [
    b"[]",
    b'{"op": "teleport"}',
    b'{"op": "intent", "conn": "c1", "user": null, "msg": {"type": "act", "version": -1, "move": "call"}}',
    b'{"op": "intent", "conn": "c1", "user": null, "msg": {"type": "act", "version": 1, "move": "fly"}}',
])
def test_a_command_that_does_not_read_is_refused_whole(body):
    with pytest.raises(ValueError):
        decode_command(body)


def test_answers_and_a_tables_news_read_back():
    assert decode_answer(encode_answer(Answer(summary={"id": "t1"}))) == Answer(summary={"id": "t1"})
    assert decode_answer(encode_answer(Answer(error=("busy", "try again")))) == Answer(error=("busy", "try again"))
    assert decode_update(table_update({"-": "a", "0": "b"}, {7: 0})) == TableTexts({"-": "a", "0": "b"}, {"7": 0})
    assert decode_update(presence_update('{"type":"presence"}')) == PresenceText('{"type":"presence"}')
    assert decode_update(owner_update("w1", 3)) == OwnerChanged("w1", 3)
    assert decode_update(b'{"k": "news"}') is None
