"""Rank multisets for the table generators: best-of-n by removal, and numbering.

Every ranking that ignores suits (or handles flushes apart) is a function of
the multiset of card ranks.  The generators score each five-card multiset
straight from a game's rules, then extend the score to six and seven cards
with one observation: the best five of ``n`` cards is the best five of one
of the ``n - 1``-card multisets left after removing a card.  That costs at
most seven look-ups per multiset instead of 21 five-card scorings, which
keeps first-use generation small.

Keys are :func:`.tables.rank_key` (base 5, high numbering: deuce 0 .. ace
12), the same keys the look-up paths sum per card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from freezeout.evaluate.tables import rank_key

__all__ = ["Score", "best_of_multisets", "multisets", "number_scores"]

#: A comparable score: tuples compare exactly as the rules say (higher is better).
Score = tuple[Any, ...]


def multisets(size: int, ranks: Sequence[int] = range(13)) -> Iterator[tuple[int, ...]]:
    """Every 13-long count vector with ``size`` cards drawn from ``ranks``, at most 4 of each."""
    counts = [0] * 13

    def fill(position: int, left: int) -> Iterator[tuple[int, ...]]:
        if position == len(ranks):
            if left == 0:
                yield tuple(counts)
            return
        rank = ranks[position]
        for count in range(min(4, left) + 1):
            counts[rank] = count
            yield from fill(position + 1, left - count)
        counts[rank] = 0

    yield from fill(0, size)


def best_of_multisets(
    score_five: Callable[[tuple[int, ...]], Score],
    *,
    ranks: Sequence[int] = range(13),
    max_cards: int = 7,
) -> dict[int, Score]:
    """``rank_key -> best score`` for every multiset of 5..``max_cards`` cards over ``ranks``.

    Scores must compare with ``>`` (higher is better).  Six- and seven-card
    entries come from the removal rule of the module docstring.
    """
    best: dict[int, Score] = {}
    previous: dict[int, Score] = {}
    for size in range(5, max_cards + 1):
        current: dict[int, Score] = {}
        for counts in multisets(size, ranks):
            key = rank_key(counts)
            if size == 5:
                current[key] = score_five(counts)
                continue
            current[key] = max(previous[key - 5**rank] for rank, count in enumerate(counts) if count)
        best.update(current)
        previous = current
    return best


def number_scores(scores: Iterable[Score]) -> dict[Score, int]:
    """Rank numbers for distinct scores: 1 for the weakest, counting up (higher is better)."""
    return {score: position for position, score in enumerate(sorted(set(scores)), start=1)}
