"""How cards leave the deck, for every game (R2, R8, V5, V7, V11, V13).

The hand engine never shuffles: a hand's cards come in with its
:class:`HandSetup`, in one of two forms.

* **A deck** (``setup.deck``): the cards in the exact order the engine takes
  them, as a server deals from a shuffled deck.  The order is the same for
  every game: each street deals first to the players still in the hand,
  seat by seat from hand seat 0 (the lowest seat of the table still in),
  each player receiving all of that street's cards at once, then turns the street's board cards; at a draw each player, in
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

__all__ = [
    "cards_in_play", "check_deck", "deal_board_cards", "deal_hole_cards", "draw_cards", "first_cards", "flop_deal_positions",
    "shared_card_needed",
]


def check_deck(variant: Variant, deck: Sequence[Card | None], reshuffle: Sequence[Card] = ()) -> None:
    """Every card belongs to the game's deck; no card comes twice unless a
    draw game reshuffles discards (checked card by card as they are dealt)."""
    known = [card for card in deck if card is not None]
    if variant.short_deck:
        for card in (*known, *reshuffle):
            if card.rank < 4:
                raise InvalidInput(f"card {card} is not in the deck of {variant.name} (V16: six to ace)")
    if len(set(known)) != len(known) and not variant.has_draws:
        seen: set[Card] = set()
        for card in known:
            if card in seen:
                raise InvalidInput(f"card {card} is dealt twice")
            seen.add(card)
    if len(set(reshuffle)) != len(reshuffle):
        twice = next(card for card in reshuffle if reshuffle.count(card) > 1)
        raise InvalidInput(f"card {twice} comes twice in the reshuffle (V13 shuffles each discard once)")


def _received(state: HandState, seat: int) -> int:
    """Cards ``seat`` has been dealt so far (held or thrown away)."""
    return len(state.cards[seat]) + len(state.discards[seat])


def flop_deal_positions(variant: Variant, players: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Where a flop game's cards come from in its deck: each player's hole
    cards (hand seats in order, seat by seat) and the board in dealing order.

    The same order :func:`first_cards` and :func:`deal_board_cards` take
    them in, stated up front so that a commitment to each deck position can
    say before the deal which position becomes whose card.  Games that deal
    during the hand (stud, draws) have no fixed map: it follows the play."""
    if variant.deals_later_hole_cards or variant.has_draws:
        raise InvalidInput(f"{variant.name} deals cards during the hand: where they go follows the play")
    count = variant.hole_cards
    hole = tuple(tuple(range(seat * count, (seat + 1) * count)) for seat in range(players))
    start = players * count
    return hole, tuple(range(start, start + variant.board_size))


def first_cards(setup: HandSetup, count: int) -> tuple[list[tuple[Card | None, ...]], int]:
    """Every seat's cards of the first street, and the deck position after them."""
    n = len(setup.stacks)
    if setup.deck:
        deck = setup.deck
        if count * n > len(deck):
            raise InvalidInput(f"the deck has {len(deck)} cards; the hand needs more")
        return [deck[i * count : (i + 1) * count] for i in range(n)], count * n
    hole = setup.hole or (None,) * n
    return [cards[:count] if cards is not None else (None,) * count for cards in hole], 0


def deal_hole_cards(
    state: HandState, seats: Sequence[int], count: int, position: int
) -> tuple[list[tuple[Card | None, ...]], int]:
    """``count`` cards for each of ``seats`` (one street), and the new deck position."""
    setup = state.setup
    if setup.deck:
        deck = setup.deck
        end = position + count * len(seats)
        if end > len(deck):
            raise InvalidInput(f"the deck has {len(deck)} cards; the hand needs more")
        return [deck[position + i * count : position + (i + 1) * count] for i in range(len(seats))], end
    dealt: list[tuple[Card | None, ...]] = []
    for seat in seats:
        cards = setup.hole[seat] if setup.hole else None
        if cards is None:
            dealt.append((None,) * count)  # a hand nobody knows (hand histories)
            continue
        start = len(state.cards[seat]) + len(state.discards[seat])
        got = cards[start : start + count]
        if len(got) < count:
            raise InvalidInput(f"{setup.name(seat)} is given {len(cards)} cards; the hand deals them more")
        dealt.append(got)
    return dealt, position


def deal_board_cards(state: HandState, count: int, position: int, street: str) -> tuple[tuple[Card | None, ...], int]:
    """The next ``count`` board cards (stud: the shared card), and the new deck position."""
    setup = state.setup
    if setup.deck:
        end = position + count
        if end > len(setup.deck):
            raise InvalidInput(f"the deck has {len(setup.deck)} cards; the hand needs more")
        return setup.deck[position:end], end
    start = len(state.board_cards)
    got = setup.board[start : start + count]
    if len(got) < count:
        raise InvalidInput(f"the hand reaches the {street} but the board has only {len(setup.board)} cards")
    return got, position


def cards_used(state: HandState) -> int:
    """Cards gone from the deck so far."""
    if state.setup.deck:
        return state.dealt
    return sum(_received(state, seat) for seat in range(state.seat_count)) + len(state.board_cards)


def shared_card_needed(variant: Variant, state: HandState, players: int) -> bool:
    """V7: on the last stud street, a single shared card replaces the seventh
    cards when the deck cannot give one to every player still in."""
    return len(variant.deck) - cards_used(state) < players


def cards_in_play(state: HandState) -> set[Card]:
    """Cards held by a player still in the hand or on the board."""
    held: set[Card] = {card for card in state.board_cards if card is not None}
    for seat, cards in enumerate(state.cards):
        if not state.folded[seat]:
            held.update(card for card in cards if card is not None)
    return held


def draw_cards(state: HandState, seat: int, count: int) -> tuple[tuple[Card | None, ...], int]:
    """``count`` replacement cards for ``seat`` (V11), and the deck position after them.

    From the deck while it lasts; then (V13) from the cards the other
    players have discarded and nobody holds, in the order of
    :attr:`HandSetup.reshuffle`.  A card dealt again must not be in play.
    """
    setup = state.setup
    if not setup.deck:
        got, _ = deal_hole_cards(state, (seat,), count, state.dealt)
        _check_not_in_play(got[0], cards_in_play(state))
        return got[0], state.dealt
    deck, dealt = setup.deck, state.dealt
    from_deck = deck[dealt : dealt + count]
    # A card the deck has not dealt before cannot be in play; only a deck that
    # names a card twice (a hand history's reshuffle) needs the full check.
    in_play = set() if not from_deck or set(deck[:dealt]).isdisjoint(from_deck) else cards_in_play(state)
    _check_not_in_play(from_deck, in_play)
    missing = count - len(from_deck)
    if not missing:
        return from_deck, dealt + len(from_deck)
    if not in_play:
        in_play = cards_in_play(state)
    own = set(state.discards[seat])
    pool = {card for other, cards in enumerate(state.discards) if other != seat for card in cards if card is not None}
    pool -= in_play | own | {card for card in from_deck if card is not None}
    ranked = [card for card in setup.reshuffle if card in pool]  # in the reshuffle's order
    if len(ranked) < missing:
        raise InvalidInput(
            f"the deck ran out: {setup.name(seat)} draws {count} but only {len(from_deck) + len(ranked)} cards are left"
            " (V13 reshuffles other players' discards in the order of 'reshuffle')"
        )
    return (*from_deck, *ranked[:missing]), dealt + len(from_deck)


def _check_not_in_play(cards: Sequence[Card | None], in_play: set[Card]) -> None:
    for card in cards:
        if card is not None and card in in_play:
            raise InvalidInput(f"card {card} is dealt while it is still in play")
