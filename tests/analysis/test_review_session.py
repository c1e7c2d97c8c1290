"""``freezeout review`` of a cash session (issue #36): a file of many cash hands — the room's
``freezeout.cash_hands/1`` download, a JSON array, JSON Lines or joined downloads of
``freezeout.cash_hand/1`` histories — is reviewed hand by hand as one cash hand is, and each player's result, all-in
EV and luck are summed over the session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from freezeout.analysis.equity import equity
from freezeout.analysis.games import game_for
from freezeout.cards import parse_cards
from freezeout.cli import main

DATA = Path(__file__).parent / "data"


def _hands() -> list[dict[str, Any]]:
    return [{**json.loads((DATA / name).read_text()), "table": table}
            for name, table in (("cash_run_twice.json", "t1"), ("cash_side_pot.json", "t2"))]


def _review(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["review", str(path), "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_a_session_sums_each_players_result_all_in_ev_and_luck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = _hands()
    session = tmp_path / "session.json"
    session.write_text(json.dumps({"format": "freezeout.cash_hands/1", "hands": hands}))
    review = _review(session, capsys)
    assert review["source"] == "freezeout.cash_hands/1" and review["game"] == "NT"
    assert [(hand["table"], hand["number"]) for hand in review["hands"]] == [(h["table"], h["number"]) for h in hands]
    # p12: KsKh against AsAh all in before the flop, run twice, 300 raked (-8000), then -4000 without a run-out
    odds = equity(game_for("NT"), [[tuple(int(c) for c in parse_cards("KsKh"))], [tuple(int(c) for c in parse_cards("AsAh"))]])
    p12 = review["players"]["p12"]
    assert p12["result"] == -12000 and p12["all_ins"] == 1
    assert p12["all_in_ev"] == pytest.approx(odds.equity[0] * 15700 - 8000 - 4000, abs=0.01)
    assert p12["luck"] == pytest.approx(p12["result"] - p12["all_in_ev"], abs=0.01)
    # every player's totals are the sums of the hands reviewed one at a time
    singles = []
    for index, hand in enumerate(hands):
        one = tmp_path / f"hand{index}.json"
        one.write_text(json.dumps(hand))
        singles.append(_review(one, capsys))
    assert set(review["players"]) == {"p11", "p12", "p13"}
    for name, entry in review["players"].items():
        assert entry["result"] == sum(s["players"].get(name, {"result": 0})["result"] for s in singles)
        assert entry["all_in_ev"] == pytest.approx(sum(s["players"].get(name, {"all_in_ev": 0})["all_in_ev"] for s in singles), abs=0.01)
    assert [hand["all_in"] for hand in review["hands"]] == [s["hands"][0]["all_in"] for s in singles]


def test_a_json_array_or_json_lines_of_cash_hands_is_the_same_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = _hands()
    wrapped, array, lines, joined = tmp_path / "w.json", tmp_path / "a.json", tmp_path / "l.jsonl", tmp_path / "j.json"
    wrapped.write_text(json.dumps({"format": "freezeout.cash_hands/1", "hands": hands}))
    array.write_text(json.dumps(hands))
    lines.write_text("".join(json.dumps(hand) + "\n" for hand in hands))
    joined.write_text("".join(json.dumps(hand, separators=(",", ":")) for hand in hands))  # `cat` of downloads
    assert _review(wrapped, capsys) == _review(array, capsys) == _review(lines, capsys) == _review(joined, capsys)
    capsys.readouterr()
    assert main(["review", str(lines)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("NT: 2 hands") and "luck" in out
    assert f"hand {hands[0]['number']} at t1: all-in preflop" in out


@pytest.mark.parametrize(("content", "message"), [
    (lambda hands: json.dumps({"format": "freezeout.cash_hands/1", "hands": []}), "the file holds no cash hand"),
    (lambda hands: json.dumps([hands[0], {"format": "freezeout.record/2"}]), "hand 2 of the file is not a cash hand"),
    (lambda hands: json.dumps([hands[0], {**hands[1], "finishing_stacks": [1, 2, 3]}]), "hand 2 of the file (number"),
    (lambda hands: json.dumps(hands[0]) + "\n{not json\n", "nor JSON documents one after another: line 2"),
    (lambda hands: "{not json", "the file is not JSON"),
    (lambda hands: json.dumps({"format": "freezeout.cash_hands/1", "hands": {}}), 'lists its hands in "hands"'),
])
def test_a_session_with_a_bad_hand_is_one_clear_error(content: Any, message: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content(_hands()))
    capsys.readouterr()
    assert main(["review", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1, captured.err
