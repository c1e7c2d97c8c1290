"""C12: position names at every table size from 2 to 10, with a live and a
dead button (C10), and in the views; none in stud (V7)."""

from __future__ import annotations

import pytest

from freezeout.cards import full_deck
from freezeout.rules.errors import InvalidInput
from freezeout.rules.positions import middle_names, positions
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import VARIANTS
from freezeout.rules.views import seat_view

# C12: the whole table in acting order before the flop, starting under the gun (BTN, SB, BB last).
FULL: dict[int, list[str]] = {
    3: ["BTN", "SB", "BB"],
    4: ["UTG", "BTN", "SB", "BB"],
    5: ["UTG", "CO", "BTN", "SB", "BB"],
    6: ["UTG", "HJ", "CO", "BTN", "SB", "BB"],
    7: ["UTG", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
    8: ["UTG", "UTG+1", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
    9: ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
    10: ["UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN", "SB", "BB"],
}


def test_c12_heads_up_the_button_is_the_small_blind() -> None:
    assert positions((0, 1), button=1, small_blind=1, big_blind=0, seats=2) == {1: "BTN", 0: "BB"}


@pytest.mark.parametrize("size", range(3, 11))
@pytest.mark.parametrize("button", [0, 4])
def test_c12_every_table_size_names_every_seat(size: int, button: int) -> None:
    button %= size
    names = positions(range(size), button, (button + 1) % size, (button + 2) % size, size)
    assert [names[(button + 3 + k) % size] for k in range(size)] == FULL[size]


def test_c12_six_max_and_nine_max_as_the_rule_spells_them() -> None:
    assert middle_names(3) == ("UTG", "HJ", "CO")
    assert middle_names(6) == ("UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO")
    assert middle_names(7) == ("UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO")
    with pytest.raises(InvalidInput, match="0 to 7 seats"):
        middle_names(8)


def test_c12_c10_a_dead_button_names_nobody_btn_and_the_last_seat_before_it_co() -> None:
    # 9 seats; the button stands dead at seat 3 (its player left), SB 4, BB 5.
    names = positions((0, 1, 2, 4, 5, 6, 7, 8), button=3, small_blind=4, big_blind=5, seats=9)
    assert names == {6: "UTG", 7: "UTG+1", 8: "UTG+2", 0: "LJ", 1: "HJ", 2: "CO", 4: "SB", 5: "BB"}


def test_c12_c10_a_dead_small_blind_names_nobody_sb() -> None:
    # 9 seats; the button at 3, the small blind's player (4) left, BB 5.
    names = positions((0, 1, 2, 3, 5, 6, 7, 8), button=3, small_blind=None, big_blind=5, seats=9)
    assert names == {6: "UTG", 7: "UTG+1", 8: "UTG+2", 0: "LJ", 1: "HJ", 2: "CO", 3: "BTN", 5: "BB"}


def test_c12_empty_seats_are_skipped() -> None:
    # 10 seats, 6 players: seats 1, 4, 5, 7, 8, 9; button 9, SB 1, BB 4.
    names = positions((1, 4, 5, 7, 8, 9), button=9, small_blind=1, big_blind=4, seats=10)
    assert names == {5: "UTG", 7: "HJ", 8: "CO", 9: "BTN", 1: "SB", 4: "BB"}


def test_c12_stud_and_no_blinds_have_no_positions() -> None:
    assert positions((0, 1, 2), button=None, small_blind=None, big_blind=None, seats=8) == {}
    assert positions((0, 1, 2), button=0, small_blind=None, big_blind=-1, seats=3) == {}
    with pytest.raises(InvalidInput, match="big blind's seat 4"):
        positions((0, 1, 2), button=0, small_blind=1, big_blind=4, seats=5)


@pytest.mark.parametrize("size", range(2, 11))
def test_c12_the_view_carries_each_seats_position(size: int) -> None:
    names = tuple(f"p{i}" for i in range(size))
    t = Tournament.start(TournamentConfig(players=names, button=1, variant=VARIANTS["NT"]))
    t, _ = t.deal_deck(list(full_deck()))
    view = seat_view(t, None).to_dict()
    got = [seat["position"] for seat in view["seats"]]
    if size == 2:
        assert got == ["BB", "BTN"]
    else:
        assert [got[(1 + 3 + k) % size] for k in range(size)] == FULL[size]


def test_c12_v7_stud_seats_have_no_position() -> None:
    t = Tournament.start(TournamentConfig(players=tuple(f"p{i}" for i in range(8)), variant=VARIANTS["F7S"]))
    t, _ = t.deal_deck(list(full_deck()))
    assert all(seat["position"] is None for seat in seat_view(t, 0).to_dict()["seats"])
