"""Differential test of every variant against PokerKit 0.7.7.

Random hands of every game of the registry are played through both engines
in lockstep and must agree move by move and on every finishing stack:
:mod:`pokerkit_lockstep` says what is compared and lists each known
difference (PokerKit departing from docs/rules.md), which is detected where
it arises and steered round, never skipped wholesale.  Below, each known
difference is also reproduced by a scripted hand, so that a PokerKit upgrade
that changes one fails here.
"""

from __future__ import annotations

import pytest

from freezeout.rules import Action, ActionKind
from freezeout.rules.events import CardsShown, PotAwarded
from freezeout.rules.variant import VARIANTS

from pokerkit_lockstep import (
    HANDS,
    both,
    compare_stacks,
    play,
    run_variant,
)
from variantplay import CODES

pokerkit = pytest.importorskip("pokerkit")


@pytest.mark.parametrize("code", CODES)
def test_every_variant_agrees_with_pokerkit(code: str) -> None:
    variant = VARIANTS[code]
    seen = run_variant(variant, 20270101 + CODES.index(code), HANDS)
    assert seen["hands"] == HANDS
    assert seen["showdowns"] > HANDS // 10  # the hands reach showdowns, not only folds


# -- each known difference, reproduced ---------------------------------------
#
# One scripted hand per difference of the module docstring, played by both
# engines: it shows what the rules make us do and what PokerKit 0.7.7 does
# instead, so that the random test's exceptions stay tied to a real,
# checked behaviour (a PokerKit upgrade that changes one fails here).


def test_d5_a_fold_when_a_check_is_free_is_ours_not_pokerkits() -> None:
    hand = both("NT", (100, 100, 100), "", button=0, blinds=(0, 1, 2), big_blind=2)
    legal = play(hand, (0, "call"), (1, "call"))
    assert legal.seat == 2 and legal.can_check and "fold" in legal.moves
    assert not hand.pk.can_fold()


def test_d4_a_raise_nobody_can_call_in_full_is_allowed_while_someone_has_chips() -> None:
    hand = both("NT", (100, 1000, 60), "", button=2, blinds=(1, 2, 0), big_blind=2)
    legal = play(hand, (2, "call"), (0, "call"), (1, "check"), (0, "allin"))
    assert legal.seat == 1 and legal.can_raise and legal.min_to == 2 * 98  # seat 2 still has 58 chips
    assert not hand.pk.can_complete_bet_or_raise_to()


def test_d3_a_short_all_in_after_a_short_opening_bet_does_not_reopen() -> None:
    hand = both("NT", (25, 1000, 35, 1000), "", button=3, blinds=(10, 20, 0, 0), big_blind=20)
    legal = play(hand, (2, "call"), (3, "call"), (0, "call"), (1, "check"),
                 (0, "allin"), (1, "call"), (2, "allin"), (3, "call"))
    # The bet seat 1 called grew from 5 to 15: less than a full raise (D2: the big blind, 20).
    assert legal.seat == 1 and not legal.can_raise and "not reopened" in legal.no_raise_reason
    assert hand.pk.can_complete_bet_or_raise_to()  # PokerKit: the round's raise size started at 0


def test_d3_short_all_ins_add_up_to_reopen_the_betting() -> None:
    hand = both("NT", (1000, 1000, 1000, 1000, 50, 60, 65), "", button=6, blinds=(10, 20, 0, 0, 0, 0, 0), big_blind=20)
    legal = play(hand, (2, "raise", 40), (3, "call"), (4, "allin"), (5, "allin"), (6, "allin"), (0, "fold"),
                 (1, "fold"))
    # Seat 2 raised to 40; three short all-ins made it 65: grown by 25, more than a full raise (20).
    assert legal.seat == 2 and legal.can_raise and legal.min_to == 85
    assert not hand.pk.can_complete_bet_or_raise_to()  # PokerKit: the 50 and 60 made a raise, the 65 shuts it


def test_v3_heads_up_the_raising_is_not_capped() -> None:
    hand = both("FT", (1000, 1000), "", button=0, blinds=(1, 2), big_blind=2, small_bet=2, big_bet=4)
    legal = play(hand, (0, "raise", 4), (1, "raise", 6), (0, "raise", 8), (1, "raise", 10))
    assert legal.seat == 0 and legal.can_raise and legal.sizes == (12,)
    assert not hand.pk.can_complete_bet_or_raise_to()  # PokerKit caps at four every time


def test_v3_preflop_the_big_blind_is_the_bet_of_the_cap() -> None:
    hand = both("FT", (1000, 1000, 1000), "", button=0, blinds=(0, 1, 2), big_blind=2, small_bet=2, big_bet=4)
    legal = play(hand, (0, "raise", 4), (1, "raise", 6), (2, "raise", 8))
    assert legal.seat == 0 and not legal.can_raise and "capped" in legal.no_raise_reason
    assert hand.pk.min_completion_betting_or_raising_to_amount == 10  # PokerKit: a fifth bet


def test_v4_an_all_in_of_half_a_bet_reopens_the_betting() -> None:
    hand = both("FT", (1000, 26, 1000), "", button=2, blinds=(5, 10, 0), big_blind=10, small_bet=10, big_bet=20)
    legal = play(hand, (2, "call"), (0, "call"), (1, "check"), (0, "bet", 10), (1, "allin"), (2, "call"))
    assert legal.seat == 0 and legal.can_raise and legal.sizes == (26,)  # 16 + a small bet
    assert not hand.pk.can_complete_bet_or_raise_to()  # PokerKit: a short all-in reopens nothing


def test_v4_after_an_all_in_below_half_a_bet_the_next_raise_completes_the_bet() -> None:
    hand = both("FT", (1000, 24, 1000), "", button=2, blinds=(5, 10, 0), big_blind=10, small_bet=10, big_bet=20)
    legal = play(hand, (2, "call"), (0, "call"), (1, "check"), (0, "bet", 10), (1, "allin"))
    assert legal.seat == 2 and legal.sizes == (20,)  # the bet of 10 completed to a raise
    assert hand.pk.min_completion_betting_or_raising_to_amount == 24  # PokerKit: a full raise over 14


def test_v7_an_open_pair_on_fourth_street_allows_the_big_bet() -> None:
    hand = both("F7S", (100, 100), "As Ks 9c  Ah Kh 2c  9d Qd", button=0, bring_in=1, small_bet=2, big_bet=4,
                big_blind=2)
    legal = play(hand, (1, "bringin"), (0, "call"))
    assert legal.seat == 0 and legal.sizes == (2, 4)  # nines showing open the round
    assert hand.pk.max_completion_betting_or_raising_to_amount == 2


def test_v7_the_shared_card_comes_when_the_deck_is_short_even_after_folds() -> None:
    hand = both("F7S", (100,) * 8, "", button=0, bring_in=1, small_bet=2, big_bet=4, big_blind=2)
    while hand.state.street < 2:  # third and fourth street: everyone in
        legal = hand.state.legal_actions()
        assert legal is not None
        hand.apply(Action(legal.seat, ActionKind.BRINGIN if legal.bring_in else ActionKind.CALL if legal.can_call
                          else ActionKind.CHECK))
    first = hand.state.actor
    hand.apply(Action(first, ActionKind.BET, 4))  # fifth street: one bet, one fold, seven calls
    hand.apply(Action(hand.state.actor, ActionKind.FOLD))
    while hand.state.street == 2:
        hand.apply(Action(hand.state.actor, ActionKind.CALL))
    while hand.state.street == 3:  # sixth street: 47 cards dealt, 5 left for 7 players
        hand.apply(Action(hand.state.actor, ActionKind.CHECK))
    assert len(hand.state.board) == 1  # V7: one card for everyone
    assert hand.stopped and hand.pk.can_deal_hole() and not hand.pk.can_deal_board()  # PokerKit: seventh cards


def test_v7_with_nobody_folded_both_engines_share_the_seventh_card() -> None:
    hand = both("F7S", (100,) * 8, "", button=0, bring_in=1, small_bet=2, big_bet=4, big_blind=2)
    while not hand.state.finished:
        legal = hand.state.legal_actions()
        assert legal is not None
        hand.apply(Action(legal.seat, ActionKind.BRINGIN if legal.bring_in else ActionKind.CALL if legal.can_call
                          else ActionKind.CHECK))
    assert len(hand.state.board) == 1 and not hand.stopped
    assert compare_stacks(hand) == ""


def test_v6_a_side_pot_nobody_has_a_low_for_goes_wholly_to_high() -> None:
    # Seat 0 (short) has the only low; seat 1 the best high; seat 2 wins the last side pot against seat 3.
    hand = both("PO/8", (4, 10, 100, 100), "As3s9c9d KhQhJcJh QcQdJdTc JsTs9h6c 2c5d8h KdKs",
                button=3, blinds=(1, 2, 0, 0), big_blind=2)
    play(hand, (2, "raise", 7), (3, "call"), (0, "allin"), (1, "call"), (1, "allin"), (2, "call"), (3, "call"),
         (2, "bet", 10))
    hand.apply(Action(3, ActionKind.CALL))
    hand.apply(Action(2, ActionKind.CHECK))
    hand.apply(Action(3, ActionKind.CHECK))
    awards = [(e.pot, e.half, e.shares) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(0, "high", ((1, 8),)), (0, "low", ((0, 8),)), (1, "high", ((1, 18),)), (2, "high", ((2, 20),))]
    assert hand.state.final_stacks() == (8, 26, 100, 80)
    assert list(hand.pk.stacks) == [8, 22, 104, 80]  # PokerKit gives the side pot's "low half" to seats 1 and 2


def test_v9_stud_odd_chips_go_to_the_highest_card_by_suit() -> None:
    hand = both("F7S", (100, 100, 100), "2s3s4d 2h3h4c KcKd2c 5h5d 6c6d 9c9d TdTs", button=0, antes=(2, 2, 2),
                bring_in=1, small_bet=3, big_bet=6, big_blind=3)
    play(hand, (2, "bringin"), (0, "complete"), (1, "call"))
    hand.apply(Action(2, ActionKind.FOLD))
    while not hand.state.finished:
        hand.apply(Action(hand.state.actor, ActionKind.CHECK))
    # 13 chips, two six-high straights: the odd chip to seat 1, whose ten of spades is the highest card.
    assert hand.state.final_stacks() == (101, 102, 97)
    assert list(hand.pk.stacks) == [102, 101, 97]  # PokerKit: to the first player


def test_pokerkits_fixed_limit_omaha_hi_lo_bets_pot_limit() -> None:
    assert pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter.betting_structure is pokerkit.BettingStructure.POT_LIMIT
    hand = both("FO/8", (1000, 1000, 1000), "", button=0, blinds=(0, 1, 2), big_blind=2, small_bet=2, big_bet=4)
    legal = hand.state.legal_actions()
    assert legal is not None and legal.sizes == (4,) and hand.pk.max_completion_betting_or_raising_to_amount == 4


def test_v17_after_an_all_in_run_out_the_first_seat_left_of_the_button_shows_first() -> None:
    hand = both("NT", (100, 100), "AsKs QdQc 2h7d9cJsTh", button=0, blinds=(1, 2), big_blind=2)
    hand.apply(Action(0, ActionKind.ALLIN))
    hand.apply(Action(1, ActionKind.CALL))
    assert [e.seat for e in hand.events if isinstance(e, CardsShown)] == [1, 0]  # nobody bet on the river
    shows = [op.player_index for op in hand.pk.operations if isinstance(op, pokerkit.HoleCardsShowingOrMucking)]
    assert shows == [hand.index(0), hand.index(1)]  # PokerKit: the preflop raiser first
