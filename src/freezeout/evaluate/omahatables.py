"""Generate the tables of five-card hands split as three cards plus two (V5, V6, V14).

Omaha takes exactly two hole cards and exactly three board cards, so the
natural index of a five-card rank multiset is the pair (multiset of three
ranks, multiset of two ranks): 455 x 91 = 41,405 cells, 81 KiB of
``uint16``, small enough for the L2 cache and needing no hashing at all.
Filling a cell with the value of the union gives a "five-card non-flush"
table for any ranking whose non-flush value depends on ranks alone:

* ``high``: the value :mod:`.high` gives (read from its own tables, so the
  two agree by construction);
* ``low-27``: the deuce-to-seven value, for the best-of-n batch path.

Cells whose union would hold five cards of one rank cannot occur and hold 0.

The Omaha 8-or-better low needs no per-combination look-up at all: which
low ranks a player can use depends only on the *set* of different low ranks
among the hole cards (``H``) and on the board (``B``), so one table of
65,536 bytes indexed by ``H << 8 | B`` answers the whole two-plus-three
question in one step.  Generation only; the look-ups are in :mod:`.omaha`
and :mod:`.variant_kernels`.
"""

from __future__ import annotations

from array import array
from itertools import combinations_with_replacement
from typing import Final

from freezeout.evaluate import tables
from freezeout.evaluate.cache import Tables, load_or_build
from freezeout.evaluate.lowtables import load_low_tables

__all__ = [
    "OMAHA_TABLE_VERSION",
    "PAIR_COUNT",
    "build_omaha_tables",
    "load_omaha_tables",
    "omaha_low8_table",
    "pair_index",
    "split_table",
    "triple_index",
]

OMAHA_TABLE_VERSION: Final = 1
PAIRS: Final = list(combinations_with_replacement(range(13), 2))
TRIPLES: Final = list(combinations_with_replacement(range(13), 3))
PAIR_COUNT: Final = len(PAIRS)  # 91


def pair_index() -> list[int]:
    """``13 * a + b -> index of the rank pair {a, b}`` for every ordered pair of ranks."""
    position = {pair: index for index, pair in enumerate(PAIRS)}
    return [position[tuple(sorted((a, b)))] for a in range(13) for b in range(13)]  # type: ignore[index]


def triple_index() -> list[int]:
    """``169 * a + 13 * b + c -> PAIR_COUNT * index of {a, b, c}``: the row offset of a rank triple."""
    position = {triple: index for index, triple in enumerate(TRIPLES)}
    return [
        PAIR_COUNT * position[tuple(sorted((a, b, c)))]  # type: ignore[index]
        for a in range(13)
        for b in range(13)
        for c in range(13)
    ]


def split_table(five_card_ranks: dict[int, int]) -> list[int]:
    """The triple x pair table of a ranking given as ``rank_key -> rank`` over five-card multisets."""
    cells = []
    for triple in TRIPLES:
        for pair in PAIRS:
            counts = [0] * 13
            for rank in (*triple, *pair):
                counts[rank] += 1
            cells.append(five_card_ranks.get(tables.rank_key(counts), 0))
    return cells


def omaha_low8_table(low8: list[int]) -> list[int]:
    """``H << 8 | B -> best 8-or-better rank`` using two ranks of mask H and three of mask B.

    A low of five ranks ``m`` can be made exactly when ``m`` lies in
    ``H | B``, at most two of its ranks are missing from the board (those
    must come from the hole) and at least two are in the hole.
    """
    lows = sorted((mask for mask in range(256) if mask.bit_count() == 5), key=low8.__getitem__)
    table = [0] * (1 << 16)
    for hole in range(256):
        for board in range(256):
            for low in reversed(lows):  # best first
                if (
                    not low & ~(hole | board)
                    and (low & ~board).bit_count() <= 2
                    and (low & hole).bit_count() >= 2
                ):
                    table[hole << 8 | board] = low8[low]
                    break
    return table


def build_omaha_tables() -> Tables:
    """The split tables and the Omaha low table (the low one dominates: about a second)."""
    high = tables.load_high_tables()
    high_five = {
        key: rank
        for key, rank in zip(high["nonflush_keys"], high["nonflush_ranks"], strict=True)
        if _cards_in_key(key) == 5
    }
    low = load_low_tables()
    d27_five = dict(zip(low["d27_keys"], low["d27_ranks"], strict=True))
    return {
        "pair_index": array("B", pair_index()),
        "triple_index": array("H", triple_index()),
        "high_split": array("H", split_table(high_five)),
        "d27_split": array("H", split_table(d27_five)),
        "low8": array("B", omaha_low8_table(low["low8"].tolist())),
    }


def _cards_in_key(key: int) -> int:
    total = 0
    while key:
        key, digit = divmod(key, 5)
        total += digit
    return total


def load_omaha_tables() -> Tables:
    """The Omaha tables from the disk cache, generated and saved on first use."""
    return load_or_build("omaha", OMAHA_TABLE_VERSION, build_omaha_tables)
