"""Draw games, rule by rule (rules.md V11–V15 and the engine's readings of
the draw, of V12 for lowball and badugi, and of V13).

Blinds are the house game's first level, 10/20; ana has the button unless
a test says otherwise, so the draw and the later betting rounds start with
bo.  A player's cards are every card they are dealt in order: the hand,
then the cards of each draw.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from freezeout.cards import full_deck
from freezeout.rules import HandState
from freezeout.rules.errors import InvalidInput
from freezeout.rules.variant import BettingStructure, variant

from varianthelpers import (
    NAMES,
    act,
    act_events,
    cards,
    check_down,
    draws,
    final,
    held,
    illegal,
    moves_of,
    play,
    play_events,
    refused,
    start,
    start_events,
    to_act,
)

DECK = "".join(str(card) for card in full_deck())  # 2s 2h 2d 2c 3s 3h … Ad Ac


def blinds_for(n: int) -> tuple[int, ...]:
    """The blinds left of ana's button (heads-up: ana posts the small blind)."""
    return (10, 20) if n == 2 else (0, 10, 20) + (0,) * (n - 3)


def draw_hand(code: str, *hands: str, stacks: Sequence[int] = (), deck: str = "") -> HandState:
    n = len(hands) or len(stacks)
    return start(code, tuple(stacks) or (1000,) * n, blinds=blinds_for(n), hole=hands, deck=deck)


def to_the_draw(state: HandState) -> HandState:
    """Everyone calls (or checks) the first betting round."""
    while not state.drawing and not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        state = act(state, legal.seat, "call" if legal.can_call else "check")
    return state


def deck_with(*hands: str) -> str:
    """A deck whose first cards are ``hands`` (seat by seat), then the rest in order."""
    used = set(cards("".join(hands)))
    return "".join(hands) + "".join(str(card) for card in full_deck() if card not in used)


# -- V11: five-card draw ---------------------------------------------------------
def test_v11_each_player_gets_five_cards_face_down_then_a_betting_round() -> None:
    state = start("N5CD", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK)
    # Dealt from the deck seat by seat, each player's five at once.
    assert [held(state, seat) for seat in range(3)] == ["2s2h2d2c3s", "3h3d3c4s4h", "4d4c5s5h5d"]
    assert state.up == ((False,) * 5,) * 3
    assert not state.drawing and to_act(state) == "ana"  # left of the big blind, as in hold'em


def test_v11_draw_order_from_left_of_button_all_in_players_draw_too() -> None:
    # cy is all-in before the draw; the draw still goes bo, cy, ana.
    state = start("N5CD", (1000, 1000, 100), blinds=(0, 10, 20), deck=DECK)
    state = play(state, ("ana", "call"), ("bo", "call"), ("cy", "allin"), ("ana", "call"), ("bo", "call"))
    assert state.drawing and to_act(state) == "bo"
    legal = state.legal_actions()
    assert legal is not None and legal.moves == ("standpat", "discard") and legal.draw == 5
    state = act(state, "bo", "standpat")
    assert to_act(state) == "cy"
    state = act(state, "cy", "discard", None, "4d4c")
    assert to_act(state) == "ana"
    state = act(state, "ana", "standpat")
    assert not state.drawing and state.street == 1 and to_act(state) == "bo"  # the second round starts left of the button


def test_v11_every_player_draws_even_when_the_betting_is_over() -> None:
    state = start("N5CD", (1000, 300), blinds=(10, 20), deck=DECK)
    state = play(state, ("ana", "allin"), ("bo", "call"))
    assert state.drawing and not state.finished
    state, events = play_events(state, ("bo", "discard", None, "3c4s4h"), ("ana", "discard", None, "2s"))
    # bo and ana each draw; the hand then ends with no more betting.
    assert draws(events) == [("bo", "3c4s4h", "4d4c5s"), ("ana", "2s", "5h")] and state.finished


def test_v11_discard_zero_to_five_and_the_new_cards_come_straight_after_the_discard() -> None:
    state = to_the_draw(start("N5CD", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK))
    state, events = play_events(
        state,
        ("bo", "discard", None, "3h3d3c4s4h"),  # all five: the next five of the deck
        ("cy", "standpat"),  # none
        ("ana", "discard", None, "2c"),  # one: the next card
    )
    # 15 cards were dealt: bo gets the 16th to 20th, ana the 21st.
    assert draws(events) == [("bo", "3h3d3c4s4h", "5c6s6h6d6c"), ("cy", "", ""), ("ana", "2c", "7s")]
    assert held(state, "bo") == "5c6s6h6d6c" and held(state, "ana") == "2s2h2d3s7s"


def test_v11_the_best_five_cards_win() -> None:
    state = to_the_draw(draw_hand("N5CD", "AsAhKdQc2s", "9c9d9hTs3c"))
    state = check_down(state)
    assert final(state) == {"ana": 980, "bo": 1020}


def test_v11_two_to_six_players() -> None:
    assert start("N5CD", (1000,) * 6, blinds=blinds_for(6), deck=DECK).seat_count == 6
    with pytest.raises(Exception, match="played by 2 to 6 players, got 7"):
        start("N5CD", (1000,) * 7, blinds=blinds_for(7), deck=DECK)


@pytest.mark.parametrize(
    ("code", "betting"),
    [("N5CD", BettingStructure.NO_LIMIT), ("P5CD", BettingStructure.POT_LIMIT), ("F5CD", BettingStructure.FIXED_LIMIT)],
)
def test_v11_five_card_draw_is_played_limit_pot_limit_or_no_limit(code: str, betting: BettingStructure) -> None:
    game = variant(code)
    assert game.betting is betting and game.hole_cards == 5 and [s.draw for s in game.streets] == [False, True]
    state = start(code, (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK)
    legal = state.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == {
        "N5CD": (40, 1000), "P5CD": (40, 70), "F5CD": (40, 40)
    }[code]


def test_v11_discard_of_a_card_not_held_is_refused() -> None:
    state = to_the_draw(start("N5CD", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK))
    assert refused(state, "bo", "discard", None, "3hAs") == "cannot discard As: bo does not hold it"


@pytest.mark.parametrize(
    ("before_draw", "who", "word", "cards_", "reason"),
    [
        (False, "ana", "discard", "2s", "discard is not a move of this betting round"),
        (False, "ana", "standpat", "", "standpat is not a move of this betting round"),
        (True, "bo", "fold", "", "it is the draw: discard or stand pat, not fold"),
        (True, "bo", "check", "", "it is the draw: discard or stand pat, not check"),
        (True, "cy", "discard", "4d", "it is bo's turn, not cy's"),
    ],
)
def test_v11_a_discard_at_the_wrong_time_is_refused(before_draw: bool, who: str, word: str, cards_: str, reason: str) -> None:
    state = start("N5CD", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK)
    if before_draw:
        state = to_the_draw(state)
    assert refused(state, who, word, None, cards_) == reason


def test_v11_a_discard_in_hold_em_is_refused() -> None:
    state = start("NT", (1000, 1000), blinds=(10, 20), hole=("AsKs", "QdQc"), board="2c7d9hJs3s")
    assert refused(state, "ana", "discard", None, "As") == "discard is not a move of this betting round"


def test_v11_a_player_who_has_drawn_does_not_draw_again() -> None:
    state = act(to_the_draw(start("N5CD", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK)), "bo", "standpat")
    assert refused(state, "bo", "discard", None, "3h") == "it is cy's turn, not bo's"


# -- V12: a forfeited draw ----------------------------------------------------------
def timeout_keeps(code: str, hand: str) -> str:
    """The cards ana keeps when her draw is forfeited (bo stands pat first)."""
    size = variant(code).hole_cards
    other = "".join(str(card) for card in full_deck() if str(card) not in hand)[: 2 * size]
    state = to_the_draw(start(code, (1000, 1000), blinds=(10, 20), deck=deck_with(hand, other)))
    state = act(state, "bo", "standpat")
    assert to_act(state) == "ana"
    state, events = act_events(state, "ana", "timeout")
    [(_, thrown, _)] = draws(events)
    assert moves_of(events) == [("ana", "discard" if thrown else "standpat", 0)]
    kept = [card for card in cards(hand) if str(card) not in thrown]
    return "".join(str(card) for card in kept)


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param("8s8dTsTc4h", id="two-pair"),
        pytest.param("KsKdKh9c2d", id="three-of-a-kind"),
        pytest.param("4s5h6d7c8s", id="straight"),
        pytest.param("2h7h9hJhKh", id="flush"),
        pytest.param("8s8d8hTsTc", id="full-house"),
        pytest.param("QsQhQdQc3h", id="four-of-a-kind"),
    ],
)
def test_v12_1_two_pair_or_better_keeps_all_five(hand: str) -> None:
    assert timeout_keeps("N5CD", hand) == hand


def test_v12_2_four_to_a_royal_flush_comes_before_a_high_pair() -> None:
    assert timeout_keeps("N5CD", "AsKsQsJsAd") == "AsKsQsJs"


def test_v12_3_a_high_pair_comes_before_four_to_a_flush() -> None:
    assert timeout_keeps("N5CD", "JhJd2h5h9h") == "JhJd"


@pytest.mark.parametrize(
    ("hand", "keeps"),
    [
        ("9h8h4h2hKc", "9h8h4h2h"),  # four to a flush
        ("5c6d8h9sKd", "5c6d8h9s"),  # four to a straight (inside)
        ("2h2d5h9hKh", "2h5h9hKh"),  # before a low pair
    ],
)
def test_v12_4_four_to_a_straight_or_a_flush_comes_before_a_low_pair(hand: str, keeps: str) -> None:
    assert timeout_keeps("N5CD", hand) == keeps


def test_v12_5_a_low_pair_comes_before_high_cards() -> None:
    assert timeout_keeps("N5CD", "TsTd2c5hKd") == "TsTd"


def test_v12_6_four_to_an_open_ended_straight_comes_before_high_cards() -> None:
    assert timeout_keeps("N5CD", "5c6d7h8sKd") == "5c6d7h8s"


def test_v12_7_a_made_straight_is_kept() -> None:
    assert timeout_keeps("N5CD", "5c6d7h8s9d") == "5c6d7h8s9d"


@pytest.mark.parametrize(("hand", "keeps"), [("AhKd7c4s2h", "AhKd"), ("As9cQd6h2d", "AsQd"), ("Jc9d7h4s2c", "Jc")])
def test_v12_8_high_cards_are_kept(hand: str, keeps: str) -> None:
    assert timeout_keeps("N5CD", hand) == keeps


def test_v12_9_otherwise_all_five_are_discarded() -> None:
    assert timeout_keeps("N5CD", "9s7d5c3h2d") == ""


@pytest.mark.parametrize(
    ("hand", "keeps"),
    [
        ("2c4d7hKdQs", "2c4d7h"),  # one card of each rank from deuce to seven …
        ("2c4d7s7hKd", "2c4d7s"),  # … one seven of two
        ("2c3d4h5s7c", "2c3d4h5s7c"),  # a made seven-low stands pat
        ("3c4d5h6s7c", "3c4d5h6s"),  # a straight is broken by its top card
        ("2h3h4h5h7h", "2h3h4h5h"),  # so is a flush
        ("Ac2d3h4s5c", "2d3h4s5c"),  # the ace is high in 2-7
    ],
)
def test_v12_lowball_keeps_one_card_of_each_rank_from_deuce_to_seven(hand: str, keeps: str) -> None:
    assert timeout_keeps("F2L3D", hand) == keeps


@pytest.mark.parametrize(
    ("hand", "keeps"),
    [
        ("As2d5h7c", "As2d5h7c"),  # a badugi stands pat
        ("Ks2s4d6h", "2s4d6h"),  # the best three-card badugi
        ("3s2s4d5h", "2s4d5h"),  # of two, the lower
        ("2s3s4s5h", "2s5h"),  # two cards
    ],
)
def test_v12_badugi_keeps_its_best_badugi(hand: str, keeps: str) -> None:
    assert timeout_keeps("FB", hand) == keeps


# -- V13: the deck runs out -------------------------------------------------------
def deck_order(*first: str) -> str:
    """A second shuffled deck (V13's reshuffle order): ``first``, then the rest."""
    return deck_with(*first)


def test_v13_reshuffle_uses_other_players_discards_in_the_given_order() -> None:
    # Six players each throw away all five cards.  bo, cy, di and ed draw the
    # deck's next 20 cards; flo gets its last two and three of the reshuffle;
    # ana five from it.  The reshuffle order starts with flo's and ana's own
    # hands (never theirs to draw), then 6s (di's), 3c (bo's), 9d (held by bo
    # now) and 5h (cy's).
    hands = [DECK[10 * i : 10 * (i + 1)] for i in range(6)]  # ana 2s2h2d2c3s, bo 3h3d3c4s4h, …
    reshuffle = deck_order(hands[5], hands[0], "6s3c9d5h")
    state = start("N5CD", (1000,) * 6, blinds=blinds_for(6), deck=DECK, reshuffle=reshuffle)
    state = to_the_draw(state)
    order = (*NAMES[1:6], "ana")
    state, events = play_events(state, *((name, "discard", None, held(state, name)) for name in order))
    drawn = {name: got for name, _, got in draws(events)}
    assert [drawn[name] for name in NAMES[1:5]] == [DECK[60:70], DECK[70:80], DECK[80:90], DECK[90:100]]
    assert drawn["flo"] == "AdAc" + "6s3c5h"  # no card burned: the deck's last two, then the reshuffle
    assert drawn["ana"] == hands[5]  # flo's discards come first in the order, and are others' for ana
    assert held(state, "ana") == hands[5]


def test_v13_a_reshuffle_order_naming_a_card_twice_is_refused() -> None:
    with pytest.raises(InvalidInput, match="comes twice in the reshuffle"):
        start("N5CD", (1000,) * 6, blinds=blinds_for(6), deck=DECK, reshuffle="6s3c6s")


def test_v13_a_players_own_discards_never_come_back_to_him() -> None:
    # Triple draw, six players, bo on the button so that he draws last.  In
    # the first draw everyone throws five and the deck runs out; in the
    # second bo draws two more: his own first discards lead the reshuffle
    # order and nobody holds them, yet he never gets them back.
    hands = [DECK[10 * i : 10 * (i + 1)] for i in range(6)]
    state = start(
        "F2L3D", (1000,) * 6, button=1, blinds=(0, 0, 10, 20, 0, 0), deck=DECK, reshuffle=deck_order(hands[1], *hands[2:])
    )
    state = to_the_draw(state)
    assert to_act(state) == "cy"
    for name in ("cy", "di", "ed", "flo", "ana", "bo"):
        state = act(state, name, "discard", None, held(state, name))
    state = to_the_draw(state)
    for name in ("cy", "di", "ed", "flo", "ana"):
        state = act(state, name, "standpat")
    bo_first = set(cards(hands[1]))
    assert not bo_first & {card for held_cards in state.cards for card in held_cards}  # nobody holds them
    state, events = play_events(state, ("bo", "discard", None, held(state, "bo")[:4]))
    [(_, _, got)] = draws(events)
    assert len(got) == 4 and not set(cards(got)) & bo_first


# -- V14: 2-7 lowball ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("ana", "bo", "winner"),
    [
        ("As2c3d4h5s", "Kc8d5c4s2h", "bo"),  # the ace is high: A-5-4-3-2 is no straight, just ace high
        ("3c4d5h6s7c", "8c6d5s4h3d", "bo"),  # a straight counts against a hand
        ("2h4h5h6h8h", "9c6d5s4c3d", "bo"),  # so does a flush
        ("7c5d4h3s2c", "7d6c4s3h2d", "ana"),  # 7-5-4-3-2 is the best hand
    ],
)
def test_v14_deuce_seven_ace_is_high_and_straights_count(ana: str, bo: str, winner: str) -> None:
    state = check_down(to_the_draw(draw_hand("N2L1D", ana, bo)))
    loser = "bo" if winner == "ana" else "ana"
    assert final(state) == {winner: 1020, loser: 980}


def test_v14_single_draw_is_played_as_five_card_draw() -> None:
    game = variant("N2L1D")
    assert game.hole_cards == 5 and [street.draw for street in game.streets] == [False, True]
    state = to_the_draw(start("N2L1D", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK))
    assert to_act(state) == "bo"  # the draw starts left of the button


def test_v14_triple_draw_has_three_draws_and_four_fixed_limit_rounds() -> None:
    game = variant("F2L3D")
    assert game.betting is BettingStructure.FIXED_LIMIT
    assert [street.draw for street in game.streets] == [False, True, True, True]
    state = start("F2L3D", (1000, 1000), blinds=(10, 20), deck=DECK)
    draws_seen = 0
    while not state.finished:
        if state.drawing:
            draws_seen += 1
            while state.drawing:
                state = act(state, state.actor, "standpat")
        else:
            state = to_the_draw(state) if state.street == 0 else act(state, state.actor, "check")
    assert draws_seen == 3


# -- V15: badugi --------------------------------------------------------------------
def badugi_showdown(ana: str, bo: str) -> dict[str, int]:
    return final(check_down(to_the_draw(draw_hand("NB", ana, bo))))


def test_v15_badugi_four_card_beats_three_card() -> None:
    assert badugi_showdown("KsQhJdTc", "As2h3d3c") == {"ana": 1020, "bo": 980}


def test_v15_the_lowest_badugi_wins() -> None:
    assert badugi_showdown("2s3h4d5c", "As2h3d4c") == {"ana": 980, "bo": 1020}


def test_v15_without_a_badugi_the_best_three_card_hand_wins_and_so_on() -> None:
    assert badugi_showdown("As2h3d4d", "2s3s4s5h") == {"ana": 1020, "bo": 980}  # three cards beat two
    assert badugi_showdown("2s3s4s5s", "Ks Kh Kd Kc") == {"ana": 1020, "bo": 980}  # one card: the deuce beats a king


def test_v15_badugi_deals_four_cards_and_up_to_three_draws() -> None:
    game = variant("FB")
    assert game.hole_cards == 4 and sum(street.draw for street in game.streets) == 3
    state, _ = start_events("FB", (1000, 1000), blinds=(10, 20), deck=DECK)
    assert [held(state, seat) for seat in range(2)] == ["2s2h2d2c", "3s3h3d3c"]


def test_v15_the_draw_rules_apply_to_badugi() -> None:
    state = to_the_draw(start("FB", (1000, 1000), blinds=(10, 20), deck=DECK))
    assert illegal(state, "bo", "discard", None, "2s") == "cannot discard 2s: bo does not hold it"
    state, events = play_events(state, ("bo", "discard", None, "3s3h3d"), ("ana", "standpat"))
    assert draws(events) == [("bo", "3s3h3d", "4s4h4d"), ("ana", "", "")]
