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

__all__ = ["rank_histogram_all_seven", "rank_rows"]

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


@numba.njit(cache=True, nogil=True, inline="always")
def _nonflush_rank(
    total: Any, multiplier: Any, offsets: Any, slots: Any
) -> Any:  # pragma: no cover - compiled
    mixed = (total >> _SHIFT) * multiplier
    return slots[offsets[mixed >> _ROW_SHIFT] ^ ((mixed >> _COLUMN_SHIFT) & _COLUMN_MASK)]


@numba.njit(cache=True, nogil=True, inline="always")
def _rank_rows_of_width(
    cards: Any,
    width: int,
    card_keys: Any,
    multiplier: Any,
    offsets: Any,
    slots: Any,
    flush_ranks: Any,
    out: Any,
) -> int:  # pragma: no cover - compiled
    bad_row = -1
    one = _U(1)
    for row in range(cards.shape[0]):
        total = _SUIT_BASE
        seen = _U(0)
        summed = _U(0)
        spill = _U(0)
        for column in range(width):
            # No branches in here: validity is accumulated and judged once
            # per row.  A negative index wraps to a huge one, which ``spill``
            # catches; 52..63 light a seen-bit above 51; ``& 63`` keeps the
            # key read in bounds (card_keys has 64 entries) whatever comes in.
            card = _U(cards[row, column])
            spill |= card
            card &= _U(63)
            total += card_keys[card]
            bit = one << card
            seen |= bit
            summed += bit
        if spill > _U(63) or seen != summed or seen >> _U(52):
            if bad_row < 0:
                bad_row = row
            out[row] = 0  # never looked up: garbage in cannot read out of bounds
            continue
        flagged = total & _FLUSH_BITS
        if flagged:
            out[row] = _flush_rank(cards, row, flagged, flush_ranks)
        else:
            out[row] = _nonflush_rank(total, multiplier, offsets, slots)
    return bad_row


@numba.njit(cache=True, nogil=True)
def rank_rows(
    cards: Any, card_keys: Any, multiplier: Any, offsets: Any, slots: Any, flush_ranks: Any, out: Any
) -> int:  # pragma: no cover - compiled
    """Fill ``out`` with each row's rank; return the first bad row (index outside 0..51 or repeated card), else -1.

    The row loop is inlined once per hand size with the width as a constant,
    so LLVM unrolls the card loop (about 20 % faster than a runtime width).
    """
    width = cards.shape[1]
    if width == 7:
        return _rank_rows_of_width(cards, 7, card_keys, multiplier, offsets, slots, flush_ranks, out)
    if width == 6:
        return _rank_rows_of_width(cards, 6, card_keys, multiplier, offsets, slots, flush_ranks, out)
    return _rank_rows_of_width(cards, 5, card_keys, multiplier, offsets, slots, flush_ranks, out)


@numba.njit(cache=True, nogil=True)
def rank_histogram_all_seven(
    card_keys: Any, multiplier: Any, offsets: Any, slots: Any, flush_ranks: Any, histogram: Any
) -> None:  # pragma: no cover - compiled
    """Add every one of the C(52, 7) seven-card hands to ``histogram[rank]``.

    Seven nested loops carry running sums, so each hand costs one addition,
    one flush test and one lookup.  Per-suit rank masks ride along packed in
    one ``uint64`` (16 bits per suit) for the flush branch.
    """
    one = _U(1)
    for a in range(46):
        key_a = _SUIT_BASE + card_keys[a]
        mask_a = one << _U(16 * (a & 3) + (a >> 2))
        for b in range(a + 1, 47):
            key_b = key_a + card_keys[b]
            mask_b = mask_a | (one << _U(16 * (b & 3) + (b >> 2)))
            for c in range(b + 1, 48):
                key_c = key_b + card_keys[c]
                mask_c = mask_b | (one << _U(16 * (c & 3) + (c >> 2)))
                for d in range(c + 1, 49):
                    key_d = key_c + card_keys[d]
                    mask_d = mask_c | (one << _U(16 * (d & 3) + (d >> 2)))
                    for e in range(d + 1, 50):
                        key_e = key_d + card_keys[e]
                        mask_e = mask_d | (one << _U(16 * (e & 3) + (e >> 2)))
                        for f in range(e + 1, 51):
                            key_f = key_e + card_keys[f]
                            mask_f = mask_e | (one << _U(16 * (f & 3) + (f >> 2)))
                            for g in range(f + 1, 52):
                                total = key_f + card_keys[g]
                                flagged = total & _FLUSH_BITS
                                if flagged:
                                    masks = mask_f | (one << _U(16 * (g & 3) + (g >> 2)))
                                    suit = 0
                                    while not (flagged >> _U(4 * suit + 3)) & one:
                                        suit += 1
                                    rank = flush_ranks[(masks >> _U(16 * suit)) & _U(0x1FFF)]
                                else:
                                    rank = _nonflush_rank(total, multiplier, offsets, slots)
                                histogram[rank] += 1
