"""The log's entries are typed, and their stored JSON is what servers have always written.

A database written before the entries had types must load unchanged, and an
entry written now must read the same to it: so every body read from a stored
row writes back the very same JSON text (keys, order, values), and the entries
the table writes now are the ones it wrote before (server/entries.py).
"""

from __future__ import annotations

import random

import pytest

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import (
    ActEntry,
    CreateEntry,
    EndEntry,
    LogEntry,
    ResumeEntry,
    SitEntry,
    Slot,
    Stamp,
    StandEntry,
    UnknownEntry,
    decode_body,
)
from freezeout.server.fairness import new_deal
from freezeout.server.table.state import Refused, initial_state, reduce
from freezeout.server.wire import dumps

_DEAL = new_deal(1, random.Random(7)).to_json()
_LEGACY = {"hand": 2, "deck": new_deal(2, random.Random(8)).to_json()["deck"], "salt": "ab" * 16}

# Rows as servers before the types wrote them (the same keys in the same order).
STORED = [
    ("create", {"slots": [None, {"user_id": 3, "name": "bot-easy", "kind": "bot", "bot": "easy"}], "ranked": False,
                "created_by": 1}),
    ("create", {"slots": [None, None], "ranked": True, "created_by": 1, "game": {"code": "FO/8", "format": "freezeout"}}),
    ("sit", {"slot": 0, "user_id": 1, "name": "ana", "kind": "user"}),
    ("sit", {"slot": 1, "user_id": 2, "name": "bo", "kind": "guest", "intent": {"user": 2, "key": "k-0123456"}}),
    ("stand", {"slot": 1}),
    ("stand", {"slot": 0, "intent": {"user": 1, "key": "k-abcdefg"}}),
    ("start", {"game": 1, "game_id": "t1-1", "players": ["bo", "ana"], "seat_slots": [1, 0], "button": 0, "deal": _DEAL}),
    ("commit", {"deal": _DEAL}),
    ("commit", {"deal": _LEGACY}),  # a deck committed as a whole by an older server
    ("deal", {}),
    ("act", {"seat": 0, "move": "call"}),
    ("act", {"seat": 1, "move": "raise", "amount": 60, "intent": {"user": 2, "key": "k-raise-60"}}),
    ("act", {"seat": 0, "move": "discard", "cards": "7d2c"}),
    ("act", {"seat": 1, "move": "timeout", "reason": "inactivity"}),
    ("act", {"seat": 1, "move": "timeout", "reason": "dont_wait", "by": 0}),
    ("act", {"seat": 0, "move": "resign"}),
    ("end", {"game_id": "t1-1", "places": {"ana": 1, "bo": 2}, "ratings": None}),
    ("end", {"game_id": "t1-1", "places": {"ana": 1, "bo": 2}, "ratings": {"ana": [1500.0, 1520.0], "bo": [1500.0, 1480.0]},
             "provisional": ["bo"]}),
    ("end", {"game_id": "t1-1", "places": {"ana": 1, "bo": 2}, "ratings": None, "unrated": "aborted"}),
    ("rematch", {"seat": 1}),
    ("resume", {"grace_until": 1234.5}),
    ("resume", {"grace_until": 1234.5, "outage": 3.25}),
]


@pytest.mark.parametrize(("kind", "data"), STORED, ids=[f"{k}-{i}" for i, (k, _) in enumerate(STORED)])
def test_every_stored_entry_reads_as_a_typed_body_that_writes_the_same_json(kind, data):
    body = decode_body(kind, data)
    assert body.kind == kind
    assert dumps(body.to_json()) == dumps(data)  # byte for byte, keys in order


def test_the_entries_a_table_writes_are_the_ones_it_wrote_before():
    stamp = Stamp(2, "k-raise-60")
    assert LogEntry.of("t1", 5, 1.0, ActEntry(Action(1, ActionKind.RAISE, 60), intent=stamp)).data == \
        {"seat": 1, "move": "raise", "amount": 60, "intent": {"user": 2, "key": "k-raise-60"}}
    assert LogEntry.of("t1", 5, 1.0, ActEntry(Action(1, ActionKind.TIMEOUT), reason="dont_wait", by=0)).data == \
        {"seat": 1, "move": "timeout", "reason": "dont_wait", "by": 0}
    assert LogEntry.of("t1", 2, 1.0, SitEntry(0, Slot(1, "ana", "user"))).data == \
        {"slot": 0, "user_id": 1, "name": "ana", "kind": "user"}
    assert LogEntry.of("t1", 2, 1.0, StandEntry(0)).data == {"slot": 0}
    assert LogEntry.of("t1", 9, 1.0, EndEntry("t1-1", {"ana": 1})).data == {"game_id": "t1-1", "places": {"ana": 1},
                                                                             "ratings": None}
    assert LogEntry.of("t1", 9, 1.0, ResumeEntry(10.0)).data == {"grace_until": 10.0}
    assert LogEntry.of("t1", 1, 1.0, CreateEntry((Slot(), Slot()), False, 1)).data == \
        {"slots": [None, None], "ranked": False, "created_by": 1}


def test_a_body_built_by_the_table_is_read_as_is_and_a_stored_one_is_decoded_once():
    body = ActEntry(Action(0, ActionKind.CALL))
    assert LogEntry.of("t1", 5, 1.0, body).body is body
    stored = LogEntry("t1", 5, 1.0, "act", {"seat": 0, "move": "call"})
    assert stored.body is stored.body and stored.body == body


def test_an_entry_is_frozen_and_the_end_the_store_committed_is_a_new_entry_read_afresh():
    entry = LogEntry.of("t1", 9, 1.0, EndEntry("t1-1", {"ana": 1, "bo": 2}))
    with pytest.raises(AttributeError):
        entry.epoch = 3  # type: ignore[misc]
    # the game's transaction decided the ratings (R25): the store answers with the end as committed
    committed = entry.committed_as({**entry.data, "ratings": {"ana": [1500.0, 1520.0]}})
    assert isinstance(committed.body, EndEntry) and committed.body.ratings == {"ana": [1500.0, 1520.0]}
    assert isinstance(entry.body, EndEntry) and entry.body.ratings is None
    assert entry.stamped(4).epoch == 4 and entry.stamped(None) is entry


def test_an_entry_of_an_unknown_kind_or_an_unreadable_move_is_refused_and_changes_nothing():
    with pytest.raises(UnknownEntry):
        decode_body("teleport", {})
    state = initial_state(LogEntry("t1", 1, 0.0, "create", {"slots": [None, None], "ranked": False}))
    with pytest.raises(Refused) as refused:
        reduce(state, LogEntry("t1", 2, 1.0, "teleport", {}))
    assert refused.value.code == "bad_message"
    with pytest.raises(Refused) as refused:
        reduce(state, LogEntry("t1", 2, 1.0, "act", {"seat": 0, "move": "fly"}))
    assert refused.value.code == "illegal"


def test_a_stamp_is_read_from_any_stored_entry_that_applies_a_keyed_intent():
    assert LogEntry("t1", 4, 1.0, "act", {"seat": 0, "move": "call", "intent": {"user": 7, "key": "k-1234567"}}).stamp \
        == Stamp(7, "k-1234567")
    assert LogEntry("t1", 4, 1.0, "act", {"seat": 0, "move": "call", "intent": {"user": "7", "key": 1}}).stamp is None
    assert LogEntry("t1", 4, 1.0, "deal", {}).stamp is None
