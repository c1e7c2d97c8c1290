"""C14: a cash table that can no longer play (fewer than two players who are
not sitting out, for a set time) breaks; its players move with their chips —
even below the minimum buy-in — to another public table of the same game,
stakes and options, or wait for a seat there; never to a private table.  A
player who moves by choice needs the minimum buy-in."""

from __future__ import annotations

import pytest

from freezeout.rules.breaking import (
    BREAK_AFTER,
    Move,
    Mover,
    OpenTable,
    check_move_by_choice,
    may_move_to,
    plan_break,
    short_since,
    table_broken,
)
from freezeout.rules.cashconfig import CashConfig
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.pots import Rake
from freezeout.rules.variant import variant

NL_1_2 = CashConfig(blinds=(1, 2), seats=9)  # buy-ins 40 to 200
BROKEN = OpenTable("old", NL_1_2)


def test_c14_a_table_breaks_after_a_set_time_without_two_players_who_can_play() -> None:
    since = short_since(3, None, now=0.0)
    assert since is None
    since = short_since(1, since, now=10.0)
    assert since == 10.0
    since = short_since(1, since, now=50.0)
    assert since == 10.0 and not table_broken(since, now=50.0)
    assert table_broken(since, now=10.0 + BREAK_AFTER)
    assert short_since(2, since, now=60.0) is None  # a second player came back: the clock stops
    with pytest.raises(InvalidInput):
        short_since(-1, None, now=0.0)


def test_c14_players_move_with_their_chips_even_below_the_minimum_buy_in() -> None:
    target = OpenTable("next", NL_1_2, free_seats=(2, 6))
    plan = plan_break(BROKEN, [Mover("ana", 12), Mover("bo", 350)], [target])
    assert plan.moves == (Move("ana", 12, "next", 2), Move("bo", 350, "next", 6))
    assert plan.waiting == ()


def test_c14_never_to_a_private_table_nor_another_game_stakes_or_options() -> None:
    others = [
        OpenTable("private", NL_1_2, private=True, free_seats=(0,)),
        OpenTable("plo", CashConfig(game=variant("PO"), blinds=(1, 2), seats=9), free_seats=(0,)),
        OpenTable("2-4", CashConfig(blinds=(2, 4), seats=9), free_seats=(0,)),
        OpenTable("raked", CashConfig(blinds=(1, 2), seats=9, rake=Rake(5, 10)), free_seats=(0,)),
        OpenTable("no-straddle", CashConfig(blinds=(1, 2), seats=9, straddles=False), free_seats=(0,)),
        OpenTable("deep", CashConfig(blinds=(1, 2), seats=9, max_buy_in=500), free_seats=(0,)),
        OpenTable("run-twice", NL_1_2, free_seats=(0,), options=("run_twice",)),
        OpenTable("old", NL_1_2, free_seats=(0,)),  # the broken table itself
    ]
    assert not any(may_move_to(BROKEN, table) for table in others)
    plan = plan_break(BROKEN, [Mover("ana", 100)], others)
    assert plan.moves == () and plan.waiting == (Mover("ana", 100),)
    six_max = OpenTable("6max", CashConfig(blinds=(1, 2), seats=6), free_seats=(3,))
    assert may_move_to(BROKEN, six_max)  # the table's size is not an option


def test_c14_the_fullest_table_first_and_those_left_over_wait() -> None:
    roomy = OpenTable("roomy", NL_1_2, free_seats=(0, 1, 2, 3))
    tight = OpenTable("tight", NL_1_2, free_seats=(8,))
    plan = plan_break(BROKEN, [Mover("ana", 50), Mover("bo", 60), Mover("cy", 70)], [roomy, tight])
    assert plan.moves == (Move("ana", 50, "tight", 8), Move("bo", 60, "roomy", 0), Move("cy", 70, "roomy", 1))
    plan = plan_break(BROKEN, [Mover("ana", 50), Mover("bo", 60)], [tight])
    assert plan.moves == (Move("ana", 50, "tight", 8),) and plan.waiting == (Mover("bo", 60),)


def test_c14_bad_input_is_refused() -> None:
    with pytest.raises(InvalidInput, match="moves once"):
        plan_break(BROKEN, [Mover("ana", 1), Mover("ana", 2)], [])
    with pytest.raises(InvalidInput, match="fewer than 0"):
        plan_break(BROKEN, [Mover("ana", -1)], [])


def test_c14_a_move_by_choice_needs_the_minimum_buy_in() -> None:
    target = OpenTable("next", NL_1_2, free_seats=(1,))
    check_move_by_choice(40, target)
    with pytest.raises(IllegalAction, match="minimum buy-in of 40, has 39"):
        check_move_by_choice(39, target)
    with pytest.raises(IllegalAction, match="at most 200"):
        check_move_by_choice(201, target)
    with pytest.raises(IllegalAction, match="invitation only"):
        check_move_by_choice(100, target._replace(private=True))
