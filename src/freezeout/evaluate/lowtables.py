"""Generate the low-hand tables: 8-or-better (V6), ace-to-five (V10), deuce-to-seven (V14).

Generation only: the look-ups are in :mod:`.low`.  As everywhere in this
package a *rank* is a position in the list of distinct values, weakest
first, so higher is better for lows too, and equal ranks split.

* **8-or-better**: five different ranks, all eight or lower, ace low;
  straights and flushes do not count.  The best low of any number of cards
  is simply the five lowest different low ranks, so one 256-entry list
  indexed by the mask of low ranks present is the whole table.  56 lows
  (the five-element subsets of A..8) rank 1 (8-7-6-5-4) to 56
  (5-4-3-2-A); fewer than five different low ranks is 0, *no low*.
* **Ace-to-five**: every hand has a value; suits and straights are ignored,
  pairs count against (one pair is worse than any no-pair hand, two pair
  worse than one pair, then trips, full house, quads: PokerKit's razz
  order).  Within a shape the group ranks compare from the top down, ace
  low.  6,175 values, one per five-card rank multiset, over keys of 5 to 7
  cards.
* **Deuce-to-seven**: high poker read upside down with the ace always
  high: straights and flushes count against, A-2-3-4-5 is ace-high, not a
  straight.  7,462 values; best 7-5-4-3-2 offsuit, worst the royal flush.
"""

from __future__ import annotations

from array import array
from itertools import combinations
from typing import Final

from freezeout.evaluate import highlike, tables
from freezeout.evaluate.cache import Tables, load_or_build
from freezeout.evaluate.multisets import Score, best_of_multisets, multisets, number_scores

__all__ = [
    "A5_SHAPES",
    "LOW_TABLE_VERSION",
    "a5_score",
    "a5_values",
    "ace_low",
    "build_low_tables",
    "d27_score",
    "d27_values",
    "load_low_tables",
    "low8_classes",
    "low8_table",
]

#: Part of the cache file name: bump when a low table's meaning or layout changes.
LOW_TABLE_VERSION: Final = 1

#: A-5 shapes (group sizes, biggest first), best first: no pair, one pair, ... quads.
A5_SHAPES: Final = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))

D27_STRAIGHTS: Final = highlike.straights(range(13), ace_low_under=None)


def ace_low(rank: int) -> int:
    """Ace-low rank number (ace 0, deuce 1 .. king 12) of a high-numbered rank (deuce 0 .. ace 12)."""
    return (rank + 1) % 13


def low8_classes() -> list[tuple[int, ...]]:
    """The 56 eight-or-better lows as descending ace-low ranks, worst (8-7-6-5-4) first."""
    lows = [tuple(sorted(chosen, reverse=True)) for chosen in combinations(range(8), 5)]
    return sorted(lows, reverse=True)


def low8_table() -> list[int]:
    """Rank (1..56, 0 = no low) of the best low for each 8-bit mask of ace-low ranks A..8."""
    rank_of = {low: position for position, low in enumerate(low8_classes(), start=1)}
    table = []
    for mask in range(256):
        present = [rank for rank in range(8) if mask >> rank & 1]
        table.append(rank_of[tuple(sorted(present[:5], reverse=True))] if len(present) >= 5 else 0)
    return table


def a5_score(counts: tuple[int, ...]) -> Score:
    """Ace-to-five score of five cards given as high-numbered rank counts; higher is better."""
    grouped = sorted(((count, ace_low(rank)) for rank, count in enumerate(counts) if count), reverse=True)
    shape = tuple(count for count, _ in grouped)
    return (-A5_SHAPES.index(shape), tuple(-rank for _, rank in grouped))


def d27_score(counts: tuple[int, ...], flush: bool) -> Score:
    """Deuce-to-seven score of five cards (higher is better): the high value, negated."""
    strength, ranks = highlike.five_card_value(
        counts, flush=flush, straights=D27_STRAIGHTS, order=highlike.STANDARD_ORDER
    )
    return (-strength, tuple(-rank for rank in ranks))


def a5_values() -> list[Score]:
    """Every distinct ace-to-five score, weakest first (6,175 of them: one per rank multiset)."""
    return sorted(a5_score(counts) for counts in multisets(5))


def d27_values() -> list[Score]:
    """Every distinct deuce-to-seven score, weakest first (7,462 of them)."""
    scores = {
        d27_score(counts, flush)
        for counts in multisets(5)
        for flush in (False, True)
        if not flush or max(counts) == 1
    }
    return sorted(scores)


def _mask_counts(mask: int) -> tuple[int, ...]:
    return tuple(mask >> rank & 1 for rank in range(13))


def build_low_tables() -> Tables:
    """Every array the low look-ups read, generated from the rules (a fraction of a second)."""
    a5_best = best_of_multisets(a5_score)
    a5_rank = number_scores(a5_best.values())
    a5_table = {key: a5_rank[score] for key, score in a5_best.items()}
    a5_multiplier, a5_offsets, a5_slots = tables.perfect_hash(a5_table)

    d27_rank = {score: position for position, score in enumerate(d27_values(), start=1)}
    d27_nonflush = {tables.rank_key(counts): d27_rank[d27_score(counts, False)] for counts in multisets(5)}
    d27_flush = [0] * (1 << 13)
    for mask in highlike.flush_masks(range(13)):
        d27_flush[mask] = d27_rank[d27_score(_mask_counts(mask), True)]
    return {
        "low8": array("B", low8_table()),
        "a5_keys": array("Q", a5_table.keys()),
        "a5_ranks": array("H", a5_table.values()),
        "a5_hash_multiplier": array("Q", [a5_multiplier]),
        "a5_hash_offsets": array("I", a5_offsets),
        "a5_hash_slots": array("H", a5_slots),
        "d27_keys": array("Q", d27_nonflush.keys()),
        "d27_ranks": array("H", d27_nonflush.values()),
        "d27_flush": array("H", d27_flush),
    }


def load_low_tables() -> Tables:
    """The low tables from the disk cache, generated and saved on first use."""
    return load_or_build("low", LOW_TABLE_VERSION, build_low_tables)
