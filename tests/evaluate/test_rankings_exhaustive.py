"""Every hand of each new ranking, counted (the perft of V6, V10, V14, V15, V16).

Each expected number is derived in the test from the rules, not read off
the evaluator: C(n, k) counts of ranks and 4**k suit choices.  Then one hand
per distinct rank is scored by the slow reference of
:mod:`freezeout.evaluate.reference_variants`: the ranks must order those
scores exactly (every value of the game, checked once).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from math import comb
from typing import Any

import numpy as np

from freezeout.evaluate import reference_variants as ref
from freezeout.evaluate.rankings import Ranking, get_ranking

SUITINGS = 4**5  # suits of five cards, any
OFFSUIT = 4**5 - 4  # suits of five different-rank cards that are not a flush


def census(ranking: Ranking, cards: np.ndarray) -> tuple[np.ndarray, Counter[str], np.ndarray]:
    """Distinct ranks, hands per category, and one representative row per distinct rank."""
    ranks = ranking.rank_batch(cards)
    values, first, counts = np.unique(ranks, return_index=True, return_counts=True)
    by_category: Counter[str] = Counter()
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        by_category[ranking.category(value)] += count
    return values, by_category, first


def assert_orders_like(
    ranking: Ranking,
    cards: np.ndarray,
    first: np.ndarray,
    values: np.ndarray,
    score: Callable[[list[int]], Any],
) -> None:
    """Representatives sorted by rank have strictly increasing reference scores (None = no low, lowest)."""
    scores = [score(cards[row].tolist()) for row in first]
    keyed = [(0, ()) if value is None else (1, value) for value in scores]
    assert keyed == sorted(keyed) and len(set(keyed)) == len(keyed)
    assert [ranking.rank(cards[row].tolist()) for row in first] == values.tolist()


def test_low8_every_five_card_hand(every_five: np.ndarray) -> None:  # V6
    low8 = get_ranking("low8")
    values, by_category, first = census(low8, every_five)
    # 56 lows = C(8, 5) sets of five different ranks among A..8, plus 0 for "no low".
    assert values.tolist() == list(range(57))
    # Suits never matter (flushes and straights do not spoil a low): 56 * 4**5 hands qualify.
    top = {"five low": 5, "six low": 6, "seven low": 7, "eight low": 8}
    expected = {
        name: comb(card - 1, 4) * SUITINGS for name, card in top.items()
    }  # the four below the top card
    expected["no low"] = comb(52, 5) - comb(8, 5) * SUITINGS
    assert dict(by_category) == expected
    assert sum(count for name, count in by_category.items() if name != "no low") == 57_344
    assert_orders_like(low8, every_five, first, values, ref.ref_low8)


def test_ace_to_five_every_five_card_hand(every_five: np.ndarray) -> None:  # V10
    razz = get_ranking("low-a5")
    values, by_category, first = census(razz, every_five)
    # One value per rank multiset of five cards (at most four of a rank): C(17, 5) - 13 = 6,175.
    assert len(values) == comb(13 + 4, 5) - 13 == 6_175
    expected = {
        "four of a kind": 13 * 12 * 4,
        "full house": 13 * 12 * comb(4, 3) * comb(4, 2),
        "three of a kind": 13 * comb(12, 2) * 4 * 16,
        "two pair": comb(13, 2) * 11 * 6 * 6 * 4,
        "one pair": 13 * comb(12, 3) * 6 * 64,
    }
    # No pair (straights and flushes included: they do not count): top card t has C(t-1, 4) lows below it.
    names = ["five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]
    for value, name in enumerate(names, start=5):
        expected[f"{name} low"] = comb(value - 1, 4) * SUITINGS
    assert dict(by_category) == expected
    assert sum(expected.values()) == comb(52, 5)
    assert_orders_like(razz, every_five, first, values, ref.ref_a5)


def test_deuce_to_seven_every_five_card_hand(every_five: np.ndarray) -> None:  # V14
    d27 = get_ranking("low-27")
    values, by_category, first = census(d27, every_five)
    assert len(values) == 7_462  # as many values as high poker: 10 straights less A-5, plus A-5 as ace-high
    straights = 9  # 2-6 up to T-A; A-2-3-4-5 is not a straight
    expected = {
        "straight flush": straights * 4,
        "four of a kind": 624,
        "full house": 3_744,
        "flush": (comb(13, 5) - straights) * 4,
        "straight": straights * OFFSUIT,
        "three of a kind": 54_912,
        "two pair": 123_552,
        "one pair": 1_098_240,
    }
    names = ["seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
    for top, name in enumerate(names, start=7):
        lows_below = comb(top - 2, 4)  # four of the ranks 2..top-1 (ace as 14)
        not_straight = lows_below - 1  # the one straight topped by this card
        expected[f"{name} low"] = not_straight * OFFSUIT
    assert dict(by_category) == expected
    assert sum(expected.values()) == comb(52, 5)
    best = int((d27.rank_batch(every_five) == 7_462).sum())
    assert best == OFFSUIT  # the nuts: 7-5-4-3-2 of at least two suits
    assert_orders_like(d27, every_five, first, values, ref.ref_d27)


def test_short_deck_every_five_card_hand(every_short_five: np.ndarray) -> None:  # V16
    short = get_ranking("short-deck")
    values, by_category, first = census(short, every_short_five)
    assert len(every_short_five) == comb(36, 5) == 376_992
    straights = 6  # A-6-7-8-9, 6-T, 7-J, 8-Q, 9-K, T-A
    expected = {
        "straight flush": straights * 4,
        "four of a kind": 9 * 8 * 4,
        "flush": (comb(9, 5) - straights) * 4,
        "full house": 9 * 8 * comb(4, 3) * comb(4, 2),
        "straight": straights * OFFSUIT,
        "three of a kind": 9 * comb(8, 2) * 4 * 16,
        "two pair": comb(9, 2) * 7 * 6 * 6 * 4,
        "one pair": 9 * comb(8, 3) * 6 * 64,
        "high card": (comb(9, 5) - straights) * OFFSUIT,
    }
    assert dict(by_category) == expected
    distinct = (
        (comb(9, 5) - straights) * 2
        + straights * 2
        + 9 * 8 * 2
        + 9 * comb(8, 2)
        + comb(9, 2) * 7
        + 9 * comb(8, 3)
    )
    assert len(values) == distinct == 1_404
    assert_orders_like(short, every_short_five, first, values, ref.ref_short_deck)
    categories = [short.category(value) for value in values.tolist()]
    assert [
        ref.short_deck_category(ref.ref_short_deck(every_short_five[row].tolist())) for row in first
    ] == categories


def test_badugi_every_four_card_hand(every_four: np.ndarray) -> None:  # V15
    badugi = get_ranking("badugi")
    values, by_category, first = census(badugi, every_four)
    # A hand of k cards is k different ranks: C(13, 4) + C(13, 3) + C(13, 2) + C(13, 1) values.
    assert len(values) == sum(comb(13, size) for size in range(1, 5)) == 1_092
    # Counted by the suits of the four cards (s = choose suits, r = choose ranks):
    one_suit = 4 * comb(13, 4)  # 4 of a suit: one card plays
    three_one = 4 * 3 * comb(13, 3) * 13  # 3+1 suits: always two cards (one of the three differs in rank)
    two_two = comb(4, 2) * comb(13, 2) ** 2  # 2+2 suits: always two cards
    two_one_one = 4 * 3 * comb(13, 2) * 13 * 13  # 2+1+1: three cards unless the two singles pair
    two_one_one_two = 4 * 3 * comb(13, 2) * 13 + 4 * 3 * comb(13, 2) * 2  # ... or match both ranks of the two
    rainbow = {4: 13 * 12 * 11 * 10, 3: comb(4, 2) * 13 * 12 * 11, 2: 3 * 13 * 12 + 4 * 13 * 12, 1: 13}
    expected = {
        "badugi": rainbow[4],
        "three-card badugi": two_one_one - two_one_one_two + rainbow[3],
        "two-card badugi": three_one + two_two + two_one_one_two + rainbow[2],
        "one-card badugi": one_suit + rainbow[1],
    }
    assert (
        dict(by_category)
        == expected
        == {
            "badugi": 17_160,
            "three-card badugi": 154_440,
            "two-card badugi": 96_252,
            "one-card badugi": 2_873,
        }
    )
    assert sum(expected.values()) == comb(52, 4)
    assert_orders_like(badugi, every_four, first, values, ref.ref_badugi)
