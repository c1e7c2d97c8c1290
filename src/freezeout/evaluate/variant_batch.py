"""Batch ranks for the rankings beyond high: numpy in, numba kernel, numpy out.

Every function checks the array the same way (two dimensions, the card
count the ranking takes, integer indices 0..51, then no card twice in a
row, a compiled pass of its own) and raises the errors of the single-hand
paths, naming the first bad row.
Rows are handed to the kernels as C-contiguous ``uint8`` (a copy only when
the input is anything else), so each kernel is compiled once, for one
type, and cached on disk by numba.

Short-deck rows reuse the high kernel of :mod:`.kernels` with the short
tables: only the tables differ.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
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
    rows = np.ascontiguousarray(array, dtype=np.uint8)
    from freezeout.evaluate import variant_kernels

    repeated = variant_kernels.first_repeat(rows)
    if repeated >= 0:
        raise CardError(f"row {repeated} has a duplicate card")
    return rows


def _run(kernel: Callable[..., object], array: npt.NDArray[np.uint8], *tables: Any) -> Ranks:
    """Run a kernel that fills an ``int32`` rank per row of the checked ``array``."""
    out = np.empty(array.shape[0], dtype=np.int32)
    kernel(array, *tables, out)
    return out


def _as_array(values: array[int], dtype: type[np.generic]) -> npt.NDArray[Any]:
    """A private numpy copy of a cached table."""
    return np.frombuffer(values, dtype=dtype).copy()


def low8_batch(cards: npt.ArrayLike) -> Ranks:
    """8-or-better ranks (0 = no low) of rows of 5 to 7 cards."""
    from freezeout.evaluate import variant_kernels

    array = _rows(cards, range(5, 8), "k in 5..7")
    return _run(variant_kernels.low8_rows, array, _low8_table())


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
    return _run(variant_kernels.multiset_rows, array, *_a5_arrays())


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
    return _run(
        variant_kernels.d27_rows,
        array,
        loaded["pair_index"],
        loaded["triple_index"],
        loaded["d27_split"],
        loaded["d27_flush"],
    )


def badugi_batch(cards: npt.ArrayLike) -> Ranks:
    """Badugi ranks of rows of 4 cards."""
    from freezeout.evaluate import variant_kernels

    array = _rows(cards, range(4, 5), "k = 4")
    return _run(variant_kernels.badugi_rows, array, _badugi_table())


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
    return _run(
        variant_kernels.omaha_high_rows,
        array,
        hole_count,
        loaded["pair_index"],
        loaded["rank_keys"],
        loaded["board_hash_multiplier"][0],
        loaded["board_hash_offsets"],
        loaded["board_hash_slots"],
        loaded["board_rows"],
        loaded["high_flush"],
    )


def omaha_low8_batch(cards: npt.ArrayLike, hole_count: int) -> Ranks:
    """Omaha 8-or-better ranks (0 = no low): the first ``hole_count`` columns are the hole."""
    from freezeout.evaluate import variant_kernels

    array = _omaha_rows(cards, hole_count)
    return _run(variant_kernels.omaha_low8_rows, array, hole_count, _omaha_arrays()["low8"])


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
    return _run(kernels.rank_rows, array, *_short_arrays())
