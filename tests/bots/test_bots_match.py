"""``freezeout bot match`` plays complete freezeouts with duplicate decks."""

from __future__ import annotations

import json

import pytest

from freezeout.bots.match import play_tournament, run_match
from freezeout.cli import main


def test_a_tournament_ends_with_one_winner_and_all_places() -> None:
    result = play_tournament(("medium", "random", "station"), seed=3, deal=0, rotation=1)
    assert sorted(result.places)[0] == 1 and set(result.places) <= {1, 2, 3}
    assert result.hands >= 1 and sum(result.decisions) > 0


def test_duplicate_sets_rotate_every_seat_and_results_do_not_depend_on_jobs() -> None:
    one = run_match(["easy", "station"], tournaments=6, seed=4, jobs=1)
    two = run_match(["easy", "station"], tournaments=6, seed=4, jobs=2)
    assert one.tournaments == 6 and one.deals == 3
    assert [e.wins for e in one.entries] == [e.wins for e in two.entries]
    assert sum(e.wins for e in one.entries) == 6


def test_match_command_prints_a_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "bot",
                "match",
                "--bots",
                "hard,random",
                "--tournaments",
                "2",
                "--seed",
                "1",
                "--jobs",
                "1",
                "--json",
            ]
        )
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    assert document["tournaments"] == 2
    assert {e["bot"] for e in document["entries"]} == {"hard", "random"}
    entry = document["entries"][0]
    assert 0.0 <= entry["ci95"][0] <= entry["win_rate"] <= entry["ci95"][1] <= 1.0 or entry["ci95"] == [
        0.0,
        1.0,
    ]


def test_match_fills_the_table_with_the_last_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "bot",
                "match",
                "--bots",
                "station,random",
                "--players",
                "4",
                "--tournaments",
                "4",
                "--jobs",
                "1",
                "--json",
            ]
        )
        == 0
    )
    labels = [e["label"] for e in json.loads(capsys.readouterr().out)["entries"]]
    assert labels == ["station", "random", "random#2", "random#3"]


def test_match_rejects_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "match", "--bots", "hard,genius", "--tournaments", "2"]) == 2
    assert "genius" in capsys.readouterr().err


def test_match_seats_up_to_the_games_maximum_and_the_house_game_four(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #35: every game up to its table size (FB: 6), the house game 2-4."""
    argv = ["bot", "match", "--bots", "hard,medium", "--tournaments", "6", "--jobs", "1", "--json"]
    assert main([*argv, "--game", "FB", "--players", "6"]) == 0
    places = json.loads(capsys.readouterr().out)["entries"]
    assert len(places) == 6
    assert main([*argv, "--game", "FB", "--players", "7"]) == 2
    assert "2 to 6" in capsys.readouterr().err
    assert main([*argv, "--players", "5"]) == 2
    assert "2 to 4" in capsys.readouterr().err
