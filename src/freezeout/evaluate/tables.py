"""Generate the high-hand lookup tables (R19).  Generation only: no lookups here.

Everything the fast paths read is *computed* here from the rules, never
pasted in:

* :func:`five_card_classes` lists the 7,462 distinct five-card values,
  weakest first, as ``(category, tiebreak)`` pairs.  A hand's *rank* is its
  1-based position in that list, so a higher rank is a stronger hand and
  equal ranks split (R19).
* :func:`nonflush_table` maps every multiset of 5, 6 or 7 card ranks (at most
  four of each rank) to the rank of the best five cards it holds, ignoring
  suits.  Its key is :func:`rank_key`: the count of each rank written as a
  base-5 digit, so a *sum* of per-card keys identifies the multiset exactly
  and the hot path never has to sort or count.
* :func:`flush_table` maps every 13-bit set of ranks with 5 to 7 members to
  the best straight flush or flush inside it.

With at most seven cards a flush and a full house (or quads) cannot coexist,
so when five cards share a suit the flush table alone decides the hand; the
non-flush table decides every other hand.  The lookup modules rely on that.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from itertools import combinations
from typing import Final

from freezeout.evaluate.cache import Tables, load_or_build

__all__ = [
    "CATEGORIES",
    "FLUSH",
    "FULL_HOUSE",
    "HASH_ROW_BITS",
    "HASH_TABLE_BITS",
    "HIGH_CARD",
    "MAX_CARDS",
    "MIN_CARDS",
    "ONE_PAIR",
    "QUADS",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "TABLE_VERSION",
    "TRIPS",
    "TWO_PAIR",
    "Value",
    "best_flush_value",
    "best_nonflush_value",
    "build_high_tables",
    "category_starts",
    "five_card_classes",
    "flush_table",
    "hash_slot",
    "load_high_tables",
    "nonflush_table",
    "perfect_hash",
    "rank_key",
    "rank_multisets",
]

#: Bump when the meaning or layout of any generated table changes; it is part
#: of the on-disk cache file name, so stale caches are simply ignored.
TABLE_VERSION: Final = 3

MIN_CARDS: Final = 5
MAX_CARDS: Final = 7

#: Category names, weakest first; a category's code is its index here.
CATEGORIES: Final = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

#: ``(category code, tiebreak ranks)``; tuples compare exactly as R19 says:
#: category first, then the combination's ranks, then the kickers.
Value = tuple[int, tuple[int, ...]]

_ACE: Final = 12
_WHEEL_TOP: Final = 3  # the five: A-2-3-4-5 counts as five high (R19)


def _straight_top(present: frozenset[int] | set[int]) -> int | None:
    """Top rank of the best straight among ``present`` ranks, or None.

    The ace plays high (T-J-Q-K-A) or low (A-2-3-4-5, the weakest straight);
    there is no wrap-around such as K-A-2-3-4 (R19).
    """
    for top in range(_ACE, 3, -1):
        if all(top - step in present for step in range(5)):
            return top
    if _ACE in present and all(rank in present for rank in range(4)):
        return _WHEEL_TOP
    return None


def five_card_classes() -> list[Value]:
    """All 7,462 distinct five-card values, weakest first (R19)."""
    values: list[Value] = []
    for ranks in combinations(range(_ACE, -1, -1), 5):  # descending tuples
        if _straight_top(set(ranks)) is None:
            values.append((HIGH_CARD, ranks))
            values.append((FLUSH, ranks))
    for top in range(_WHEEL_TOP, _ACE + 1):
        values.append((STRAIGHT, (top,)))
        values.append((STRAIGHT_FLUSH, (top,)))
    for made in range(13):
        others = [rank for rank in range(_ACE, -1, -1) if rank != made]
        values.extend((ONE_PAIR, (made, *kick)) for kick in combinations(others, 3))
        values.extend((TRIPS, (made, *kick)) for kick in combinations(others, 2))
        values.extend((QUADS, (made, kick)) for kick in others)
        values.extend((FULL_HOUSE, (made, pair)) for pair in others)
    for high, low in combinations(range(_ACE, -1, -1), 2):
        values.extend(
            (TWO_PAIR, (high, low, kick)) for kick in range(_ACE, -1, -1) if kick not in (high, low)
        )
    values.sort()
    return values


def category_starts() -> tuple[int, ...]:
    """First rank of each category, indexed by category code (ranks are 1-based)."""
    starts = [0] * len(CATEGORIES)
    for position, (category, _) in reversed(list(enumerate(five_card_classes(), start=1))):
        starts[category] = position
    return tuple(starts)


def best_nonflush_value(counts: list[int]) -> Value:
    """Best five-card value from rank ``counts`` (index = rank), ignoring suits.

    Written straight from R19's order for any 5 to 7 cards; a flush is the
    flush table's business.
    """
    desc = [rank for rank in range(_ACE, -1, -1) if counts[rank]]
    quads = [rank for rank in desc if counts[rank] == 4]
    trips = [rank for rank in desc if counts[rank] == 3]
    pairs = [rank for rank in desc if counts[rank] == 2]
    if quads:
        return QUADS, (quads[0], next(rank for rank in desc if rank != quads[0]))
    if trips and len(trips) + len(pairs) >= 2:
        return FULL_HOUSE, (trips[0], max(trips[1:] + pairs))
    top = _straight_top(set(desc))
    if top is not None:
        return STRAIGHT, (top,)
    if trips:
        return TRIPS, (trips[0], *[rank for rank in desc if rank != trips[0]][:2])
    if len(pairs) >= 2:
        high, low = pairs[:2]
        return TWO_PAIR, (high, low, next(rank for rank in desc if rank not in (high, low)))
    if pairs:
        return ONE_PAIR, (pairs[0], *[rank for rank in desc if rank != pairs[0]][:3])
    return HIGH_CARD, tuple(desc[:5])


def best_flush_value(mask: int) -> Value:
    """Best value of a suit holding the ranks in 13-bit ``mask`` (5+ bits)."""
    present = {rank for rank in range(13) if mask >> rank & 1}
    top = _straight_top(present)
    if top is not None:
        return STRAIGHT_FLUSH, (top,)
    return FLUSH, tuple(sorted(present, reverse=True)[:5])


def rank_key(counts: list[int] | tuple[int, ...]) -> int:
    """Base-5 key of a rank multiset: digit ``r`` is how many cards of rank ``r``.

    Digits never exceed 4, so the key is unique for every multiset, and it is
    the plain sum of ``5 ** rank`` over the cards: order-free and cheap.
    """
    return sum(count * 5**rank for rank, count in enumerate(counts))


def rank_multisets(min_cards: int = MIN_CARDS, max_cards: int = MAX_CARDS) -> Iterator[list[int]]:
    """Every rank-count vector with ``min_cards..max_cards`` cards, at most 4 per rank."""
    counts = [0] * 13

    def fill(rank: int, left: int) -> Iterator[list[int]]:
        if rank == 13:
            if max_cards - left >= min_cards:
                yield counts
            return
        for count in range(min(4, left) + 1):
            counts[rank] = count
            yield from fill(rank + 1, left - count)
        counts[rank] = 0

    yield from fill(0, max_cards)


def _rank_of_value() -> dict[Value, int]:
    return {value: position for position, value in enumerate(five_card_classes(), start=1)}


def nonflush_table() -> dict[int, int]:
    """``rank_key(counts) -> rank`` for every 5-7 card rank multiset.

    Seven-card multisets come first: a dict built in this order keeps the
    entries showdowns touch together in memory.
    """
    rank_of = _rank_of_value()
    return {
        rank_key(counts): rank_of[best_nonflush_value(counts)]
        for size in range(MAX_CARDS, MIN_CARDS - 1, -1)
        for counts in rank_multisets(size, size)
    }


def flush_table() -> list[int]:
    """Rank of the best flush or straight flush for each 13-bit rank mask (0 if < 5 bits)."""
    rank_of = _rank_of_value()
    return [
        rank_of[best_flush_value(mask)] if MIN_CARDS <= mask.bit_count() <= MAX_CARDS else 0
        for mask in range(1 << 13)
    ]


#: Shape of the batch path's perfect hash (see :func:`perfect_hash`).
HASH_ROW_BITS: Final = 14
HASH_TABLE_BITS: Final = 17
_MASK64: Final = (1 << 64) - 1


def _splitmix64(state: int) -> int:
    """A fixed, well-mixed 64-bit sequence for trying multipliers reproducibly."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    state = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    state = ((state ^ (state >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state ^ (state >> 31)


def hash_slot(key: int, multiplier: int, offsets: list[int]) -> int:
    """Slot of ``key`` in the perfect hash: the formula the batch kernels inline."""
    mixed = (key * multiplier) & _MASK64
    row = mixed >> (64 - HASH_ROW_BITS)
    column = (mixed >> (64 - HASH_ROW_BITS - HASH_TABLE_BITS)) & ((1 << HASH_TABLE_BITS) - 1)
    return offsets[row] ^ column


def perfect_hash(table: dict[int, int]) -> tuple[int, list[int], list[int]]:
    """Compress ``key -> value`` into ``(multiplier, offsets, slots)`` with no collisions.

    Why: the base-5 keys run up to 1.7e9, far too sparse to index directly,
    and a numba kernel cannot use a dict.  A multiply-shift hash splits each
    key into a row (top bits) and a column; every row gets an XOR
    displacement so that its columns land on free slots (first fit, biggest
    rows first).  Lookup is one multiply, two shifts and two array reads,
    with tables small enough for L2 (64 KiB of offsets, 256 KiB of slots).
    Unused slots hold 0, which is never a rank.
    """
    size = 1 << HASH_TABLE_BITS
    for attempt in range(1000):
        multiplier = _splitmix64(attempt) | 1
        rows: dict[int, list[tuple[int, int]]] = {}
        for key, value in table.items():
            mixed = (key * multiplier) & _MASK64
            row = mixed >> (64 - HASH_ROW_BITS)
            column = (mixed >> (64 - HASH_ROW_BITS - HASH_TABLE_BITS)) & (size - 1)
            rows.setdefault(row, []).append((column, value))
        if any(len({column for column, _ in row}) != len(row) for row in rows.values()):
            continue  # two keys share row and column under this multiplier: try the next
        slots = [0] * size
        offsets = [0] * (1 << HASH_ROW_BITS)
        for row in sorted(rows, key=lambda row: (-len(rows[row]), row)):
            members = rows[row]
            displacement = next(
                shift for shift in range(size) if all(slots[shift ^ column] == 0 for column, _ in members)
            )
            for column, value in members:
                slots[displacement ^ column] = value
            offsets[row] = displacement
        return multiplier, offsets, slots
    raise RuntimeError("no perfect hash found")  # pragma: no cover - astronomically unlikely


def build_high_tables() -> Tables:
    """Every array the high-hand lookups read, generated from scratch (about a second)."""
    nonflush = nonflush_table()
    multiplier, offsets, slots = perfect_hash(nonflush)
    return {
        "nonflush_keys": array("Q", nonflush.keys()),
        "nonflush_ranks": array("H", nonflush.values()),
        "flush": array("H", flush_table()),
        "category_starts": array("H", category_starts()),
        "rank_count": array("H", [len(five_card_classes())]),
        "hash_multiplier": array("Q", [multiplier]),
        "hash_offsets": array("I", offsets),
        "hash_slots": array("H", slots),
    }


def load_high_tables() -> Tables:
    """The high-hand tables from the disk cache, generated and saved on first use."""
    return load_or_build("high", TABLE_VERSION, build_high_tables)
