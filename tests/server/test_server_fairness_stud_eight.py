"""V7 and fair dealing (issue #34 "Stud with eight"): the card turned up in the middle for all
eight players on seventh street is a public card of the hand.  The fairness reveal opens its
deck position to everyone — a spectator included — and names it as the board's, never as a
seat's; each seat's own positions stay its own."""

from __future__ import annotations

import random

from freezeout.cards import format_cards
from freezeout.rules import Action, ActionKind
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import VARIANTS
from freezeout.server.fairness import UNKNOWN, Reveal, hand_cards_of, new_deal

NAMES = tuple(f"p{i}" for i in range(8))


def at(deck: str, position: int) -> str:
    """The card a reveal's deck text shows at ``position`` (two characters a card, ?? when closed)."""
    return deck[2 * position:2 * position + 2]


def _eight_see_seventh_street(code: str, seed: int) -> tuple[Tournament, Reveal]:
    """Eight players bring in, call or check to the end from a committed deck: V7's shared card is out."""
    deal = new_deal(1, random.Random(seed), VARIANTS[code])
    t = Tournament.start(TournamentConfig(players=NAMES, variant=VARIANTS[code]))
    t, _ = t.deal_deck(list(deal.deck))
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        kind = ActionKind.BRINGIN if legal.bring_in else ActionKind.CHECK if legal.can_check else ActionKind.CALL
        t, _ = t.act(Action(legal.seat, kind))
    assert t.hand is not None
    return t, Reveal.after_hand(deal, hand_cards_of(t.hand, range(8)))


def test_v7_the_fairness_reveal_opens_the_shared_card_to_everyone_as_the_boards() -> None:
    for code, seed in (("F7S", 3), ("F7S/8", 4), ("FR", 5)):
        t, reveal = _eight_see_seventh_street(code, seed)
        assert t.hand is not None and len(t.hand.board) == 1, code  # V7: one card, turned up for all
        shared = t.hand.board[0]
        assert shared is not None
        position = reveal.deal.deck.index(shared)
        spectator = reveal.to_json(None)
        assert spectator["where"]["board"] == [position], code
        assert at(spectator["deck"], position) == format_cards((shared,)) and spectator["salts"][position], code
        assert all(position not in own for own in reveal.own.values()), code  # nobody's own card
        for seat in (0, 7):
            assert at(reveal.to_json(seat)["deck"], position) == at(spectator["deck"], position), (code, seat)


def test_v7_a_seat_s_down_cards_stay_its_own_when_the_shared_card_is_opened() -> None:
    _, reveal = _eight_see_seventh_street("F7S", 6)
    spectator = reveal.to_json(None)
    unseen = [p for p in range(len(reveal.deal.deck)) if p not in reveal.public]
    assert unseen, "the cards never dealt stay closed"
    assert all(at(spectator["deck"], p) == UNKNOWN for p in unseen)
    mine = reveal.to_json(3)
    assert all(at(mine["deck"], p) != UNKNOWN for p in reveal.own[3])
