"""Short-deck hold'em look-up (V16): the high-hand algorithm of :mod:`.high` over short tables.

Same per-card keys as :mod:`.high` (base-5 rank digits, card bits, suit
nibbles), except that the sixteen cards below the six carry the poison key,
so a deuce to five costs nothing on the fast path and is refused with a
clear :class:`EvaluationError` on the slow one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Final

from freezeout.cards import Card
from freezeout.evaluate import shorttables
from freezeout.evaluate.checks import POISON, bad_cards, card_keys, first_subset, joined, shared_ints
from freezeout.evaluate.errors import EvaluationError
from freezeout.evaluate.multisets import Score
from freezeout.evaluate.words import category_name, describe_high

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["ShortDeckRanking"]

_SUIT_BASE: Final = 0x3333
_FLUSH_BITS: Final = 0x8888
_CARD_BITS: Final = (1 << 52) - 1
_RANK_SHIFT: Final = 68
_LOWEST_CARD: Final = 4 * shorttables.LOWEST_RANK
_EXPECTED: Final = "a short-deck hand has 5 to 7 cards"


def _key(card: int) -> int:
    if card < _LOWEST_CARD:
        return POISON
    return int(5 ** (card >> 2)) << _RANK_SHIFT | 1 << (16 + card) | 1 << 4 * (card & 3)


class ShortDeckRanking:
    """Short-deck hold'em (V16): 36 cards six to ace, A-6-7-8-9 a straight, a flush above a full house.

    >>> from freezeout.cards import parse_cards
    >>> short = ShortDeckRanking()
    >>> short.describe(short.rank(parse_cards("As6h7d8c9s"), parse_cards("KdKh")))
    'Straight, nine high'
    >>> short.category(short.rank(parse_cards("AhKhQh9h7hAsAd"))), short.category(short.rank(parse_cards("AhAdAsKhKd")))
    ('flush', 'full house')
    >>> short.rank(parse_cards("AhKhQh9h7h")) > short.rank(parse_cards("AhAdAsKhKd"))
    True
    """

    name: Final = "short-deck"
    RANK_COUNT: Final = 1404

    def __init__(self) -> None:
        loaded = shorttables.load_short_tables()
        self._nonflush: dict[int, int] = dict(
            zip(loaded["nonflush_keys"], shared_ints(loaded["nonflush_ranks"]), strict=True)
        )
        self._flush: list[int] = shared_ints(loaded["flush"])
        self._keys = card_keys(_key)

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Best five of hole and board together (5 to 7 cards, six to ace)."""
        keys = self._keys
        total = _SUIT_BASE
        try:
            for card in hole:
                total += keys[card]
            for card in board:
                total += keys[card]
        except (IndexError, TypeError):
            raise self._error(hole, board) from None
        count = len(hole) + len(board)
        if total & _FLUSH_BITS:
            return self._flush_rank(hole, board, total, count)
        rank = self._nonflush.get(total >> _RANK_SHIFT)
        if rank is None or (total >> 16 & _CARD_BITS).bit_count() != count:
            raise self._error(hole, board)
        return rank

    def _flush_rank(self, hole: Sequence[int], board: Sequence[int], total: int, count: int) -> int:
        flagged = total & _FLUSH_BITS
        if (
            not 5 <= count <= 7
            or total >= POISON
            or flagged & (flagged - 1)
            or (total >> 16 & _CARD_BITS).bit_count() != count
        ):
            raise self._error(hole, board)
        suit = (flagged.bit_length() >> 2) - 1
        mask = 0
        for card in (*hole, *board):
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        return self._flush[mask]

    @staticmethod
    def _error(hole: Sequence[int], board: Sequence[int]) -> ValueError:
        return bad_cards([*hole, *board], _EXPECTED, lowest=_LOWEST_CARD)

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and its five cards, most significant first (in A-6-7-8-9 the ace last)."""
        rank = self.rank(hole, board)
        five = first_subset(joined(hole, board), 5, self.rank, rank)
        ranks = [card >> 2 for card in five]
        wheel = (
            12 in ranks
            and shorttables.LOWEST_RANK in ranks
            and len(set(ranks)) == 5
            and self.category(rank) in ("straight", "straight flush")
        )

        def significance(card: Card) -> tuple[int, int, int]:
            shown = -1 if wheel and card >> 2 == 12 else card >> 2
            return (ranks.count(card >> 2), shown, -(card & 3))

        return rank, tuple(sorted(five, key=significance, reverse=True))

    def describe(self, rank: int, lang: str = "en") -> str:
        """As high hands read (``"Full house, kings full of tens"``), in English or Czech."""
        category, ranks = self._value(rank)
        return describe_high(category, ranks, lang)

    def category(self, rank: int, lang: str = "en") -> str:
        """High poker's category names (``"flush"``, ``"full house"``); the order differs (V16)."""
        return category_name(self._value(rank)[0], lang)

    def _value(self, rank: int) -> tuple[int, tuple[int, ...]]:
        if not 1 <= rank <= self.RANK_COUNT:
            raise EvaluationError(f"rank {rank} is not a short-deck rank (1..{self.RANK_COUNT})")
        strength, ranks = _short_values()[rank - 1]
        return shorttables.SHORT_DECK_ORDER[strength], ranks

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` array of card indices, k in 5..7 (numba)."""
        from freezeout.evaluate import variant_batch

        return variant_batch.short_batch(cards)


@cache
def _short_values() -> tuple[Score, ...]:
    return tuple(shorttables.short_values())
