"""What the fast paths share: per-card keys with a poison tail, and the slow error path.

Every look-up sums or ORs one precomputed key per card.  Key lists have
104 entries: indices 52..103 hold a poison key that no table accepts, so a
negative index (which Python lists take) or one just past the deck fails
instead of aliasing a real card.  When a fast path refuses its input it
calls :func:`bad_cards`, which works out the precise complaint slowly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, combinations
from typing import Final

from freezeout.cards import Card, CardError
from freezeout.evaluate.errors import EvaluationError

__all__ = ["POISON", "bad_cards", "card_keys", "chained", "first_subset", "joined", "shared_ints"]

#: Far above any key bit used by a table: present in a sum or OR exactly when a bad index was read.
POISON: Final = 1 << 200


def card_keys(key: Callable[[int], int]) -> list[int]:
    """``key(card)`` for the 52 cards, then 52 poison entries (see the module docstring)."""
    return [key(card) for card in range(52)] + [POISON] * 52


def shared_ints(values: Iterable[int]) -> list[int]:
    """``list(values)`` holding one int object per distinct value.

    Ranks above 256 are not cached by CPython, so a table built from an
    array would hold one object per cell; sharing them keeps the memory a
    look-up touches (and so its cache misses) small.
    """
    objects: dict[int, int] = {}
    return [objects.setdefault(value, value) for value in values]


def joined(hole: Sequence[int], board: Sequence[int]) -> Sequence[int]:
    """Hole and board cards as one sequence (the hole itself when there is no board)."""
    return [*hole, *board] if board else hole


def bad_cards(cards: Iterable[object], expected: str, *, lowest: int = 0) -> ValueError:
    """The precise error for input a fast path rejected (slow; only on failure).

    A bad index or a repeated card is a :class:`CardError`; a card below
    ``lowest`` (the short deck's six) or a wrong count is an
    :class:`EvaluationError` naming ``expected``.
    """
    items: list[int] = []
    for item in cards:
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < 52:
            return CardError(f"invalid card index {item!r}: expected an int in 0..51")
        items.append(item)
    if len(set(items)) != len(items):
        duplicate = next(card for card in items if items.count(card) > 1)
        return CardError(f"duplicate card {Card(duplicate)}")
    below = [Card(item) for item in items if item < lowest]
    if below:
        return EvaluationError(f"{below[0]} is not in the short deck, which holds the 36 cards six to ace")
    return EvaluationError(f"{expected}, got {len(items)}")


def first_subset(
    cards: Iterable[int], size: int, rank_of: Callable[[Sequence[int]], int], target: int
) -> tuple[Card, ...]:
    """The first ``size`` cards (taking higher cards first) whose rank is ``target``."""
    ordered = sorted((Card(card) for card in cards), reverse=True)
    return next(chosen for chosen in combinations(ordered, size) if rank_of(chosen) == target)


def chained(hole: Sequence[int], board: Sequence[int]) -> list[object]:
    """Hole and board together, for error messages."""
    return list(chain(hole, board))
