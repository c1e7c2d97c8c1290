"""The fast evaluator against the slow reference (best of every five, R19)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freezeout.evaluate import category_of, evaluate, evaluate_batch, hand_rank
from freezeout.evaluate.batch import evaluate_batch_numpy
from freezeout.evaluate.reference import CATEGORY_ORDER, reference_score


def hands(size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True)


any_hand = st.integers(5, 7).flatmap(hands)


def assert_same_order(sample: Sequence[Sequence[int]]) -> None:
    """Ranks order the sample exactly as the reference scores do, ties included."""
    scored = sorted((reference_score(hand), hand_rank(hand)) for hand in sample)
    for (score_a, rank_a), (score_b, rank_b) in pairwise(scored):
        assert (score_a == score_b) == (rank_a == rank_b), (score_a, score_b)
        assert rank_a <= rank_b
    for score, rank in scored:
        assert CATEGORY_ORDER[score[0]] == category_of(rank)


@settings(max_examples=300, deadline=None)
@given(st.lists(any_hand, min_size=2, max_size=6))
def test_ordering_matches_reference(sample: list[list[int]]) -> None:  # R19
    assert_same_order(sample)


@settings(max_examples=300, deadline=None)
@given(any_hand)
def test_single_paths_agree(hand: list[int]) -> None:
    rank = hand_rank(hand)
    value = evaluate(hand)
    assert value.rank == rank
    assert CATEGORY_ORDER[reference_score(hand)[0]] == value.category
    assert hand_rank(value.best_five) == rank
    assert set(value.best_five) <= set(hand)
    assert hand_rank(list(reversed(hand))) == rank


@pytest.mark.parametrize("size", [5, 6, 7])
def test_random_sample_against_reference(size: int) -> None:
    rng = random.Random(size)
    sample = [rng.sample(range(52), size) for _ in range(1500)]
    # Bias towards the rare categories: suited and paired hands.
    for _ in range(500):
        suit = rng.randrange(4)
        suited = rng.sample([rank * 4 + suit for rank in range(13)], 5)
        rest = rng.sample([card for card in range(52) if card not in suited], size - 5)
        sample.append(suited + rest)
        ranks = rng.sample(range(13), 3)
        paired = [rank * 4 + suit for rank in ranks for suit in rng.sample(range(4), 2)][:size]
        sample.append(paired + rng.sample([c for c in range(52) if c not in paired], size - len(paired)))
    assert_same_order(sample)


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 7).flatmap(lambda size: st.lists(hands(size), min_size=1, max_size=30)))
def test_batch_agrees_with_single_hypothesis(sample: list[list[int]]) -> None:
    cards = np.array(sample, dtype=np.int8)
    assert evaluate_batch(cards).tolist() == [hand_rank(hand) for hand in sample]
    assert evaluate_batch_numpy(cards).tolist() == [hand_rank(hand) for hand in sample]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_agrees_with_single(size: int) -> None:
    rng = np.random.default_rng(size)
    cards = np.argsort(rng.random((4000, 52)), axis=1)[:, :size]
    expected = [hand_rank(row.tolist()) for row in cards]
    for dtype in (np.int8, np.int64):  # each dtype is one more numba compile on a cold cache
        assert evaluate_batch(cards.astype(dtype)).tolist() == expected
    assert evaluate_batch_numpy(cards).tolist() == expected
