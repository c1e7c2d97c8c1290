"""``hard`` at a cash table of 100 big blinds in the house game: a deep-stack
game (sizes by stack-to-pot ratio, implied odds, no push/fold), while a
freezeout's 50 big blinds keep the freezeout game."""

from __future__ import annotations

import random

import pytest
from scenes import history, play, stacked, station, table

from freezeout.bots import get_bot
from freezeout.bots.base import legal_action
from freezeout.bots.deep import (
    DEEP_BB,
    DeepBot,
    effective_start_bb,
    geometric_fraction,
    implied_call,
    is_draw,
)
from freezeout.bots.hard import HardBot
from freezeout.cards import parse_cards
from freezeout.rules.actions import ActionKind
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import TableView, seat_view

HARD = get_bot("hard")


def ints(text: str) -> tuple[int, ...]:
    return tuple(int(card) for card in parse_cards(text))


def test_pot_sized_bets_on_three_streets_put_thirteen_pots_in() -> None:
    assert geometric_fraction(100, 1300, 3) == pytest.approx(1.0)
    assert geometric_fraction(100, 50, 1) == pytest.approx(0.5)


def test_draws_are_four_to_a_flush_or_a_straight_that_use_our_cards() -> None:
    assert is_draw(ints("AhKh"), ints("2h7hJc"))
    assert is_draw(ints("8s9d"), ints("TcJh2s"))
    assert is_draw(ints("As2d"), ints("3c4h9s"))  # the wheel
    assert not is_draw(ints("AsAd"), ints("Kc7d2s"))
    assert not is_draw(ints("2c3c"), ints("AhKhQhJh"))  # the board's draw, not ours
    assert not is_draw(ints("AhKh"), ints("2h7hJc9d5s"))  # no cards to come


def test_a_small_pair_sets_mines_a_raise_only_when_the_stacks_pay_for_it() -> None:
    # 3 big blinds to call into 4.5 with 97 behind: a set (one in eight) stacks them often enough
    assert implied_call(0.12, pot=90, call=40, behind=1940, payoff=0.8, preflop=True)
    assert not implied_call(0.12, pot=90, call=40, behind=200, payoff=0.8, preflop=True)
    assert not implied_call(0.12, pot=90, call=40, behind=1940, payoff=0.0, preflop=True)  # nobody pays a set


def heads_up(stack: int, hole: str, board: str = "2c7h9d") -> Tournament:
    tournament, _ = table("NT", button=0, stack=stack).deal_deck(stacked("NT", "KcQd", hole, board, "Jc", "3s"))
    return tournament


def test_hard_plays_the_deep_game_from_sixty_big_blinds_and_the_freezeout_game_below() -> None:
    for stack, deep in ((2000, True), (1000, False)):
        view = seat_view(heads_up(stack, "AhJd"), 0)
        assert effective_start_bb(view) == stack / 20
        assert (effective_start_bb(view) >= DEEP_BB) is deep
        expected = (DeepBot() if deep else HardBot()).act(view, random.Random(3))
        assert HARD.act(view, random.Random(3)) == expected


def flop_with_a_set(opponent_history: bool) -> TableView:
    """100 big blinds, a limped pot, ``hard`` (seat 1, first to act after the
    flop) flops bottom set; the opponent called everything before (or nothing
    is known)."""
    tournament = table("NT", button=0, stack=2000)
    if opponent_history:
        tournament = history(tournament, "NT", {0: station, 1: lambda v: legal_action(v, "raise", 60)}, 12, stack=2000)
    if tournament.button == 1:
        tournament = history(tournament, "NT", {0: station, 1: station}, 1, stack=2000)
    tournament, _ = tournament.deal_deck(stacked("NT", "KcQd", "2s2d", "2c7h9d", "Jc", "3s"))
    tournament = play(tournament, {0: station, 1: station}, until=lambda view: view.viewer == 1 and bool(view.board))
    return seat_view(tournament, 1)


def test_at_100_big_blinds_hard_bets_a_set_by_stack_to_pot_not_all_in_into_a_small_pot() -> None:
    view = flop_with_a_set(opponent_history=False)
    pot = sum(amount for amount, _ in view.pots) + sum(s.bet for s in view.seats)
    move = HARD.act(view, random.Random(1))
    assert move.kind is ActionKind.BET
    assert move.amount is not None and 0.5 * pot <= move.amount <= 1.25 * pot


def test_at_100_big_blinds_hard_sets_the_stacks_in_against_a_player_who_calls_everything() -> None:
    view = flop_with_a_set(opponent_history=True)
    assert HARD.act(view, random.Random(1)).kind is ActionKind.ALLIN
