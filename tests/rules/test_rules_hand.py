"""One hand, rule by rule (rules.md R5, R7–R22, D1–D7)."""

from __future__ import annotations

import pytest

from freezeout.cards import parse_cards
from freezeout.rules import Action, ActionKind, HandSetup, IllegalAction, Ruleset, start_hand
from freezeout.rules import apply as apply_action
from freezeout.rules.events import BetReturned, PotAwarded, StreetDealt
from freezeout.rules.pots import build_pots, split_pot

from rulehelpers import bets, deal, deal_events, do, do_events, play, stacks, table, to_act


def hand(stacks: tuple[int, ...], blinds: tuple[int, ...], *, button: int = 0, ruleset: str = "house",
         board: str = "2c7d9hJs3s", hole: tuple[str, ...] = (), antes: tuple[int, ...] = ()):
    holes = hole or ("AsKs", "QdQc", "8h8d", "5c6c")[: len(stacks)]
    return start_hand(
        HandSetup(
            stacks=stacks,
            button=button,
            blinds=blinds,
            big_blind=max(blinds),
            hole=tuple(parse_cards(h) for h in holes),
            board=parse_cards(board),
            antes=antes,
            ruleset=Ruleset(ruleset),
        )
    )


def act(state, seat: int, word: str, amount: int | None = None):
    return apply_action(state, Action(seat, ActionKind(word), amount))[0]


# -- R5, R9: blinds and order of action ---------------------------------------
def test_r5_heads_up_button_posts_small_blind_and_acts_first_preflop():
    t = deal(table("ana", "bo", button=0))
    assert bets(t) == {"ana": 10, "bo": 20}
    assert to_act(t) == "ana"  # R9


def test_r9_heads_up_big_blind_acts_first_after_the_flop():
    t = play(deal(table("ana", "bo")), ("ana", "call"), ("bo", "check"))
    assert t.hand is not None and t.hand.street == 1
    assert to_act(t) == "bo"


def test_r5_r9_three_players_blinds_left_of_button_and_utg_acts_first():
    t = deal(table("ana", "bo", "cy", button=0))
    assert bets(t) == {"ana": 0, "bo": 10, "cy": 20}
    assert to_act(t) == "ana"
    t = play(t, ("ana", "call"), ("bo", "call"), ("cy", "check"))
    assert to_act(t) == "bo"  # first left of the button after the flop


def test_r14_big_blind_keeps_the_option_when_everyone_just_called():
    t = play(deal(table("ana", "bo", "cy")), ("ana", "call"), ("bo", "call"))
    assert to_act(t) == "cy"
    legal = t.legal_actions()
    assert legal is not None and legal.can_check and legal.can_raise and legal.min_to == 40


# -- R10, D5: strict move words -------------------------------------------------
@pytest.mark.parametrize(
    ("word", "amount", "reason"),
    [
        ("check", None, "cannot check: 20 to call"),
        ("bet", 60, "cannot bet preflop: the blinds are the opening bet; call or raise"),
        ("raise", 30, "raise to 30 is below the minimum raise to 40"),
        ("raise", 20, "raise to 20 must exceed the bet to match 20"),
        ("raise", 5000, "raise to 5000 is more than the stack allows (all-in is 1000)"),
    ],
)
def test_d5_move_words_are_strict_and_errors_say_why(word, amount, reason):
    t = deal(table("ana", "bo", "cy"))
    with pytest.raises(IllegalAction) as error:
        do(t, "ana", word, amount)
    assert str(error.value) == reason


def test_d5_call_needs_something_to_call_and_raise_needs_a_bet():
    t = play(deal(table("ana", "bo", "cy")), ("ana", "call"), ("bo", "call"), ("cy", "check"))
    with pytest.raises(IllegalAction, match="nothing to call"):
        do(t, "bo", "call")
    with pytest.raises(IllegalAction, match="nobody has bet; bet instead"):
        do(t, "bo", "raise", 40)
    with pytest.raises(IllegalAction, match="below the minimum bet of 20"):
        do(t, "bo", "bet", 10)


def test_r10_acting_out_of_turn_is_illegal_and_changes_nothing():
    t = deal(table("ana", "bo", "cy"))
    with pytest.raises(IllegalAction, match="it is ana's turn, not bo's"):
        do(t, "bo", "call")
    assert to_act(t) == "ana" and bets(t) == {"ana": 0, "bo": 10, "cy": 20}


def test_d5_fold_is_allowed_even_when_a_check_is_possible():
    t = play(deal(table("ana", "bo")), ("ana", "call"))
    t = do(t, "bo", "fold")
    assert stacks(t) == {"ana": 1020, "bo": 980}


def test_d5_allin_counts_as_call_bet_or_raise():
    t = deal(table("ana", "bo"))
    t, events = do_events(t, "ana", "allin")
    assert events[0].kind == "raise" and events[0].total == 1000
    t = deal(table("ana", "bo", stack=15))  # ana has 5 left after the small blind
    t, events = do_events(t, "ana", "allin")
    assert events[0].kind == "call" and events[0].all_in


# -- R11, D2: no-limit sizes and minimum raises ----------------------------------
def test_r11_all_in_below_the_minimum_raise_is_allowed():
    state, _ = hand((1000, 1000, 90), (0, 10, 20))
    state = act(state, 0, "raise", 60)
    state = act(state, 1, "fold")
    state = act(state, 2, "allin")  # to 90 < minimum raise to 100, but it is his whole stack
    assert state.to_match == 90 and state.bets[2] == 90 and state.actor == 0


def test_d2_short_all_in_does_not_change_the_minimum_raise():
    # Flop: bo bets 100, cy goes all-in for 150; the next raise is to at least 250.
    state, _ = hand((1000, 1000, 170), (0, 10, 20))
    for seat, word in ((0, "call"), (1, "call"), (2, "check")):
        state = act(state, seat, word)
    state = act(state, 1, "bet", 100)
    state = act(state, 2, "allin")
    legal = state.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.min_to == 250
    with pytest.raises(IllegalAction, match="raise to 200 is below the minimum raise to 250"):
        act(state, 0, "raise", 200)


def test_d2_a_bet_is_at_least_the_big_blind_and_a_full_raise_sets_the_next_increment():
    state, _ = hand((1000, 1000), (10, 20))
    state = act(state, 0, "raise", 100)  # raise of 80
    legal = state.legal_actions()
    assert legal is not None and legal.min_to == 180


# -- R12, D3: reopening ------------------------------------------------------
def _short_allin_spot(ruleset: str):
    state, _ = hand((1000, 1000, 170), (0, 10, 20), ruleset=ruleset)
    for seat, word in ((0, "call"), (1, "call"), (2, "check")):
        state = act(state, seat, word)
    state = act(state, 1, "bet", 100)
    state = act(state, 2, "allin")  # 150: a raise of 50, less than a full raise
    return act(state, 0, "call")


def test_r12_house_short_all_in_reopens_the_betting():
    state = _short_allin_spot("house")
    legal = state.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_raise and legal.min_to == 250


def test_r12_standard_short_all_in_does_not_reopen_the_betting():
    state = _short_allin_spot("standard")
    legal = state.legal_actions()
    assert legal is not None and legal.seat == 1 and not legal.can_raise and legal.can_call
    with pytest.raises(IllegalAction, match="not reopened"):
        act(state, 1, "raise", 400)


def test_d3_standard_several_short_all_ins_add_up_to_a_full_raise():
    state, _ = hand((1000, 1000, 170, 230), (0, 10, 20, 0), ruleset="standard")
    for seat, word in ((3, "call"), (0, "call"), (1, "call"), (2, "check")):
        state = act(state, seat, word)
    state = act(state, 1, "bet", 100)
    state = act(state, 2, "allin")  # 150
    state = act(state, 3, "allin")  # 210: the bet has grown by 110 >= 100 since bo bet
    state = act(state, 0, "call")
    legal = state.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_raise


def test_d3_standard_first_bet_even_a_short_all_in_opens_the_betting():
    state, _ = hand((1000, 1000, 30), (0, 10, 20), ruleset="standard")
    for seat, word in ((0, "call"), (1, "call"), (2, "check")):
        state = act(state, seat, word)
    state = act(state, 1, "check")
    state = act(state, 2, "allin")  # a bet of 10, below the big blind
    state = act(state, 0, "call")
    legal = state.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_raise and legal.min_to == 30


# -- R13, D4: everyone else all-in -------------------------------------------
def test_r13_when_every_other_player_is_all_in_only_call_or_fold():
    t = do(deal(table("ana", "bo")), "ana", "allin")
    legal = t.legal_actions()
    assert legal is not None and legal.moves == ("fold", "call", "allin")
    assert not legal.can_raise


def test_d4_an_all_in_that_would_raise_is_illegal_when_the_others_are_all_in():
    state, _ = hand((500, 2000), (10, 20))
    state = act(state, 0, "allin")
    with pytest.raises(IllegalAction, match="every other player is all-in"):
        act(state, 1, "allin")
    with pytest.raises(IllegalAction, match="every other player is all-in"):
        act(state, 1, "raise", 1000)
    state = act(state, 1, "call")
    assert state.finished


def test_d4_a_raise_nobody_can_call_in_full_is_legal_while_someone_has_chips():
    state, _ = hand((1000, 500, 300), (0, 10, 20))
    state = act(state, 0, "allin")
    assert state.to_match == 1000 and state.actor == 1


# -- R7, D1: short blinds ----------------------------------------------------
def test_d1_short_big_blind_does_not_lower_the_bet_to_match():
    state, _ = hand((1000, 1000, 5), (0, 10, 20))
    legal = state.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call_amount == 20 and legal.min_to == 40


def test_d1_heads_up_small_blind_against_a_big_blind_all_in_for_less_gets_no_turn():
    state, events = hand((1000, 5), (10, 20), hole=("AsKs", "2d7c"), board="AcKd9h4s8c")
    assert state.finished and state.showdown
    assert BetReturned(0, 5) in events  # R21: the unmatched 5 comes back
    assert state.final_stacks() == (1005, 0)


def test_d1_short_small_blind_posts_what_it_has():
    state, _ = hand((1000, 4, 1000), (0, 10, 20))
    assert state.bets == (0, 4, 20) and state.stacks[1] == 0


# -- R16–R19: the end of a hand ------------------------------------------------
def test_r16_last_player_standing_wins_without_showing():
    t = play(deal(table("ana", "bo", "cy")), ("ana", "raise", 60), ("bo", "fold"), ("cy", "fold"))
    assert t.hand is not None and t.hand.finished and not t.hand.showdown
    assert stacks(t) == {"ana": 1030, "bo": 990, "cy": 980}


def test_r18_all_in_and_called_runs_the_board_out_to_a_showdown():
    t = deal(table("ana", "bo"), {"ana": "AsAd", "bo": "KsKd"}, board="2c7d9hJs3h")
    t, _ = do_events(t, "ana", "allin")
    t, events = do_events(t, "bo", "call")
    assert [e.street for e in events if isinstance(e, StreetDealt)] == ["flop", "turn", "river"]
    assert t.finished and t.winner == 0 and stacks(t)["ana"] == 2000


def test_r17_the_board_may_play_and_equal_hands_split():
    t = deal(table("ana", "bo"), {"ana": "2s3d", "bo": "4h5c"}, board="AsKsQsJsTs")
    t = play(t, ("ana", "allin"), ("bo", "call"))
    assert stacks(t) == {"ana": 1000, "bo": 1000}


def test_r19_wheel_is_the_lowest_straight():
    t = deal(table("ana", "bo"), {"ana": "As2d", "bo": "6h7c"}, board="3s4d5cKhKd")
    t = play(t, ("ana", "allin"), ("bo", "call"))
    assert t.winner == 1


# -- R20–R22, D6, D7: pots --------------------------------------------------
def test_r20_side_pots_are_contested_only_by_those_who_paid_into_them():
    state, events = hand(
        (100, 300, 1000), (0, 10, 20), hole=("AsAd", "KsKd", "QsQd"), board="2c7d9hJs3h"
    )
    state = act(state, 0, "allin")
    state = act(state, 1, "allin")
    state, events = apply_action(state, Action(2, ActionKind.CALL))
    pots = [e for e in events if isinstance(e, PotAwarded)]
    assert [(p.amount, p.shares) for p in pots] == [(300, ((0, 300),)), (400, ((1, 400),))]
    assert state.final_stacks() == (300, 400, 700)


def test_d6_the_unmatched_part_of_the_largest_bet_returns_folded_bets_count():
    state, _ = hand((1000, 1000, 1000), (0, 10, 20))
    state = act(state, 0, "raise", 100)
    state = act(state, 1, "raise", 300)
    state = act(state, 2, "fold")
    state, events = apply_action(state, Action(0, ActionKind.FOLD))
    assert BetReturned(1, 200) in events
    assert state.final_stacks() == (900, 1120, 980)


def test_r22_odd_chips_go_one_at_a_time_from_left_of_the_button():
    # Pot of 25 (5 + 10 + 10) split between the button and the big blind.
    state, _ = hand((1000, 1000, 1000), (0, 5, 10), hole=("2s3d", "KhKc", "4h5c"), board="AsKsQsJsTs")
    state = act(state, 0, "call")
    state = act(state, 1, "fold")
    state, _events = apply_action(state, Action(2, ActionKind.CHECK))
    for seat, word in ((2, "check"), (0, "check")) * 3:
        state = act(state, seat, word)
    assert state.finished and state.final_stacks() == (1002, 995, 1003)


def test_d7_heads_up_the_big_blind_gets_the_odd_chip():
    assert split_pot(41, [0, 1], seat_count=2, button=0) == [(1, 21), (0, 20)]


def test_d7_an_ante_nobody_matched_is_its_own_pot():
    state, _ = hand((1000, 1000), (10, 20), hole=("2s3d", "4h5c"), board="AsKsQsJsTs", antes=(1, 0))
    state = act(state, 0, "call")
    state = act(state, 1, "check")
    for _ in range(3):
        state = act(state, 1, "check")
        state = act(state, 0, "check")
    assert state.finished and state.final_stacks() == (1000, 1000)


def test_d7_a_pot_nobody_can_win_joins_the_next_lower_pot():
    # A resigned player's bet of 300 was matched only up to 100.
    pots = build_pots([300, 100, 100], [True, False, True])
    assert [(p.amount, p.eligible) for p in pots] == [(500, (1,))]


def test_r20_events_report_every_pot():
    _t, events = deal_events(table("ana", "bo"))
    assert not any(isinstance(e, PotAwarded) for e in events)


@pytest.mark.parametrize(
    ("trimming", "final"),
    [
        # PHH ante_trimming_status = false: a big-blind ante nobody matched is
        # dead money and goes to the winner of the main pot.
        (False, (1300, 0)),
        # trimming: the ante counts as the poster's contribution, so the part
        # nobody matched forms a pot only he can win.
        (True, (1280, 20)),
    ],
)
def test_antes_trimmed_or_dead(trimming, final):
    setup = HandSetup(
        stacks=(1000, 300), button=0, blinds=(10, 20), big_blind=20,
        hole=(parse_cards("AsAd"), parse_cards("7c2d")), board=parse_cards("AcAh3c8d9s"),
        antes=(0, 20), ante_trimming=trimming,
    )
    state, _ = start_hand(setup)
    state = act(state, 0, "raise", 1000)
    state = act(state, 1, "call")
    assert state.final_stacks() == final
