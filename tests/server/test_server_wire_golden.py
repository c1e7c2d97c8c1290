"""What a table sends is the same, byte for byte, whatever shape its steps take inside (issue #33).

A scripted table of each format (a freezeout's game, its end and rematch; a cash
table's seats, requests, hands, waiting list and close) is folded entry by entry
and every message its followers would read is written: the public events of each
entry (what a catch-up joins), each seat's and a spectator's update, and a
snapshot.  Their digests were taken from the code before the table's events
became typed values and the move's walk was cut short; a reshape that changes a
byte of what a client receives fails here, naming the entry.

Regenerate (only for a change of the wire that docs/protocol.md announces):
``FREEZEOUT_WIRE_GOLDEN=write pytest tests/server/test_server_wire_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from freezeout.rules.actions import Action, ActionKind
from freezeout.server import entries
from freezeout.server.gamespec import GameSpec
from freezeout.server.settings import Settings
from freezeout.server.table import steps
from freezeout.server.table.fanout import Fanout
from freezeout.server.table.state import Refused, TableState, initial_state, reduce

GOLDEN = Path(__file__).parent.parent / "data" / "wire_golden.json"
SETTINGS = Settings(deck_seed="golden", test_mode=True)


class Script:
    """A table's log written by hand, each entry folded and told as the actor tells it."""

    def __init__(self, create: entries.CreateEntry) -> None:
        self.fanout = Fanout(SETTINGS)
        self.state: TableState = initial_state(entries.LogEntry.of("t0123456789ab", 1, 0.0, create))
        self.rng = random.Random(11)
        self.texts: list[tuple[str, str]] = []  # (what, text)
        self.at = 0.0

    def write(self, body: entries.EntryBody) -> None:
        self.at += 1.0
        entry = entries.LogEntry.of(self.state.id, self.state.version + 1, self.at, body)
        self.state, told, events = reduce(self.state, entry)
        self.fanout.record(self.state, told, events)
        name = f"{self.state.version}:{entry.kind}"
        self.texts.append((f"{name}:events", self.fanout.catchup[-1][1].decode()))
        seats = [None, *range(len(self.state.players))] if self.state.table_game is not None else [None]
        for seat, text in self.fanout.update_texts(self.state, self.at, seats).items():
            self.texts.append((f"{name}:update:{seat}", text))
        self.texts.append((f"{name}:snapshot", self.fanout.snapshot_text(self.state, self.at, None, None, [True, False])))

    def try_write(self, body: entries.EntryBody) -> None:
        try:
            self.write(body)
        except Refused:
            self.texts.append((f"refused:{body.kind}", ""))

    @property
    def to_act(self) -> int:
        t = self.state.table_game
        assert t is not None
        return t.to_act

    def deal(self) -> None:
        """The next hand (the one on first played out by calls and checks)."""
        self.play(50)
        t = self.state.table_game
        if t is None or t.finished:
            return
        if self.state.next_deal is None:
            self.write(steps.commit_entry(self.state, "golden", self.rng))
        self.write(entries.DealEntry())

    def play(self, moves: int) -> None:
        """``moves`` calls or checks (the first legal of them), while a hand is on."""
        for _ in range(moves):
            t = self.state.table_game
            if t is None or not t.in_hand:
                return
            legal = t.legal_actions()
            assert legal is not None
            self.write(entries.ActEntry(Action(legal.seat, ActionKind.CALL if legal.call_amount else ActionKind.CHECK)))


def _freezeout() -> Script:
    s = Script(entries.CreateEntry((entries.Slot(), entries.Slot()), True, 1, GameSpec.parse("NT")))
    s.write(entries.SitEntry(0, entries.Slot(1, "ana", "user")))
    s.write(entries.SitEntry(1, entries.Slot(2, "bo", "user")))
    s.write(entries.StandEntry(1))
    s.write(entries.SitEntry(1, entries.Slot(2, "bo", "user")))
    body, _ = steps.start_entry(s.state, s.at, "golden", s.rng)
    s.write(body)
    s.deal()
    s.write(entries.ActEntry(Action(s.to_act, ActionKind.TIMEOUT), reason="inactivity"))  # R26
    s.deal()
    s.play(3)
    s.write(entries.ActEntry(Action(s.to_act, ActionKind.TIMEOUT), reason="dont_wait", by=1 - s.to_act))  # R27
    s.deal()
    s.play(20)  # a whole hand called down: a showdown's names and best cards
    s.deal()
    s.write(entries.ResumeEntry(s.at + 30.0, 2.5))
    s.write(entries.ActEntry(Action(s.to_act, ActionKind.RESIGN)))  # R29
    assert s.state.needs_end
    s.write(entries.EndEntry(s.state.game_id, {"ana": 1, "bo": 2}, {"ana": [1500.0, 1512.5], "bo": [1500.0, 1487.5]},
                     provisional=["bo"]))
    s.write(entries.RematchEntry(0))
    s.write(entries.RematchEntry(1))
    body, _ = steps.start_entry(s.state, s.at, "golden", s.rng)
    s.write(body)
    s.deal()
    s.write(entries.ActEntry(Action(s.to_act, ActionKind.RESIGN)))
    s.write(entries.EndEntry(s.state.game_id, {"ana": 1, "bo": 2}, None, unrated="aborted"))
    return s


def _cash() -> Script:
    spec = GameSpec.parse_cash("NT", {"big_blind": 200, "rake_bp": 500, "rake_cap": 300,
                                          "straddle": True, "run_twice": True})
    s = Script(entries.CreateEntry((entries.Slot(), entries.Slot(), entries.Slot()), False, 1, spec))
    s.write(entries.SitEntry(0, entries.Slot(11, "p11", "user"), chips=8000, transfer="a-1"))
    s.write(entries.SitEntry(1, entries.Slot(12, "p12", "user"), chips=6000, post=True))
    s.write(entries.SitEntry(2, entries.Slot(15, "p15", "user"), chips=4000, moved_from="t00000000000f"))  # C14
    s.write(entries.WaitlistEntry("join", 13, "p13"))  # C13: a full table's list
    s.write(entries.WaitlistEntry("join", 14, "p14", anywhere=True))
    s.write(entries.WaitlistEntry("leave", 14))
    for seat in range(3):  # C6: the one under the gun may
        s.try_write(entries.CashSeatEntry("straddle", seat))
    s.write(entries.CashSeatEntry("auto_top_up", 0, to=9000))
    s.deal()
    s.write(entries.CashSeatEntry("run_twice", 0, True))  # C7
    s.write(entries.CashSeatEntry("run_twice", 1, False))
    s.play(20)  # a hand called down: the showdown, the muck, the rake
    s.write(entries.TopUpEntry(1, 1000, transfer="b-2"))
    s.try_write(entries.CashSeatEntry("auto_top_up_skipped", 0))
    s.try_write(entries.TopUpEntry(0, 1000, auto=True))
    s.write(entries.CashSeatEntry("sit_out", 1))
    s.write(entries.CashSeatEntry("sit_in", 1, True))
    s.deal()
    game = s.state.table_game
    assert game is not None
    s.write(entries.StandEntry(0))  # C3: in a hand: leaves with the hand's end
    s.play(20)
    s.write(entries.WaitlistEntry("decline", 13))
    for seat in (1, 2):  # C3: between hands, with every chip
        t = s.state.table_game
        assert t is not None
        s.write(entries.StandEntry(seat, chips=t.table.seats[seat].stack))  # type: ignore[attr-defined]
    s.write(entries.CloseEntry())
    return s


SCRIPTS: dict[str, Callable[[], Script]] = {"freezeout": _freezeout, "cash": _cash}


def _digests(script: Script) -> Iterator[tuple[str, str]]:
    for what, text in script.texts:
        yield what, hashlib.sha256(text.encode()).hexdigest()[:24]


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_what_a_table_of_each_format_sends_is_the_same_byte_for_byte(name: str) -> None:
    got = [list(pair) for pair in _digests(SCRIPTS[name]())]
    if os.environ.get("FREEZEOUT_WIRE_GOLDEN") == "write":
        stored = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        GOLDEN.write_text(json.dumps({**stored, name: got}, indent=0) + "\n")
    want = json.loads(GOLDEN.read_text())[name]
    assert len(got) == len(want)
    for (what, digest), (was, before) in zip(got, want, strict=True):
        assert (what, digest) == (was, before), f"{what}: the text a client receives changed"
    assert sum(1 for what, _ in got if what.endswith(":events")) > 20  # the script is a real hand, not a stub
