"""C10 and C6 at a full ring (9 seats): the dead button and missed blinds
exactly as C10 when seats leave and join around the blinds; C12's positions
follow the plan; a UTG straddle (C6) acts last preflop."""

from __future__ import annotations

import pytest

from freezeout.cards import full_deck
from freezeout.rules import Action, ActionKind, IllegalAction
from freezeout.rules.cash import OWES_BIG, OWES_SMALL, CashConfig, CashTable, Status
from freezeout.rules.events import BlindPosted, HandStarted
from freezeout.rules.positions import positions, table_positions
from freezeout.rules.variant import variant

DECK = full_deck()
NAMES = tuple(f"p{i}" for i in range(10))


def ring(seats: int = 9, players: int = 9, chips: int = 100, **config: object) -> CashTable:
    """A full ring: p0 at seat 0, p1 at seat 1, … (the first button at seat 0)."""
    t = CashTable.open(CashConfig(seats=seats, **config))  # type: ignore[arg-type]
    for seat in range(players):
        t, _ = t.join(seat, NAMES[seat], chips, now=0.0)
    return t


def finish(t: CashTable) -> CashTable:
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        t = t.act(Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.FOLD), 0.0)[0]
    return t


def hand(t: CashTable) -> tuple[CashTable, list]:
    t, events = t.deal(DECK)
    return finish(t), events


def posted(events) -> list[tuple[int, str, int]]:
    return [(e.seat, e.kind, e.amount) for e in events if isinstance(e, BlindPosted)]


def button_of(events) -> int:
    return next(e.button for e in events if isinstance(e, HandStarted))


def named(t: CashTable) -> dict[int, str]:
    plan = t.plan()
    return dict(positions(plan.seats, plan.button, plan.small_blind, plan.big_blind, t.config.seats))


def test_c10_c12_nine_handed_the_button_and_blinds_move_one_seat_a_hand() -> None:
    t = ring()
    assert named(t) == {0: "BTN", 1: "SB", 2: "BB", 3: "UTG", 4: "UTG+1", 5: "UTG+2", 6: "LJ", 7: "HJ", 8: "CO"}
    t, events = t.deal(DECK)
    assert posted(events) == [(1, "small blind", 1), (2, "big blind", 2)]
    assert t.to_act == 3  # UTG acts first preflop
    t = finish(t)
    for expected_button in range(1, 10):
        t, events = hand(t)
        b = expected_button % 9
        assert button_of(events) == b
        assert posted(events) == [((b + 1) % 9, "small blind", 1), ((b + 2) % 9, "big blind", 2)]


def test_c10_the_big_blind_leaves_a_dead_small_blind_then_a_dead_button() -> None:
    t, _ = hand(ring())  # button 0, SB 1, BB 2
    t, _ = t.leave(2, now=0.0)  # the last big blind leaves
    assert named(t) == {1: "BTN", 3: "BB", 4: "UTG", 5: "UTG+1", 6: "UTG+2", 7: "LJ", 8: "HJ", 0: "CO"}
    t, events = t.deal(DECK)
    assert button_of(events) == 1 and posted(events) == [(3, "big blind", 2)]  # nobody posts the small blind
    assert t.to_act == 4
    t = finish(t)
    assert named(t) == {3: "SB", 4: "BB", 5: "UTG", 6: "UTG+1", 7: "UTG+2", 8: "LJ", 0: "HJ", 1: "CO"}  # no BTN
    t, events = t.deal(DECK)
    assert button_of(events) == 2  # the empty seat carries a dead button
    assert posted(events) == [(3, "small blind", 1), (4, "big blind", 2)]
    t = finish(t)
    t, events = hand(t)
    assert button_of(events) == 3 and posted(events) == [(4, "small blind", 1), (5, "big blind", 2)]


def test_c10_a_player_sitting_out_past_the_blinds_owes_them_and_posts_big_live_small_dead() -> None:
    t, _ = hand(ring())  # button 0, SB 1, BB 2; next BB is seat 3
    t, _ = t.sit_out(3)
    t, events = hand(t)  # the big blind passes p3 by: it goes to seat 4; SB is seat 2
    assert posted(events) == [(2, "small blind", 1), (4, "big blind", 2)]
    assert t.seats[3].owes == OWES_BIG | OWES_SMALL
    t, _ = t.sit_in(3, post=True)
    # next hand: button 2, SB 4, BB 5 — p3 sits between the button and the big blind: waits
    t, events = hand(t)
    assert button_of(events) == 2 and posted(events)[:2] == [(4, "small blind", 1), (5, "big blind", 2)]
    assert 3 not in t.hand_seats
    # next hand: button 4, SB 5, BB 6 — the button has passed p3: the big blind live, the small blind dead
    t, events = t.deal(DECK)
    assert button_of(events) == 4
    assert 3 in t.hand_seats
    assert (3, "big blind", 2) in posted(events) and (3, "dead", 1) in posted(events)
    t = finish(t)
    assert t.seats[3].owes == 0


def test_c10_a_player_out_when_the_small_blind_comes_owes_only_the_small_blind() -> None:
    t, _ = hand(ring())  # BB was seat 2: it is the small blind next
    t, _ = t.sit_out(2)
    t, events = hand(t)
    assert posted(events) == [(3, "big blind", 2)]  # a dead small blind
    assert t.seats[2].owes == OWES_SMALL


def test_c10_waiting_for_the_big_blind_at_nine_forgives_what_is_owed() -> None:
    t, _ = hand(ring())
    t, _ = t.sit_out(3)
    t, _ = hand(t)
    t, _ = t.sit_in(3)  # waits for the big blind
    assert t.seats[3].status is Status.WAITING
    for _ in range(9):
        t, events = t.deal(DECK)
        if 3 in t.hand_seats:
            break
        t = finish(t)
    assert (3, "big blind", 2) in posted(events) and not any(kind == "dead" for _, kind, _ in posted(events))


def test_c4_c10_a_new_player_posts_to_come_in_behind_the_big_blind() -> None:
    t = ring()
    t, _ = hand(t)
    t, _ = hand(t)  # next: button 2, SB 3, BB 4
    t, _ = t.leave(7, now=0.0)
    t, _ = t.join(7, "new", 100, now=0.0, post=True)  # seat 7: past the button, before the big blind's turn
    assert t.seats[7].owes == OWES_BIG
    t, events = t.deal(DECK)
    assert 7 in t.hand_seats and (7, "big blind", 2) in posted(events)
    assert not any(kind == "dead" for _, kind, _ in posted(events))
    assert posted(events)[:2] == [(3, "small blind", 1), (4, "big blind", 2)]


def test_c10_a_new_player_in_the_small_blinds_seat_is_not_dealt_in_as_the_small_blind() -> None:
    t = ring()
    for _ in range(3):
        t, _ = hand(t)  # next: button 3, SB 4, BB 5
    t, _ = t.leave(4, now=0.0)  # the last big blind leaves; a new player sits down in that seat
    t, _ = t.join(4, "new", 100, now=0.0, post=True)
    t, events = t.deal(DECK)
    # between the button and the big blind: the newcomer waits, the small blind is dead, and they owe no dead blind
    assert 4 not in t.hand_seats and posted(events) == [(5, "big blind", 2)]
    t = finish(t)
    assert t.seats[4].owes == OWES_BIG
    t, events = t.deal(DECK)  # button 4's seat (dead: the newcomer's own), SB 5, BB 6: still before the button passes
    t = finish(t)
    for _ in range(8):
        if 4 in t.hand_seats:
            break
        t, events = hand(t)
    assert 4 in t.hand_seats
    assert not any(seat == 4 and kind == "dead" for seat, kind, _ in posted(events))


def test_c10_seats_leaving_around_the_blinds_keep_one_big_blind_a_hand() -> None:
    t, _ = hand(ring())  # button 0, SB 1, BB 2
    t, _ = t.leave(2, now=0.0)  # the big blind leaves
    t, _ = t.leave(3, now=0.0)  # so does the next big blind
    t, events = t.deal(DECK)
    assert posted(events) == [(4, "big blind", 2)]  # the big blind moves on to the next player who can take it
    t = finish(t)
    t, events = t.deal(DECK)
    assert posted(events) == [(4, "small blind", 1), (5, "big blind", 2)]


def test_c6_utg_straddle_at_a_full_ring_acts_last_preflop() -> None:
    t = ring()
    assert t.may_straddle(3) and not t.may_straddle(4)
    with pytest.raises(IllegalAction, match="under the gun"):
        t.straddle(4)
    t, _ = t.straddle(3)
    t, events = t.deal(DECK)
    assert posted(events) == [(1, "small blind", 1), (2, "big blind", 2), (3, "straddle", 4)]
    assert t.to_act == 4  # UTG+1 opens
    for seat in (4, 5, 6, 7, 8, 0, 1, 2):
        t = t.act(Action(seat, ActionKind.CALL), 0.0)[0]
    assert t.to_act == 3 and t.legal_actions().can_check  # the straddler's option, last


def test_c6_utg_straddle_at_ten_seats() -> None:
    t = ring(seats=10, players=10)
    t, _ = hand(t)  # next: button 1, SB 2, BB 3, UTG 4
    t, _ = t.straddle(4)
    t, events = t.deal(DECK)
    assert (4, "straddle", 4) in posted(events) and t.to_act == 5


def test_c12_c10_a_cash_tables_positions_follow_its_dead_button() -> None:
    t = ring()
    assert table_positions(t) == {}  # no hand yet
    t, _ = t.deal(DECK)
    assert table_positions(t) == named(ring()) == {
        0: "BTN", 1: "SB", 2: "BB", 3: "UTG", 4: "UTG+1", 5: "UTG+2", 6: "LJ", 7: "HJ", 8: "CO"}
    t = finish(t)
    t, _ = t.leave(2, now=0.0)
    t = finish(t.deal(DECK)[0])  # button 1, dead small blind, BB 3
    t, _ = t.deal(DECK)  # the dead button at the empty seat 2: SB 3, BB 4
    assert table_positions(t) == {3: "SB", 4: "BB", 5: "UTG", 6: "UTG+1", 7: "UTG+2", 8: "LJ", 0: "HJ", 1: "CO"}


def test_c12_v7_a_stud_cash_table_has_no_positions() -> None:
    t = ring(seats=8, players=8, chips=1000, game=variant("F7S"), blinds=(10, 20))
    t, _ = t.deal(DECK)
    assert table_positions(t) == {}
