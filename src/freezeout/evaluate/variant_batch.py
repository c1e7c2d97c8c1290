"""Batch ranks for the rankings beyond high: numpy in, numba kernel, numpy out.

Every function checks the array the same way (two dimensions, the card
count the ranking takes, integer indices 0..51, no card twice in a row)
and raises the errors of the single-hand paths, naming the first bad row.
Rows are handed to the kernels as C-contiguous ``uint8`` (a copy only when
the input is anything else), so each kernel is compiled once, for one
type, and cached on disk by numba.

Short-deck rows reuse the high kernel of :mod:`.kernels` with the short
tables: only the tables differ.
"""

from __future__ import annotations

from array import array
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from freezeout.cards import Card, CardError
from freezeout.evaluate import badugitables, lowtables, omahatables, shorttables, tables
from freezeout.evaluate.errors import EvaluationError

__all__ = [
    "a5_batch",
    "badugi_batch",
    "d27_batch",
    "low8_batch",
    "omaha_high_batch",
    "omaha_low8_batch",
    "short_batch",
]

Ranks = npt.NDArray[np.int32]


def _rows(cards: npt.ArrayLike, widths: range, what: str) -> npt.NDArray[np.uint8]:
    """The checked ``uint8`` array (shape, integer type, 0..51); repeats are the kernels' to find."""
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] not in widths:
        raise EvaluationError(f"expected an array of shape (N, k) with {what}, got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise CardError(f"card indices must be integers, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        row = int(np.flatnonzero(((array < 0) | (array > 51)).any(axis=1))[0])
        value = next(value for value in array[row].tolist() if not 0 <= value <= 51)
        raise CardError(f"row {row}: card index {value} is not in 0..51")
    return np.ascontiguousarray(array, dtype=np.uint8)


def _finish(out: Ranks, bad_row: int) -> Ranks:
    if bad_row >= 0:
        raise CardError(f"row {bad_row} has a duplicate card")
    return out


def _as_array(values: array[int], dtype: type[np.generic]) -> npt.NDArray[Any]:
    """A private numpy copy of a cached table."""
    return np.frombuffer(values, dtype=dtype).copy()


def low8_batch(cards: npt.ArrayLike) -> Ranks:
    """8-or-better ranks (0 = no low) of rows of 5 to 7 cards."""
    from freezeout.evaluate import variant_kernels

    array = _rows(cards, range(5, 8), "k in 5..7")
    out = np.empty(array.shape[0], dtype=np.int32)
    return _finish(out, variant_kernels.low8_rows(array, _low8_table(), out))


@cache
def _low8_table() -> npt.NDArray[np.uint8]:
    return _as_array(lowtables.load_low_tables()["low8"], np.uint8)


@cache
def _a5_arrays() -> tuple[Any, ...]:
    loaded = lowtables.load_low_tables()
    card = np.arange(52, dtype=np.uint64)
    keys = (np.uint64(5) ** (card >> np.uint64(2))) << np.uint64(16)
    return (
        keys,
        np.uint64(loaded["a5_hash_multiplier"][0]),
        _as_array(loaded["a5_hash_offsets"], np.uint32),
        _as_array(loaded["a5_hash_slots"], np.uint16),
    )


def a5_batch(cards: npt.ArrayLike) -> Ranks:
    """Ace-to-five ranks of rows of 5 to 7 cards."""
    from freezeout.evaluate import variant_kernels

    array = _rows(cards, range(5, 8), "k in 5..7")
    out = np.empty(array.shape[0], dtype=np.int32)
    keys, multiplier, offsets, slots = _a5_arrays()
    return _finish(out, variant_kernels.multiset_rows(array, keys, multiplier, offsets, slots, out))


@cache
def _omaha_arrays() -> dict[str, npt.NDArray[Any]]:
    loaded = omahatables.load_omaha_tables()
    return {
        "pair_index": _as_array(loaded["pair_index"], np.uint8).astype(np.int64),
        "triple_index": _as_array(loaded["triple_index"], np.uint16).astype(np.int64),
        "board_rows": _as_array(loaded["board_rows"], np.uint16),
        "board_hash_offsets": _as_array(loaded["board_hash_offsets"], np.uint32),
        "board_hash_slots": _as_array(loaded["board_hash_slots"], np.uint16),
        "board_hash_multiplier": np.array(loaded["board_hash_multiplier"].tolist(), dtype=np.uint64),
        "rank_keys": np.uint64(5) ** (np.arange(52, dtype=np.uint64) >> np.uint64(2)),
        "d27_split": _as_array(loaded["d27_split"], np.uint16),
        "low8": _as_array(loaded["low8"], np.uint8),
        "high_flush": _as_array(tables.load_high_tables()["flush"], np.uint16),
        "d27_flush": _as_array(lowtables.load_low_tables()["d27_flush"], np.uint16),
    }


def d27_batch(cards: npt.ArrayLike) -> Ranks:
    """Deuce-to-seven ranks of rows of 5 cards (6 or 7: the best five)."""
    from freezeout.evaluate import variant_kernels

    array = _rows(cards, range(5, 8), "k in 5..7")
    loaded = _omaha_arrays()
    out = np.empty(array.shape[0], dtype=np.int32)
    bad_row = variant_kernels.d27_rows(
        array, loaded["pair_index"], loaded["triple_index"], loaded["d27_split"], loaded["d27_flush"], out
    )
    return _finish(out, bad_row)


def badugi_batch(cards: npt.ArrayLike) -> Ranks:
    """Badugi ranks of rows of 4 cards."""
    from freezeout.evaluate import variant_kernels

    array = _rows(cards, range(4, 5), "k = 4")
    out = np.empty(array.shape[0], dtype=np.int32)
    return _finish(out, variant_kernels.badugi_rows(array, _badugi_table(), out))


@cache
def _badugi_table() -> npt.NDArray[np.uint16]:
    return _as_array(badugitables.load_badugi_tables()["ranks"], np.uint16)


def _omaha_rows(cards: npt.ArrayLike, hole_count: int) -> npt.NDArray[np.uint8]:
    if not 4 <= hole_count <= 6:
        raise EvaluationError(f"an Omaha hand has 4 to 6 hole cards, got hole_count={hole_count}")
    widths = range(hole_count + 3, hole_count + 6)
    return _rows(cards, widths, f"{hole_count} hole cards and 3 to 5 board cards")


def omaha_high_batch(cards: npt.ArrayLike, hole_count: int) -> Ranks:
    """Omaha high ranks (:mod:`.high`'s scale): the first ``hole_count`` columns are the hole."""
    from freezeout.evaluate import variant_kernels

    array = _omaha_rows(cards, hole_count)
    loaded = _omaha_arrays()
    out = np.empty(array.shape[0], dtype=np.int32)
    bad_row = variant_kernels.omaha_high_rows(
        array,
        hole_count,
        loaded["pair_index"],
        loaded["rank_keys"],
        loaded["board_hash_multiplier"][0],
        loaded["board_hash_offsets"],
        loaded["board_hash_slots"],
        loaded["board_rows"],
        loaded["high_flush"],
        out,
    )
    return _finish(out, bad_row)


def omaha_low8_batch(cards: npt.ArrayLike, hole_count: int) -> Ranks:
    """Omaha 8-or-better ranks (0 = no low): the first ``hole_count`` columns are the hole."""
    from freezeout.evaluate import variant_kernels

    array = _omaha_rows(cards, hole_count)
    out = np.empty(array.shape[0], dtype=np.int32)
    return _finish(out, variant_kernels.omaha_low8_rows(array, hole_count, _omaha_arrays()["low8"], out))


@cache
def _short_arrays() -> tuple[Any, ...]:
    from freezeout.evaluate.batch import CARD_KEYS

    loaded = shorttables.load_short_tables()
    return (
        CARD_KEYS,
        np.uint64(loaded["hash_multiplier"][0]),
        _as_array(loaded["hash_offsets"], np.uint32),
        _as_array(loaded["hash_slots"], np.uint16),
        _as_array(loaded["flush"], np.uint16),
    )


def short_batch(cards: npt.ArrayLike) -> Ranks:
    """Short-deck ranks of rows of 5 to 7 cards six to ace."""
    from freezeout.evaluate import kernels

    array = _rows(cards, range(5, 8), "k in 5..7")
    if array.size and array.min() < 4 * shorttables.LOWEST_RANK:
        row = int(np.flatnonzero((array < 4 * shorttables.LOWEST_RANK).any(axis=1))[0])
        low = Card(int(array[row].min()))
        raise EvaluationError(
            f"row {row}: {low} is not in the short deck, which holds the 36 cards six to ace"
        )
    out = np.empty(array.shape[0], dtype=np.int32)
    keys, multiplier, offsets, slots, flush = _short_arrays()
    return _finish(out, kernels.rank_rows(array, keys, multiplier, offsets, slots, flush, out))
