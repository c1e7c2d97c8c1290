"""Plain-English hand names (R19), e.g. ``"Full house, kings full of tens"``
or ``"One pair, kings; kickers ace, queen, nine"``.

Descriptions are derived from the rank alone: the rank's position in
:func:`.tables.five_card_classes` gives its category and tiebreak ranks.
The class list is generated once, on the first description asked for, so
the showdown fast path never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from freezeout.evaluate import tables
from freezeout.evaluate.errors import EvaluationError

__all__ = ["describe_rank", "rank_value"]

_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_PLURALS: Final = tuple("sixes" if name == "six" else name + "s" for name in _NAMES)


@cache
def _classes() -> tuple[tables.Value, ...]:
    return tuple(tables.five_card_classes())


def rank_value(rank: int) -> tables.Value:
    """``(category code, tiebreak ranks)`` of a rank; the inverse of the tables' numbering."""
    classes = _classes()
    if not 1 <= rank <= len(classes):
        raise EvaluationError(f"rank {rank} is not a hand rank (1..{len(classes)})")
    return classes[rank - 1]


def _kickers(ranks: Sequence[int]) -> str:
    """``"; kickers ace, queen"``: the side cards that break ties within a
    made hand, so two hands that differ only there never read the same."""
    if not ranks:
        return ""
    word = "kicker" if len(ranks) == 1 else "kickers"
    return f"; {word} {', '.join(_NAMES[rank] for rank in ranks)}"


def describe_rank(rank: int) -> str:
    """Name of the hand with this rank, as shown to players.

    The words identify the exact five-card value: every rank that can
    decide a showdown is named (kickers, and all five cards of a flush), so
    distinct ranks always get distinct descriptions. The web client's
    ``describeValue`` (web/js/poker.js) must read the same in English.
    """
    category, ranks = rank_value(rank)
    first = ranks[0]
    if category == tables.STRAIGHT_FLUSH:
        return "Royal flush" if first == 12 else f"Straight flush, {_NAMES[first]} high"
    if category == tables.QUADS:
        return f"Four of a kind, {_PLURALS[first]}{_kickers(ranks[1:])}"
    if category == tables.FULL_HOUSE:
        return f"Full house, {_PLURALS[first]} full of {_PLURALS[ranks[1]]}"
    if category == tables.FLUSH:
        return "Flush, " + ", ".join(_NAMES[r] for r in ranks)
    if category == tables.STRAIGHT:
        return f"Straight, {_NAMES[first]} high"
    if category == tables.TRIPS:
        return f"Three of a kind, {_PLURALS[first]}{_kickers(ranks[1:])}"
    if category == tables.TWO_PAIR:
        return f"Two pair, {_PLURALS[first]} and {_PLURALS[ranks[1]]}{_kickers(ranks[2:])}"
    if category == tables.ONE_PAIR:
        return f"One pair, {_PLURALS[first]}{_kickers(ranks[1:])}"
    return f"High card, {_NAMES[first]}{_kickers(ranks[1:])}"
