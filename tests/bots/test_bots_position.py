"""Multiway by position (issue #35, full tables): ``hard`` at a six-handed
fixed-limit hold'em table, everyone before it folding, opens tighter under
the gun (five still to act) and wider on the button (two)."""

from __future__ import annotations

import random

from scenes import folder, play, stacked, table

from freezeout.bots.game_bot import HARD, GameBot
from freezeout.bots.game_spot import read_spot
from freezeout.rules.actions import ActionKind
from freezeout.rules.views import TableView, seat_view

BOT = GameBot("hard", HARD)
OTHERS = ("2c3d", "4c5s", "6c7s", "8c9c", "TcJc", "2s3s")
UTG, BUTTON = 3, 0  # the button on seat 0: seat 1 the small blind, 2 the big blind, 3 under the gun


def first_in(hand: str, seat: int) -> TableView:
    """Six-handed FT, ``hand`` on ``seat``, everyone before it folded."""
    cards = list(OTHERS)
    cards[seat] = hand
    tournament, _ = table("FT", players=6, button=BUTTON).deal_deck(stacked("FT", *cards))
    tournament = play(tournament, dict.fromkeys(range(6), folder), until=lambda view: view.viewer == seat)
    return seat_view(tournament, seat)


def moves(view: TableView) -> set[ActionKind]:
    return {BOT.act(view, random.Random(seed)).kind for seed in range(8)}


def test_players_still_to_act_are_read_from_the_round() -> None:
    assert read_spot(first_in("Kh9h", UTG)).behind == 5
    assert read_spot(first_in("Kh9h", BUTTON)).behind == 2


def test_king_nine_suited_folds_under_the_gun_and_opens_on_the_button() -> None:
    assert moves(first_in("Kh9h", UTG)) == {ActionKind.FOLD}
    assert moves(first_in("Kh9h", BUTTON)) == {ActionKind.RAISE}
