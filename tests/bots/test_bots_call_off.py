"""Calls off stacks against aggressive value (issue #35 item 4): a bet on
every street and an all-in on the river is the top of a range, not any
hand.  Short-deck QQ on 7s Kh Jd 9d Jc called off its stack there."""

from __future__ import annotations

import random

from scenes import play, stacked, station, table

from freezeout.bots.base import legal_action
from freezeout.bots.registry import get_bot
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.views import TableView, seat_view

HARD = get_bot("hard")


def value_line(view: TableView) -> Action:
    """Checks before the flop, bets the pot on the flop and the turn, all-in on the river."""
    assert view.legal is not None
    if not view.board:
        return legal_action(view, "passive")
    if len(view.board) == 5:
        return legal_action(view, "raise", view.legal.max_to)
    pot = sum(amount for amount, _ in view.pots) + sum(seat.bet for seat in view.seats)
    return legal_action(view, "raise", max(view.legal.min_to, min(view.legal.max_to, pot)))


def facing_the_river_all_in(mine: str) -> TableView:
    tournament, _ = table("NS", button=0).deal_deck(stacked("NS", mine, "8s6s", "7sKhJd9dJc"))

    def reached(view: TableView) -> bool:
        return view.viewer == 0 and len(view.board) == 5 and view.legal is not None and view.legal.call_amount > 0

    return seat_view(play(tournament, {0: station, 1: value_line}, until=reached), 0)


def test_short_deck_queens_fold_to_three_bets_and_an_all_in() -> None:
    view = facing_the_river_all_in("QhQc")
    assert view.legal is not None and view.legal.call_amount > 0.8 * view.seats[0].stack
    assert {HARD.act(view, random.Random(seed)).kind for seed in range(4)} == {ActionKind.FOLD}


def test_a_full_house_calls_it() -> None:
    view = facing_the_river_all_in("KcKs")
    assert {HARD.act(view, random.Random(seed)).kind for seed in range(4)} == {ActionKind.CALL}
