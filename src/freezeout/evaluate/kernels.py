"""numba kernels for the batch paths (importing this module imports numba).

The per-row work is the algorithm of :mod:`.high` written for machine
integers: sum the packed ``uint64`` card keys, test the flush nibbles, then
either build the suit's 13-bit mask and index the flush table, or look the
base-5 rank key up in the perfect hash (multiply, shift, XOR, two loads).
All arithmetic stays in ``uint64`` so numba never promotes to float.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["rank_rows"]

_U = np.uint64
_SUIT_BASE = _U(0x3333)
_FLUSH_BITS = _U(0x8888)
_SHIFT = _U(16)
_ROW_SHIFT = _U(64 - 14)  # tables.HASH_ROW_BITS
_COLUMN_SHIFT = _U(64 - 14 - 17)  # tables.HASH_ROW_BITS + HASH_TABLE_BITS
_COLUMN_MASK = _U((1 << 17) - 1)


@numba.njit(cache=True, nogil=True, inline="always")
def _flush_rank(cards: Any, row: int, flagged: Any, flush_ranks: Any) -> Any:  # pragma: no cover - compiled
    suit = 0
    while not (flagged >> _U(4 * suit + 3)) & _U(1):
        suit += 1
    mask = 0
    for column in range(cards.shape[1]):
        card = cards[row, column]
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return flush_ranks[mask]


@numba.njit(cache=True, nogil=True)
def rank_rows(
    cards: Any, card_keys: Any, multiplier: Any, offsets: Any, slots: Any, flush_ranks: Any, out: Any
) -> int:  # pragma: no cover - compiled
    """Fill ``out`` with each row's rank; return the first row repeating a card, else -1."""
    width = cards.shape[1]
    bad_row = -1
    for row in range(cards.shape[0]):
        total = _SUIT_BASE
        seen = _U(0)
        summed = _U(0)
        for column in range(width):
            card = cards[row, column]
            total += card_keys[card]
            bit = _U(1) << _U(card)
            seen |= bit
            summed += bit
        if seen != summed and bad_row < 0:
            bad_row = row
        flagged = total & _FLUSH_BITS
        if flagged:
            out[row] = _flush_rank(cards, row, flagged, flush_ranks)
        else:
            mixed = (total >> _SHIFT) * multiplier
            slot = offsets[mixed >> _ROW_SHIFT] ^ ((mixed >> _COLUMN_SHIFT) & _COLUMN_MASK)
            out[row] = slots[slot]
    return bad_row
