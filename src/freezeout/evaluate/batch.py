"""Evaluate many hands at once from a numpy array of card indices.

Same base-5 rank keys, flush nibbles and generated tables as :mod:`.high`,
laid out for machine integers.  Two engines:

* **numba** (default when numba imports): one compiled loop per row, summing
  packed card keys, testing the flush nibbles and looking the base-5 rank
  key up in the perfect hash of :func:`.tables.perfect_hash`.  Compiled on
  first use and cached on disk (``cache=True``), so later processes only
  load machine code.
* **numpy** (fallback, and the "without numba" benchmark): the same sums as
  array operations, with a binary search instead of the hash.

Both validate the input (shape, integer dtype, 0..51, no card twice in a
row; the numba loop does it in the same pass) and raise the same error
types as the single-hand path.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from freezeout.cards import CardError
from freezeout.evaluate import tables
from freezeout.evaluate.errors import EvaluationError

__all__ = [
    "SEVEN_CARD_CATEGORY_COUNTS",
    "Engine",
    "all_seven_card_category_counts",
    "all_seven_card_rank_counts",
    "evaluate_batch",
    "evaluate_batch_numpy",
    "numba_available",
]

Engine = Literal["auto", "numba", "numpy"]

SUIT_BASE: Final = 0x3333
FLUSH_BITS: Final = 0x8888
SHIFT: Final = 16

_TABLES: Final = tables.load_high_tables()
_CARD: Final = np.arange(52, dtype=np.uint64)
#: Packed per-card key: base-5 rank digit above bit 16, suit nibble below (like :mod:`.high`
#: without its duplicate-detecting card bits, which would overflow 64 bits; rows are
#: checked for duplicates separately).  Padded with zeros to 64 entries so that the
#: kernel can index it with ``card & 63`` before judging the row.
CARD_KEYS: Final = np.zeros(64, dtype=np.uint64)
CARD_KEYS[:52] = ((np.uint64(5) ** (_CARD >> np.uint64(2))) << np.uint64(SHIFT)) | (
    np.uint64(1) << (np.uint64(4) * (_CARD & np.uint64(3)))
)
FLUSH_RANKS: Final = np.frombuffer(_TABLES["flush"], dtype=np.uint16).copy()
HASH_MULTIPLIER: Final = np.uint64(_TABLES["hash_multiplier"][0])
HASH_OFFSETS: Final = np.frombuffer(_TABLES["hash_offsets"], dtype=np.uint32).copy()
HASH_SLOTS: Final = np.frombuffer(_TABLES["hash_slots"], dtype=np.uint16).copy()

_order = np.argsort(np.frombuffer(_TABLES["nonflush_keys"], dtype=np.uint64))
_SORTED_KEYS: Final = np.frombuffer(_TABLES["nonflush_keys"], dtype=np.uint64)[_order]
_SORTED_RANKS: Final = np.frombuffer(_TABLES["nonflush_ranks"], dtype=np.uint16)[_order].astype(np.int32)
del _order


def _shape_checked(cards: npt.ArrayLike) -> npt.NDArray[Any]:
    array = np.asarray(cards)
    if array.ndim != 2 or not tables.MIN_CARDS <= array.shape[1] <= tables.MAX_CARDS:
        raise EvaluationError(
            f"expected an array of shape (N, k) with k in {tables.MIN_CARDS}..{tables.MAX_CARDS}, "
            f"got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise CardError(f"card indices must be integers, got dtype {array.dtype}")
    return array


def _checked(cards: npt.ArrayLike) -> npt.NDArray[Any]:
    array = _shape_checked(cards)
    if array.size and (array.min() < 0 or array.max() > 51):
        raise _row_error(array, int(np.flatnonzero(((array < 0) | (array > 51)).any(axis=1))[0]))
    return array


def _row_error(array: npt.NDArray[Any], row: int) -> CardError:
    """The precise complaint about one bad row (slow path, only on failure)."""
    values = array[row].tolist()
    outside = [value for value in values if not 0 <= value <= 51]
    if outside:
        return CardError(f"row {row}: card index {outside[0]} is not in 0..51")
    return CardError(f"row {row} has a duplicate card")


def _duplicate_error(array: npt.NDArray[Any]) -> CardError | None:
    bits = np.bitwise_or.reduce(np.left_shift(np.uint64(1), array.astype(np.uint64)), axis=1)
    bad = np.flatnonzero(np.bitwise_count(bits) != array.shape[1])
    return _row_error(array, int(bad[0])) if bad.size else None


def evaluate_batch_numpy(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Vectorised numpy evaluator (no numba): ranks of each row, as int32."""
    array = _checked(cards)
    error = _duplicate_error(array)
    if error is not None:
        raise error
    indices = array.astype(np.intp)
    total = CARD_KEYS[indices].sum(axis=1) + np.uint64(SUIT_BASE)
    ranks: npt.NDArray[np.int32] = _SORTED_RANKS[np.searchsorted(_SORTED_KEYS, total >> np.uint64(SHIFT))]
    flagged = (total & np.uint64(FLUSH_BITS)).astype(np.int64)
    rows = np.flatnonzero(flagged)
    if rows.size:
        suit_index = (np.log2(flagged[rows]).astype(np.int64) >> 2)[:, None]
        chosen = indices[rows]
        masks = np.where((chosen & 3) == suit_index, 1 << (chosen >> 2), 0).sum(axis=1)
        ranks[rows] = FLUSH_RANKS[masks]
    return ranks


def numba_available() -> bool:
    """Whether the compiled engine can be used (numba importable)."""
    try:
        from freezeout.evaluate import kernels  # noqa: F401
    except ImportError:
        return False
    return True


def evaluate_batch(cards: npt.ArrayLike, *, engine: Engine = "auto") -> npt.NDArray[np.int32]:
    """Ranks of each row of an ``(N, k)`` array of card indices, ``k`` in 5..7.

    ``engine="auto"`` uses numba when it is installed, else numpy.
    """
    if engine == "numpy" or (engine == "auto" and not numba_available()):
        return evaluate_batch_numpy(cards)
    from freezeout.evaluate import kernels

    # The kernel checks the values itself, in the same pass.  A strided view is
    # copied so that one compiled loop (per dtype) serves every caller.
    array = np.ascontiguousarray(_shape_checked(cards))
    out = np.empty(array.shape[0], dtype=np.int32)
    bad_row = kernels.rank_rows(array, CARD_KEYS, HASH_MULTIPLIER, HASH_OFFSETS, HASH_SLOTS, FLUSH_RANKS, out)
    if bad_row >= 0:
        raise _row_error(array, bad_row)
    return out


def all_seven_card_rank_counts() -> npt.NDArray[np.int64]:
    """How many of the 133,784,560 seven-card hands have each rank (index = rank).

    The evaluator's perft: needs numba (a few seconds compiled, hours without).
    """
    from freezeout.evaluate import kernels

    histogram = np.zeros(int(FLUSH_RANKS.max()) + 1, dtype=np.int64)
    kernels.rank_histogram_all_seven(
        CARD_KEYS, HASH_MULTIPLIER, HASH_OFFSETS, HASH_SLOTS, FLUSH_RANKS, histogram
    )
    return histogram


#: The published category counts of all 133,784,560 seven-card hands (and
#: 4,824 distinct ranks): the reference the perft below is checked against.
SEVEN_CARD_CATEGORY_COUNTS: Final = {
    "straight flush": 41_584,
    "four of a kind": 224_848,
    "full house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three of a kind": 6_461_620,
    "two pair": 31_433_400,
    "one pair": 58_627_800,
    "high card": 23_294_460,
}


def all_seven_card_category_counts() -> tuple[dict[str, int], int]:
    """Category counts of all 133,784,560 seven-card hands and how many
    distinct ranks occur (the perft that the slow test and the bench check)."""
    from freezeout.evaluate.high import category_of

    histogram = all_seven_card_rank_counts()
    counts: dict[str, int] = {}
    for rank, count in enumerate(histogram.tolist()):
        if count:
            category = category_of(rank)
            counts[category] = counts.get(category, 0) + count
    return counts, int((histogram > 0).sum())
