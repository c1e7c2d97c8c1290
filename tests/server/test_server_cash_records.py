"""The hand history of cash hands (issue #25): every hand a cash table deals is recorded from
its log — posts, cards, moves, the rake (C5), each run's board and winners (C7), hands shown
and mucked (V17) — served as JSON and PHH to each asker as they saw it, and PokerKit loads it."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_cash import cash_heads_up, play_hands
from test_server_cash_play import EventLog

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import ActEntry, CashSeatEntry, LogEntry
from freezeout.server.table.records import GameRecorder, cash_hand_for, cash_hands_of_log
from freezeout.server.table.state import reduce


class RecordedLog(EventLog):
    """A cash table's log written by hand, recorded as the table's recorder records it."""

    def __init__(self, options: dict[str, Any], seats: int = 4) -> None:
        self.recorder = GameRecorder()
        super().__init__(options, seats)

    def write(self, body: Any, at: float = 0.0) -> list[dict[str, Any]]:
        old = self.state
        entry = LogEntry.of("t1", old.version + 1, at, body)
        _, _, events = reduce(old, entry)
        told = super().write(body, at)
        self.recorder.apply(old, self.state, entry, events)
        return told


def play(options: dict[str, Any], hole: list[str], board: str, *, all_in: bool = False, twice: bool = False) -> RecordedLog:
    log = RecordedLog(options)
    for seat in range(len(hole)):
        log.sit(seat, 11 + seat, 8000)
    log.deal_rigged(hole, board)
    if twice:
        for seat in range(len(hole)):
            log.write(CashSeatEntry("run_twice", seat, True))
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        kind = (ActionKind.ALLIN if (all_in and legal.call_amount == 0) or (all_in and legal.seat == 0) else
                ActionKind.CALL if legal.call_amount else ActionKind.CHECK)
        log.write(ActEntry(Action(legal.seat, kind)))
    return log


def pokerkit_plays(text: str) -> list[int]:
    """PokerKit reads the PHH and plays it to the end: its finishing stacks."""
    pokerkit = pytest.importorskip("pokerkit")
    history = pokerkit.HandHistory.loads(text)
    states = list(history)
    state = states[-1]
    assert not state.status  # the hand is complete
    return list(state.stacks)


def test_a_cash_hand_is_recorded_with_its_posts_rake_and_result():  # C5
    log = play({"big_blind": 200, "rake_bp": 500, "rake_cap": 300, "show_called": True},
               ["2c7d", "AsAh", "3d8h"], "9cKd4hJsQc")
    hand = log.recorder.cash.hand(1)
    assert hand is not None and hand["number"] == 1 and hand["game"] == "NT"
    assert sorted(kind for _, kind, _ in hand["posts"]) == ["big blind", "small blind"]
    assert hand["rake"] == 30 and hand["board"] == "9cKd4hJsQc"  # 5 % of 600
    assert hand["pots"] == [{"pot": 0, "amount": 570, "winners": [["p12", 570]], "ranking": "high"}]
    assert hand["finishing_stacks"] == [7800, 8370, 7800]
    assert hand["hole"] == {"p11": "2c7d", "p12": "AsAh", "p13": "3d8h"} and "seed" in hand and "commitment" in hand
    assert "_rake = 30" in hand["phh"]
    assert sorted(pokerkit_plays(hand["phh"])) == sorted([7800, 8400, 7800])  # PokerKit takes no rake


def test_each_asker_sees_their_own_cards_and_the_hands_shown_not_the_mucked():  # R17, V17
    log = play({"big_blind": 200}, ["2c7d", "AsAh", "3d8h"], "9cKd4hJsQc")
    hand = log.recorder.cash.hand(1)
    assert hand is not None
    mucked = hand["mucked"]
    assert mucked and "p12" in hand["shown"]
    for viewer in (None, "p11", "p12", "p13"):
        seen = cash_hand_for(hand, viewer)
        assert "seed" not in seen and seen["commitment"] == hand["commitment"]
        for name, cards in hand["hole"].items():
            visible = name == viewer or name in hand["shown"]
            assert seen["hole"][name] == (cards if visible else "????")
            assert all((cards[i : i + 2] in seen["deck"]) == visible for i in (0, 2))  # opened: only what they saw
            assert (cards in seen["phh"]) == visible, (viewer, name)
        pokerkit_plays(seen["phh"])  # what an asker gets still plays to the end


def test_a_hand_run_twice_shows_both_boards_and_each_runs_winners():  # C7
    log = play({"big_blind": 200}, ["AsAh", "KsKh"], "2c7d9hJc3s", all_in=True, twice=True)
    hand = log.recorder.cash.hand(1)
    assert hand is not None
    assert hand["board"] == "2c7d9hJc3s" and len(hand["second_board"]) == 10
    assert {pot["run"] for pot in hand["pots"]} == {1, 2}
    assert [pot["amount"] for pot in hand["pots"]] == [8000, 8000]
    assert f'_second_board = "{hand["second_board"]}"' in hand["phh"]
    assert sum(hand["finishing_stacks"]) == 16000


def test_the_hands_fold_from_the_log_as_the_table_recorded_them():  # design principle 7
    log = play({"big_blind": 200, "rake_bp": 500, "rake_cap": 300}, ["2c7d", "AsAh", "3d8h"], "9cKd4hJsQc")
    assert cash_hands_of_log(log.entries).hand(1) == log.recorder.cash.hand(1)


async def test_get_a_cash_hand_and_its_phh_over_http(harness):
    h = harness
    table, ana, bo = await cash_heads_up(h)
    await play_hands(h, table, [ana, bo], 1)
    full = h.table(table).recorder.cash.hand(1)
    assert full is not None
    got = (await ana.http.get(f"/api/tables/{table}/hands/1")).json()
    assert got["hole"]["ana"] == full["hole"]["ana"] and got["rake"] == full["rake"] == 20
    assert "seed" not in got and full["hole"]["ana"] in got["phh"]  # a file that replays on its own
    spectator = await h.player()
    seen = (await spectator.http.get(f"/api/tables/{table}/hands/1")).json()
    assert all(seen["hole"][name] == ("????" if name not in full["shown"] else cards)
               for name, cards in full["hole"].items())
    phh = await ana.http.get(f"/api/tables/{table}/hands/1.phh")
    assert phh.status_code == 200 and full["hole"]["ana"] in phh.text and "_rake = 20" in phh.text
    pokerkit_plays(phh.text)
    missing = await ana.http.get(f"/api/tables/{table}/hands/9")
    assert missing.status_code == 404


@pytest.mark.parametrize(("hole", "board", "twice"), [
    (["2c7d", "AsAh", "3d8h"], "9cKd4hJsQc", False),  # raked, at a showdown
    (["AsAh", "KsKh"], "2c7d9hJc3s", True),  # all in before the flop, run twice
    (["AsKd", "AhKc"], "2c7d9hJc3s", True),  # run twice, both runs split
])
def test_our_phh_replay_reads_the_rake_and_the_second_run_and_matches(hole, board, twice):  # C5, C7
    from freezeout.formats.phh_replay import replay_phh_text

    log = play({"big_blind": 200, "rake_bp": 500, "rake_cap": 300}, hole, board, all_in=twice, twice=twice)
    hand = log.recorder.cash.hand(1)
    assert hand is not None and "phh" in hand, hand.get("phh_error")
    replayed = replay_phh_text(hand["phh"])
    assert replayed.matches is True
    assert replayed.state.rake == hand["rake"] and sorted(replayed.finishing_stacks) == sorted(hand["finishing_stacks"])
    for viewer in (None, *hand["players"]):  # what each asker gets replays to the same stacks
        assert replay_phh_text(cash_hand_for(hand, viewer)["phh"]).matches is True


async def test_the_replayer_steps_of_a_cash_hand_show_each_asker_what_they_saw(harness):
    h = harness
    table, ana, bo = await cash_heads_up(h)
    await play_hands(h, table, [ana, bo], 1)
    full = h.table(table).recorder.cash.hand(1)
    assert full is not None
    got = (await ana.http.get(f"/api/tables/{table}/hands/1/steps")).json()
    assert got["number"] == 1 and got["players"] == full["players"] and got["viewer"] == 0 and got["game"] == "NT"
    steps = got["steps"]
    assert len(steps) == 1 + len(full["actions"])  # the deal, then one step per move
    first = steps[0]["view"]
    assert first["seats"][0]["cards"] == full["hole"]["ana"] and first["seats"][1]["cards"] == "????"
    assert "legal" not in first and any(e["type"] == "blind_posted" for e in steps[0]["events"])
    assert any(e["type"] == "pot_awarded" for e in steps[-1]["events"])
    spectator = await h.player()
    seen = (await spectator.http.get(f"/api/tables/{table}/hands/1/steps")).json()
    assert seen["viewer"] is None and seen["steps"][0]["view"]["seats"][0]["cards"] == "????"
    assert full["hole"]["ana"] not in str(seen["steps"][0])
    assert (await ana.http.get(f"/api/tables/{table}/hands/2/steps")).status_code == 404


async def test_a_hand_older_than_the_recorder_keeps_is_folded_from_the_log(harness, monkeypatch):
    from freezeout.server.table.records import CashHands

    monkeypatch.setattr(CashHands, "KEEP", 1)
    h = harness
    table, ana, bo = await cash_heads_up(h)
    await play_hands(h, table, [ana, bo], 2)
    recorder = h.table(table).recorder.cash
    assert recorder.hand(1) is None and recorder.hand(2) is not None
    got = await ana.http.get(f"/api/tables/{table}/hands/1")
    assert got.status_code == 200 and got.json()["number"] == 1 and got.json()["rake"] == 20
