"""Badugi look-up (V15): the best subset of four cards with no suit and no rank twice.

Each card's key holds its ace-low rank bit (bits 0..12), its suit bit
(13..16) and its card bit (17..68).  A set of cards is a badugi hand
exactly when the OR of their keys has two rank-or-suit bits per card (no
rank and no suit shared), and then its low 13 bits are the whole value:
one list of :mod:`.badugitables` ranks it.  Four cards have 15 subsets;
the look-up tries the four-card one, then the four threes, then the six
pairs, stopping at the first size that has a hand, because more cards
always beat fewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Final

from freezeout.cards import Card
from freezeout.evaluate import badugitables
from freezeout.evaluate.checks import POISON, bad_cards, card_keys, joined
from freezeout.evaluate.errors import EvaluationError
from freezeout.evaluate.lowtables import ace_low
from freezeout.evaluate.words import check_language

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BadugiRanking"]

_RANK_BITS: Final = 0x1FFF
_RANK_SUIT_BITS: Final = 0x1FFFF
_ACE_LOW_CHARS: Final = "A23456789TJQK"
_EXPECTED: Final = "a badugi hand has 4 cards"
_NAMES: Final = {
    "en": ("One-card badugi", "Two-card badugi", "Three-card badugi", "Badugi"),
    "cs": ("Jednokartové badugi", "Dvoukartové badugi", "Tříkartové badugi", "Badugi"),
}


def _key(card: int) -> int:
    return 1 << ace_low(card >> 2) | 1 << (13 + (card & 3)) | 1 << (17 + card)


class BadugiRanking:
    """Badugi (V15): four cards; more cards in the hand beat fewer, then lower from the top, ace low.

    >>> from freezeout.cards import parse_cards
    >>> badugi = BadugiRanking()
    >>> badugi.describe(badugi.rank(parse_cards("7s5h3dAc")))
    'Badugi, 7-5-3-A'
    >>> badugi.best(parse_cards("Ks2s4d7h"))[1]
    (Card('7h'), Card('4d'), Card('2s'))
    >>> badugi.describe(badugi.rank(parse_cards("Ks2s4d7h")), "cs")
    'Tříkartové badugi, 7-4-2'
    """

    name: Final = "badugi"
    RANK_COUNT: Final = 1092

    def __init__(self) -> None:
        self._ranks: list[int] = badugitables.load_badugi_tables()["ranks"].tolist()
        self._keys = card_keys(_key)

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Rank of the best badugi hand in the four cards (hole and board together)."""
        keys = self._keys
        try:
            first, second, third, fourth = joined(hole, board)
            a, b, c, d = keys[first], keys[second], keys[third], keys[fourth]
        except (IndexError, TypeError, ValueError):
            raise bad_cards(joined(hole, board), _EXPECTED) from None
        every = a | b | c | d
        if (every >> 17).bit_count() != 4 or every >= POISON:
            raise bad_cards(joined(hole, board), _EXPECTED)
        ranks = self._ranks
        if (every & _RANK_SUIT_BITS).bit_count() == 8:
            return ranks[every & _RANK_BITS]
        best = 0
        for three in (a | b | c, a | b | d, a | c | d, b | c | d):
            if (three & _RANK_SUIT_BITS).bit_count() == 6 and ranks[three & _RANK_BITS] > best:
                best = ranks[three & _RANK_BITS]
        if best:
            return best
        for two in (a | b, a | c, a | d, b | c, b | d, c | d):
            if (two & _RANK_SUIT_BITS).bit_count() == 4 and ranks[two & _RANK_BITS] > best:
                best = ranks[two & _RANK_BITS]
        if best:
            return best
        return max(ranks[a & _RANK_BITS], ranks[b & _RANK_BITS], ranks[c & _RANK_BITS], ranks[d & _RANK_BITS])

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and the 1 to 4 cards that make it, highest first (ace last)."""
        rank = self.rank(hole, board)
        size = _masks()[rank - 1].bit_count()
        ordered = sorted(
            (Card(card) for card in joined(hole, board)),
            key=lambda card: (ace_low(card >> 2), -(card & 3)),
            reverse=True,
        )
        for chosen in combinations(ordered, size):
            every = 0
            for card in chosen:
                every |= _key(card)
            if (every & _RANK_SUIT_BITS).bit_count() == 2 * size and self._ranks[every & _RANK_BITS] == rank:
                return rank, chosen
        raise AssertionError("unreachable: the rank came from these cards")  # pragma: no cover

    def describe(self, rank: int, lang: str = "en") -> str:
        """``"Badugi, 7-5-3-A"``, ``"Three-card badugi, 7-5-3"`` (Czech ``"Tříkartové badugi, 7-5-3"``)."""
        ranks = self._ranks_of(rank)
        return f"{_NAMES[check_language(lang)][len(ranks) - 1]}, {'-'.join(_ACE_LOW_CHARS[r] for r in ranks)}"

    def category(self, rank: int, lang: str = "en") -> str:
        """``"badugi"`` (four cards), ``"three-card badugi"``, ``"two-card badugi"`` or ``"one-card badugi"``."""
        return _NAMES[check_language(lang)][len(self._ranks_of(rank)) - 1].lower()

    def _ranks_of(self, rank: int) -> list[int]:
        """Ace-low ranks of the hand, highest first."""
        if not 1 <= rank <= self.RANK_COUNT:
            raise EvaluationError(f"rank {rank} is not a badugi rank (1..{self.RANK_COUNT})")
        mask = _masks()[rank - 1]
        return [rank for rank in range(12, -1, -1) if mask >> rank & 1]

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, 4)`` array of card indices (numba)."""
        from freezeout.evaluate import variant_batch

        return variant_batch.badugi_batch(cards)


@cache
def _masks() -> tuple[int, ...]:
    return tuple(badugitables.badugi_masks())
