"""The freezeout around the hands (rules.md R1–R6, R23–R28, D8–D11)."""

from __future__ import annotations

import pytest

from freezeout.rules import IllegalAction, blinds_for_hand, rematch_players
from freezeout.rules.events import Eliminated, Resigned, TournamentEnded

from rulehelpers import chips_on_table, deal, do, do_events, play, stacks, table, to_act


def fold_hand(t):
    """Everyone folds to the big blind."""
    while t.in_hand:
        t = do(t, to_act(t), "fold")
    return t


def test_r1_everyone_starts_with_1000_and_the_winner_holds_every_chip():
    t = deal(table("ana", "bo", "cy"), {"ana": "AsAd"}, board="AcAh2c7d9s")
    assert stacks(t) == {"ana": 1000, "bo": 990, "cy": 980}
    t = play(t, ("ana", "allin"), ("bo", "call"), ("cy", "call"))
    assert t.finished and stacks(t) == {"ana": 3000, "bo": 0, "cy": 0}
    assert t.places == (1, 2, 2)  # D10: equal starting stacks share the better place


def test_r3_rematch_moves_everyone_one_seat_on():
    assert rematch_players(("ana", "bo", "cy")) == ("cy", "ana", "bo")


@pytest.mark.parametrize(
    ("number", "blinds"),
    [(1, (10, 20)), (6, (10, 20)), (7, (20, 40)), (13, (40, 80)), (19, (75, 150)), (25, (150, 300)),
     (31, (300, 600)), (37, (500, 1000)), (200, (500, 1000))],
)
def test_r6_blinds_rise_every_six_hands(number, blinds):
    assert blinds_for_hand(number) == blinds


def test_r6_d11_every_dealt_hand_counts_towards_the_level():
    t = table("ana", "bo")
    for _ in range(6):
        t = fold_hand(deal(t))
    t = deal(t)
    assert t.hand_number == 7 and sorted(t.hand.bets) == [20, 40]


def test_r4_button_moves_clockwise_to_the_next_player_still_in():
    t = table("ana", "bo", "cy", button=0)
    t = fold_hand(deal(t))
    t = deal(t)
    assert t.button == 1


def test_r4_d11_no_dead_button_eliminated_players_are_skipped():
    # Hand 1: bo (small blind) busts; the button moves from ana straight to cy.
    t = deal(table("ana", "bo", "cy", button=0), {"cy": "AsAd", "bo": "7c2d"}, board="AcAh3c8d9s")
    t = play(t, ("ana", "fold"), ("bo", "allin"), ("cy", "call"))
    assert not t.alive[1] and t.places[1] == 3
    t = deal(t)
    assert t.button == 2
    assert sorted(t.hand.bets) == [10, 20]  # heads-up now: the button posts the small blind
    assert t.hand.bets[t.seats.index(2)] == 10


def test_r23_d10_busted_together_more_starting_chips_places_higher():
    t = table("ana", "bo", "cy", button=0)
    t = fold_hand(deal(t))  # cy wins 10: ana 1000, bo 990, cy 1010
    assert stacks(t) == {"ana": 1000, "bo": 990, "cy": 1010}
    t = deal(t, {"cy": "AsAd", "ana": "7c2d", "bo": "8c3d"}, board="AcAh4c9dJs")
    t = play(t, ("bo", "allin"), ("cy", "allin"), ("ana", "call"))
    assert t.finished and t.winner == 2
    assert t.places == (2, 3, 1)


def test_r24_no_moves_after_the_tournament_ends():
    t = deal(table("ana", "bo"), {"ana": "AsAd"}, board="AcAh2c7d9s")
    t = play(t, ("ana", "allin"), ("bo", "call"))
    assert t.finished
    with pytest.raises(IllegalAction, match="the tournament is over"):
        do(t, "bo", "resign")
    with pytest.raises(IllegalAction, match="the tournament is over"):
        deal(t)


# -- R26, R27, D9: forfeits ------------------------------------------------------
def test_r26_forfeit_is_a_check_with_nothing_to_call_else_a_fold():
    t, events = do_events(deal(table("ana", "bo")), "ana", "timeout")
    assert events[1].kind == "fold" and events[1].forced
    t = do(deal(table("ana", "bo")), "ana", "call")
    t, events = do_events(t, "bo", "timeout")
    assert events[1].kind == "check" and events[1].forced and t.in_hand


def test_r27_two_forfeits_in_a_row_eliminate():
    t = do(deal(table("ana", "bo", "cy")), "ana", "timeout")  # first forfeit: a fold
    t = fold_hand(t)
    t = deal(t)  # button bo, small blind cy, big blind ana
    t = do(t, "bo", "fold")
    t = do(t, "cy", "call")
    t, events = do_events(t, "ana", "timeout")
    assert not t.alive[0] and t.places[0] == 3
    assert any(isinstance(e, Eliminated) and e.seat == 0 for e in events)
    assert stacks(t)["ana"] == 0


def test_d9_own_move_resets_the_forfeit_count():
    t = do(deal(table("ana", "bo")), "ana", "timeout")
    assert t.forfeits[0] == 1
    t = deal(t)
    t = do(t, "bo", "call")
    t = do(t, "ana", "check")
    assert t.forfeits[0] == 0
    t = do(t, "ana", "timeout")
    assert t.alive[0] and t.forfeits[0] == 1


def test_d9_timeout_only_for_the_player_to_act():
    t = deal(table("ana", "bo"))
    with pytest.raises(IllegalAction, match="it is ana's turn"):
        do(t, "bo", "timeout")


# -- R28, D8: resignation ------------------------------------------------------
def test_r28_resign_out_of_turn_chips_behind_vanish_and_bets_stay():
    t = deal(table("ana", "bo", "cy"))
    t = do(t, "ana", "raise", 100)
    t, events = do_events(t, "bo", "resign")  # bo has 10 in, 990 behind
    assert Resigned(1, 990) in events and t.places[1] == 3
    assert chips_on_table(t) == 3000 - 990
    assert to_act(t) == "cy"
    t = do(t, "cy", "fold")
    assert stacks(t) == {"ana": 1030, "bo": 0, "cy": 980}


def test_d8_resigner_bet_must_still_be_matched():
    t = deal(table("ana", "bo", "cy"))
    t = do(t, "ana", "raise", 100)
    t = do(t, "ana", "resign")
    legal = t.legal_actions()
    assert legal is not None and to_act(t) == "bo" and legal.call_amount == 90


def test_d8_resignation_leaving_one_player_gives_him_everything_on_the_table():
    t = deal(table("ana", "bo"))
    t = do(t, "ana", "raise", 100)
    t, events = do_events(t, "bo", "resign")
    assert t.finished and t.winner == 0 and t.places == (1, 2)
    assert stacks(t) == {"ana": 1020, "bo": 0}
    assert isinstance(events[-1], TournamentEnded)


def test_d8_resignation_leaving_one_player_in_the_hand_is_r16():
    t = deal(table("ana", "bo", "cy"))
    t = play(t, ("ana", "raise", 100), ("bo", "fold"), ("cy", "resign"))
    assert not t.in_hand and stacks(t) == {"ana": 1030, "bo": 990, "cy": 0}
    assert t.places == (None, None, 3)


def test_r28_resign_between_hands():
    t = fold_hand(deal(table("ana", "bo", "cy")))
    t = do(t, "bo", "resign")
    assert t.places[1] == 3 and stacks(t)["bo"] == 0
    t = deal(t)
    assert t.seats == (0, 2)


def test_d10_mid_hand_resignation_places_below_players_who_bust_in_that_hand():
    t = deal(table("ana", "bo", "cy", "dee"), {"ana": "AsAd", "bo": "7c2d"}, board="AcAh4c9dJs")
    # dee is first to act (left of cy, the big blind)
    t = play(t, ("dee", "resign"), ("ana", "allin"), ("bo", "allin"), ("cy", "fold"))
    assert t.places == (None, 3, None, 4)


def test_d10_busts_at_the_end_of_a_hand_come_before_its_between_hands_resignations():
    t = deal(table("ana", "bo", "cy", "dee"), {"ana": "AsAd", "cy": "7c2d"}, board="AcAh4c9dJs")
    # dee first, then ana (button), bo (small blind), cy (big blind)
    t = play(t, ("dee", "fold"), ("ana", "allin"), ("bo", "fold"), ("cy", "call"))
    assert t.places[2] == 4  # cy busted in the hand
    t = do(t, "bo", "resign")  # after the hand's last action: between hands
    assert t.places[1] == 3


def test_r17_house_every_hand_still_in_is_shown_at_showdown():
    t = deal(table("ana", "bo", "cy"), {"ana": "AsAd", "bo": "KsKd", "cy": "QsQd"}, board="2c7d9hJs3h")
    t, _ = do_events(t, "ana", "call")
    t, _ = do_events(t, "bo", "call")
    t, events = do_events(t, "cy", "check")
    for _ in range(3):
        for player in ("bo", "cy", "ana"):
            t, more = do_events(t, player, "check")
            events += more
    shown = [e for e in events if type(e).__name__ == "CardsShown"]
    assert sorted(e.seat for e in shown) == [0, 1, 2]
    assert shown[0].description.startswith("One pair")
