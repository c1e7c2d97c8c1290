"""Who opens a betting round, and in what order hands are shown (R9, V7,
V10, V17): the one hook that differs between button games and stud.

Button games (R9): preflop the seat left of the largest blind, later the
first seat left of the button.  Stud (V7): the lowest up-card brings in on
third street — deuce lowest, ace highest, ties by suit clubs, diamonds,
hearts, spades — and from fourth street the best showing hand opens.  Razz
(V10) turns both round: the highest up-card brings in (king highest, ace
lowest, spades highest on a tie) and the lowest showing hand opens.  Ties
between showing hands go to the first such seat from seat 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.cards import Card
from freezeout.rules.errors import InvalidInput
from freezeout.rules.state import HandState
from freezeout.rules.variant import Opening

__all__ = ["SUIT_STRENGTH", "bring_in_seat", "card_strength", "round_opener", "showdown_order"]

#: V7: suits from the lowest, clubs, to the highest, spades (cards index suits s, h, d, c).
SUIT_STRENGTH = (3, 2, 1, 0)


def card_strength(card: Card, *, ace_low: bool = False) -> tuple[int, int]:
    """A card's (rank, suit) order for bring-ins and odd chips (V7, V9, V10)."""
    rank = card.rank
    if ace_low:
        rank = -1 if rank == 12 else rank
    return rank, SUIT_STRENGTH[card.suit]


def _showing(state: HandState) -> dict[int, list[Card]]:
    """The up-cards of each player still in whose up-cards are all known.

    Up-cards are public, so in play they are always known; a hand history
    may leave a folded player's cards out (``??``), and such a seat simply
    takes no part in deciding who opens."""
    showing: dict[int, list[Card]] = {}
    for seat in range(state.seat_count):
        if state.folded[seat]:
            continue
        cards = [card for card, up in zip(state.cards[seat], state.up[seat], strict=True) if up]
        if cards and all(card is not None for card in cards):
            showing[seat] = cards  # type: ignore[assignment]
    if not showing:
        raise InvalidInput("every up-card is unknown: who opens cannot be decided")
    return showing


def bring_in_seat(state: HandState) -> int:
    """V7/V10: the seat whose up-card brings in (lowest; razz: highest)."""
    showing = _showing(state)
    if state.setup.variant.opening is Opening.LOW_CARD:
        return min(showing, key=lambda seat: min(card_strength(card) for card in showing[seat]))
    return max(showing, key=lambda seat: max(card_strength(card, ace_low=True) for card in showing[seat]))


def _showing_key(cards: Sequence[Card], *, low: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A showing hand of 1-4 up-cards as a comparable key (no straights or
    flushes with fewer than five cards).  High: bigger groups, then higher
    ranks win.  Ace-to-five low: the key is negated so that bigger is still
    better — no pair beats a pair, then the lower cards win, ace lowest."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = -1 if low and card.rank == 12 else card.rank
        counts[rank] = counts.get(rank, 0) + 1
    ordered = sorted(counts.items(), key=_group_then_rank, reverse=True)
    if low:
        return tuple(-count for _, count in ordered), tuple(-rank for rank, _ in ordered)
    return tuple(count for _, count in ordered), tuple(rank for rank, _ in ordered)


def _group_then_rank(item: tuple[int, int]) -> tuple[int, int]:
    return item[1], item[0]


def round_opener(state: HandState) -> int:
    """The seat the betting of a later stud street starts from (V7, V10);
    a tie goes to the first such seat from seat 1."""
    low = state.setup.variant.later_opening is Opening.LOW_HAND
    best_seat, best_key = -1, None
    for seat, cards in _showing(state).items():  # in seat order
        key = _showing_key(cards, low=low)
        if best_key is None or key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def showdown_order(state: HandState, seats: Sequence[int]) -> list[int]:
    """V17: the last aggressor of the last round shows first, else the first
    seat left of the button (stud: from the seat that opened the last round);
    then clockwise."""
    n = state.seat_count
    if state.aggressor >= 0:
        first = state.aggressor
    elif state.setup.variant.uses_button:
        first = (state.setup.button + 1) % n
    else:
        first = max(state.opener, 0)
    return sorted(seats, key=lambda seat: (seat - first) % n)
