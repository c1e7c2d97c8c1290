"""C12 in the bots' (and terminal's) cash view: each SeatView carries its position in the
current (or last) hand; none before the first hand, none in stud (V7)."""

from __future__ import annotations

from freezeout.bots.cashview import cash_table_view
from freezeout.cards import full_deck
from freezeout.rules.cash import CashConfig, CashTable
from freezeout.rules.variant import variant


def seated(size: int, game: str = "NT") -> CashTable:
    t = CashTable.open(CashConfig(game=variant(game), seats=size, blinds=(1, 2)))
    for seat in range(size):
        t, _ = t.join(seat, f"p{seat}", 200, now=0.0)
    return t


def test_c12_a_six_max_cash_views_seats_carry_their_positions() -> None:
    t = seated(6)
    assert all(seat.position == "" for seat in cash_table_view(t, 0).seats)
    t, _ = t.deal(list(full_deck()))
    seats = cash_table_view(t, None).seats
    assert [seats[(t.button + k) % 6].position for k in range(6)] == ["BTN", "SB", "BB", "UTG", "HJ", "CO"]


def test_c12_a_nine_max_cash_view_names_utg_to_co() -> None:
    t, _ = seated(9).deal(list(full_deck()))
    seats = cash_table_view(t, 3).seats
    assert [seats[(t.button + k) % 9].position for k in range(9)] == [
        "BTN", "SB", "BB", "UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"]


def test_c12_v7_stud_cash_seats_have_no_position() -> None:
    t, _ = seated(6, "F7S").deal(list(full_deck()))
    assert all(seat.position == "" for seat in cash_table_view(t, 0).seats)
