"""Omaha and hi/lo split pots, rule by rule (rules.md V5 and V6).

Three players, blinds 10/20, ana on the button: bo posts the small blind,
cy the big one, ana acts first before the flop.  Most hands are checked
down after everyone calls, for a pot of 60.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from freezeout.rules import HandState, InvalidInput
from freezeout.rules.events import Event

from varianthelpers import (
    NAMES,
    act,
    awards,
    check_down,
    final,
    held,
    play,
    play_events,
    start,
    start_events,
    to_act,
)

DECK = "AsKsQhJh QdQcTdTc 8h8d9s9c 2c7d9hJs3s"  # three Omaha hands, then the board


def omaha(code: str, hole: Sequence[str], board: str, *, stacks: Sequence[int] = (), ante: int = 0,
          blinds: Sequence[int] = ()) -> HandState:
    n = len(hole)
    return start(code, tuple(stacks) or (1000,) * n, blinds=tuple(blinds) or ((10, 20) if n == 2 else (0, 10, 20)),
                 hole=hole, board=board, ante=ante)


def called_down(state: HandState) -> HandState:
    """Everyone calls the big blind, then checks to the showdown."""
    while state.street == 0 and not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        state = act(state, legal.seat, "call" if legal.can_call else "check")
    return check_down(state)


# -- V5: Omaha ----------------------------------------------------------------
def test_v5_omaha_deals_four_hole_cards_blinds_and_order_as_in_hold_em() -> None:
    state = start("PO", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK)
    assert [held(state, seat) for seat in range(3)] == ["AsKsQhJh", "QdQcTdTc", "8h8d9s9c"]
    assert state.bets == (0, 10, 20) and to_act(state) == "ana"
    state = play(state, ("ana", "call"), ("bo", "call"), ("cy", "check"))
    assert state.board == start("PO", (1000, 1000, 1000), blinds=(0, 10, 20), hole=DECK.split()[:3],
                                board="2c7d9hJs3s").setup.board[:3]
    assert to_act(state) == "bo"  # the first seat left of the button after the flop


def test_v5_omaha_uses_exactly_two_hole_cards() -> None:
    # Four hearts on the board: ana's one heart makes no flush (she has ace-king
    # high), and bo's pair of nines wins.
    state = called_down(omaha("PO", ("QhJsTc3d", "9s9c5d6d"), "AhKh7h4h2c"))
    assert final(state) == {"ana": 980, "bo": 1020}


def test_v5_omaha_uses_exactly_three_board_cards() -> None:
    # A straight on the board does not play: ana's aces make one pair;
    # bo's T-J makes a jack-high straight with 7-8-9.
    state = called_down(omaha("NO", ("AsAhKdKc", "TcJd2h3h"), "5s6h7d8c9s"))
    assert final(state) == {"ana": 980, "bo": 1020}


def test_v5_omaha_low_uses_exactly_two_hole_cards() -> None:
    # Board A-2-3-4-K.  ana holds one low card, the 5: no low for her (in
    # hold'em she would have the wheel); bo's 7-6 makes 7-6-3-2-A.  ana's
    # kings win the high half, bo the low half.
    state = called_down(omaha("PO/8", ("5hKcQcQs", "6d7cJhJs", "8s9sTcTd"), "As2d3c4hKd"))
    assert final(state) == {"ana": 1010, "bo": 1010, "cy": 980}


def test_v5_omaha_seats_up_to_ten_players() -> None:
    deck = "".join(f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "shdc")
    assert start("PO", (1000,) * 10, blinds=(0, 10, 20) + (0,) * 7, deck=deck).seat_count == 10
    with pytest.raises(InvalidInput, match="played by 2 to 10 players, got 11"):
        start_events("PO", (1000,) * 11, blinds=(0, 10, 20) + (0,) * 8, deck=deck)


# -- V6: hi/lo 8 or better ------------------------------------------------------
BOARD = "2s3d4hKcQd"


def test_v6_each_pot_splits_half_high_half_low() -> None:
    # cy's trip kings win high; ana's 7-5-4-3-2 low beats bo's 8-4-3-2-A
    # (lows compare from the top card down).
    state = called_down(omaha("FO/8", ("7s5cTh9d", "8cAdJhJs", "KhKs6s6h"), BOARD))
    assert final(state) == {"ana": 1010, "bo": 980, "cy": 1010}


def test_v6_lows_compare_from_the_top_card_down() -> None:
    # ana 7-5-4-3-2 against bo 8-4-3-2-A: the seven is lower than the eight.
    events = called_down_events(omaha("PO/8", ("7s5cTh9d", "8cAdJhJs", "KhKs6s6h"), BOARD))
    assert [(half, winners) for _, half, _, winners in awards(events)] == [("high", {"cy": 30}), ("low", {"ana": 30})]


def test_v6_no_qualifying_low_high_scoops() -> None:
    # Only one card of eight or lower on the board: nobody can have a low, and
    # bo's A-J straight takes the whole pot.
    state = called_down(omaha("PO/8", ("7s5cTh9d", "8cAdJhJs", "KhKs6s6h"), "2sTsJdKcQd"))
    assert final(state) == {"ana": 980, "bo": 1040, "cy": 980}


def test_v6_one_player_may_scoop_straights_and_flushes_do_not_spoil_a_low() -> None:
    # ana's A-5 makes the wheel for low; her A-J of spades a flush for high.
    state = called_down(omaha("PO/8", ("AsJs5h9c", "KhKc8d7d", "9h9dTcTd"), "2s3s4sKdQh"))
    assert final(state) == {"ana": 1040, "bo": 980, "cy": 980}


def test_v6_odd_chip_between_halves_goes_high() -> None:
    # Blinds 5/10 and bo folds his small blind: a pot of 25 — 13 high, 12 low.
    state = omaha("PO/8", ("KhKs6s6h", "8cAdJhJs", "7s5cTh9d"), BOARD, blinds=(0, 5, 10))
    state = play(state, ("ana", "call"), ("bo", "fold"), ("cy", "check"))
    state = check_down(state)
    assert final(state) == {"ana": 990 + 13, "bo": 995, "cy": 990 + 12}


def test_v6_quartered_pot() -> None:
    # ana and bo both hold 7-5 for 7-5-4-3-2; ana's trip kings also win high.
    # Antes of 1: pot 63, high 32 to ana; the low 31 is split 16/15, the odd
    # chip to bo, the first of the two left of the button (R22).
    state = called_down(omaha("PO/8", ("KhKs7s5c", "7h5dJhJs", "9h9dTcTs"), BOARD, ante=1))
    assert final(state) == {"ana": 979 + 32 + 15, "bo": 979 + 16, "cy": 979}


def test_v6_each_pot_is_split_on_its_own() -> None:
    # ana is all-in for 30 with the only low.  The main pot (90) is split: the
    # high half to bo's trip kings, the low half to ana.  The side pot of bo
    # and cy (180) has no low in it, so bo's high takes all of it.
    state = omaha("PO/8", ("7s5cTh9d", "KhKs6s6h", "JhJsTc9c"), BOARD, stacks=(30, 1000, 1000))
    state = play(state, ("ana", "allin"), ("bo", "call"), ("cy", "call"), ("bo", "bet", 90), ("cy", "call"))
    state = check_down(state)
    assert final(state) == {"ana": 45, "bo": 1000 - 120 + 45 + 180, "cy": 880}


def called_down_events(state: HandState) -> list[Event]:
    """As :func:`called_down`, returning the events."""
    events: list[Event] = []
    while not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        state, more = play_events(state, (NAMES[legal.seat], "call" if legal.can_call else "check"))
        events.extend(more)
    return events
