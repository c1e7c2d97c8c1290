"""How cards leave the deck, for every game (R2, R8, V5, V7, V11, V13).

The hand engine never shuffles: a hand's cards come in as a *deck* — the
cards in the exact order the engine takes them.  The order is the same for
every game:

* each street deals first to the players still in the hand, seat by seat
  from hand seat 0 (the first seat left of the button in button games;
  seat 1 in stud), each player receiving all of that street's cards at once,
  then turns the street's board cards;
* at a draw each player, in turn, takes as many cards as they discarded the
  moment they discard;
* no card is burned.

So a flop game's deck reads ``seat 0's hole cards, seat 1's …, then the
board`` — :func:`deck_from_cards` builds it from hole cards and a board.
In stud, if the deck cannot give every player still in a seventh card, one
card is turned face up in the middle for everyone instead (V7).  In a draw
game, when the deck runs out, the cards the other players have discarded are
reshuffled (V13, never the drawing player's own); their order comes in too,
as :attr:`HandSetup.reshuffle`, so a replay is exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.cards import Card
from freezeout.rules.errors import InvalidInput
from freezeout.rules.state import HandSetup, HandState, Hole
from freezeout.rules.variant import Variant

__all__ = ["cards_in_play", "check_deck", "deck_from_cards", "draw_cards", "shared_card_needed", "take"]


def deck_from_cards(hole: Sequence[Hole], board: Sequence[Card | None]) -> tuple[Card | None, ...]:
    """The deck of a flop game from its hole cards (per hand seat, ``None``
    when unknown) and its board in dealing order."""
    deck: list[Card | None] = []
    for cards in hole:
        deck.extend(cards if cards is not None else ())
    deck.extend(board)
    return tuple(deck)


def check_deck(setup: HandSetup, deck: Sequence[Card | None]) -> None:
    """Every card belongs to the game's deck; no card comes twice unless a
    draw game reshuffles discards (checked card by card as they are dealt)."""
    variant = setup.variant
    allowed = set(variant.deck)
    known = [card for card in deck if card is not None]
    for card in known:
        if card not in allowed:
            raise InvalidInput(f"card {card} is not in the deck of {variant.name} (V16: six to ace)")
    if len(set(known)) != len(known) and not variant.has_draws:
        seen: set[Card] = set()
        for card in known:
            if card in seen:
                raise InvalidInput(f"card {card} is dealt twice")
            seen.add(card)
    for card in setup.reshuffle:
        if card not in allowed:
            raise InvalidInput(f"reshuffle card {card} is not in the deck of {variant.name}")


def take(state: HandState, count: int) -> tuple[tuple[Card | None, ...], int]:
    """The next ``count`` cards of the deck and the new deck position."""
    deck = state.setup.deck
    start = state.dealt
    end = start + count
    if end > len(deck):
        raise InvalidInput(f"the deck has {len(deck)} cards; the hand needs more")
    return deck[start:end], end


def shared_card_needed(variant: Variant, state: HandState, players: int) -> bool:
    """V7: on the last stud street, a single shared card replaces the seventh
    cards when the deck cannot give one to every player still in."""
    return variant.deals_later_hole_cards and len(variant.deck) - state.dealt < players


def cards_in_play(state: HandState) -> set[Card]:
    """Cards held by a player still in the hand or on the board."""
    held: set[Card] = {card for card in state.board_cards if card is not None}
    for seat, cards in enumerate(state.cards):
        if not state.folded[seat]:
            held.update(card for card in cards if card is not None)
    return held


def draw_cards(state: HandState, seat: int, count: int) -> tuple[tuple[Card | None, ...], int]:
    """``count`` replacement cards for ``seat`` (V11) and the new deck position.

    From the deck while it lasts; then (V13) from the cards the other
    players have discarded and nobody holds, in the order of
    :attr:`HandSetup.reshuffle`.  A card dealt again must not be in play.
    """
    deck = state.setup.deck
    start = state.dealt
    from_deck = deck[start : start + count]
    end = start + len(from_deck)
    in_play = cards_in_play(state)
    for card in from_deck:
        if card is not None and card in in_play:
            raise InvalidInput(f"card {card} is dealt while it is still in play")
    missing = count - len(from_deck)
    if not missing:
        return from_deck, end
    own = set(state.discards[seat])
    pool = {card for other, cards in enumerate(state.discards) if other != seat for card in cards if card is not None}
    pool -= in_play | own | {card for card in from_deck if card is not None}
    order = {card: index for index, card in enumerate(state.setup.reshuffle)}
    ranked = sorted((card for card in pool if card in order), key=order.__getitem__)
    if len(ranked) < missing:
        raise InvalidInput(
            f"the deck ran out: {setup_name(state, seat)} draws {count} but only {len(from_deck) + len(ranked)} cards are left"
            " (V13 reshuffles other players' discards in the order of 'reshuffle')"
        )
    return (*from_deck, *ranked[:missing]), end


def setup_name(state: HandState, seat: int) -> str:
    return state.setup.name(seat)
