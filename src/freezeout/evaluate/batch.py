"""Evaluate many hands at once from a numpy array of card indices.

Same keys and tables as :mod:`.high`, vectorised: the per-card packed keys
are summed along each row, the flush nibbles are tested, non-flush rows are
looked up by binary search in the sorted base-5 keys, and flush rows get the
suit's rank mask and index the flush table.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from freezeout.cards import CardError
from freezeout.evaluate import high, tables
from freezeout.evaluate.errors import EvaluationError

__all__ = ["evaluate_batch", "evaluate_batch_numpy"]

_SUIT_BASE: Final = 0x3333
_FLUSH_BITS: Final = 0x8888
_SHIFT: Final = 16

_TABLES: Final = high.load_tables()
_ORDER: Final = np.argsort(np.frombuffer(_TABLES["nonflush_keys"], dtype=np.uint64), kind="stable")
_SORTED_KEYS: Final = np.frombuffer(_TABLES["nonflush_keys"], dtype=np.uint64)[_ORDER].astype(np.int64)
_SORTED_RANKS: Final = np.frombuffer(_TABLES["nonflush_ranks"], dtype=np.uint16)[_ORDER].astype(np.int32)
_FLUSH: Final = np.frombuffer(_TABLES["flush"], dtype=np.uint16).astype(np.int32)
_CARD: Final = np.arange(52, dtype=np.int64)
_KEY: Final = ((5 ** (_CARD >> 2)) << _SHIFT) | (1 << 4 * (_CARD & 3))


def _checked(cards: npt.ArrayLike) -> npt.NDArray[Any]:
    array = np.asarray(cards)
    if array.ndim != 2 or not tables.MIN_CARDS <= array.shape[1] <= tables.MAX_CARDS:
        raise EvaluationError(
            f"expected an array of shape (N, k) with k in {tables.MIN_CARDS}..{tables.MAX_CARDS}, "
            f"got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise CardError(f"card indices must be integers, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise CardError("card indices must be in 0..51")
    return array


def _check_distinct(array: npt.NDArray[Any]) -> None:
    bits = np.bitwise_or.reduce(np.left_shift(np.int64(1), array.astype(np.int64)), axis=1)
    bad = np.flatnonzero(np.bitwise_count(bits) != array.shape[1])
    if bad.size:
        raise CardError(f"row {int(bad[0])} has a duplicate card")


def evaluate_batch_numpy(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Vectorised numpy evaluator (no numba): ranks of each row, as int32."""
    array = _checked(cards)
    _check_distinct(array)
    indices = array.astype(np.intp)
    total = _KEY[indices].sum(axis=1) + _SUIT_BASE
    ranks: npt.NDArray[np.int32] = _SORTED_RANKS[np.searchsorted(_SORTED_KEYS, total >> _SHIFT)]
    flagged = total & _FLUSH_BITS
    rows = np.flatnonzero(flagged)
    if rows.size:
        suit = (np.log2(flagged[rows]).astype(np.int64) >> 2)[:, None]
        chosen = indices[rows]
        masks = np.where((chosen & 3) == suit, 1 << (chosen >> 2), 0).sum(axis=1)
        ranks[rows] = _FLUSH[masks]
    return ranks


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Ranks of each row of an ``(N, k)`` array of card indices, ``k`` in 5..7."""
    return evaluate_batch_numpy(cards)
