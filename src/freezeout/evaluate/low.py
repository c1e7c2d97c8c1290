"""Low-hand look-ups: 8-or-better (V6), ace-to-five (V10, razz) and deuce-to-seven (V14).

Tables come from :mod:`.lowtables`.  Each ranking answers in one pass over
the cards plus one or two look-ups:

* ``low8`` ORs one key per card: bits 0..7 say which ace-low ranks A..8
  are present, bits 8..59 say which cards (fewer bits than cards means a
  card was given twice); the low eight bits index a 256-entry list.
* ``low-a5`` sums base-5 rank digits (as :mod:`.high` does) and looks the
  multiset up in one dict covering 5 to 7 cards.
* ``low-27`` is a five-card game; the same sum plus the suit nibbles of
  :mod:`.high` pick the flush list or the multiset dict.  Six or seven
  cards take the best of every five (21 look-ups), since a flush may have
  to be avoided.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Final

from freezeout.cards import Card
from freezeout.evaluate import lowtables, tables
from freezeout.evaluate.checks import POISON, bad_cards, card_keys, chained, first_subset, joined, shared_ints
from freezeout.evaluate.errors import EvaluationError
from freezeout.evaluate.multisets import Score
from freezeout.evaluate.words import cards_text, category_name, check_language, describe_high, rank_word

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["AceFiveRanking", "DeuceSevenRanking", "Low8Ranking", "ace_low_text"]

_ACE_LOW_CHARS: Final = "A23456789TJQK"
_CARD_BITS: Final = (1 << 52) - 1
_RANK_SHIFT: Final = 68


def _high_rank(ace_low_rank: int) -> int:
    """High numbering (deuce 0 .. ace 12) of an ace-low rank (ace 0 .. king 12)."""
    return (ace_low_rank - 1) % 13


def ace_low_text(ranks: Sequence[int]) -> str:
    """``"8-6-4-2-A"`` from ace-low ranks."""
    return "-".join(_ACE_LOW_CHARS[rank] for rank in ranks)


def _low_order(card: Card) -> tuple[int, int]:
    """Display order of a low hand: higher ace-low rank first (the ace last)."""
    return (lowtables.ace_low(card >> 2), -(card & 3))


def _grouped(cards: Sequence[Card], order: dict[int, int]) -> tuple[Card, ...]:
    """Cards with the biggest rank group first, then by ``order`` of rank (most significant first)."""
    ranks = [card >> 2 for card in cards]
    return tuple(
        sorted(cards, key=lambda card: (ranks.count(card >> 2), order[card >> 2], -(card & 3)), reverse=True)
    )


_ACE_LOW_ORDER: Final = {rank: lowtables.ace_low(rank) for rank in range(13)}
_ACE_HIGH_ORDER: Final = {rank: rank for rank in range(13)}


# --------------------------------------------------------------------------- 8-or-better
def _low8_key(card: int) -> int:
    low = lowtables.ace_low(card >> 2)
    return 1 << (8 + card) | (1 << low if low < 8 else 0)


class Low8Ranking:
    """8-or-better low (V6): five different ranks eight or lower, ace low; 0 is *no low*.

    >>> from freezeout.cards import parse_cards
    >>> low8 = Low8Ranking()
    >>> low8.describe(low8.rank(parse_cards("8d6s4h2cAs"), parse_cards("KdKh")))
    '8-6-4-2-A low'
    >>> low8.rank(parse_cards("7s5h4d3c2s")) > low8.rank(parse_cards("8s4h3d2cAs"))
    True
    >>> low8.rank(parse_cards("AsAh2d3c4s9hKh"))
    0
    """

    name: Final = "low8"
    #: Ranks run 1..RANK_COUNT (5-4-3-2-A); 0 means no qualifying low.
    RANK_COUNT: Final = 56

    def __init__(self) -> None:
        self._table: list[int] = lowtables.load_low_tables()["low8"].tolist()
        self._keys = card_keys(_low8_key)

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Best low of hole and board together (5 to 7 cards); 0 when there is none."""
        keys = self._keys
        found = 0
        try:
            for card in hole:
                found |= keys[card]
            for card in board:
                found |= keys[card]
        except (IndexError, TypeError):
            raise bad_cards(chained(hole, board), "a low hand has 5 to 7 cards") from None
        count = len(hole) + len(board)
        if (found >> 8).bit_count() != count or found >= POISON or not 5 <= count <= 7:
            raise bad_cards(chained(hole, board), "a low hand has 5 to 7 cards")
        return self._table[found & 0xFF]

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and its five cards, highest first (ace last); no low: ``(0, ())``."""
        rank = self.rank(hole, board)
        if not rank:
            return 0, ()
        five = first_subset(joined(hole, board), 5, self.rank, rank)
        return rank, tuple(sorted(five, key=_low_order, reverse=True))

    def describe(self, rank: int, lang: str = "en") -> str:
        """``"8-6-4-2-A low"`` (Czech ``"Nízká ruka 8-6-4-2-A"``); rank 0 is "No low"."""
        check_language(lang)
        if rank == 0:
            return "No low" if lang == "en" else "Bez nízké ruky"
        text = ace_low_text(self._ranks(rank))
        return f"{text} low" if lang == "en" else f"Nízká ruka {text}"

    def category(self, rank: int, lang: str = "en") -> str:
        """``"eight low"`` .. ``"five low"`` by the top card, or ``"no low"``."""
        check_language(lang)
        if rank == 0:
            return "no low" if lang == "en" else "bez nízké ruky"
        return _top_low(_high_rank(self._ranks(rank)[0]), lang)

    def _ranks(self, rank: int) -> tuple[int, ...]:
        if not 0 < rank <= self.RANK_COUNT:
            raise EvaluationError(f"rank {rank} is not an 8-or-better rank (0..{self.RANK_COUNT})")
        return _low8_classes()[rank - 1]

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` array of card indices, k in 5..7 (numba)."""
        from freezeout.evaluate import variant_batch

        return variant_batch.low8_batch(cards)


def _top_low(top: int, lang: str) -> str:
    """``"eight low"`` / ``"nízká ruka do osmičky"`` for a top card in high numbering."""
    return f"{rank_word(top, 'en')} low" if lang == "en" else f"nízká ruka do {rank_word(top, 'cs', 'of')}"


@cache
def _low8_classes() -> tuple[tuple[int, ...], ...]:
    return tuple(lowtables.low8_classes())


# --------------------------------------------------------------------------- ace-to-five
def _multiset_key(card: int) -> int:
    return int(5 ** (card >> 2)) << _RANK_SHIFT | 1 << (16 + card)


class AceFiveRanking:
    """Ace-to-five low (V10, razz): every hand ranks; straights and flushes ignored, pairs count against.

    >>> from freezeout.cards import parse_cards
    >>> razz = AceFiveRanking()
    >>> razz.describe(razz.rank(parse_cards("KsKh5d3cAs9h9d")))
    'K-9-5-3-A low'
    >>> razz.describe(razz.rank(parse_cards("5s4s3s2sAs")))
    '5-4-3-2-A low'
    """

    name: Final = "low-a5"
    RANK_COUNT: Final = 6175

    def __init__(self) -> None:
        loaded = lowtables.load_low_tables()
        self._table: dict[int, int] = dict(
            zip(loaded["a5_keys"], shared_ints(loaded["a5_ranks"]), strict=True)
        )
        self._keys = card_keys(_multiset_key)

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Best ace-to-five low of hole and board together (5 to 7 cards)."""
        keys = self._keys
        total = 0
        try:
            for card in hole:
                total += keys[card]
            for card in board:
                total += keys[card]
            rank = self._table[total >> _RANK_SHIFT]
        except (IndexError, TypeError, KeyError):
            raise bad_cards(chained(hole, board), "a low hand has 5 to 7 cards") from None
        if (total >> 16 & _CARD_BITS).bit_count() != len(hole) + len(board):
            raise bad_cards(chained(hole, board), "a low hand has 5 to 7 cards")
        return rank

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and its five cards: biggest group first, then higher cards first (ace last)."""
        rank = self.rank(hole, board)
        five = first_subset(joined(hole, board), 5, self.rank, rank)
        return rank, _grouped(five, _ACE_LOW_ORDER)

    def describe(self, rank: int, lang: str = "en") -> str:
        """``"7-5-4-3-2 low"``; with pairs the made hand and its cards, ``"One pair, kings (K-K-5-3-A)"``."""
        check_language(lang)
        shape, ranks = self._shape(rank)
        cards = ace_low_text([rank for size, rank in zip(shape, ranks, strict=True) for _ in range(size)])
        if shape[0] == 1:
            return f"{cards} low" if lang == "en" else f"Nízká ruka {cards}"
        high = [_high_rank(rank) for rank in ranks]
        category = _A5_CATEGORIES[lowtables.A5_SHAPES.index(shape)]
        # describe_high names the groups; the ranks it would add as kickers are in the card list.
        made = describe_high(category, high[: _GROUPS[category]], lang)
        return f"{made} ({cards})"

    def category(self, rank: int, lang: str = "en") -> str:
        """``"seven low"`` for a hand without a pair, else ``"one pair"`` .. ``"four of a kind"``."""
        check_language(lang)
        shape, ranks = self._shape(rank)
        if shape[0] == 1:
            return _top_low(_high_rank(ranks[0]), lang)
        return category_name(_A5_CATEGORIES[lowtables.A5_SHAPES.index(shape)], lang)

    def _shape(self, rank: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Group sizes and their ace-low ranks, most significant first."""
        if not 1 <= rank <= self.RANK_COUNT:
            raise EvaluationError(f"rank {rank} is not an ace-to-five rank (1..{self.RANK_COUNT})")
        shape_index, negated = _a5_values()[rank - 1]
        shape = lowtables.A5_SHAPES[-shape_index]
        return shape, tuple(-rank for rank in negated)

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` array of card indices, k in 5..7 (numba)."""
        from freezeout.evaluate import variant_batch

        return variant_batch.a5_batch(cards)


#: Category code of each A-5 shape (its :mod:`.tables` name) and how many groups the name mentions.
_A5_CATEGORIES: Final = (
    tables.HIGH_CARD,
    tables.ONE_PAIR,
    tables.TWO_PAIR,
    tables.TRIPS,
    tables.FULL_HOUSE,
    tables.QUADS,
)
_GROUPS: Final = {
    tables.ONE_PAIR: 1,
    tables.TWO_PAIR: 2,
    tables.TRIPS: 1,
    tables.FULL_HOUSE: 2,
    tables.QUADS: 1,
}


@cache
def _a5_values() -> tuple[Score, ...]:
    return tuple(lowtables.a5_values())


# --------------------------------------------------------------------------- deuce-to-seven
def _d27_key(card: int) -> int:
    return int(5 ** (card >> 2)) << _RANK_SHIFT | 1 << (16 + card) | 1 << 4 * (card & 3)


_SUIT_BASE: Final = 0x3333
_FLUSH_BITS: Final = 0x8888


class DeuceSevenRanking:
    """Deuce-to-seven low (V14): aces high, straights and flushes count against; A-2-3-4-5 is no straight.

    >>> from freezeout.cards import parse_cards
    >>> d27 = DeuceSevenRanking()
    >>> d27.describe(d27.rank(parse_cards("7s5h4d3c2s")))
    'Seven-five low, 7-5-4-3-2'
    >>> d27.rank(parse_cards("7s5h4d3c2s")) == d27.RANK_COUNT
    True
    >>> d27.category(d27.rank(parse_cards("As2h3d4c5s")))
    'ace low'
    """

    name: Final = "low-27"
    RANK_COUNT: Final = 7462

    def __init__(self) -> None:
        loaded = lowtables.load_low_tables()
        self._nonflush: dict[int, int] = dict(
            zip(loaded["d27_keys"], shared_ints(loaded["d27_ranks"]), strict=True)
        )
        self._flush: list[int] = shared_ints(loaded["d27_flush"])
        self._keys = card_keys(_d27_key)

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Best deuce-to-seven low of hole and board together (5 cards; 6 or 7: the best five)."""
        cards = joined(hole, board)
        keys = self._keys
        total = _SUIT_BASE
        try:
            for card in cards:
                total += keys[card]
        except (IndexError, TypeError):
            raise bad_cards(cards, "a deuce-to-seven hand has 5 to 7 cards") from None
        if len(cards) == 5 and not total & _FLUSH_BITS:
            rank = self._nonflush.get(total >> _RANK_SHIFT, 0)
            if rank and (total >> 16 & _CARD_BITS).bit_count() == 5:
                return rank
        if (
            (total >> 16 & _CARD_BITS).bit_count() != len(cards)
            or total >= POISON
            or not 5 <= len(cards) <= 7
        ):
            raise bad_cards(cards, "a deuce-to-seven hand has 5 to 7 cards")
        return max(self._five(five) for five in combinations(cards, 5))

    def _five(self, five: Sequence[int]) -> int:
        """Rank of five valid cards."""
        keys = self._keys
        total = _SUIT_BASE + keys[five[0]] + keys[five[1]] + keys[five[2]] + keys[five[3]] + keys[five[4]]
        if total & _FLUSH_BITS:
            return self._flush[sum(1 << (card >> 2) for card in five)]
        return self._nonflush[total >> _RANK_SHIFT]

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and its five cards, most significant first (pairs first, then higher cards)."""
        rank = self.rank(hole, board)
        five = first_subset(joined(hole, board), 5, self.rank, rank)
        return rank, _grouped(five, _ACE_HIGH_ORDER)

    def describe(self, rank: int, lang: str = "en") -> str:
        """``"Seven-five low, 7-5-4-3-2"``; made hands (pairs, straights, flushes) as in high poker."""
        category, ranks = self._value(rank)
        if category != tables.HIGH_CARD:
            return describe_high(category, ranks, lang)
        cards = cards_text(ranks)
        if check_language(lang) == "en":
            return f"{rank_word(ranks[0], 'en').capitalize()}-{rank_word(ranks[1], 'en')} low, {cards}"
        return f"Nízká ruka do {rank_word(ranks[0], 'cs', 'of')}, {cards}"

    def category(self, rank: int, lang: str = "en") -> str:
        """``"seven low"`` .. ``"ace low"`` for unpaired hands, else high poker's category."""
        category, ranks = self._value(rank)
        return _top_low(ranks[0], lang) if category == tables.HIGH_CARD else category_name(category, lang)

    def _value(self, rank: int) -> tables.Value:
        if not 1 <= rank <= self.RANK_COUNT:
            raise EvaluationError(f"rank {rank} is not a deuce-to-seven rank (1..{self.RANK_COUNT})")
        strength, negated = _d27_values()[rank - 1]
        return -strength, tuple(-rank for rank in negated)

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` array of card indices, k in 5..7 (numba)."""
        from freezeout.evaluate import variant_batch

        return variant_batch.d27_batch(cards)


@cache
def _d27_values() -> tuple[Score, ...]:
    return tuple(lowtables.d27_values())
