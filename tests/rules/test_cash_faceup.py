"""V20 at a cash table that mucks losing hands (V17): a hand turned face up
for an all-in run-out stays public — it is in the table's public log, the
showdown does not muck it, and every view shows it."""

from __future__ import annotations

from freezeout.cards import parse_cards
from freezeout.rules import Action, ActionKind
from freezeout.rules.cash import CashConfig, CashTable
from freezeout.rules.events import CardsShown, HandTurnedUp


def deck_for(*holes: str, board: str) -> list:
    """A hold'em deck: hole cards dealt one at a time round the table from seat 0 (R8), then the board."""
    from freezeout.cards import full_deck
    from freezeout.rules.dealing import flop_deal_positions
    from freezeout.rules.variant import variant

    n = len(holes)
    hole_positions, board_positions = flop_deal_positions(variant("NT"), n)
    wanted = {}
    for seat, positions in enumerate(hole_positions):
        for position, card in zip(positions, parse_cards(holes[seat]), strict=True):
            wanted[position] = card
    for position, card in zip(board_positions, parse_cards(board), strict=True):
        wanted[position] = card
    rest = [card for card in full_deck() if card not in wanted.values()]
    return [wanted[i] if i in wanted else rest.pop(0) for i in range(52)]


def test_v20_v17_a_turned_up_loser_is_not_mucked_at_a_cash_table() -> None:
    t = CashTable.open(CashConfig(seats=6))
    for seat, name in enumerate(("ana", "bo", "cy")):
        t, _ = t.join(seat, name, 100, now=0.0)
    # button 0, SB 1 (bo), BB 2 (cy); ana acts first
    t, _ = t.deal(deck_for("KsKh", "AsAh", "7c2d", board="3c8d9hJsQc"))
    t, _ = t.act(Action(0, ActionKind.ALLIN), 0.0)
    t, _ = t.act(Action(1, ActionKind.CALL), 0.0)
    t, _ = t.act(Action(2, ActionKind.FOLD), 0.0)
    assert t.hand is not None and t.hand.finished
    turned = {e.seat: e.cards for e in t.hand_log if isinstance(e, HandTurnedUp)}
    assert turned == {0: parse_cards("KsKh"), 1: parse_cards("AsAh")}
    # bo shows first and wins; ana's losing hand would be mucked (V17), but it was up (V20)
    assert {e.seat for e in t.hand_log if isinstance(e, CardsShown)} == {0, 1}
    assert t.mucked == () and t.shown_down(0)


def test_v20_a_spectator_of_a_cash_table_sees_the_turned_up_hands() -> None:
    from freezeout.bots.cashview import cash_table_view

    t = CashTable.open(CashConfig(seats=6))
    for seat, name in enumerate(("ana", "bo", "cy")):
        t, _ = t.join(seat, name, 100, now=0.0)
    t, _ = t.deal(deck_for("KsKh", "AsAh", "7c2d", board="3c8d9hJsQc"))
    t, _ = t.act(Action(0, ActionKind.ALLIN), 0.0)
    t, _ = t.act(Action(1, ActionKind.CALL), 0.0)
    t, _ = t.act(Action(2, ActionKind.FOLD), 0.0)
    seats = cash_table_view(t, None).seats
    assert seats[0].cards == parse_cards("KsKh") and seats[1].cards == parse_cards("AsAh")
    assert seats[2].cards is None  # cy folded: never shown
