"""Omaha look-ups (V5, V6): exactly two hole cards plus exactly three board cards.

**High.**  The best non-flush value of two hole plus three board cards
depends on ranks only; :mod:`.omahatables` stores, for every board rank
multiset, a *board row* holding per hole rank pair the best value over the
board's triples.  A call sums the board's base-5 rank digits (the key of
its row), computes the column of each of the C(4,2) = 6 hole pairs, and
takes the maximum of six cells with one ``itemgetter``.  A flush needs
three board cards and two hole cards of one suit; the suit nibbles of the
summed keys say at once whether that can happen (rarely), and only then
are the suited combinations tried in the high flush list.

**8-or-better low.**  Which low ranks a player can combine depends only on
the set of different low ranks in the hole and the set on the board: one
65,536-entry table answers the whole two-plus-three question, indexed by
the two 8-bit masks that one OR per card builds.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import TYPE_CHECKING, Final

from freezeout.cards import Card
from freezeout.evaluate import high, omahatables, tables
from freezeout.evaluate.checks import POISON, bad_cards, card_keys, chained, shared_ints
from freezeout.evaluate.describe import describe_rank
from freezeout.evaluate.low import Low8Ranking
from freezeout.evaluate.lowtables import ace_low
from freezeout.evaluate.words import category_name, check_language

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["OmahaHighRanking", "OmahaLow8Ranking"]

_EXPECTED: Final = "an Omaha hand has 4 to 6 hole cards and 3 to 5 board cards"
_HOLE_FLUSH_BASE: Final = 0x6666  # a nibble reaches 8 with two hole cards of the suit
_BOARD_FLUSH_BASE: Final = 0x5555  # ... and with three board cards of the suit
_FLUSH_BITS: Final = 0x8888
_PAIR_COUNT: Final = omahatables.PAIR_COUNT


#: A card's rank and 13 times it: the digits of a hole pair's column.
_RANK: Final = [card >> 2 for card in range(52)]
_RANK_13: Final = [13 * rank for rank in _RANK]
_CARD_BITS: Final = (1 << 52) - 1


def _counts_ok(hole: Sequence[int], board: Sequence[int]) -> bool:
    return 4 <= len(hole) <= 6 and 3 <= len(board) <= 5


_RANK_SHIFT: Final = 68


def _hole_key(card: int) -> int:
    return 1 << (16 + card) | 1 << 4 * (card & 3)


def _board_key(card: int) -> int:
    return int(5 ** (card >> 2)) << _RANK_SHIFT | _hole_key(card)


class OmahaHighRanking:
    """Omaha high (V5): the best high hand of exactly two hole cards and three board cards.

    Ranks are :mod:`.high` ranks, so they describe and compare as high hands do.

    >>> from freezeout.cards import parse_cards
    >>> omaha = OmahaHighRanking()
    >>> omaha.describe(omaha.rank(parse_cards("AhKd2c3c"), parse_cards("AdAcKsQsJs")))
    'Full house, aces full of kings'
    >>> omaha.category(omaha.rank(parse_cards("AhKc3d4d"), parse_cards("QsJsTs9s2s")))
    'straight'
    """

    name: Final = "omaha-high"
    RANK_COUNT: Final = high.RANK_COUNT

    def __init__(self) -> None:
        loaded = omahatables.load_omaha_tables()
        cells = shared_ints(loaded["board_rows"])
        starts = range(0, len(cells), _PAIR_COUNT)
        self._boards: dict[int, tuple[int, ...]] = {
            key: tuple(cells[start : start + _PAIR_COUNT])
            for key, start in zip(loaded["board_keys"], starts, strict=True)
        }
        self._pair: list[int] = loaded["pair_index"].tolist()
        self._flush: list[int] = tables.load_high_tables()["flush"].tolist()
        self._hole_keys = card_keys(_hole_key)
        self._board_keys = card_keys(_board_key)

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Best high hand of two of ``hole`` (4 to 6 cards) and three of ``board`` (3 to 5)."""
        hole_keys, board_keys = self._hole_keys, self._board_keys
        hole_total = board_total = 0
        try:
            for card in hole:
                hole_total += hole_keys[card]
            for card in board:
                board_total += board_keys[card]
        except (IndexError, TypeError):
            raise bad_cards(chained(hole, board), _EXPECTED) from None
        seen = (hole_total + board_total) >> 16 & _CARD_BITS
        row = self._boards.get(board_total >> _RANK_SHIFT)
        if (
            row is None
            or seen.bit_count() != len(hole) + len(board)
            or hole_total + board_total >= POISON
            or not 4 <= len(hole) <= 6
        ):
            raise bad_cards(chained(hole, board), _EXPECTED)
        pair, r1, r13 = self._pair, _RANK, _RANK_13
        best: int = max(itemgetter(*[pair[r13[a] + r1[b]] for a, b in combinations(hole, 2)])(row))
        suited = (hole_total + _HOLE_FLUSH_BASE) & (board_total + _BOARD_FLUSH_BASE) & _FLUSH_BITS
        if suited:
            return max(best, self._best_flush(hole, board, (suited.bit_length() >> 2) - 1))
        return best

    def _best_flush(self, hole: Sequence[int], board: Sequence[int], suit: int) -> int:
        """Best two-plus-three flush in ``suit`` (three of the five board cards fix the suit)."""
        hole_bits = [1 << (card >> 2) for card in hole if card & 3 == suit]
        board_bits = [1 << (card >> 2) for card in board if card & 3 == suit]
        flush = self._flush
        return max(
            flush[a | b | c | d | e]
            for a, b in combinations(hole_bits, 2)
            for c, d, e in combinations(board_bits, 3)
        )

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and its five cards (two from the hole, three from the board), as high orders them."""
        rank = self.rank(hole, board)
        for five in _two_plus_three(hole, board):
            if high.hand_rank(five) == rank:
                return rank, high.evaluate(five).best_five
        raise AssertionError("unreachable: the rank came from these cards")  # pragma: no cover

    def describe(self, rank: int, lang: str = "en") -> str:
        """As a high hand reads: ``"Flush, ace, king, nine, five, three"``."""
        return describe_rank(rank, lang)

    def category(self, rank: int, lang: str = "en") -> str:
        """High poker's category (``"full house"``)."""
        return (
            high.category_of(rank)
            if check_language(lang) == "en"
            else category_name(_category_code(rank), lang)
        )

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` array: the first ``hole_count`` (default 4) columns are the hole."""
        from freezeout.evaluate import variant_batch

        return variant_batch.omaha_high_batch(cards, 4 if hole_count is None else hole_count)


def _category_code(rank: int) -> int:
    return tables.CATEGORIES.index(high.category_of(rank))


def _two_plus_three(hole: Sequence[int], board: Sequence[int]) -> list[tuple[Card, ...]]:
    """Every two-plus-three five, higher cards first, in a fixed order."""
    ordered_hole = sorted((Card(card) for card in hole), reverse=True)
    ordered_board = sorted((Card(card) for card in board), reverse=True)
    return [
        (*two, *three) for two in combinations(ordered_hole, 2) for three in combinations(ordered_board, 3)
    ]


def _low_bit(card: int) -> int:
    low = ace_low(card >> 2)
    return 1 << low if low < 8 else 0


class OmahaLow8Ranking:
    """Omaha 8-or-better low (V6): the best low of two hole cards and three board cards; 0 is no low.

    Ranks are :class:`.low.Low8Ranking` ranks.

    >>> from freezeout.cards import parse_cards
    >>> low = OmahaLow8Ranking()
    >>> low.describe(low.rank(parse_cards("As2sKdKc"), parse_cards("3c4d5h8s9s")))
    '5-4-3-2-A low'
    >>> low.rank(parse_cards("AsKsKdKc"), parse_cards("2c3d4h8s9s"))  # one low hole card is not enough
    0
    """

    name: Final = "omaha-low8"
    RANK_COUNT: Final = Low8Ranking.RANK_COUNT

    def __init__(self) -> None:
        self._low8 = Low8Ranking()
        self._table: list[int] = omahatables.load_omaha_tables()["low8"].tolist()
        self._hole_keys = card_keys(lambda card: 1 << (16 + card) | _low_bit(card) << 8)
        self._board_keys = card_keys(lambda card: 1 << (16 + card) | _low_bit(card))

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Best 8-or-better low of two of ``hole`` (4 to 6 cards) and three of ``board`` (3 to 5); 0 if none."""
        found = 0
        try:
            for card in hole:
                found |= self._hole_keys[card]
            for card in board:
                found |= self._board_keys[card]
        except (IndexError, TypeError):
            raise bad_cards(chained(hole, board), _EXPECTED) from None
        if (
            (found >> 16).bit_count() != len(hole) + len(board)
            or found >= POISON
            or not _counts_ok(hole, board)
        ):
            raise bad_cards(chained(hole, board), _EXPECTED)
        return self._table[found & 0xFFFF]

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and its five cards, highest first (ace last); no low: ``(0, ())``."""
        rank = self.rank(hole, board)
        if not rank:
            return 0, ()
        for five in _two_plus_three(hole, board):
            if self._low8.rank(five) == rank:
                return self._low8.best(five)
        raise AssertionError("unreachable: the rank came from these cards")  # pragma: no cover

    def describe(self, rank: int, lang: str = "en") -> str:
        """As 8-or-better lows read: ``"8-6-4-2-A low"``, or ``"No low"``."""
        return self._low8.describe(rank, lang)

    def category(self, rank: int, lang: str = "en") -> str:
        """``"eight low"`` .. ``"five low"``, or ``"no low"``."""
        return self._low8.category(rank, lang)

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` array: the first ``hole_count`` (default 4) columns are the hole."""
        from freezeout.evaluate import variant_batch

        return variant_batch.omaha_low8_batch(cards, 4 if hole_count is None else hole_count)
