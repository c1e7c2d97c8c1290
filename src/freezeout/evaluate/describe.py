"""Plain-English hand names (R19), e.g. ``"Full house, kings full of tens"``
or ``"One pair, kings; kickers ace, queen, nine"``.

Descriptions are derived from the rank alone: the rank's position in
:func:`.tables.five_card_classes` gives its category and tiebreak ranks.
The class list is generated once, on the first description asked for, so
the showdown fast path never pays for it.
"""

from __future__ import annotations

from functools import cache

from freezeout.evaluate import tables
from freezeout.evaluate.errors import EvaluationError
from freezeout.evaluate.words import describe_high

__all__ = ["describe_rank", "rank_value"]


@cache
def _classes() -> tuple[tables.Value, ...]:
    return tuple(tables.five_card_classes())


def rank_value(rank: int) -> tables.Value:
    """``(category code, tiebreak ranks)`` of a rank; the inverse of the tables' numbering."""
    classes = _classes()
    if not 1 <= rank <= len(classes):
        raise EvaluationError(f"rank {rank} is not a hand rank (1..{len(classes)})")
    return classes[rank - 1]


def describe_rank(rank: int, lang: str = "en") -> str:
    """Name of the hand with this rank, as shown to players.

    The words identify the exact five-card value: every rank that can
    decide a showdown is named (kickers, and all five cards of a flush), so
    distinct ranks always get distinct descriptions. The web client's
    ``describeValue`` (web/js/poker.js) must read the same in English.
    ``lang`` is "en" or "cs" (:mod:`.words`).
    """
    category, ranks = rank_value(rank)
    return describe_high(category, ranks, lang)
