"""The last draw by its exact value (V11, V14, V15; issue #35).

Textbook last-draw spots of every draw game of the registry (there is no
ace-to-five draw game): the discard ``draw_choice`` takes against a pat
hand from the stated range (deuce-to-seven: any made nine-low or better;
badugi: any four-card badugi jack-high or better; five-card draw: a
straight or better) and against a random hand, and a check of the
enumeration against a plain loop over every card we could draw.
"""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from scenes import discarded, play, stacked, station, table

from freezeout.bots import get_bot
from freezeout.bots.draw_choice import best_discard, discard_values, pat_hands, random_hands, win_table
from freezeout.cards import Card, parse_cards
from freezeout.evaluate.rankings import get_ranking
from freezeout.rules.views import TableView, seat_view

SIZE = {"low-27": 5, "badugi": 4, "high": 5}


def spot(ranking: str, hand: str, model: str) -> tuple[list[int], list[int], np.ndarray]:
    mine = [int(c) for c in parse_cards(hand)]
    unseen = [c for c in range(52) if c not in mine]
    deal = pat_hands if model == "pat" else random_hands
    table_ = win_table(deal(ranking, unseen, SIZE[ranking], 4000, np.random.default_rng(5)))
    return mine, unseen, table_


def chosen(ranking: str, hand: str, model: str) -> str:
    mine, unseen, table_ = spot(ranking, hand, model)
    return "".join(str(Card(c)) for c in best_discard(ranking, mine, unseen, [table_]))


# (ranking, hand, what to throw against a pat hand, against a random hand); "|" separates equal choices
TEXTBOOK = [
    # deuce-to-seven: a one-card draw to an eight is no two-card draw; a made eight-low is no made nine
    ("low-27", "8h6d5c3sKh", "Kh", ""),  # a king-high no pair beats most random hands
    ("low-27", "2h3d4c5s7h", "", ""),  # the nuts
    ("low-27", "2h3d4c5s6h", "6h", "6h"),  # a straight: keep 2-3-4-5, draw one
    ("low-27", "2h3h4h7h2d", "2h", "2h"),  # four hearts and a second deuce: keep 7-4-3-2 with the deuce that avoids the flush
    ("low-27", "2h3h4h5h2d", "2h", "2h"),
    ("low-27", "Ts8d6c4s2h", "Ts", ""),  # a made ten loses to every pat nine
    ("low-27", "9s7d5c4h3s", "", ""),  # a made nine stands pat
    ("low-27", "8h6d5c3s8d", "8h|8d", "8h|8d"),
    # badugi: a three-card badugi draws one; a four-card one stands pat
    ("badugi", "2h5d9cTc", "Tc", "Tc"),
    ("badugi", "Ac2d3h3s", "3h|3s", "3h|3s"),
    ("badugi", "Ac2c3h4d", "2c", "2c"),  # keep A-3-4, not 2-3-4
    ("badugi", "Ah2d3c4s", "", ""),
    ("badugi", "5h6d7cJs", "", ""),  # a jack badugi is in the pat range: stand pat
    # five-card draw: aces draw three, four to a straight or a flush draw one against a pat hand
    ("high", "AhAdKcQs2h", "KcQs2h", "KcQs2h"),
    ("high", "7h8h9hTs2c", "2c", "7h8h9h2c"),  # against a random hand a ten and four cards win more often
    ("high", "KhQhJh4h2c", "2c", "Jh4h2c"),
    ("high", "AhAd8c8s2h", "2h", "2h"),
]


@pytest.mark.parametrize(("ranking", "hand", "against_pat", "against_random"), TEXTBOOK)
def test_the_last_draw_is_the_exact_best_against_a_pat_hand_and_a_random_hand(
    ranking: str, hand: str, against_pat: str, against_random: str
) -> None:
    assert chosen(ranking, hand, "pat") in against_pat.split("|")
    assert chosen(ranking, hand, "random") in against_random.split("|")


@pytest.mark.parametrize(("ranking", "hand"), [("low-27", "8h6d5c3sKh"), ("badugi", "2h5d9cTc"), ("high", "7h8h9hTs2c")])
def test_the_enumeration_matches_a_plain_loop_over_every_card_drawn(ranking: str, hand: str) -> None:
    """Every discard of up to two cards, valued card by card with the
    evaluator's one-hand ``rank``: the same value as the batch enumeration."""
    mine, unseen, table_ = spot(ranking, hand, "pat")
    values = discard_values(ranking, mine, unseen, [table_])
    evaluator = get_ranking(ranking)
    for k in (0, 1, 2):
        for thrown in combinations(mine, k):
            if thrown not in values:
                continue
            kept = [c for c in mine if c not in thrown]
            draws = list(combinations(unseen, k))
            plain = sum(float(table_[evaluator.rank(kept + list(d))]) for d in draws) / len(draws)
            assert values[thrown] == pytest.approx(plain, abs=1e-12)


def test_a_pat_range_holds_only_the_stated_hands() -> None:
    low = get_ranking("low-27")
    ranks = pat_hands("low-27", range(52), 5, 500, np.random.default_rng(1))
    assert len(ranks) == 500
    assert ranks.min() >= low.rank(list(parse_cards("9c8d7h6s4c")))


def single_draw_view(theirs: str, mine: str) -> TableView:
    """Fixed-limit deuce-to-seven single draw heads-up at its only draw:
    the opponent (seat 1, first to draw) has stood pat, ``hard`` holds ``mine``."""
    tournament, _ = table("F2L1D").deal_deck(stacked("F2L1D", mine, theirs))

    def at_my_draw(view: TableView) -> bool:
        return view.viewer == 0 and bool(view.legal and view.legal.draw)

    tournament = play(tournament, {0: station, 1: station}, until=at_my_draw)
    return seat_view(tournament, 0)


def test_hard_draws_one_to_its_eight_against_a_player_who_stood_pat() -> None:
    view = single_draw_view("9h8h6c5h4s", "8d6d5c3sKh")
    hard = get_bot("hard")
    assert {discarded(hard.act(view, random.Random(seed))) for seed in range(5)} == {"Kh"}
