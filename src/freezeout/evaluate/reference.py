"""A slow, obviously-correct high-hand evaluator: the oracle for the tests.

It shares no code with the table generator.  It tries every five-card
subset of the hand and scores each one straight from R19: category first,
then the ranks that form the combination (most cards first, higher rank
first), then the kickers.  The best score wins.  Scores are plain tuples, so
Python's tuple comparison *is* the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

__all__ = ["CATEGORY_ORDER", "reference_category", "reference_score", "score_five"]

#: Weakest first, as in R19 read bottom-up.
CATEGORY_ORDER = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

Score = tuple[int, tuple[int, ...]]


def score_five(cards: Sequence[int]) -> Score:
    """Score exactly five cards (indices ``rank * 4 + suit``)."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = [card // 4 for card in cards]
    suits = {card % 4 for card in cards}
    flush = len(suits) == 1
    # Group ranks: bigger groups first, then higher ranks (pair of kings beats
    # pair of queens; kickers in descending order).
    counts = Counter(ranks)
    grouped = tuple(sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True))
    shape = sorted(counts.values(), reverse=True)

    distinct = sorted(set(ranks))
    straight_top = None
    if len(distinct) == 5:
        if distinct[4] - distinct[0] == 4:
            straight_top = distinct[4]
        elif distinct == [0, 1, 2, 3, 12]:  # A-2-3-4-5: the ace plays low, five high
            straight_top = 3

    if straight_top is not None and flush:
        return (CATEGORY_ORDER.index("straight flush"), (straight_top,))
    if shape == [4, 1]:
        return (CATEGORY_ORDER.index("four of a kind"), grouped)
    if shape == [3, 2]:
        return (CATEGORY_ORDER.index("full house"), grouped)
    if flush:
        return (CATEGORY_ORDER.index("flush"), grouped)
    if straight_top is not None:
        return (CATEGORY_ORDER.index("straight"), (straight_top,))
    if shape == [3, 1, 1]:
        return (CATEGORY_ORDER.index("three of a kind"), grouped)
    if shape == [2, 2, 1]:
        return (CATEGORY_ORDER.index("two pair"), grouped)
    if shape == [2, 1, 1, 1]:
        return (CATEGORY_ORDER.index("one pair"), grouped)
    return (CATEGORY_ORDER.index("high card"), grouped)


def reference_score(cards: Sequence[int]) -> Score:
    """Best score over every five-card subset of 5-7 distinct cards."""
    assert 5 <= len(cards) <= 7 and len(set(cards)) == len(cards)
    return max(score_five(five) for five in combinations(cards, 5))


def reference_category(cards: Sequence[int]) -> str:
    return CATEGORY_ORDER[reference_score(cards)[0]]
