"""``freezeout play`` on the command line: options, errors, the record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from freezeout import cli
from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.views import TableView
from freezeout.terminal import app as app_module
from freezeout.terminal import session as session_module
from freezeout.terminal.cli import run_play


class Station:
    def act(self, view: TableView, rng: random.Random) -> Action:
        assert view.viewer is not None and view.legal is not None
        return Action(view.viewer, ActionKind.CHECK if "check" in view.legal.moves else ActionKind.CALL)


def test_play_is_registered_with_its_options() -> None:
    args = cli.build_parser().parse_args(
        ["play", "--players", "3", "--bot", "easy", "--seed", "5", "--record", "g.json", "--pause", "0"]
    )
    assert args.func is run_play
    assert (args.players, args.bot, args.seed, args.record, args.pause, args.bot_delay) == (
        3, "easy", 5, "g.json", 0.0, 0.6,
    )  # fmt: skip
    defaults = cli.build_parser().parse_args(["play"])
    assert (defaults.players, defaults.bot, defaults.seed, defaults.record, defaults.cash) == (2, None, None, None, False)


@pytest.mark.parametrize(
    "bad", [["--players", "11"], ["--players", "1"], ["--players", "two"], ["--pause", "-1"]]
)
def test_bad_options_exit_2(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.build_parser().parse_args(["play", *bad])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err


def test_unknown_bot_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--bot", "grandmaster"]) == 2
    err = capsys.readouterr().err
    assert "grandmaster" in err or "not available" in err
    assert err.count("\n") == 1


def test_leaving_at_once_still_writes_a_complete_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Quitting the app (here: it returns at once) is resigning (R28); the
    bots finish and the record replays to the printed standings."""
    monkeypatch.setattr(session_module, "load_bot", lambda level, game="NT": Station())
    monkeypatch.setattr(app_module.PokerApp, "run", lambda self: None)
    path = tmp_path / "quit.json"
    assert cli.main(["play", "--players", "3", "--seed", "4", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    result = replay_record(parse_record(path.read_text()))
    assert result.finished and dict(result.standings)["you"] == 3
    assert out.startswith("game 1: 1. ") and "3. you" in out and str(path) in out


def test_unwritable_record_path_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(session_module, "load_bot", lambda level, game="NT": Station())
    missing = tmp_path / "no-such-dir" / "game.json"
    assert cli.main(["play", "--record", str(missing)]) == 2
    assert "cannot write the record" in capsys.readouterr().err


def test_unknown_game_lists_the_codes_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--game", "XYZ"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'XYZ'" in err
    assert all(code in err for code in ("NT", "FO/8", "F7S", "F2L3D", "NB", "HORSE", "8GAME"))


def test_a_bot_that_does_not_play_the_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--game", "FO/8", "--bot", "easy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "easy" in err and "FO/8" in err and "station" in err


def test_too_many_players_for_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--game", "F2L3D", "--players", "7"]) == 2
    assert "2 to 6 players" in capsys.readouterr().err
    assert cli.main(["play", "--players", "5"]) == 2  # the house game: 2-4 (R1)
    assert "2 to 4 players" in capsys.readouterr().err


def test_play_game_writes_a_record_2_of_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(app_module.PokerApp, "run", lambda self: None)
    path = tmp_path / "stud.json"
    argv = ["play", "--game", "F7S", "--players", "5", "--bot", "random", "--seed", "1", "--record", str(path)]
    assert cli.main(argv) == 0
    data = json.loads(path.read_text())
    assert data["format"] == "freezeout.record/2" and data["game"] == {"variant": "F7S"}
    assert data["game_number"] == 1 and data["bots"] == "random"
    result = replay_record(parse_record(data))
    assert result.finished and dict(result.standings)["you"] == 5
