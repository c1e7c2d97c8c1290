"""Betting structures, rule by rule (rules.md V1–V4 and the engine's
readings of V2, V3 and V4).

Fixed-limit hands use the rulebook's "$5–$10 hold'em game" (blinds 2/5,
bets of 5 in the first two rounds and 10 in the last two); pot-limit hands
its blinds of 1/2.  Seats are ana, bo, cy, di … clockwise; the button is
ana unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from freezeout.rules import HandState
from freezeout.rules.variant import variant

from varianthelpers import (
    act,
    behind,
    check_around,
    final,
    illegal,
    moves_of,
    play,
    play_events,
    refused,
    start,
    to_act,
)

HOLE = ("AsKs", "QdQc", "8h8d", "5c6c", "7h7s", "4d4s")
OMAHA_HOLE = ("AsKsQhJh", "QdQcTdTc", "8h8d9s9c", "5c6c4c8c", "2h3h4h5h", "2d3d4s6s")
BOARD = "2c7d9hJs3s"


def limit_hand(stacks: tuple[int, ...], *, code: str = "FT", ruleset: str = "house") -> HandState:
    """A $5–$10 fixed-limit hand: ana on the button, blinds 2/5 left of her."""
    n = len(stacks)
    blinds = (2, 5) if n == 2 else (0, 2, 5) + (0,) * (n - 3)
    game = variant(code)
    if game.has_draws:
        return start(code, stacks, blinds=blinds, ruleset=ruleset, hole=draw_hands(n, game.hole_cards))
    hole = OMAHA_HOLE[:n] if game.hole_cards == 4 else HOLE[:n]
    return start(code, stacks, blinds=blinds, ruleset=ruleset, hole=hole, board=BOARD)


def draw_hands(n: int, size: int = 5) -> tuple[str, ...]:
    """Draw-game hands of five (or badugi's four) cards."""
    hands = ("2c3d4h5s7c", "2d3h4s5c7d", "2h3s4c5d7h", "2s3c4d5h7s", "8c9dTh6s6c", "8d9hTs6h6d")
    return tuple(hand[: 2 * size] for hand in hands[:n])


def preflop_called_round(state: HandState) -> HandState:
    """Everyone calls the big blind and the big blind checks: on to the flop."""
    street = state.street
    while state.street == street and not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        state = act(state, legal.seat, "call" if legal.can_call else "check")
    return state


def raise_sizes(state: HandState) -> tuple[int, ...]:
    legal = state.legal_actions()
    assert legal is not None
    return legal.sizes if legal.can_raise else ()


# -- V1: no limit -------------------------------------------------------------
def test_v1_no_limit_omaha_bets_anything_from_the_minimum_raise_to_the_stack() -> None:
    state = start("NO", (1000, 1000, 1000), blinds=(0, 10, 20), hole=OMAHA_HOLE[:3], board=BOARD)
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "ana"
    assert (legal.min_to, legal.max_to) == (40, 1000)
    state = act(state, "ana", "raise", 137)
    legal = state.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (254, 1000)  # R10: at least the last raise, 117


@pytest.mark.parametrize(("ruleset", "reopened"), [("house", True), ("standard", False)])
def test_v1_no_limit_short_all_in_reopens_in_the_house_ruleset_only(ruleset: str, reopened: bool) -> None:
    # Flop: bo bets 100, cy is all-in for 150 (short of a full raise), di and ana call.
    state = start("NO", (1000, 1000, 170, 1000), blinds=(0, 10, 20, 0), hole=OMAHA_HOLE[:4], board=BOARD, ruleset=ruleset)
    state = preflop_called_round(state)
    state = play(state, ("bo", "bet", 100), ("cy", "allin"), ("di", "call"), ("ana", "call"))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo"
    assert legal.can_raise is reopened
    if reopened:
        assert legal.min_to == 250  # D2: the short all-in did not change the minimum raise


# -- V2: pot limit --------------------------------------------------------------
@pytest.mark.parametrize("code", ["PT", "PO", "PS", "P5CD", "P2L3D", "PB"])
def test_v2_pot_limit_first_raise_is_to_seven_at_one_two(code: str) -> None:
    hole = OMAHA_HOLE[:3] if code == "PO" else ("AsKs", "QdQc", "8h8d") if code in ("PT", "PS") else draw_hands(3)
    board = "JcTd9hAc6s" if code == "PS" else BOARD if code in ("PT", "PO") else ""
    if code == "PB":
        hole = draw_hands(3, 4)
    state = start(code, (200, 200, 200), blinds=(0, 1, 2), hole=hole, board=board)
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "ana"
    assert legal.max_to == 7  # 2 + (1 + 2 + 2)
    state = act(state, "ana", "raise", 7)
    assert behind(state) == {"ana": 193, "bo": 199, "cy": 198}


def test_v2_pot_limit_raise_counts_the_call() -> None:
    state = start("PT", (200, 200, 200), blinds=(0, 1, 2), hole=HOLE[:3], board=BOARD)
    state = act(state, "ana", "raise", 7)
    legal = state.legal_actions()
    # bo calls 6 more: the pot is then 1 + 2 + 7 + 6 = 16, so he may raise to 7 + 16.
    assert legal is not None and to_act(state) == "bo"
    assert (legal.call_amount, legal.max_to) == (6, 23)
    state = act(state, "bo", "raise", 23)
    legal = state.legal_actions()
    # cy calls 21 more: 2 + 7 + 23 + 21 = 53, so to 23 + 53.
    assert legal is not None and (legal.call_amount, legal.max_to) == (21, 76)


def test_v2_pot_limit_bet_and_raise_after_the_flop() -> None:
    state = preflop_called_round(start("PT", (200, 200, 200), blinds=(0, 1, 2), hole=HOLE[:3], board=BOARD))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and legal.opening
    assert (legal.min_to, legal.max_to) == (2, 6)  # the smallest bet is the big blind; the largest the pot of 6
    state = act(state, "bo", "bet", 6)
    legal = state.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (12, 24)  # 6 + (6 + 6 + 6)


def test_v2_pot_limit_smallest_raise_is_as_in_no_limit() -> None:
    state = start("PO", (200, 200, 200), blinds=(0, 1, 2), hole=OMAHA_HOLE[:3], board=BOARD)
    legal = state.legal_actions()
    assert legal is not None and legal.min_to == 4
    state = act(state, "ana", "raise", 5)
    legal = state.legal_actions()
    assert legal is not None and legal.min_to == 8  # the last raise was 3


@pytest.mark.parametrize(
    ("word", "amount", "reason"),
    [
        ("raise", 8, "raise to 8 is more than the pot limit allows (7)"),
        ("allin", None, "cannot go all-in: the most you may raise to is 7"),
    ],
)
def test_v2_more_than_the_pot_is_refused(word: str, amount: int | None, reason: str) -> None:
    state = start("PT", (200, 200, 200), blinds=(0, 1, 2), hole=HOLE[:3], board=BOARD)
    assert refused(state, "ana", word, amount) == reason


def test_v2_all_in_below_the_pot_is_allowed() -> None:
    state = start("PT", (5, 200, 200), blinds=(0, 1, 2), hole=HOLE[:3], board=BOARD)
    state, events = play_events(state, ("ana", "allin"))
    assert moves_of(events) == [("ana", "raise", 5)]


def test_v2_the_bet_to_match_is_the_full_big_blind_when_its_poster_is_short() -> None:
    # cy posts 1 of her big blind of 2 and is all-in: ana still calls 2, and
    # the pot she may raise to counts that call: 2 + (1 + 1 + 2) = 6.
    state = start("PT", (200, 200, 1), blinds=(0, 1, 2), hole=HOLE[:3], board=BOARD)
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "ana"
    assert (legal.to_match, legal.call_amount, legal.max_to) == (2, 2, 6)


# -- V3: fixed limit ---------------------------------------------------------
def test_v3_big_blind_is_the_preflop_bet() -> None:
    state = limit_hand((200, 200, 200, 200))
    assert to_act(state) == "di"
    assert illegal(state, "di", "bet", 5) == "cannot bet preflop: the blinds are the opening bet; call or raise"
    assert raise_sizes(state) == (10,)
    state = play(state, ("di", "raise", 10), ("ana", "raise", 15), ("bo", "raise", 20))
    legal = state.legal_actions()
    # The big blind and three raises: the betting is capped.
    assert legal is not None and to_act(state) == "cy" and not legal.can_raise
    assert legal.no_raise_reason == "the betting is capped: a bet and 3 raises"
    assert legal.moves == ("fold", "call")


@pytest.mark.parametrize("code", ["FT", "FO", "FO/8", "F2L3D", "FB"])
def test_v3_fixed_limit_cap_is_a_bet_and_three_raises(code: str) -> None:
    state = limit_hand((200, 200, 200, 200), code=code)
    state = preflop_called_round(state)
    if state.drawing:  # a draw game: everyone stands pat
        while state.drawing:
            state = act(state, state.actor, "standpat")
    assert to_act(state) == "bo"
    state = play(state, ("bo", "bet", 5), ("cy", "raise", 10), ("di", "raise", 15), ("ana", "raise", 20))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and not legal.can_raise
    assert illegal(state, "bo", "raise", 25) == "cannot raise: the betting is capped: a bet and 3 raises"


@pytest.mark.parametrize("code", ["F2L1D", "F5CD"])
def test_v3_single_draw_allows_a_bet_and_four_raises(code: str) -> None:
    state = limit_hand((200, 200, 200, 200), code=code)
    # Preflop the big blind is the bet: four raises over it.
    state = play(state, ("di", "raise", 10), ("ana", "raise", 15), ("bo", "raise", 20), ("cy", "raise", 25))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "di" and not legal.can_raise
    assert legal.no_raise_reason == "the betting is capped: a bet and 4 raises"


def test_v3_no_cap_heads_up() -> None:
    state = limit_hand((500, 500))
    for total in range(10, 80, 5):  # far past a bet and three raises
        state = act(state, state.actor, "raise", total)
    legal = state.legal_actions()
    assert legal is not None and legal.can_raise and legal.sizes == (80,)


def test_v3_no_cap_when_only_two_players_have_chips_behind() -> None:
    # cy is all-in from her big blind: two players with chips are heads-up.
    state = limit_hand((500, 500, 5))
    state = play(state, ("ana", "raise", 10), ("bo", "raise", 15), ("ana", "raise", 20), ("bo", "raise", 25))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "ana" and legal.can_raise and legal.sizes == (30,)


def test_v3_cap_lifts_when_a_fold_leaves_two() -> None:
    state = limit_hand((200, 200, 200))
    state = play(state, ("ana", "raise", 10), ("bo", "raise", 15), ("cy", "raise", 20))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "ana" and not legal.can_raise  # capped, three players
    state = act(state, "ana", "fold")
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and legal.can_raise and legal.sizes == (25,)
    state = play(state, ("bo", "raise", 25), ("cy", "raise", 30), ("bo", "call"))
    assert state.street == 1 and behind(state) == {"ana": 190, "bo": 170, "cy": 170}


@pytest.mark.parametrize("code", ["FT", "FO"])
def test_v3_big_bets_from_the_turn(code: str) -> None:
    state = limit_hand((200, 200, 200), code=code)
    assert raise_sizes(state) == (10,)  # preflop: small bets
    state = preflop_called_round(state)
    assert state.street == 1 and raise_sizes(state) == (5,)  # flop: small bets
    state = play(state, ("bo", "bet", 5))
    assert raise_sizes(state) == (10,)
    state = play(state, ("cy", "call"), ("ana", "call"))
    assert state.street == 2 and raise_sizes(state) == (10,)  # turn: big bets
    state = play(state, ("bo", "bet", 10))
    assert raise_sizes(state) == (20,)
    state = play(state, ("cy", "call"), ("ana", "call"))
    assert state.street == 3 and raise_sizes(state) == (10,)  # river: big bets


def test_v3_triple_draw_bets_small_in_the_first_two_rounds_and_big_in_the_last_two() -> None:
    state = limit_hand((200, 200, 200), code="F2L3D")
    sizes: dict[int, tuple[int, ...]] = {}
    while not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        if legal.draw:
            state = act(state, legal.seat, "standpat")
            continue
        sizes.setdefault(state.street, raise_sizes(state))
        state = act(state, legal.seat, "call" if legal.can_call else "check")
    # Preflop a raise over the big blind of 5; then bets of 5, 10 and 10.
    assert sizes == {0: (10,), 1: (5,), 2: (10,), 3: (10,)}


def test_v3_single_draw_bets_small_before_the_draw_and_big_after() -> None:
    # Reading (V3 names no early rounds for single draw): the round before the
    # draw is small, the round after it big, as in 2-7 single-draw limit play.
    state = limit_hand((200, 200, 200), code="F2L1D")
    assert raise_sizes(state) == (10,)
    state = preflop_called_round(state)
    while state.drawing:
        state = act(state, state.actor, "standpat")
    assert state.street == 1 and raise_sizes(state) == (10,)  # a bet of one big bet
    state = act(state, "bo", "bet", 10)
    assert raise_sizes(state) == (20,)


@pytest.mark.parametrize(
    ("moves", "word", "amount", "reason", "right"),
    [
        ((), "raise", 15, "raise to 15 is not a fixed-limit size: raise to 10", 10),
        ((), "raise", 7, "raise to 7 is not a fixed-limit size: raise to 10", 10),
        ((("di", "call"), ("ana", "call"), ("bo", "call"), ("cy", "check")), "bet", 10,
         "bet to 10 is not a fixed-limit size: bet to 5", 5),
    ],
)
def test_v3_a_fixed_limit_raise_of_a_wrong_size_is_refused(
    moves: tuple[tuple[str, str], ...], word: str, amount: int, reason: str, right: int
) -> None:
    state = play(limit_hand((200, 200, 200, 200)), *moves)
    assert refused(state, state.actor, word, amount) == reason
    state = act(state, state.actor, word, right)  # the right size is accepted
    assert state.to_match == right


# -- V4: all-in in limit games --------------------------------------------------
def flop_after_calls(stacks: tuple[int, ...], *, ruleset: str = "house") -> HandState:
    """A $10–$20 fixed-limit hand (blinds 5/10), everyone called to the flop; bo opens it."""
    n = len(stacks)
    state = start("FT", stacks, blinds=(0, 5, 10) + (0,) * (n - 3), hole=HOLE[:n], board=BOARD, ruleset=ruleset)
    state = preflop_called_round(state)
    assert state.street == 1 and to_act(state) == "bo"
    return state


def test_v4_all_in_of_half_a_bet_reopens() -> None:
    # bo bets 10; cy is all-in for 15, a raise of 5: half a bet counts as a full raise.
    state = flop_after_calls((200, 200, 25, 200))
    state = play(state, ("bo", "bet", 10), ("cy", "allin"))
    assert raise_sizes(state) == (25,)  # the next raise builds on 15
    state = play(state, ("di", "call"), ("ana", "call"))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and legal.can_raise and legal.sizes == (25,)
    state = play(state, ("bo", "raise", 25), ("di", "call"), ("ana", "call"))
    assert state.street == 2 and behind(state) == {"ana": 165, "bo": 165, "cy": 0, "di": 165}


@pytest.mark.parametrize("ruleset", ["house", "standard"])
def test_v4_all_in_below_half_does_not_reopen_and_may_be_completed(ruleset: str) -> None:
    # bo bets 10; cy is all-in for 14, a raise of 4 (less than half a bet).
    state = flop_after_calls((200, 200, 24, 200), ruleset=ruleset)
    state = play(state, ("bo", "bet", 10), ("cy", "allin"))
    legal = state.legal_actions()
    # di may call the 14 or complete: raise to the last full bet (10) plus one bet.
    assert legal is not None and to_act(state) == "di" and (legal.call_amount, legal.sizes) == (14, (20,))
    called = play(state, ("di", "call"), ("ana", "call"))
    legal = called.legal_actions()
    assert legal is not None and to_act(called) == "bo" and not legal.can_raise  # not reopened, in both rulesets
    assert legal.moves == ("fold", "call")
    assert "not reopened" in illegal(called, "bo", "raise", 20)
    called = act(called, "bo", "call")
    assert called.street == 2 and behind(called) == {"ana": 176, "bo": 176, "cy": 0, "di": 176}


def test_v4_a_completion_of_a_short_all_in_reopens_the_betting() -> None:
    state = flop_after_calls((200, 200, 24, 200))
    state = play(state, ("bo", "bet", 10), ("cy", "allin"), ("di", "raise", 20), ("ana", "call"))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and legal.can_raise and legal.sizes == (30,)


def test_v4_a_short_all_in_bet_may_be_completed_to_the_full_bet() -> None:
    # cy opens the flop all-in for 4 (less than half of 10): di may call 4 or complete to 10.
    state = flop_after_calls((200, 200, 14, 200))
    state = act(state, "bo", "check")
    state, events = play_events(state, ("cy", "allin"), ("di", "complete"))
    assert moves_of(events) == [("cy", "bet", 4), ("di", "complete", 10)]
    assert raise_sizes(state) == (20,)


def test_v4_half_a_bet_is_measured_from_the_bet_the_all_in_raises() -> None:
    # bo bets 10; cy all-in 13 (short); di calls; ed all-in 16: 3 over the 13 it
    # raises is less than half a bet (though 6 over the last full bet of 10 is more).
    state = flop_after_calls((200, 200, 23, 200, 26))
    state = play(state, ("bo", "bet", 10), ("cy", "allin"), ("di", "call"), ("ed", "allin"))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "ana" and (legal.to_match, legal.sizes) == (16, (20,))
    state = act(state, "ana", "call")
    assert to_act(state) == "bo" and raise_sizes(state) == ()  # not reopened for bo
    # The same with ed all-in for 18: 5 over 13 is half a bet, a full raise.
    state = flop_after_calls((200, 200, 23, 200, 28))
    state = play(state, ("bo", "bet", 10), ("cy", "allin"), ("di", "call"), ("ed", "allin"))
    assert raise_sizes(state) == (28,)
    state = act(state, "ana", "call")
    assert raise_sizes(state) == (28,)  # bo may raise again


def test_v4_short_all_ins_do_not_add_up_to_a_reopening() -> None:
    # bo bets 10; cy all-in 14 and di all-in 18, each less than half a bet over
    # the bet before it.  The bet has grown by 8 since bo acted, but no full
    # bet, raise or completion has come: ed and ana may complete to 20, bo may not raise.
    state = flop_after_calls((200, 200, 24, 28, 200))
    state = play(state, ("bo", "bet", 10), ("cy", "allin"), ("di", "allin"))
    assert to_act(state) == "ed" and raise_sizes(state) == (20,)
    state = play(state, ("ed", "call"), ("ana", "call"))
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and (legal.call_amount, legal.can_raise) == (8, False)


def test_v4_every_bet_raise_and_all_in_counts_toward_the_cap() -> None:
    # Five players: the big blind (the bet), two raises and a short all-in make four.
    state = start("FT", (200, 200, 200, 200, 24), blinds=(0, 5, 10, 0, 0), hole=HOLE[:5], board=BOARD)
    state = play(state, ("di", "raise", 20), ("ed", "allin"))
    assert raise_sizes(state) == (30,)  # 24 is short: the next raise builds on 20
    state = act(state, "ana", "raise", 30)
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "bo" and not legal.can_raise
    assert legal.no_raise_reason == "the betting is capped: a bet and 3 raises"


def test_v4_limit_all_in_hand_settles_to_the_exact_chip() -> None:
    # cy's all-in of 14 on the flop is called by everyone; on 2c7d9hJs3s bo's
    # queens beat cy's eights, di's 5-6 and ana's A-K.
    state = flop_after_calls((200, 200, 24, 200))
    state = play(state, ("bo", "bet", 10), ("cy", "allin"), ("di", "call"), ("ana", "call"), ("bo", "call"))
    state = check_around(check_around(state))
    state = check_around(state)
    assert state.finished
    # Preflop 10 each (40); flop 14 each (56): bo's queens take all 96.
    assert final(state) == {"ana": 176, "bo": 272, "cy": 0, "di": 176}
