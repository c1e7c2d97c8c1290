"""Every five-card hand, counted (the evaluator's perft), plus the table invariants (R19)."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations
from math import comb

import numpy as np
import pytest

from freezeout.evaluate import CATEGORIES, category_of, evaluate_batch, hand_rank
from freezeout.evaluate.reference import reference_score

FIVE_CARD_COUNTS = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "one pair": 1_098_240,
    "high card": 1_302_540,
}
DISTINCT_PER_CATEGORY = {
    "straight flush": 10,
    "four of a kind": 156,
    "full house": 156,
    "flush": 1_277,
    "straight": 10,
    "three of a kind": 858,
    "two pair": 858,
    "one pair": 2_860,
    "high card": 1_277,
}


@pytest.fixture(scope="module")
def all_five() -> tuple[np.ndarray, np.ndarray]:
    count = comb(52, 5)
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8, count=count * 5)
    cards = flat.reshape(count, 5)
    return cards, evaluate_batch(cards)


def test_five_card_category_counts(all_five: tuple[np.ndarray, np.ndarray]) -> None:  # R19
    _, ranks = all_five
    values, counts = np.unique(ranks, return_counts=True)
    assert len(values) == 7_462
    assert values.min() == 1 and values.max() == 7_462
    by_category: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        by_category[category_of(value)] += count
        distinct[category_of(value)] += 1
    assert dict(by_category) == FIVE_CARD_COUNTS
    assert dict(distinct) == DISTINCT_PER_CATEGORY
    assert sum(FIVE_CARD_COUNTS.values()) == comb(52, 5)
    assert set(by_category) == set(CATEGORIES)


def test_royal_flushes(all_five: tuple[np.ndarray, np.ndarray]) -> None:  # R19
    _, ranks = all_five
    assert int((ranks == 7_462).sum()) == 4


def test_every_rank_orders_like_the_reference(all_five: tuple[np.ndarray, np.ndarray]) -> None:  # R19
    cards, ranks = all_five
    _, first = np.unique(ranks, return_index=True)  # one hand per distinct rank, by rank
    scores = [reference_score(cards[row].tolist()) for row in first]
    assert scores == sorted(scores)
    assert len(set(scores)) == len(scores)
    # and the single-hand path agrees on those representatives
    assert [hand_rank(cards[row].tolist()) for row in first] == list(range(1, 7_463))
