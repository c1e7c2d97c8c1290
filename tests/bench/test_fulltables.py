"""bench/fulltables.py: the seat counts bench/load.py's ``--sizes`` accepts and its side-by-side
table of full tables against 4-handed ones (issue #34 "Speed").  No server, no clock."""

from __future__ import annotations

from typing import Any

import pytest


def test_sizes_are_read_in_order_from_two_to_ten(full) -> None:  # type: ignore[no-untyped-def]
    assert full.parse_sizes("4,9") == [4, 9]
    assert full.parse_sizes(" 9, 4 ,10,") == [9, 4, 10]
    assert full.parse_sizes("2") == [2]


@pytest.mark.parametrize(("text", "said"), [("1,4", "from 2 to 10"), ("4,11", "from 2 to 10"), ("4,x", "'x'"),
                                            ("4,-6", "'-6'"), ("4,4", "given twice"), ("", "no table size"),
                                            (" , ", "no table size")])
def test_bad_sizes_are_refused_with_a_reason(full, text: str, said: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=said):
        full.parse_sizes(text)


def test_c12_the_house_freezeout_seats_four_its_cash_table_ten(full) -> None:  # type: ignore[no-untyped-def]
    assert full.size_refused("NT", False, 4) is None
    assert "at most 4" in full.size_refused("NT", False, 6)
    assert full.size_refused("NT", True, 9) is None
    assert full.size_refused("NT", True, 10) is None
    assert "at most 10" in full.size_refused("NT", True, 11)


def test_c12_other_games_seat_their_own_maximum(full) -> None:  # type: ignore[no-untyped-def]
    assert full.size_refused("FT", False, 9) is None  # fixed-limit hold'em: full ring in a freezeout
    assert full.size_refused("FT", False, 10) is None
    assert "at most 8" in full.size_refused("F7S", False, 9)  # stud: 8 (V7)
    assert "at most 6" in full.size_refused("F2L3D", False, 9)  # draw: 6 (V11)
    assert full.size_refused("nonsense", False, 4) is not None


def row(size: int, p99: float, cpu: float | None, size_bytes: float | None) -> dict[str, Any]:
    return {"table_size": size, "players": 1998, "actions_per_second": 100.0, "p50_ms": 2.0, "p99_ms": p99,
            "cpu_ms_per_action": cpu, "bytes_per_update_mean": size_bytes, "errors": 0, "load_average": [1.5]}


def test_ratios_are_to_the_smallest_size_whatever_the_order(full) -> None:  # type: ignore[no-untyped-def]
    nine, four = full.with_ratios([row(9, 12.0, 2.0, 3000.0), row(4, 8.0, 1.0, 1500.0)])
    assert (nine["p99_ratio"], nine["cpu_ratio"], nine["bytes_ratio"]) == (1.5, 2.0, 2.0)
    assert (four["p99_ratio"], four["cpu_ratio"], four["bytes_ratio"]) == (1.0, 1.0, 1.0)


def test_a_missing_measure_has_no_ratio(full) -> None:  # type: ignore[no-untyped-def]
    _four, nine = full.with_ratios([row(4, 8.0, None, 0.0), row(9, 12.0, 2.0, 3000.0)])
    assert nine["cpu_ratio"] is None and nine["bytes_ratio"] is None and nine["p99_ratio"] == 1.5
    assert full.with_ratios([]) == []


def test_the_table_names_each_size_and_its_ratios(full) -> None:  # type: ignore[no-untyped-def]
    text = full.sizes_table([row(4, 8.0, 1.0, 1500.0), row(9, 12.0, 2.0, 3000.0)])
    head, _, four, nine = text.splitlines()
    assert "p99/4" in head and "CPU/4" in head and "B/4" in head
    assert four.split()[0] == "4" and nine.split()[0] == "9"
    assert "1.50" in nine and "2.00" in nine and "INVALID" not in text
