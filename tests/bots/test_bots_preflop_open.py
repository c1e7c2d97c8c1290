"""``hard`` as the small blind raises strong hands before the flop instead
of limping them (issue #35 item 5) in fixed-limit hold'em, pot-limit
Omaha, Omaha hi-lo and no-limit short deck, and limps or folds the weak."""

from __future__ import annotations

import random

import pytest
from scenes import stacked, table

from freezeout.bots import get_bot
from freezeout.rules.actions import ActionKind
from freezeout.rules.views import seat_view

HARD = get_bot("hard")


def small_blind_moves(game: str, mine: str, theirs: str) -> set[ActionKind]:
    tournament, _ = table(game, button=0).deal_deck(stacked(game, mine, theirs))
    assert tournament.to_act == 0  # heads-up the button is the small blind and acts first
    view = seat_view(tournament, 0)
    return {HARD.act(view, random.Random(seed)).kind for seed in range(6)}


@pytest.mark.parametrize(
    ("game", "mine", "theirs"),
    [
        ("FT", "8h8d", "7c2s"),
        ("FT", "QhQd", "7c2s"),
        ("NS", "QhQd", "7c6s"),
        ("PO", "AhAdKhQd", "7c2s3d4h"),
        ("FO/8", "AhAd2h3d", "7c9sTdJh"),
    ],
)
def test_the_small_blind_raises_a_strong_hand(game: str, mine: str, theirs: str) -> None:
    assert small_blind_moves(game, mine, theirs) == {ActionKind.RAISE}


def test_the_small_blind_does_not_raise_seven_deuce() -> None:
    assert ActionKind.RAISE not in small_blind_moves("FT", "7h2d", "QcQs")
