"""High-hand lookup (R19): the pure-Python fast path and :class:`HandValue`.

One hand costs one pass over the cards and one dict lookup.  Each card's
key packs three counters into one Python int::

    (5 ** rank) << 68   |   1 << (16 + card)   |   1 << (4 * suit)

Summing the keys of the cards (starting from ``0x3333``) gives

* above bit 68, the base-5 rank-multiset key of :mod:`.tables`;
* in bits 16..67, one bit per card, with a carry (so fewer bits than cards)
  exactly when a card is repeated: a duplicate check for one ``bit_count``;
* in the low 16 bits, one nibble per suit holding ``3 + cards of that
  suit``.  A nibble reaches 8 exactly when a suit has five or more cards, so
  ``total & 0x8888`` is the flush test.

Non-flush hands (about 97 % of seven-card hands) then need one dict lookup;
flush hands rebuild the suit's 13-bit rank mask and index a list.  The dict
holds the seven-card keys first and shares one int object per rank, which
keeps the memory a lookup touches (and so its cache misses) small.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final

from freezeout.cards import Card, parse_cards
from freezeout.evaluate import tables
from freezeout.evaluate.checks import bad_cards
from freezeout.evaluate.errors import EvaluationError

__all__ = ["RANK_COUNT", "HandValue", "category_of", "evaluate", "hand_rank"]

_SUIT_BASE: Final = 0x3333
_FLUSH_BITS: Final = 0x8888
_CARD_SHIFT: Final = 16
_CARD_BITS: Final = (1 << 52) - 1
_RANK_SHIFT: Final = 68

_TABLES: Final = tables.load_high_tables()
_CATEGORY_STARTS: Final[list[int]] = _TABLES["category_starts"].tolist()
#: How many distinct high-hand values exist (7,462); ranks run 1..RANK_COUNT.
RANK_COUNT: Final[int] = _TABLES["rank_count"][0]
_RANK_OBJECTS: Final = list(range(RANK_COUNT + 1))  # one shared int per rank: fewer cache lines
_NONFLUSH: Final[dict[int, int]] = dict(
    zip(_TABLES["nonflush_keys"], map(_RANK_OBJECTS.__getitem__, _TABLES["nonflush_ranks"]), strict=True)
)
_FLUSH: Final[list[int]] = [_RANK_OBJECTS[rank] for rank in _TABLES["flush"]]
# Indices 52..103 hold a poison key that no table contains, so a negative
# index (which Python lists accept) or one just past the deck fails the
# lookup instead of aliasing a real card.
_POISON: Final = 1 << 200
_KEY: Final[list[int]] = [
    (5 ** (card >> 2)) << _RANK_SHIFT | 1 << (_CARD_SHIFT + card) | 1 << 4 * (card & 3) for card in range(52)
] + [_POISON] * 52
_RANK_BIT: Final[list[int]] = [1 << (card >> 2) for card in range(52)]


def hand_rank(cards: Sequence[int]) -> int:
    """Rank of the best five of 5-7 cards given as indices (or :class:`Card`).

    The showdown fast path: higher is stronger, equal ranks split (R19),
    and the result equals ``evaluate(cards).rank``.  A wrong count, a
    duplicate or an index outside 0..51 raises a ``ValueError`` subclass.
    """
    total = _SUIT_BASE
    try:
        for card in cards:
            total += _KEY[card]
    except (IndexError, TypeError):
        raise _bad_cards(cards) from None
    if total & _FLUSH_BITS:
        return _flush_rank(cards, total)
    try:
        rank = _NONFLUSH[total >> _RANK_SHIFT]
    except KeyError:
        raise _bad_cards(cards) from None
    if (total >> _CARD_SHIFT & _CARD_BITS).bit_count() != len(cards):
        raise _bad_cards(cards)
    return rank


def _flush_rank(cards: Sequence[int], total: int) -> int:
    flagged = total & _FLUSH_BITS
    if (
        not tables.MIN_CARDS <= len(cards) <= tables.MAX_CARDS
        or flagged & (flagged - 1)
        or (total >> _CARD_SHIFT & _CARD_BITS).bit_count() != len(cards)
        or not all(0 <= card < 52 for card in cards)
    ):
        raise _bad_cards(cards)
    suit = (flagged.bit_length() >> 2) - 1
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= _RANK_BIT[card]
    return _FLUSH[mask]


def _bad_cards(cards: Iterable[object]) -> ValueError:
    """The precise error for input the fast path rejected (slow, only on failure)."""
    return bad_cards(cards, f"a hand has {tables.MIN_CARDS} to {tables.MAX_CARDS} cards")


def category_of(rank: int) -> str:
    """Category name of a rank, e.g. ``"full house"``."""
    if not 1 <= rank <= RANK_COUNT:
        raise EvaluationError(f"rank {rank} is not a hand rank (1..{RANK_COUNT})")
    return tables.CATEGORIES[bisect_right(_CATEGORY_STARTS, rank) - 1]


def _as_cards(cards: str | Iterable[str | int]) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    items = [Card(item) if isinstance(item, int) and not isinstance(item, Card) else item for item in cards]
    return parse_cards(items)


class HandValue:
    """The value of a 5-7 card high hand: compare, hash, describe (R19).

    Values compare and hash by :attr:`rank` alone, so two hands that split a
    pot are equal even when their cards differ.  Immutable.
    """

    __slots__ = ("_best", "cards", "rank")
    rank: int
    cards: tuple[Card, ...]
    _best: tuple[Card, ...] | None

    def __init__(self, rank: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_best", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"HandValue is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"HandValue is immutable (cannot delete {name!r})")

    def __reduce__(self) -> tuple[type[HandValue], tuple[int, tuple[Card, ...]]]:
        return (HandValue, (self.rank, self.cards))

    @property
    def category(self) -> str:
        """One of :data:`freezeout.evaluate.tables.CATEGORIES`."""
        return category_of(self.rank)

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards that make the hand, most significant first (computed once)."""
        if self._best is None:
            object.__setattr__(self, "_best", _best_five(self.cards, self.rank))
        assert self._best is not None
        return self._best

    def describe(self) -> str:
        """Plain-English name, e.g. ``"Full house, kings full of tens"``."""
        from freezeout.evaluate.describe import describe_rank

        return describe_rank(self.rank)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"HandValue(rank={self.rank}, {self.describe()!r})"

    def __hash__(self) -> int:
        return hash(self.rank)

    def __eq__(self, other: object) -> bool:
        return self.rank == other.rank if isinstance(other, HandValue) else NotImplemented

    def __lt__(self, other: HandValue) -> bool:
        return self.rank < other.rank if isinstance(other, HandValue) else NotImplemented

    def __le__(self, other: HandValue) -> bool:
        return self.rank <= other.rank if isinstance(other, HandValue) else NotImplemented

    def __gt__(self, other: HandValue) -> bool:
        return self.rank > other.rank if isinstance(other, HandValue) else NotImplemented

    def __ge__(self, other: HandValue) -> bool:
        return self.rank >= other.rank if isinstance(other, HandValue) else NotImplemented


def evaluate(cards: str | Iterable[str | int]) -> HandValue:
    """Evaluate 5, 6 or 7 cards: ``Card`` objects, indices, strings or ``"AsKd..."``.

    >>> evaluate("KsKhKdTcTs7h2c").describe()
    'Full house, kings full of tens'
    """
    parsed = _as_cards(cards)
    if not tables.MIN_CARDS <= len(parsed) <= tables.MAX_CARDS:
        raise EvaluationError(f"a hand has {tables.MIN_CARDS} to {tables.MAX_CARDS} cards, got {len(parsed)}")
    return HandValue(hand_rank(parsed), parsed)


def _best_five(cards: tuple[Card, ...], rank: int) -> tuple[Card, ...]:
    """Pick (deterministically) five of ``cards`` worth ``rank``, ordered for display."""
    ordered = sorted(cards, reverse=True)
    five = next(combo for combo in combinations(ordered, 5) if hand_rank(combo) == rank)
    ranks = [card >> 2 for card in five]
    wheel = category_of(rank) in ("straight", "straight flush") and 0 in ranks and 12 in ranks

    def significance(card: Card) -> tuple[int, int, int]:
        rank_index = card >> 2
        shown = -1 if wheel and rank_index == 12 else rank_index
        return (ranks.count(rank_index), shown, -(card & 3))

    return tuple(sorted(five, key=significance, reverse=True))
