"""Every bot returns only legal actions, is deterministic, and needs nothing
but its own seat's view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from freezeout.bots import get_bot
from freezeout.bots.registry import ALL_BOT_NAMES
from freezeout.cards import Card
from freezeout.rules.views import seat_view

from bot_helpers import decision_points


@pytest.mark.parametrize("name", ALL_BOT_NAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_every_bot_acts_legally_in_random_states(name: str, seed: int, players: int) -> None:
    bot = get_bot(name)
    for tournament, view in decision_points(seed, players, limit=60):
        action = bot.act(view, random.Random(seed))
        assert action.seat == view.viewer
        tournament.act(action)  # raises IllegalAction if the move is not legal


@pytest.mark.parametrize("name", ALL_BOT_NAMES)
def test_same_view_and_seed_give_the_same_action(name: str) -> None:
    bot = get_bot(name)
    for number, (_, view) in enumerate(decision_points(5, 3, limit=40)):
        assert bot.act(view, random.Random(number)) == bot.act(view, random.Random(number))


@pytest.mark.parametrize("name", ALL_BOT_NAMES)
def test_bots_never_need_hidden_cards(name: str) -> None:
    """Changing the opponents' hole cards and the undealt board must not
    change the decision: the view hides them, and the bot sees only the view."""
    bot = get_bot(name)
    for number, (tournament, view) in enumerate(decision_points(9, 2, limit=40)):
        assert all(s.cards is None for s in view.seats if s.seat != view.viewer)
        hand = tournament.hand
        assert hand is not None
        me = tournament.seats.index(view.viewer)
        used = {int(c) for c in hand.setup.hole[me]} | {int(c) for c in hand.board}
        spare = [Card(c) for c in range(52) if c not in used][::-1]
        hole = tuple(h if i == me else (spare.pop(), spare.pop()) for i, h in enumerate(hand.setup.hole))
        board = hand.board + tuple(spare.pop() for _ in range(5 - len(hand.board)))
        other = replace(tournament, hand=hand._replace(setup=replace(hand.setup, hole=hole, board=board)))
        other_view = seat_view(other, view.viewer)
        assert other_view == view
        assert bot.act(other_view, random.Random(number)) == bot.act(view, random.Random(number))
