"""A cash session's result, all-in EV and luck (analysis/sessions.py, issue #36): the hands
dealt at the session's table between sitting down and leaving, each reviewed as ``freezeout
review`` reviews a cash hand; luck is the result less the all-in EV, and a freezeout's chips
are never added to play chips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from freezeout.analysis.equity import equity
from freezeout.analysis.games import game_for
from freezeout.analysis.sessions import freezeout_line, hand_line, in_session, luck_totals, session_line
from freezeout.cards import parse_cards

DATA = Path(__file__).parent / "data"


def _hand(name: str, at: float) -> dict[str, Any]:
    hand: dict[str, Any] = json.loads((DATA / name).read_text())
    return {**hand, "started_at": at}


def test_a_session_holds_the_hands_dealt_at_its_table_from_sitting_down_to_leaving() -> None:
    session = {"table": "t1", "started_at": 100.0, "ended_at": 200.0}
    assert [in_session({"started_at": at}, session) for at in (99.0, 100.0, 150.0, 200.0, 201.0)] == [
        False, True, True, True, False]
    assert not in_session({"started_at": 150.0, "table": "t2"}, session)
    assert in_session({"started_at": 10**9}, {**session, "ended_at": None})  # still seated
    assert not in_session({}, session)  # a hand without its time is in no session


def test_a_sessions_luck_is_its_all_ins_result_less_their_equity_times_the_pots() -> None:
    # KsKh (p12) against AsAh (p11), all in before the flop, run twice, 300 raked: both runs to the aces
    odds = equity(game_for("NT"), [[tuple(int(c) for c in parse_cards("KsKh"))], [tuple(int(c) for c in parse_cards("AsAh"))]])
    run_twice = hand_line(_hand("cash_run_twice.json", 150.0), "p12")
    side_pot = hand_line(_hand("cash_side_pot.json", 160.0), "p12")  # no run-out: EV is the result
    assert run_twice is not None and side_pot is not None
    assert run_twice["result"] == -8000 and run_twice["all_in"]
    assert run_twice["all_in_ev"] == pytest.approx(odds.equity[0] * 15700 - 8000, abs=0.01)
    assert side_pot == {"result": -4000, "all_in_ev": -4000, "all_in": False}
    assert hand_line(_hand("cash_side_pot.json", 160.0), "nobody") is None
    line = session_line({"table": "t1", "started_at": 100.0, "ended_at": 200.0, "open": False, "net": -12000, "bought_in": 12000},
                        [run_twice, side_pot, None])
    assert line["hands"] == 2 and line["not_reviewed"] == 1 and line["all_ins"] == 1
    assert line["result"] == -12000 == line["net"] and "bought_in" not in line
    assert line["all_in_ev"] == pytest.approx(run_twice["all_in_ev"] - 4000, abs=0.01)
    assert line["luck"] == pytest.approx(-8000 - run_twice["all_in_ev"], abs=0.01)


def test_totals_add_lines_of_one_kind_and_a_freezeout_line_is_its_review_for_the_player() -> None:
    review = {"game": "NT", "players": {"ana": {"result": 1000, "all_in_ev": 400.5, "all_ins": 2}},
              "hands": [{"result": {"ana": 10, "bo": -10}}, {"result": {"bo": 0}}]}
    line = freezeout_line({"id": "g1", "finished_at": 5.0}, review, "ana")
    assert line == {"game": "g1", "code": "NT", "finished_at": 5.0, "hands": 1, "result": 1000, "all_in_ev": 400.5,
                    "luck": 599.5, "all_ins": 2}
    assert freezeout_line({"id": "g1"}, review, "cy") is None
    assert luck_totals([line, {**line, "result": -500, "all_in_ev": -100.25, "all_ins": 1}]) == {
        "count": 2, "result": 500, "all_in_ev": 300.25, "luck": 199.75, "all_ins": 3}
    assert luck_totals([]) == {"count": 0, "result": 0, "all_in_ev": 0.0, "luck": 0.0, "all_ins": 0}
