"""How cards leave the deck, for every game (R2, R8, V5, V7, V11, V13).

The hand engine never shuffles: a hand's cards come in with its
:class:`HandSetup`, in one of two forms.

* **A deck** (``setup.deck``): the cards in the exact order the engine takes
  them, as a server deals from a shuffled deck.  The order is the same for
  every game: each street deals first to the players still in the hand,
  seat by seat from hand seat 0 (the first seat left of the button in button
  games; seat 1 in stud), each player receiving all of that street's cards
  at once, then turns the street's board cards; at a draw each player, in
  turn, takes as many cards as they discarded the moment they discard; no
  card is burned.  So a flop game's deck reads "seat 0's hole cards, seat
  1's, …, then the board".  When a draw runs out of cards, the cards the
  other players have discarded are reshuffled (V13, never the drawing
  player's own) in the order ``setup.reshuffle`` gives, so a replay is exact.
* **Each player's cards** (``setup.hole``: every card a seat receives, in
  the order it receives them — hole cards, stud's later cards, the cards it
  draws) and **the board** (``setup.board``, with stud's shared card): what
  a record or a hand history says.  ``None`` stands for a card nobody knows.

In stud, if the deck cannot give every player still in a seventh card, one
card is turned face up in the middle for everyone instead (V7).
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.cards import Card
from freezeout.rules.errors import InvalidInput
from freezeout.rules.state import HandSetup, HandState
from freezeout.rules.variant import Variant

__all__ = ["cards_in_play", "check_deck", "draw_cards", "shared_card_needed", "take_board", "take_hole"]


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


def _received(state: HandState, seat: int) -> int:
    """Cards ``seat`` has been dealt so far (held or thrown away)."""
    return len(state.cards[seat]) + len(state.discards[seat])


def take_hole(state: HandState, seat: int, count: int) -> tuple[tuple[Card | None, ...], HandState]:
    """The next ``count`` cards for ``seat``, and the state with the deck moved on."""
    setup = state.setup
    if setup.deck:
        start = state.dealt
        end = start + count
        if end > len(setup.deck):
            raise InvalidInput(f"the deck has {len(setup.deck)} cards; the hand needs more")
        return setup.deck[start:end], state._replace(dealt=end)
    cards = setup.hole[seat] if setup.hole else None
    if cards is None:
        return (None,) * count, state  # a hand nobody knows (hand histories)
    start = _received(state, seat)
    got = cards[start : start + count]
    if len(got) < count:
        raise InvalidInput(f"{setup.name(seat)} is given {len(cards)} cards; the hand deals them more")
    return got, state


def take_board(state: HandState, count: int) -> tuple[tuple[Card | None, ...], HandState]:
    """The next ``count`` board cards (stud: the shared card)."""
    setup = state.setup
    if setup.deck:
        return take_hole(state, -1, count)
    start = len(state.board_cards)
    got = setup.board[start : start + count]
    if len(got) < count:
        street = setup.variant.streets[state.street].name
        raise InvalidInput(f"the hand reaches the {street} but the board has only {len(setup.board)} cards")
    return got, state


def cards_used(state: HandState) -> int:
    """Cards gone from the deck so far."""
    if state.setup.deck:
        return state.dealt
    return sum(_received(state, seat) for seat in range(state.seat_count)) + len(state.board_cards)


def shared_card_needed(variant: Variant, state: HandState, players: int) -> bool:
    """V7: on the last stud street, a single shared card replaces the seventh
    cards when the deck cannot give one to every player still in."""
    return variant.deals_later_hole_cards and len(variant.deck) - cards_used(state) < players


def cards_in_play(state: HandState) -> set[Card]:
    """Cards held by a player still in the hand or on the board."""
    held: set[Card] = {card for card in state.board_cards if card is not None}
    for seat, cards in enumerate(state.cards):
        if not state.folded[seat]:
            held.update(card for card in cards if card is not None)
    return held


def draw_cards(state: HandState, seat: int, count: int) -> tuple[tuple[Card | None, ...], HandState]:
    """``count`` replacement cards for ``seat`` (V11), and the state with the deck moved on.

    From the deck while it lasts; then (V13) from the cards the other
    players have discarded and nobody holds, in the order of
    :attr:`HandSetup.reshuffle`.  A card dealt again must not be in play.
    """
    setup = state.setup
    in_play = cards_in_play(state)
    if not setup.deck:
        drawn, state = take_hole(state, seat, count)
        _check_not_in_play(drawn, in_play)
        return drawn, state
    from_deck = setup.deck[state.dealt : state.dealt + count]
    state = state._replace(dealt=state.dealt + len(from_deck))
    _check_not_in_play(from_deck, in_play)
    missing = count - len(from_deck)
    if not missing:
        return from_deck, state
    own = set(state.discards[seat])
    pool = {card for other, cards in enumerate(state.discards) if other != seat for card in cards if card is not None}
    pool -= in_play | own | {card for card in from_deck if card is not None}
    order = {card: index for index, card in enumerate(setup.reshuffle)}
    ranked = sorted((card for card in pool if card in order), key=order.__getitem__)
    if len(ranked) < missing:
        raise InvalidInput(
            f"the deck ran out: {setup.name(seat)} draws {count} but only {len(from_deck) + len(ranked)} cards are left"
            " (V13 reshuffles other players' discards in the order of 'reshuffle')"
        )
    return (*from_deck, *ranked[:missing]), state


def _check_not_in_play(cards: Sequence[Card | None], in_play: set[Card]) -> None:
    for card in cards:
        if card is not None and card in in_play:
            raise InvalidInput(f"card {card} is dealt while it is still in play")
