"""``hard`` as the small blind raises strong hands before the flop instead
of limping them (issue #35 item 5) in fixed-limit hold'em, pot-limit
Omaha, Omaha hi-lo and no-limit short deck, and limps or folds the weak."""

from __future__ import annotations

import random

import pytest
from scenes import stacked, table

from freezeout.bots import get_bot
from freezeout.bots.base import legal_action
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


def first_to_face_the_bring_in(game: str, mine: str, theirs: str) -> set[ActionKind]:
    """Seat 0's moves facing seat 1's bring-in (seat 1 shows the higher card)."""
    tournament, _ = table(game, button=1).deal_deck(stacked(game, mine, theirs))
    assert tournament.to_act == 1  # the king brings it in
    tournament, _ = tournament.act(legal_action(seat_view(tournament, 1), "passive"))
    assert tournament.to_act == 0
    view = seat_view(tournament, 0)
    return {HARD.act(view, random.Random(seed)).kind for seed in range(6)}


def test_razz_completes_a_six_up_against_a_king_bring_in() -> None:
    """Q-8 down, a six up against a king: a steal and a better-than-average
    three cards (the first betting round with only the forced bets in)."""
    assert first_to_face_the_bring_in("FR", "Qs8d6h", "Qc9sKd") == {ActionKind.COMPLETE}


def test_deuce_seven_small_blind_raises_a_smooth_one_card_draw() -> None:
    """2-4-7-8 with a king to throw: the small blind raises the blinds."""
    assert small_blind_moves("F2L3D", "2s4d7h8cKd", "AcAdAhKsKc") == {ActionKind.RAISE}
