"""The read of card-independent aggression (bots/aggression_read.py)."""

from __future__ import annotations

import math
import random

from freezeout.bots import get_bot
from freezeout.bots.aggression_read import (
    AGGRESSOR_PRIOR,
    AGGRESSOR_READ,
    GO_ALONG,
    RAISE_BACK,
    aggressor_probability,
)
from freezeout.bots.base import Bot, legal_action, situation
from freezeout.cards import shuffled_deck
from freezeout.rules.actions import Action
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import TableView, seat_view


class MinRaiser:
    """Raises the minimum whenever it may, whatever it holds."""

    name = "minraiser"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        return legal_action(view, "raise", s.min_to) if s.can_raise else legal_action(view, "passive")


def _highest_read(opponent: Bot, games: int = 12, hands: int = 6) -> list[float]:
    """The highest read ``hard`` (seat 0) had of ``opponent`` (seat 1) in each game."""
    highest = []
    hard = get_bot("hard")
    for seed in range(games):
        rng = random.Random(seed)
        bots = {0: hard, 1: opponent}
        t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=seed % 2))
        best = 0.0
        while not t.finished and t.hand_number < hands:
            t, _ = t.deal_deck(shuffled_deck(rng))
            while t.in_hand:
                view = seat_view(t, t.to_act)
                if t.to_act == 0:
                    best = max(best, aggressor_probability(view, 1))
                t, _ = t.act(bots[t.to_act].act(view, rng))
        highest.append(best)
    return highest


def test_three_raises_back_in_a_row_make_the_read_and_one_call_undoes_it() -> None:
    prior = math.log(AGGRESSOR_PRIOR / (1 - AGGRESSOR_PRIOR))
    line = math.log(AGGRESSOR_READ / (1 - AGGRESSOR_READ))
    assert prior + 2 * math.log(RAISE_BACK) < line <= prior + 3 * math.log(RAISE_BACK)
    assert (
        prior + 3 * math.log(RAISE_BACK) + math.log(GO_ALONG) < line
    )  # a sound player's streak is forgotten


def test_a_player_who_raises_everything_is_read_within_a_few_hands() -> None:
    reads = _highest_read(MinRaiser())
    assert sum(read >= AGGRESSOR_READ for read in reads) >= 6, reads


def test_sound_players_who_raise_back_with_strength_are_never_read() -> None:
    for name in ("tag", "medium", "loose-passive", "hard-v1"):
        reads = _highest_read(get_bot(name))
        assert max(reads) < AGGRESSOR_READ, (name, reads)
