"""V7 with eight players: when the deck cannot give every player still in a
seventh card, one shared card is turned up in the middle, and every view —
each player's and a spectator's — shows it on the board."""

from __future__ import annotations

from freezeout.cards import full_deck
from freezeout.rules import Action, ActionKind
from freezeout.rules.events import StreetDealt
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import VARIANTS
from freezeout.rules.views import seat_view, view_dicts

NAMES = tuple(f"p{i}" for i in range(8))


def passive(t: Tournament) -> tuple[Tournament, list]:
    """Everyone brings in, calls or checks: all eight see seventh street."""
    seen: list = []
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        kind = ActionKind.BRINGIN if legal.bring_in else ActionKind.CHECK if legal.can_check else ActionKind.CALL
        t, events = t.act(Action(legal.seat, kind))
        seen.extend(events)
    return t, seen


def test_v7_eight_players_share_one_seventh_street_card_and_every_view_shows_it() -> None:
    for code in ("F7S", "F7S/8", "FR"):
        deck = full_deck()
        t = Tournament.start(TournamentConfig(players=NAMES, variant=VARIANTS[code]))
        t, _ = t.deal_deck(deck)
        t, events = passive(t)
        seventh = [e for e in events if isinstance(e, StreetDealt) and e.street == "seventh street"]
        assert seventh == [StreetDealt("seventh street", (deck[48],))], code  # 48 cards out, 4 left for 8 players
        assert t.hand is not None and all(len(cards) == 6 for cards in t.hand.cards)
        for viewer in (None, *range(8)):
            view = seat_view(t, viewer)
            assert view.board == (deck[48],) and view.board_size == 0
            assert view.to_dict()["board"] == str(deck[48])
        every = view_dicts(t, [None, *range(8)])
        assert {view["board"] for view in every.values()} == {str(deck[48])}


def test_v7_the_shared_card_is_on_the_board_while_seventh_street_is_bet() -> None:
    deck = full_deck()
    t = Tournament.start(TournamentConfig(players=NAMES, variant=VARIANTS["F7S"]))
    t, _ = t.deal_deck(deck)
    while t.hand is not None and not t.hand.board:
        legal = t.legal_actions()
        assert legal is not None
        kind = ActionKind.BRINGIN if legal.bring_in else ActionKind.CHECK if legal.can_check else ActionKind.CALL
        t, _ = t.act(Action(legal.seat, kind))
    assert t.in_hand  # the last betting round is on, the shared card already up for all
    assert {seat_view(t, viewer).to_dict()["board"] for viewer in (None, 0, 7)} == {str(deck[48])}
