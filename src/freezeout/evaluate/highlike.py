"""Five-card values of the games that rank like high poker with a twist.

Deuce-to-seven lowball (V14) is high poker read upside down, except that
the ace is always high, so A-2-3-4-5 is no straight; short-deck hold'em
(V16) drops the deuces to fives, makes A-6-7-8-9 the lowest straight and
puts the flush above the full house.  Both are the same computation with
two parameters, the straights that exist and the order of the categories,
so that is what this generator takes.  Generation only: no look-ups here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from freezeout.evaluate.tables import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Value,
)

__all__ = ["STANDARD_ORDER", "Straights", "five_card_value", "flush_masks", "straights"]

#: Category codes of :mod:`.tables`, weakest first, as R19 orders them.
STANDARD_ORDER: Final = (
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    TRIPS,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    STRAIGHT_FLUSH,
)

#: ``frozenset of five ranks -> the straight's top rank`` (the rank it is named after).
Straights = dict[frozenset[int], int]


def straights(ranks: Sequence[int], *, ace_low_under: int | None) -> Straights:
    """Five consecutive ranks among ``ranks`` (ascending), plus the ace-low one if any.

    ``ace_low_under`` is the lowest rank of the deck when an ace may play
    below it (R19: under the deuce; V16: under the six), else None (V14).
    """
    found: Straights = {}
    for start in range(len(ranks) - 4):
        window = ranks[start : start + 5]
        found[frozenset(window)] = window[-1]
    if ace_low_under is not None:
        low = [rank for rank in ranks if rank >= ace_low_under][:4]
        found[frozenset([12, *low])] = low[-1]
    return found


def five_card_value(
    counts: Sequence[int], *, flush: bool, straights: Straights, order: Sequence[int]
) -> Value:
    """``(strength, tiebreak ranks)`` of five cards: tuples compare as the game says.

    ``strength`` is the category's position in ``order``; the tiebreak lists
    the ranks with the biggest groups first, higher ranks first among equal
    groups (pairs before kickers), or the top of a straight.
    """
    grouped = sorted(((count, rank) for rank, count in enumerate(counts) if count), reverse=True)
    shape = [count for count, _ in grouped]
    ranks = tuple(rank for _, rank in grouped)
    top = straights.get(frozenset(ranks)) if len(ranks) == 5 else None
    if top is not None:
        category = STRAIGHT_FLUSH if flush else STRAIGHT
        return order.index(category), (top,)
    if flush:
        category = FLUSH
    elif shape[0] == 4:
        category = QUADS
    elif shape[:2] == [3, 2]:
        category = FULL_HOUSE
    elif shape[0] == 3:
        category = TRIPS
    elif shape[:2] == [2, 2]:
        category = TWO_PAIR
    elif shape[0] == 2:
        category = ONE_PAIR
    else:
        category = HIGH_CARD
    return order.index(category), ranks


def flush_masks(ranks: Sequence[int], size: int = 5) -> list[int]:
    """Every 13-bit mask with ``size`` bits set among ``ranks``."""
    from itertools import combinations

    return [sum(1 << rank for rank in chosen) for chosen in combinations(ranks, size)]
