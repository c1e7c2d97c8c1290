"""numba kernels of the equity engine (importing this module imports numba).

* :func:`combinations` lists every ``k``-subset of ``range(n)`` in
  lexicographic order, one row each.
* :func:`high_board_ranks` ranks every player's seven cards on every
  completion of a hold'em (or short-deck) board: the board's packed card
  keys and per-suit rank masks are summed once per board, then each
  player's hole cards are added and the rank looked up in the perfect hash
  (or the flush table) of :mod:`freezeout.evaluate.batch` — the same
  tables and arithmetic as the batch evaluator, without building rows.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["combinations", "high_board_ranks"]

_U = np.uint64
_SUIT_BASE = _U(0x3333)
_FLUSH_BITS = _U(0x8888)
_SHIFT = _U(16)
_ROW_SHIFT = _U(64 - 14)
_COLUMN_SHIFT = _U(64 - 14 - 17)
_COLUMN_MASK = _U((1 << 17) - 1)
_SUIT_MASK = _U(0x1FFF)


@numba.njit(cache=True, nogil=True)
def combinations(n: int, k: int, out: Any) -> None:  # pragma: no cover - compiled
    """Fill ``out`` (``C(n, k)`` rows of ``k``) with the ``k``-subsets of ``range(n)``."""
    index = np.arange(k)
    row = 0
    while True:
        for column in range(k):
            out[row, column] = index[column]
        row += 1
        position = k - 1
        while position >= 0 and index[position] == n - k + position:
            position -= 1
        if position < 0:
            return
        index[position] += 1
        for later in range(position + 1, k):
            index[later] = index[later - 1] + 1


@numba.njit(cache=True, nogil=True)
def _known_keys(holes: Any, known: Any, card_keys: Any) -> Any:  # pragma: no cover - compiled
    """Each player's hole cards and the known board as (rank-key sum, suit-rank bit mask): the
    part of every board's evaluation that does not change from board to board."""
    one = _U(1)
    players = holes.shape[0]
    hole_keys = np.zeros(players, dtype=np.uint64)
    hole_masks = np.zeros(players, dtype=np.uint64)
    for player in range(players):
        for column in range(holes.shape[1]):
            card = holes[player, column]
            hole_keys[player] += card_keys[card]
            hole_masks[player] |= one << _U(16 * (card & 3) + (card >> 2))
    base_key = _SUIT_BASE
    base_mask = _U(0)
    for card in known:
        base_key += card_keys[card]
        base_mask |= one << _U(16 * (card & 3) + (card >> 2))
    return hole_keys, hole_masks, base_key, base_mask


@numba.njit(cache=True, nogil=True)
def high_board_ranks(
    holes: Any,
    known: Any,
    rest: Any,
    need: int,
    card_keys: Any,
    multiplier: Any,
    offsets: Any,
    slots: Any,
    flush_ranks: Any,
    out: Any,
) -> None:  # pragma: no cover - compiled
    """Fill ``out[board, player]`` with the rank of ``holes[player]`` + ``known`` + each
    ``need``-subset of ``rest`` (boards in :func:`combinations` order)."""
    one = _U(1)
    players = holes.shape[0]
    hole_keys, hole_masks, base_key, base_mask = _known_keys(holes, known, card_keys)
    n = rest.shape[0]
    index = np.arange(need)
    row = 0
    while True:
        key = base_key
        mask = base_mask
        for column in range(need):
            card = rest[index[column]]
            key += card_keys[card]
            mask |= one << _U(16 * (card & 3) + (card >> 2))
        for player in range(players):
            total = key + hole_keys[player]
            flagged = total & _FLUSH_BITS
            if flagged:
                suit = 0
                while not (flagged >> _U(4 * suit + 3)) & one:
                    suit += 1
                masks = mask | hole_masks[player]
                out[row, player] = flush_ranks[(masks >> _U(16 * suit)) & _SUIT_MASK]
            else:
                mixed = (total >> _SHIFT) * multiplier
                out[row, player] = slots[offsets[mixed >> _ROW_SHIFT] ^ ((mixed >> _COLUMN_SHIFT) & _COLUMN_MASK)]
        row += 1
        position = need - 1
        while position >= 0 and index[position] == n - need + position:
            position -= 1
        if position < 0:
            return
        index[position] += 1
        for later in range(position + 1, need):
            index[later] = index[later - 1] + 1


@numba.njit(cache=True, nogil=True)
def accumulate(high: Any, low: Any, split: bool, columns: Any, sums: Any) -> int:  # pragma: no cover - compiled
    """Add up, over the rows (deals), each of ``columns``' share of a pot they alone contest.

    ``sums[k, i]`` for player ``columns[i]``: k = 0 the share, 1 its square,
    2 deals won whole, 3 deals shared, 4 the high half's share, 5 the low
    half's share (0 on a deal without a qualifying low).  V6: half to the
    best high, half to the best qualifying low (rank > 0), all to high when
    no low qualifies.  Returns the number of deals without a low.
    """
    players = columns.shape[0]
    no_low = 0
    for row in range(high.shape[0]):
        best = high[row, columns[0]]
        for i in range(1, players):
            best = max(best, high[row, columns[i]])
        count = 0
        for i in range(players):
            if high[row, columns[i]] == best:
                count += 1
        low_best = 0
        low_count = 0
        if split:
            for i in range(players):
                low_best = max(low_best, low[row, columns[i]])
            if low_best > 0:
                for i in range(players):
                    if low[row, columns[i]] == low_best:
                        low_count += 1
            else:
                no_low += 1
        for i in range(players):
            high_share = 1.0 / count if high[row, columns[i]] == best else 0.0
            low_share = 0.0
            if low_count and low[row, columns[i]] == low_best:
                low_share = 1.0 / low_count
            share = 0.5 * (high_share + low_share) if low_count else high_share
            sums[0, i] += share
            sums[1, i] += share * share
            if share >= 1.0 - 1e-12:
                sums[2, i] += 1.0
            elif share > 1e-12:
                sums[3, i] += 1.0
            sums[4, i] += high_share
            sums[5, i] += low_share
    return no_low


@numba.njit(cache=True, nogil=True)
def high_board_sums(
    holes: Any,
    known: Any,
    rest: Any,
    need: int,
    card_keys: Any,
    multiplier: Any,
    offsets: Any,
    slots: Any,
    flush_ranks: Any,
    sums: Any,
) -> int:  # pragma: no cover - compiled
    """:func:`high_board_ranks` and :func:`accumulate` in one pass for one pot all players
    contest in a high-only game: ``sums`` rows 0-3 (share, its square, wins, ties) and 4
    (the high share) filled without storing a rank per board.  Returns the number of boards."""
    one = _U(1)
    players = holes.shape[0]
    ranks = np.zeros(players, dtype=np.int64)
    hole_keys, hole_masks, base_key, base_mask = _known_keys(holes, known, card_keys)
    n = rest.shape[0]
    index = np.arange(need)
    boards = 0
    while True:
        key = base_key
        mask = base_mask
        for column in range(need):
            card = rest[index[column]]
            key += card_keys[card]
            mask |= one << _U(16 * (card & 3) + (card >> 2))
        best = np.int64(0)
        for player in range(players):
            total = key + hole_keys[player]
            flagged = total & _FLUSH_BITS
            if flagged:
                suit = 0
                while not (flagged >> _U(4 * suit + 3)) & one:
                    suit += 1
                masks = mask | hole_masks[player]
                rank = np.int64(flush_ranks[(masks >> _U(16 * suit)) & _SUIT_MASK])
            else:
                mixed = (total >> _SHIFT) * multiplier
                rank = np.int64(slots[offsets[mixed >> _ROW_SHIFT] ^ ((mixed >> _COLUMN_SHIFT) & _COLUMN_MASK)])
            ranks[player] = rank
            if rank > best:
                best = rank
        count = 0
        for player in range(players):
            if ranks[player] == best:
                count += 1
        share = 1.0 / count
        for player in range(players):
            if ranks[player] == best:
                sums[0, player] += share
                sums[1, player] += share * share
                sums[4, player] += share
                if count == 1:
                    sums[2, player] += 1.0
                else:
                    sums[3, player] += 1.0
        boards += 1
        position = need - 1
        while position >= 0 and index[position] == n - need + position:
            position -= 1
        if position < 0:
            return boards
        index[position] += 1
        for later in range(position + 1, need):
            index[later] = index[later - 1] + 1
