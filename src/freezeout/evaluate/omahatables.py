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

Omaha high goes one step further: the best over the board's triples
depends only on the board's rank multiset and the hole pair, so for every
board of 3, 4 or 5 cards (8,450 rank multisets) a *board row* of 91 cells
holds, per hole pair, the best non-flush value over the board's triples.
A hand is then one board row and a maximum over its 6 hole pairs (1.5 MiB
of ``uint16``, in L2; rows are found by the board's base-5 rank key, a
dict in Python and a perfect hash in the batch kernel).

The Omaha 8-or-better low needs no per-combination look-up at all: which
low ranks a player can use depends only on the *set* of different low ranks
among the hole cards (``H``) and on the board (``B``), so one table of
65,536 bytes indexed by ``H << 8 | B`` answers the whole two-plus-three
question in one step.  Generation only; the look-ups are in :mod:`.omaha`
and :mod:`.variant_kernels`.
"""

from __future__ import annotations

from array import array
from itertools import combinations, combinations_with_replacement
from typing import Final

from freezeout.evaluate import tables
from freezeout.evaluate.cache import Tables, load_or_build
from freezeout.evaluate.lowtables import load_low_tables
from freezeout.evaluate.multisets import multisets

__all__ = [
    "OMAHA_TABLE_VERSION",
    "PAIR_COUNT",
    "board_rows",
    "build_omaha_tables",
    "load_omaha_tables",
    "omaha_low8_table",
    "pair_index",
    "split_table",
    "triple_index",
]

OMAHA_TABLE_VERSION: Final = 2
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


def board_rows(split: list[int]) -> dict[int, list[int]]:
    """``rank_key(board) -> 91 cells``: per hole pair, the best of ``split`` over the board's triples."""
    triple_position = {triple: index for index, triple in enumerate(TRIPLES)}
    rows = [split[start : start + PAIR_COUNT] for start in range(0, len(split), PAIR_COUNT)]
    boards: dict[int, list[int]] = {}
    for size in (3, 4, 5):
        for counts in multisets(size):
            ranks = [rank for rank, count in enumerate(counts) for _ in range(count)]
            chosen = {triple_position[triple] for triple in combinations(ranks, 3)}
            boards[tables.rank_key(counts)] = [
                max(cells) for cells in zip(*(rows[index] for index in chosen), strict=True)
            ]
    return boards


def omaha_low8_table(low8: list[int]) -> list[int]:
    """``H << 8 | B -> best 8-or-better rank`` using two ranks of mask H and three of mask B.

    A low of five ranks ``m`` can be made exactly when ``m`` lies in
    ``H | B``, at most two of its ranks are missing from the board (those
    must come from the hole) and at least two are in the hole.
    """
    lows = sorted((mask for mask in range(256) if mask.bit_count() == 5), key=low8.__getitem__)
    table = [0] * (1 << 16)
    for hole in (mask for mask in range(256) if mask.bit_count() >= 2):
        for board in (mask for mask in range(256) if mask.bit_count() >= 3):
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
    """The split tables, the board rows and the Omaha low table."""
    high = tables.load_high_tables()
    high_five = {
        key: rank
        for key, rank in zip(high["nonflush_keys"], high["nonflush_ranks"], strict=True)
        if _cards_in_key(key) == 5
    }
    low = load_low_tables()
    d27_five = dict(zip(low["d27_keys"], low["d27_ranks"], strict=True))
    boards = board_rows(split_table(high_five))
    multiplier, offsets, slots = tables.perfect_hash({key: row for row, key in enumerate(boards, start=1)})
    return {
        "pair_index": array("B", pair_index()),
        "triple_index": array("H", triple_index()),
        "d27_split": array("H", split_table(d27_five)),
        "board_keys": array("Q", boards),
        "board_rows": array("H", [cell for row in boards.values() for cell in row]),
        "board_hash_multiplier": array("Q", [multiplier]),
        "board_hash_offsets": array("I", offsets),
        "board_hash_slots": array("H", slots),
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
