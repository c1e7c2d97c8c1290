"""Which cards to throw away at a draw (V11, V14, V15), by the game's ranking.

Each policy takes the cards held and the draws left (this one included)
and returns the cards to discard — none to stand pat.  They are the
textbook rules, written as data-free functions of rank and suit so that
the Monte Carlo of :mod:`.game_equity` can play every simulated player's
draws with them:

* five-card draw (``high``): stand pat on a straight or better; keep
  trips, two pair (draw one), a pair (draw three), four to a flush or to
  an open-ended straight (draw one); otherwise keep an ace or king and
  draw four, or draw five.
* deuce-to-seven (``low-27``, aces high, straights and flushes count
  against): stand pat on a made low no worse than a ten on the last draw,
  a nine with two left, an eight with three; otherwise keep one card of
  each rank up to a seven (an eight while two or more draws are left).
* badugi: keep the best badugi subset (distinct ranks and suits, aces
  low); stand pat on a four-card badugi up to a jack (a ten with three
  draws left, any on the last); with two or more draws left break a
  three-card hand whose top card is a ten or higher down to two.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final

__all__ = ["badugi_core", "discard", "is_made_27", "snow_worthy"]

_ACE = 12


def _rank(card: int) -> int:
    return card // 4  # 0 = deuce … 12 = ace


def _suit(card: int) -> int:
    return card % 4


def discard(ranking: str, cards: Sequence[int], draws_left: int) -> tuple[int, ...]:
    """The cards to throw away (empty: stand pat)."""
    return _discard(ranking, tuple(cards), min(draws_left, 3))


@lru_cache(maxsize=1 << 17)
def _discard(ranking: str, cards: tuple[int, ...], draws_left: int) -> tuple[int, ...]:
    """:func:`discard`, memoised: the Monte Carlo asks about the same hands again and again."""
    if ranking == "low-27":
        return _discard_27(cards, draws_left)
    if ranking == "badugi":
        return _discard_badugi(cards, draws_left)
    return _discard_high(cards)


def _straight(ranks: list[int]) -> bool:
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return False
    return distinct[-1] - distinct[0] == 4 or distinct == [0, 1, 2, 3, _ACE]


def _discard_high(cards: Sequence[int]) -> tuple[int, ...]:
    ranks = [_rank(c) for c in cards]
    counts = {r: ranks.count(r) for r in set(ranks)}
    flush = len({_suit(c) for c in cards}) == 1
    if flush or _straight(ranks) or sorted(counts.values()) in ([2, 3], [1, 4]):
        return ()
    groups = sorted(counts.values(), reverse=True)
    if groups[0] >= 2:  # trips, two pair or a pair: keep every paired card
        return tuple(c for c in cards if counts[_rank(c)] == 1)
    for suit in range(4):  # four to a flush
        same = [c for c in cards if _suit(c) == suit]
        if len(same) == 4:
            return tuple(c for c in cards if _suit(c) != suit)
    ordered = sorted(cards, key=_rank)
    for drop in (ordered[0], ordered[-1]):  # four to an open-ended straight
        rest = sorted(_rank(c) for c in cards if c != drop)
        if rest[-1] - rest[0] == 3 and rest[-1] < _ACE:
            return (drop,)
    top = ordered[-1]
    if _rank(top) >= 11:  # keep an ace or a king
        return tuple(c for c in cards if c != top)
    return tuple(cards)


def is_made_27(cards: Sequence[int]) -> bool:
    """Five distinct ranks, no straight (aces high), no flush."""
    ranks = [_rank(c) for c in cards]
    if len(set(ranks)) != 5 or len({_suit(c) for c in cards}) == 1:
        return False
    ordered = sorted(ranks)
    return ordered[-1] - ordered[0] != 4


def _discard_27(cards: Sequence[int], draws_left: int) -> tuple[int, ...]:
    ranks = [card >> 2 for card in cards]
    pat_top = 8 if draws_left <= 1 else 7 if draws_left == 2 else 6  # ten, nine, eight
    if len(cards) == 5 and len(set(ranks)) == 5:
        top = max(ranks)
        if top <= pat_top and top - min(ranks) != 4 and len({card & 3 for card in cards}) > 1:
            return ()
    keep_top = 6 if draws_left >= 2 else 5  # an eight, or a seven
    kept: dict[int, int] = {}
    for rank, card in sorted(zip(ranks, cards, strict=True)):
        if rank <= keep_top and rank not in kept and len(kept) < 4:
            kept[rank] = card
    if len(kept) == 4:  # four to a straight or a flush: drop the card that makes it likely
        low = sorted(kept)
        if low[-1] - low[0] == 3 or len({card & 3 for card in kept.values()}) == 1:
            del kept[low[-1]]
    chosen = kept.values()
    return tuple(card for card in cards if card not in chosen)


def _badugi_value(card: int) -> int:
    rank = _rank(card)
    return 0 if rank == _ACE else rank + 1  # ace low


_SUBSETS: Final = {
    n: tuple(subset for size in range(n, 0, -1) for subset in combinations(range(n), size)) for n in range(1, 6)
}


def badugi_core(cards: Sequence[int]) -> tuple[int, ...]:
    """The best badugi subset: most cards with distinct ranks and suits, then the lowest."""
    values = [_badugi_value(card) for card in cards]
    rank_bits = [1 << (card >> 2) for card in cards]
    suit_bits = [1 << (card & 3) for card in cards]
    best: tuple[int, ...] = ()
    best_key: list[int] = []
    for subset in _SUBSETS[len(cards)]:
        if best and len(subset) < len(best):
            break
        ranks = suits = 0
        for i in subset:
            if ranks & rank_bits[i] or suits & suit_bits[i]:
                break
            ranks |= rank_bits[i]
            suits |= suit_bits[i]
        else:
            key = sorted((values[i] for i in subset), reverse=True)
            if not best or key < best_key:
                best, best_key = tuple(cards[i] for i in subset), key
    return best


def _discard_badugi(cards: Sequence[int], draws_left: int) -> tuple[int, ...]:
    core = list(badugi_core(cards))
    top = max(_badugi_value(c) for c in core)
    if len(core) == 4:
        if draws_left <= 1 or top <= (9 if draws_left >= 3 else 10):
            return ()
        core.remove(max(core, key=_badugi_value))
    elif len(core) == 3 and draws_left >= 2 and top >= 9:
        core.remove(max(core, key=_badugi_value))
    kept = set(core)
    return tuple(c for c in cards if c not in kept)


def snow_worthy(ranking: str, cards: Sequence[int]) -> bool:
    """A hand that wins nothing shown down but blocks the opponent's best
    draws (low cards for a deuce-to-seven snow): the hands to bluff with."""
    if ranking != "low-27":
        return False
    return sum(1 for c in cards if _rank(c) <= 5) >= 2 and not is_made_27(cards)
