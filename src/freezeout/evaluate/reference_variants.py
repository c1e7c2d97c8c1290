"""Slow, obviously-correct references for every ranking beyond high: the tests' oracles.

Like :mod:`.reference`, this shares no code with the table generators.
Each function tries every allowed selection of cards (every five of the
hand; every two-plus-three for Omaha; every subset for badugi), scores each
straight from the game's rule (V5, V6, V10, V14, V15, V16) as a plain
tuple, and keeps the best.  Higher tuples are better hands; ``None`` is
"no qualifying low".

Card indices are ``rank * 4 + suit`` with rank 0 the deuce and 12 the ace.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

__all__ = [
    "SHORT_DECK_CATEGORIES",
    "low8_five",
    "ref_a5",
    "ref_badugi",
    "ref_d27",
    "ref_low8",
    "ref_omaha",
    "ref_short_deck",
    "short_deck_category",
]

Score = tuple[Any, ...]


def _ace_low_value(card: int) -> int:
    """Face value with the ace as one: A=1, 2=2 .. K=13."""
    rank = card // 4
    return 1 if rank == 12 else rank + 2


def _grouped_desc(values: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(group sizes, values) with bigger groups first and higher values first within a size."""
    counts = Counter(values)
    order = sorted(counts, key=lambda value: (counts[value], value), reverse=True)
    return tuple(counts[value] for value in order), tuple(order)


# --------------------------------------------------------------------------- lows
def _low8_five(five: Sequence[int]) -> Score | None:
    values = sorted((_ace_low_value(card) for card in five), reverse=True)
    if len(set(values)) != 5 or values[0] > 8:
        return None
    return tuple(-value for value in values)  # lower cards, compared from the top, are better


def ref_low8(cards: Sequence[int]) -> Score | None:
    """Best 8-or-better low (V6) of 5-7 cards, or None."""
    lows = [score for five in combinations(cards, 5) if (score := _low8_five(five)) is not None]
    return max(lows) if lows else None


#: A-5 badness of each pattern of equal ranks: no pair is best, four of a kind worst (V10).
_A5_PATTERN_GOODNESS = {(1, 1, 1, 1, 1): 5, (2, 1, 1, 1): 4, (2, 2, 1): 3, (3, 1, 1): 2, (3, 2): 1, (4, 1): 0}


def _a5_five(five: Sequence[int]) -> Score:
    pattern, values = _grouped_desc([_ace_low_value(card) for card in five])
    return (_A5_PATTERN_GOODNESS[pattern], tuple(-value for value in values))


def ref_a5(cards: Sequence[int]) -> Score:
    """Best ace-to-five low (V10) of 5-7 cards: suits and straights ignored."""
    return max(_a5_five(five) for five in combinations(cards, 5))


def _high_five(five: Sequence[int], *, straights: dict[frozenset[int], int], flush_over_full: bool) -> Score:
    """High-poker score of five cards: (category, tiebreak), categories numbered weakest first."""
    ranks = [card // 4 for card in five]
    flush = len({card % 4 for card in five}) == 1
    pattern, grouped = _grouped_desc(ranks)
    top = straights.get(frozenset(ranks)) if len(set(ranks)) == 5 else None
    full, flush_category = (5, 6) if flush_over_full else (6, 5)
    if top is not None and flush:
        return (8, (top,))
    if pattern == (4, 1):
        return (7, grouped)
    if pattern == (3, 2):
        return (full, grouped)
    if flush:
        return (flush_category, grouped)
    if top is not None:
        return (4, (top,))
    return ({(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(pattern, 0), grouped)


_D27_STRAIGHTS = {frozenset(range(low, low + 5)): low + 4 for low in range(0, 9)}  # 2-6 .. T-A; no A-5


def ref_d27(cards: Sequence[int]) -> Score:
    """Best deuce-to-seven low (V14) of 5-7 cards: the high score upside down, A-2-3-4-5 no straight."""
    best = None
    for five in combinations(cards, 5):
        category, tiebreak = _high_five(five, straights=_D27_STRAIGHTS, flush_over_full=False)
        score = (-category, tuple(-rank for rank in tiebreak))
        best = score if best is None or score > best else best
    assert best is not None
    return best


# --------------------------------------------------------------------------- badugi
def ref_badugi(cards: Sequence[int]) -> Score:
    """Best badugi (V15): the largest subset with no suit and no rank twice, then lowest from the top."""
    best: Score | None = None
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            if len({card % 4 for card in subset}) == size and len({card // 4 for card in subset}) == size:
                values = sorted((_ace_low_value(card) for card in subset), reverse=True)
                score = (size, tuple(-value for value in values))
                best = score if best is None or score > best else best
    assert best is not None
    return best


# --------------------------------------------------------------------------- short deck
_SHORT_STRAIGHTS = {frozenset(range(low, low + 5)): low + 4 for low in range(4, 9)}  # 6-T .. T-A
_SHORT_STRAIGHTS[frozenset({12, 4, 5, 6, 7})] = 7  # A-6-7-8-9, nine high (V16)
SHORT_DECK_CATEGORIES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "full house",
    "flush",
    "four of a kind",
    "straight flush",
)


def ref_short_deck(cards: Sequence[int]) -> Score:
    """Best short-deck hold'em hand (V16) of 5-7 cards six to ace."""
    assert all(card >= 16 for card in cards)
    return max(
        _high_five(five, straights=_SHORT_STRAIGHTS, flush_over_full=True) for five in combinations(cards, 5)
    )


def short_deck_category(score: Score) -> str:
    """Category name of a :func:`ref_short_deck` score."""
    return SHORT_DECK_CATEGORIES[score[0]]


# --------------------------------------------------------------------------- omaha
def ref_omaha(
    hole: Sequence[int], board: Sequence[int], five_score: Callable[[Sequence[int]], Score | None]
) -> Score | None:
    """Best ``five_score`` over exactly two hole cards plus exactly three board cards (V5, V6)."""
    scores = [
        score
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
        if (score := five_score((*two, *three))) is not None
    ]
    return max(scores) if scores else None


def low8_five(five: Sequence[int]) -> Score | None:
    """8-or-better score of exactly five cards, or None (for :func:`ref_omaha`)."""
    return _low8_five(five)
