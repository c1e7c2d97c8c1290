"""numba kernels for the rankings beyond high (importing this module imports numba).

Each kernel takes a C-contiguous ``uint8`` array of card indices already
checked by :mod:`.variant_batch` (0..51, and no card twice in a row:
:func:`first_repeat`) and fills ``out``.  The per-row work is the
algorithm of the matching pure-Python look-up, on the same tables:

* ``low8_rows``: OR the low-rank bits, one 256-entry table read;
* ``multiset_rows``: sum base-5 rank digits, one perfect-hash read (ace-to-five);
* ``d27_rows``: each five of the row, flush list or triple x pair table;
* ``badugi_rows``: the 15 subsets of four cards, one 8,192-entry table;
* ``omaha_high_rows``: the board's row (perfect hash of its base-5 rank
  key) at each of the 6 hole pairs' columns; suited combinations in the
  flush list only when two hole and three board cards share a suit;
* ``omaha_low8_rows``: two OR-ed masks, one 65,536-entry table read.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = [
    "badugi_rows",
    "d27_rows",
    "first_repeat",
    "low8_rows",
    "multiset_rows",
    "omaha_high_rows",
    "omaha_low8_rows",
]

_U = np.uint64
_SHIFT = _U(16)
_ROW_SHIFT = _U(64 - 14)  # tables.HASH_ROW_BITS
_COLUMN_SHIFT = _U(64 - 14 - 17)  # tables.HASH_ROW_BITS + HASH_TABLE_BITS
_COLUMN_MASK = _U((1 << 17) - 1)


@numba.njit(cache=True, nogil=True)
def first_repeat(cards: Any) -> int:  # pragma: no cover - compiled
    """The first row holding a card twice (cards are known to be 0..51), else -1.

    Run before a ranking kernel, so that the kernels themselves read only
    valid hands.
    """
    for row in range(cards.shape[0]):
        seen = _U(0)
        for column in range(cards.shape[1]):
            bit = _U(1) << _U(cards[row, column])
            if seen & bit:
                return row
            seen |= bit
    return -1


@numba.njit(cache=True, nogil=True, inline="always")
def _ace_low(card: Any) -> Any:  # pragma: no cover - compiled
    return ((card >> 2) + 1) % 13


@numba.njit(cache=True, nogil=True)
def low8_rows(cards: Any, table: Any, out: Any) -> None:  # pragma: no cover - compiled
    """8-or-better: the mask of ace-low ranks A..8 present indexes ``table`` (256 entries)."""
    width = cards.shape[1]
    for row in range(cards.shape[0]):
        mask = 0
        for column in range(width):
            low = _ace_low(cards[row, column])
            if low < 8:
                mask |= 1 << low
        out[row] = table[mask]


@numba.njit(cache=True, nogil=True)
def multiset_rows(
    cards: Any, card_keys: Any, multiplier: Any, offsets: Any, slots: Any, out: Any
) -> None:  # pragma: no cover - compiled
    """Rank-multiset rankings (ace-to-five): sum the base-5 keys, read the perfect hash."""
    width = cards.shape[1]
    for row in range(cards.shape[0]):
        total = _U(0)
        for column in range(width):
            total += card_keys[cards[row, column]]
        mixed = (total >> _SHIFT) * multiplier
        out[row] = slots[offsets[mixed >> _ROW_SHIFT] ^ ((mixed >> _COLUMN_SHIFT) & _COLUMN_MASK)]


@numba.njit(cache=True, nogil=True, inline="always")
def _five(
    a: Any, b: Any, c: Any, d: Any, e: Any, pair_index: Any, triple_index: Any, split: Any, flush: Any
) -> Any:  # pragma: no cover - compiled
    """Five-card value from the triple x pair table, or the flush list when all five share a suit."""
    suit = a & 3
    if (b & 3) == suit and (c & 3) == suit and (d & 3) == suit and (e & 3) == suit:
        return flush[(1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))]
    return split[
        triple_index[(a >> 2) * 169 + (b >> 2) * 13 + (c >> 2)] + pair_index[(d >> 2) * 13 + (e >> 2)]
    ]


@numba.njit(cache=True, nogil=True)
def d27_rows(
    cards: Any, pair_index: Any, triple_index: Any, split: Any, flush: Any, out: Any
) -> None:  # pragma: no cover - compiled
    """Deuce-to-seven: the best of every five of the row (one five for five cards)."""
    width = cards.shape[1]
    for row in range(cards.shape[0]):
        best = 0
        for i in range(width - 4):
            for j in range(i + 1, width - 3):
                for k in range(j + 1, width - 2):
                    for m in range(k + 1, width - 1):
                        for n in range(m + 1, width):
                            value = _five(
                                cards[row, i], cards[row, j], cards[row, k], cards[row, m], cards[row, n],
                                pair_index, triple_index, split, flush,
                            )  # fmt: skip
                            if value > best:
                                best = value
        out[row] = best


@numba.njit(cache=True, nogil=True)
def badugi_rows(cards: Any, ranks: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Badugi: the best-ranked of the 15 subsets whose cards share no rank and no suit."""
    keys = np.empty(4, dtype=np.int64)
    for row in range(cards.shape[0]):
        for column in range(4):
            card = cards[row, column]
            keys[column] = (1 << _ace_low(card)) | (1 << (13 + (card & 3)))
        best = 0
        for subset in range(1, 16):
            every = 0
            clash = False
            for column in range(4):
                if subset >> column & 1:
                    if every & keys[column]:
                        clash = True
                    every |= keys[column]
            if not clash:
                value = ranks[every & 0x1FFF]
                if value > best:
                    best = value
        out[row] = best


@numba.njit(cache=True, nogil=True)
def omaha_high_rows(
    cards: Any,
    hole_count: int,
    pair_index: Any,
    rank_keys: Any,
    multiplier: Any,
    offsets: Any,
    slots: Any,
    board_rows: Any,
    flush: Any,
    out: Any,
) -> None:  # pragma: no cover - compiled
    """Omaha high: the board's row (found by its rank key) at each hole pair's column, plus suited flushes."""
    width = cards.shape[1]
    for row in range(cards.shape[0]):
        board_key = _U(0)
        board_suits = 0
        for i in range(hole_count, width):
            board_key += rank_keys[cards[row, i]]
            board_suits += 1 << (4 * (cards[row, i] & 3))
        mixed = board_key * multiplier
        base = (slots[offsets[mixed >> _ROW_SHIFT] ^ ((mixed >> _COLUMN_SHIFT) & _COLUMN_MASK)] - 1) * 91
        best = 0
        hole_suits = 0
        for i in range(hole_count):
            first = cards[row, i]
            hole_suits += 1 << (4 * (first & 3))
            first_row = (first >> 2) * 13
            for j in range(i + 1, hole_count):
                value = board_rows[base + pair_index[first_row + (cards[row, j] >> 2)]]
                if value > best:
                    best = value
        suited = (hole_suits + 0x6666) & (board_suits + 0x5555) & 0x8888
        if suited:
            suit = 0
            while not (suited >> (4 * suit + 3)) & 1:
                suit += 1
            for i in range(hole_count):
                if cards[row, i] & 3 != suit:
                    continue
                for j in range(i + 1, hole_count):
                    if cards[row, j] & 3 != suit:
                        continue
                    two = (1 << (cards[row, i] >> 2)) | (1 << (cards[row, j] >> 2))
                    for a in range(hole_count, width):
                        if cards[row, a] & 3 != suit:
                            continue
                        for b in range(a + 1, width):
                            if cards[row, b] & 3 != suit:
                                continue
                            for c in range(b + 1, width):
                                if cards[row, c] & 3 != suit:
                                    continue
                                mask = (
                                    two
                                    | (1 << (cards[row, a] >> 2))
                                    | (1 << (cards[row, b] >> 2))
                                    | (1 << (cards[row, c] >> 2))
                                )
                                value = flush[mask]
                                if value > best:
                                    best = value
        out[row] = best


@numba.njit(cache=True, nogil=True)
def omaha_low8_rows(cards: Any, hole_count: int, table: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Omaha 8-or-better: the hole's and the board's masks of low ranks index ``table`` (65,536 entries)."""
    width = cards.shape[1]
    for row in range(cards.shape[0]):
        hole = 0
        board = 0
        for column in range(width):
            low = _ace_low(cards[row, column])
            if low < 8:
                if column < hole_count:
                    hole |= 1 << low
                else:
                    board |= 1 << low
        out[row] = table[(hole << 8) | board]
