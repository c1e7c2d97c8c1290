"""Rankings: how a set of cards becomes a comparable number.

Only ``high`` (R19) exists today.  The seam for later variants:

* **Ace-to-five low** and **8-or-better low** are further rankings with the
  same shape: a generator module (tables for rank multisets: low hands ignore
  suits and straights, so one dict keyed by the same base-5 rank key is the
  whole table; 8-or-better also marks non-qualifying hands) and a lookup
  module.  Their ranks keep this package's convention, *higher is better*,
  so pot-splitting code compares every ranking the same way; "no qualifying
  low" is rank 0.
* **Omaha** is not a ranking but a *selection* rule (exactly two hole cards
  plus exactly three board cards).  It will be a function
  ``best_of(ranking, hole, board)`` taking the max of ``ranking.rank`` over
  the C(4,2) x C(5,3) = 60 five-card sets (and a batch twin over the same
  tables), so it works with ``high`` and with either low.

A variant (``freezeout.rules.variant``) names its rankings as data, e.g.
``("high",)`` for Hold'em or ``("high", "low8")`` for Omaha Hi-Lo, and looks
them up here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from freezeout.evaluate import high

__all__ = ["HIGH", "RANKINGS", "HighRanking", "Ranking", "get_ranking"]


class Ranking(Protocol):
    """A way of ranking 5-7 cards; higher :meth:`rank` is better, equal splits."""

    @property
    def name(self) -> str: ...

    def rank(self, cards: Sequence[int]) -> int: ...

    def category(self, rank: int) -> str: ...

    def describe(self, rank: int) -> str: ...


class HighRanking:
    """Standard high hands (R19)."""

    @property
    def name(self) -> str:
        return "high"

    def rank(self, cards: Sequence[int]) -> int:
        return high.hand_rank(cards)

    def category(self, rank: int) -> str:
        return high.category_of(rank)

    def describe(self, rank: int) -> str:
        from freezeout.evaluate.describe import describe_rank

        return describe_rank(rank)


HIGH = HighRanking()
RANKINGS: dict[str, Ranking] = {HIGH.name: HIGH}


def get_ranking(name: str) -> Ranking:
    """The ranking registered as ``name`` (a KeyError names the known ones)."""
    try:
        return RANKINGS[name]
    except KeyError:
        raise KeyError(f"unknown ranking {name!r}; known: {sorted(RANKINGS)}") from None
