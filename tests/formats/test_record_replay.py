"""`freezeout record replay` exactly per formats.md §1."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from freezeout.cli import main
from freezeout.formats.record import RecordError, parse_record, replay_record

EXAMPLE = {
    "format": "freezeout.record/1",
    "ruleset": "house",
    "starting_stack": 1000,
    "players": ["ana", "bo", "cy"],
    "button": "ana",
    "hands": [
        {
            "hole": {"ana": "AsKd", "bo": "7c7d", "cy": "2h3h"},
            "board": "QsJsTs4c4d",
            "actions": [
                ["ana", "raise", 60], ["bo", "fold"], ["cy", "call"],
                ["cy", "check"], ["ana", "bet", 100], ["cy", "fold"],
            ],
        },
        {
            "hole": {"ana": "9c9h", "bo": "AhAd", "cy": "Kc2d"},
            "board": "9s5d2c7hJc",
            "actions": [["bo", "allin"], ["cy", "fold"], ["ana", "call"]],
        },
    ],
}

EXPECTED = {
    "hands": [
        {"number": 1, "button": "ana", "blinds": [10, 20],
         "stacks": {"ana": 1070, "bo": 990, "cy": 940}, "eliminated": []},
        {"number": 2, "button": "bo", "blinds": [10, 20],
         "stacks": {"ana": 2070, "bo": 0, "cy": 930}, "eliminated": ["bo"]},
    ],
    "standings": [
        {"player": "ana", "place": None}, {"player": "bo", "place": 3},
        {"player": "cy", "place": None},
    ],
    "finished": False,
}


def run(tmp_path: Path, record: object, capsys) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    status = main(["record", "replay", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_formats_example_replays_to_the_documented_result(tmp_path, capsys):
    status, out, err = run(tmp_path, EXAMPLE, capsys)
    assert status == 0 and err == ""
    assert json.loads(out) == EXPECTED


def test_an_illegal_move_exits_2_with_one_line_naming_hand_action_and_reason(tmp_path, capsys):
    record = copy.deepcopy(EXAMPLE)
    record["hands"][0]["actions"][0] = ["ana", "raise", 30]
    status, out, err = run(tmp_path, record, capsys)
    assert status == 2 and out == ""
    assert err == 'hand 1, action 1 ["ana","raise",30]: raise to 30 is below the minimum raise to 40\n'


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(format="freezeout.record/9"), "unsupported format"),
        (lambda r: r.update(players=["ana"]), "invalid players"),
        (lambda r: r.update(players=["ana", "ana", "cy"]), "invalid players"),
        (lambda r: r.update(button="zed"), "invalid button"),
        (lambda r: r.update(ruleset="casino"), "invalid ruleset"),
        (lambda r: r.update(starting_stack=10.5), "invalid starting_stack"),
        (lambda r: r["hands"][0]["hole"].update(bo="7c7c"), "hand 1: duplicate card 7c"),
        (lambda r: r["hands"][0]["hole"].update(bo="AsQd"), "hand 1: duplicate card As"),
        (lambda r: r["hands"][0]["hole"].update(bo="7c1d"), "hand 1: invalid card"),
        (lambda r: r["hands"][0]["hole"].pop("bo"), "hand 1: hole must give exactly the players still in (missing bo)"),
        (lambda r: r["hands"][1]["actions"].pop(), "hand 2: the hand is not complete (ana to act)"),
        (lambda r: r["hands"][0]["actions"].append(["cy", "check"]), "hand 1, action 7 [\"cy\",\"check\"]: the hand is over"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, ["ana", "raise", 60.0]), "needs an integer amount"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, ["ana", "shove"]), "unknown move 'shove'"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, ["zed", "fold"]), "unknown player 'zed'"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, ["bo", "check"]), "cannot check: 50 to call"),
        (lambda r: r["hands"][0].update(board="QsJs"), "the hand reaches the flop but the board has only 2 cards"),
        (lambda r: r["hands"][1]["hole"].update(bo="AhAd"), None),
    ],
)
def test_bad_records_are_refused_with_a_specific_error(tmp_path, capsys, mutate, message):
    record = copy.deepcopy(EXAMPLE)
    mutate(record)
    status, out, err = run(tmp_path, record, capsys)
    if message is None:
        assert status == 0
        return
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_moves_after_the_tournament_ended_are_refused(tmp_path, capsys):
    record = {
        "format": "freezeout.record/1", "players": ["a", "b"], "button": "a",
        "hands": [
            {"hole": {"a": "AsAd", "b": "7c2d"}, "board": "AcAh3c8d9s", "actions": [["a", "allin"], ["b", "call"]]},
            {"hole": {"a": "KsKd"}, "board": "", "actions": []},
        ],
    }
    status, _, err = run(tmp_path, record, capsys)
    assert status == 2 and err == "hand 2: the tournament is already over\n"
    record["hands"].pop()
    record["hands"][0]["actions"].append(["b", "resign"])
    status, _, err = run(tmp_path, record, capsys)
    assert status == 2 and "action 3" in err and "the tournament is over" in err


def test_malformed_json_and_missing_file(tmp_path, capsys):
    status, out, err = run(tmp_path, "{not json", capsys)
    assert status == 2 and out == "" and err.startswith("malformed JSON")
    assert main(["record", "replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_unknown_keys_are_ignored_and_defaults_apply(tmp_path, capsys):
    record = copy.deepcopy(EXAMPLE)
    del record["ruleset"], record["starting_stack"]
    record["comment"] = "hello"
    record["hands"][0]["commitment"] = "abc"
    status, out, _ = run(tmp_path, record, capsys)
    assert status == 0 and json.loads(out) == EXPECTED


def test_cards_may_be_lists_lower_case_or_ten():
    record = copy.deepcopy(EXAMPLE)
    record["hands"][0]["hole"]["ana"] = ["as", "kd"]
    record["hands"][0]["board"] = ["Qs", "Js", "10s", "4c", "4d"]
    assert replay_record(parse_record(record)).to_json() == EXPECTED


def test_finished_tournament_standings_and_between_hands_resignation():
    record = {
        "format": "freezeout.record/1", "players": ["a", "b", "c"], "button": "a",
        "hands": [
            {"hole": {"a": "AsAd", "b": "7c2d", "c": "8c3d"}, "board": "AcAh4c9dJs",
             "actions": [["a", "fold"], ["b", "fold"], ["c", "resign"]]},
        ],
    }
    result = replay_record(parse_record(record)).to_json()
    assert result["hands"][0]["eliminated"] == ["c"]
    assert result["hands"][0]["stacks"] == {"a": 1000, "b": 990, "c": 0}
    assert result["standings"] == [{"player": "a", "place": None}, {"player": "b", "place": None},
                                   {"player": "c", "place": 3}]
    assert result["finished"] is False


def test_the_installed_command_line_entry_point(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(EXAMPLE))
    done = subprocess.run([sys.executable, "-m", "freezeout.cli", "record", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout) == EXPECTED


def test_record_error_is_a_value_error():
    with pytest.raises(RecordError):
        parse_record("[]")


def test_record_verify_refuses_a_record_without_commitments(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(EXAMPLE))
    assert main(["record", "verify", str(path)]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["ok"] is False and err.startswith("hand 1:")
