"""What a player keeps when the clock runs out in a draw (V12).

Five-Card Draw follows V12 to the letter: the first rule that applies
decides which cards are kept, the rest are discarded.  V12 speaks of high
hands only; for the lowball and badugi draws (V14, V15) the same idea — keep
what a player would plainly keep, throw away the rest — reads: 2-7 keeps
its different ranks of seven or lower (a made seven-low or better stands
pat); badugi keeps the best badugi it holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from freezeout.cards import Card

__all__ = ["timeout_discards"]

_JACK, _ACE = 9, 12
_HIGH_CARDS = frozenset({9, 10, 11, 12})  # J, Q, K, A


def timeout_discards(cards: Sequence[Card], ranking: str) -> tuple[Card, ...]:
    """The cards thrown away when the player's draw is forfeited (V12)."""
    if ranking == "low-27":
        keep = _lowball_keep(cards)
    elif ranking == "badugi":
        keep = _badugi_keep(cards)
    else:
        keep = _high_keep(cards)
    return tuple(card for card in cards if card not in keep)


def _high_keep(cards: Sequence[Card]) -> set[Card]:
    """V12, in order: two pair or better (a made five-card hand keeps all);
    four to a royal flush; a high pair (JJ+); four to a straight or flush; a
    low pair; four to an open-ended straight; a made straight; high cards
    (A, K, Q, J); otherwise nothing."""
    counts = Counter(card.rank for card in cards)
    groups = sorted(counts.values(), reverse=True)
    straight = _straight_cards(cards, 5)
    flush = _flush_cards(cards, 5)
    if straight or flush or groups[0] >= 3 or groups[:2] == [2, 2]:
        return set(cards)  # V12 as written: two pair or better keeps all five
    royal = _royal_draw(cards)
    if royal:
        return royal
    pairs = [rank for rank, count in counts.items() if count == 2]
    if pairs and pairs[0] >= _JACK:
        return {card for card in cards if card.rank == pairs[0]}
    draw = _flush_cards(cards, 4) or _straight_cards(cards, 4)
    if draw:
        return draw
    if pairs:
        return {card for card in cards if card.rank == pairs[0]}
    open_ended = _straight_cards(cards, 4, open_ended=True)
    if open_ended:
        return open_ended
    return {card for card in cards if card.rank in _HIGH_CARDS}


def _flush_cards(cards: Sequence[Card], size: int) -> set[Card]:
    by_suit = Counter(card.suit for card in cards)
    suit, count = by_suit.most_common(1)[0]
    return {card for card in cards if card.suit == suit} if count >= size else set()


def _windows(open_ended: bool) -> list[tuple[int, ...]]:
    """Rank windows of a straight (ace low or high); open-ended draws are
    four in a row that two ranks complete."""
    if open_ended:
        return [tuple(range(low, low + 4)) for low in range(0, 9)]  # 2345 .. TJQK; A-low/high ends are one-way
    return [(12, 0, 1, 2, 3), *(tuple(range(low, low + 5)) for low in range(0, 9))]


def _straight_cards(cards: Sequence[Card], size: int, *, open_ended: bool = False) -> set[Card]:
    """``size`` cards of different ranks inside one straight window (highest window first)."""
    for window in reversed(_windows(open_ended)):
        inside: dict[int, Card] = {}
        for card in cards:
            if card.rank in window and card.rank not in inside:
                inside[card.rank] = card
        if len(inside) >= size and (not open_ended or len(inside) == len(window)):
            return set(inside.values())
    return set()


def _royal_draw(cards: Sequence[Card]) -> set[Card]:
    for suit in range(4):
        royal = {card for card in cards if card.suit == suit and card.rank >= 8}
        if len(royal) >= 4:
            return royal
    return set()


def _lowball_keep(cards: Sequence[Card]) -> set[Card]:
    """2-7: keep one card of each rank from deuce to seven; with no pair,
    straight or flush among five such cards, stand pat."""
    keep: dict[int, Card] = {}
    for card in sorted(cards, key=lambda c: c.rank):
        if card.rank <= 5 and card.rank not in keep:
            keep[card.rank] = card
    kept = set(keep.values())
    if len(kept) == 5 and (_straight_cards(cards, 5) or _flush_cards(cards, 5)):
        highest = max(kept, key=lambda c: c.rank)
        kept.discard(highest)  # break the straight or flush
    return kept


def _badugi_keep(cards: Sequence[Card]) -> set[Card]:
    """Badugi: keep the largest set of cards of different suits and ranks,
    the lowest such set on a tie (ace low)."""
    def low(card: Card) -> int:
        return -1 if card.rank == _ACE else card.rank

    for size in range(len(cards), 0, -1):
        sets = [
            group
            for group in combinations(cards, size)
            if len({c.suit for c in group}) == size and len({c.rank for c in group}) == size
        ]
        if sets:
            return set(min(sets, key=lambda group: sorted((low(c) for c in group), reverse=True)))
    return set()
