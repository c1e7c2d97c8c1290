"""``freezeout bot chart`` prints exactly the freezeout.chart/1 document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from freezeout.bots.classes import CLASS_NAMES
from freezeout.cli import main


def _chart(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["bot", "chart", *args]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    document: dict[str, object] = json.loads(out)
    return document


def test_chart_document_has_exactly_the_public_keys(capsys: pytest.CaptureFixture[str]) -> None:
    document = _chart(capsys, "--bot", "hard", "--players", "2", "--stack", "10", "--position", "sb")
    assert list(document) == ["format", "bot", "players", "stack_bb", "position", "allin"]
    assert document["format"] == "freezeout.chart/1"
    assert document["bot"] == "hard" and document["players"] == 2
    assert document["stack_bb"] == 10 and document["position"] == "sb"
    allin = document["allin"]
    assert isinstance(allin, dict)
    assert list(allin) == list(CLASS_NAMES)
    assert all(isinstance(p, float) and 0.0 <= p <= 1.0 for p in allin.values())
    assert allin["AA"] == 1.0 and allin["72o"] == 0.0


def test_hard_chart_is_the_bots_equilibrium(capsys: pytest.CaptureFixture[str]) -> None:
    from freezeout.bots.pushfold import load_pushfold

    pf = load_pushfold()
    for position, strategy in (("sb", pf.push), ("bb", pf.call)):
        document = _chart(capsys, "--bot", "hard", "--stack", "8", "--position", position)
        allin = document["allin"]
        assert isinstance(allin, dict)
        assert [allin[name] for name in CLASS_NAMES] == pytest.approx(list(strategy[pf.index(8.0)]), abs=1e-6)


def test_everything_shoves_at_a_big_blind_and_a_quarter(capsys: pytest.CaptureFixture[str]) -> None:
    document = _chart(capsys, "--bot", "hard", "--stack", "1.25", "--position", "sb")
    assert document["stack_bb"] == 1.25
    allin = document["allin"]
    assert isinstance(allin, dict) and set(allin.values()) == {1.0}


@pytest.mark.parametrize(("players", "position"), [(3, "btn"), (3, "sb"), (3, "bb"), (4, "co"), (4, "bb")])
def test_multiway_positions(capsys: pytest.CaptureFixture[str], players: int, position: str) -> None:
    allin = _chart(
        capsys, "--bot", "hard", "--players", str(players), "--stack", "10", "--position", position
    )["allin"]
    assert isinstance(allin, dict) and len(allin) == 169 and allin["AA"] == 1.0


def test_sampled_bots_chart_too(capsys: pytest.CaptureFixture[str]) -> None:
    allin = _chart(capsys, "--bot", "station", "--stack", "10", "--position", "bb")["allin"]
    assert isinstance(allin, dict) and set(allin.values()) == {1.0}  # a station calls every all-in


def test_png_draws_the_grid(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    _chart(capsys, "--bot", "hard", "--stack", "12", "--position", "bb", "--png", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_position_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "chart", "--bot", "hard", "--stack", "10", "--position", "co"]) == 2
    assert "position" in capsys.readouterr().err
