"""The 169 starting-hand classes and the 1,326 two-card combos.

Preflop, suits only matter as "same suit or not", so every strategy and the
equity table are indexed by class.  Classes are laid out as the familiar
13×13 grid (row and column 0 = ace): the diagonal holds pairs, the upper
right suited hands, the lower left offsuit hands, and ``class id = row * 13
+ col``.  This keeps the chart's PNG and the arrays in one order.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.cards import RANKS

__all__ = [
    "CLASS_COUNT",
    "CLASS_NAMES",
    "class_cards",
    "class_index",
    "class_of_cards",
    "class_weights",
    "combo_cards",
    "combo_classes",
]

CLASS_COUNT: Final = 169


def _name(row: int, col: int) -> str:
    high, low = 12 - min(row, col), 12 - max(row, col)
    if row == col:
        return RANKS[high] * 2
    return RANKS[high] + RANKS[low] + ("s" if row < col else "o")


CLASS_NAMES: Final[tuple[str, ...]] = tuple(_name(i // 13, i % 13) for i in range(CLASS_COUNT))
_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CLASS_NAMES)}


def class_index(name: str) -> int:
    """Grid index of a class name such as ``"AKs"``, ``"72o"`` or ``"TT"``."""
    return _INDEX[name]


def class_of_cards(first: int, second: int) -> int:
    """Class id of two hole cards given as indices (rank * 4 + suit)."""
    r1, r2 = first >> 2, second >> 2
    high, low = max(r1, r2), min(r1, r2)
    if high == low:
        return (12 - high) * 14
    if (first & 3) == (second & 3):
        return (12 - high) * 13 + (12 - low)
    return (12 - low) * 13 + (12 - high)


def class_cards(index: int) -> tuple[int, int]:
    """One representative pair of cards (spades/hearts) for a class."""
    row, col = divmod(index, 13)
    high, low = 12 - min(row, col), 12 - max(row, col)
    if row == col:
        return high * 4, high * 4 + 1
    if row < col:
        return high * 4, low * 4
    return high * 4, low * 4 + 1


@cache
def combo_cards() -> npt.NDArray[np.int64]:
    """All 1,326 combos as an ``(1326, 2)`` array, first card lower."""
    return np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)


@cache
def combo_classes() -> npt.NDArray[np.int64]:
    """Class id of each combo of :func:`combo_cards`."""
    return np.array([class_of_cards(int(a), int(b)) for a, b in combo_cards()], dtype=np.int64)


@cache
def class_weights() -> npt.NDArray[np.float64]:
    """Combos per class: 6 for a pair, 4 suited, 12 offsuit."""
    return np.bincount(combo_classes(), minlength=CLASS_COUNT).astype(np.float64)
