"""Generate the short-deck hold'em tables (V16).  Generation only: look-ups in :mod:`.shortdeck`.

The deck is the 36 cards six to ace.  PokerKit's short-deck hold'em, which
V16 defers to, ranks hands as R19 does with two changes: A-6-7-8-9 is the
lowest straight (the ace plays under the six), and a flush beats a full
house.  A straight still beats three of a kind (some rooms swap those two;
PokerKit's ``ShortDeckHoldemLookup`` does not, and neither do we).

Values number 1..1,404, weakest first.  As for high hands, with at most
seven cards a flush excludes a full house and four of a kind, so when five
cards share a suit the flush table alone decides; otherwise the
rank-multiset table does.
"""

from __future__ import annotations

from array import array
from itertools import combinations
from typing import Final

from freezeout.evaluate import highlike, tables
from freezeout.evaluate.cache import Tables, load_or_build
from freezeout.evaluate.multisets import Score, best_of_multisets, multisets, number_scores

__all__ = [
    "LOWEST_RANK",
    "SHORT_DECK_ORDER",
    "SHORT_TABLE_VERSION",
    "build_short_tables",
    "load_short_tables",
    "short_flush_score",
    "short_score",
    "short_values",
]

SHORT_TABLE_VERSION: Final = 1
#: The six (high numbering: deuce 0 .. ace 12); no card of the deck is lower.
LOWEST_RANK: Final = 4
RANKS: Final = range(LOWEST_RANK, 13)

#: V16: the flush moves above the full house; the rest is R19's order.
SHORT_DECK_ORDER: Final = (
    tables.HIGH_CARD,
    tables.ONE_PAIR,
    tables.TWO_PAIR,
    tables.TRIPS,
    tables.STRAIGHT,
    tables.FULL_HOUSE,
    tables.FLUSH,
    tables.QUADS,
    tables.STRAIGHT_FLUSH,
)
STRAIGHTS: Final = highlike.straights(RANKS, ace_low_under=LOWEST_RANK)


def short_score(counts: tuple[int, ...], flush: bool = False) -> Score:
    """Short-deck score of five cards (rank counts, high numbering); higher is better."""
    return highlike.five_card_value(counts, flush=flush, straights=STRAIGHTS, order=SHORT_DECK_ORDER)


def short_flush_score(mask: int) -> Score:
    """Best score of a suit holding the ranks of ``mask`` (5 to 7 of them)."""
    ranks = [rank for rank in RANKS if mask >> rank & 1]
    return max(
        short_score(tuple(1 if rank in chosen else 0 for rank in range(13)), True)
        for chosen in combinations(ranks, 5)
    )


def short_values() -> list[Score]:
    """Every distinct short-deck five-card score, weakest first (1,404 of them)."""
    scores = {short_score(counts) for counts in multisets(5, RANKS)}
    scores.update(short_flush_score(mask) for mask in highlike.flush_masks(RANKS))
    return sorted(scores)


def build_short_tables() -> Tables:
    """Every array the short-deck look-ups read (a few tens of milliseconds)."""
    rank_of = number_scores(short_values())
    nonflush = {key: rank_of[score] for key, score in best_of_multisets(short_score, ranks=RANKS).items()}
    flush = [0] * (1 << 13)
    for size in (5, 6, 7):
        for mask in highlike.flush_masks(RANKS, size):
            flush[mask] = rank_of[short_flush_score(mask)]
    multiplier, offsets, slots = tables.perfect_hash(nonflush)
    return {
        "nonflush_keys": array("Q", nonflush.keys()),
        "nonflush_ranks": array("H", nonflush.values()),
        "flush": array("H", flush),
        "hash_multiplier": array("Q", [multiplier]),
        "hash_offsets": array("I", offsets),
        "hash_slots": array("H", slots),
    }


def load_short_tables() -> Tables:
    """The short-deck tables from the disk cache, generated and saved on first use."""
    return load_or_build("short-deck", SHORT_TABLE_VERSION, build_short_tables)
