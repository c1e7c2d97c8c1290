"""``freezeout odds``: what it prints, its JSON, hold'em ranges, and one clear error (exit 2) for bad input."""

from __future__ import annotations

import json

import pytest

from freezeout.analysis.ranges import RangeError, parse_range
from freezeout.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["odds", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_exact_hold_em_odds_are_printed_per_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "AsKs", "7c7d", "--board", "Qs7h2s")
    assert status == 0 and err == ""
    assert out.splitlines() == [
        "No-Limit Texas Hold'em, board Qs7h2s",
        "  AsKs  equity  25.56 %  win  25.56 %  tie   0.00 %",
        "  7c7d  equity  74.44 %  win  74.44 %  tie   0.00 %",
        "  exact: 990 deals",
    ]


def test_hi_lo_odds_show_both_halves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--game", "omaha8", "As2sKdQd", "3c4c8h8d", "--board", "7s5d9h", "--json")
    data = json.loads(out)
    assert status == 0 and data["game"] == "FO/8" and data["exact"] and data["deals"] == 820
    first, second = data["hands"]
    assert first["equity"] + second["equity"] == pytest.approx(1.0, abs=2e-6)
    assert {"high", "low"} <= set(first) and "error" not in first


def test_ranges_and_monte_carlo_are_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("QQ+,AKs", "AhKd", "--json", "--seed", "5", "--samples", "20000")
    first, again = run(capsys, *argv), run(capsys, *argv)
    assert first == again and first[0] == 0
    data = json.loads(first[1])
    assert not data["exact"] and data["deals"] == 20_000
    assert 0.6 < data["hands"][0]["equity"] < 0.72 and 0 < data["hands"][0]["error"] < 0.01


def test_stud_odds_take_dead_cards(capsys: pytest.CaptureFixture[str]) -> None:
    # 52 - 12 known - 3 dead = 37 cards: 37 × 36 ways to give each hand its seventh
    status, out, _ = run(capsys, "--game", "F7S", "AsAhKd7c8c9h", "QsQh2d3c4h5s", "--dead", "KcKs9d")
    assert status == 0 and "exact: 1,332 deals" in out


@pytest.mark.parametrize(("argv", "message"), [
    (("AsKs", "AsQd"), "duplicate card As"),
    (("AsXs", "QdJd"), "invalid card 'Xs'"),
    (("AsKs", "QdJd", "--board", "Qs7h2c2c"), "duplicate card 2c"),
    (("22", "AhKh", "--dead", "2s2h2d2c"), "the range leaves no combination"),
    (("AsKs",), "at least two hands"),
    (("AsKs", "QdJd", "--game", "F2L3D"), "draw is still to come"),
    (("AsKs", "QdJd", "--game", "nope"), "unknown game"),
    (("2sKs", "QdJd", "--game", "NS"), "2s is not in the"),
    (("AsKsQdJd", "QhJh7c7d", "--game", "PO", "--samples", "0"), "--samples must be a positive"),
])
def test_bad_input_is_one_clear_error(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_range_syntax() -> None:
    assert len(parse_range("QQ+")) == 18 and len(parse_range("AKo")) == 12 and len(parse_range("AK")) == 16
    assert len(parse_range("22-55")) == 24 and len(parse_range("A2s-A5s")) == 16 and len(parse_range("ATs+")) == 16
    assert len(parse_range("random")) == 1326 and len(parse_range("AA,AA")) == 6
    for bad in ("", "AKx", "AAs", "A2s-K5s", "AK,,QQ"):
        with pytest.raises(RangeError):
            parse_range(bad)
