"""Seven-card stud, stud hi/lo and razz, rule by rule (rules.md V7–V10, V3's
stud rounds, V17 in stud, and the engine's readings of V7 and V9).

Every hand uses the first level of the rulebook's stud schedule (V18,
formats.md): ante 2, bring-in 5, bets of 20 and 40.  Each player's cards
are written in dealing order, ``"down down up  up up up  down"``: third
street's third card and fourth to sixth street are face up.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

from freezeout.cards import full_deck
from freezeout.rules import Action, ActionKind, HandState, IllegalAction, Tournament, TournamentConfig
from freezeout.rules.events import StreetDealt
from freezeout.rules.tournament import default_levels
from freezeout.rules.variant import variant

from varianthelpers import (
    NAMES,
    act,
    act_events,
    awards,
    behind,
    cards,
    check_down,
    final,
    illegal,
    moves_of,
    play,
    play_events,
    refused,
    shown_order,
    start,
    to_act,
)

LEVEL = {"ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}


def stud(code: str, *hands: str, stacks: Sequence[int] = ()) -> HandState:
    return start(code, tuple(stacks) or (500,) * len(hands), hole=hands, **LEVEL)


def with_downs(*ups: str) -> tuple[str, ...]:
    """Seven cards per player around the given up-cards (third street's
    first, then up to three more): the other cards come from the rest of the
    deck, lowest first (they decide nothing in these tests)."""
    used = set(cards("".join(ups)))
    spare = [card for card in reversed(full_deck()) if card not in used]

    def take(n: int) -> str:
        return "".join(str(spare.pop()) for _ in range(n))

    return tuple(f"{take(2)} {up[:2]} {up[2:]}{take(4 - len(up) // 2)} {take(1)}" for up in ups)


def finish_third(state: HandState) -> HandState:
    """The bring-in is posted and everyone calls it."""
    state = act(state, state.actor, "bringin")
    while state.street == 0 and not state.finished:
        state = act(state, state.actor, "call")
    return state


def check_to(state: HandState, street: int) -> HandState:
    """Check every later round until ``street`` (0 = third street) begins."""
    if state.street == 0:
        state = finish_third(state)
    while state.street < street:
        state = act(state, state.actor, "check")
    return state


def sizes(state: HandState) -> tuple[int, ...]:
    legal = state.legal_actions()
    assert legal is not None
    return legal.sizes


# -- V7: antes and the bring-in ---------------------------------------------------
def test_v7_no_button_no_blinds_every_player_posts_an_ante() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    assert behind(state) == {"ana": 498, "bo": 498, "cy": 498}
    assert state.bets == (0, 0, 0)
    with pytest.raises(Exception, match=r"has no blinds: antes and a bring-in \(V7\)"):
        start("F7S", (500, 500), blinds=(5, 10), hole=with_downs("5h9c8c7c", "2dKsQsJs"), **LEVEL)


@pytest.mark.parametrize(
    ("ups", "brings_in"),
    [
        (("5h", "2d", "2c", "Ks"), "cy"),  # equal deuces: clubs lowest
        (("2s", "2h", "9c", "2d"), "di"),  # diamonds below hearts and spades
        (("2s", "3c", "Ac", "2h"), "di"),  # hearts below spades
        (("Ac", "3d", "Kh", "4s"), "bo"),  # the ace is high
    ],
)
def test_v7_bring_in_by_lowest_up_card_clubs_lowest(ups: tuple[str, ...], brings_in: str) -> None:
    state = stud("F7S", *with_downs(*ups))
    assert to_act(state) == brings_in
    legal = state.legal_actions()
    assert legal is not None and legal.moves == ("bringin", "complete")
    assert (legal.bring_in, legal.min_to) == (5, 20)  # the bring-in, or a completion to the small bet


def test_v7_bring_in_may_complete() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    state, events = act_events(state, "bo", "complete")
    assert moves_of(events) == [("bo", "complete", 20)]
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "cy" and (legal.call_amount, legal.sizes) == (20, (40,))


def test_v7_after_the_bring_in_the_next_player_calls_it_or_completes() -> None:
    state = act(stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d")), "bo", "bringin")
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "cy"
    assert legal.moves == ("fold", "call", "complete") and (legal.call_amount, legal.sizes) == (5, (20,))
    assert illegal(state, "cy", "raise", 20) == "cannot raise: the bet of 5 is not a full bet; complete it instead"
    state = play(state, ("cy", "call"), ("ana", "call"))
    assert state.street == 1 and behind(state) == {"ana": 493, "bo": 493, "cy": 493}


def test_v7_bring_in_cannot_fold() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    assert refused(state, "bo", "fold") == "the bring-in is forced: bring in (5) or complete (20), not fold"
    assert refused(state, "bo", "check") == "the bring-in is forced: bring in (5) or complete (20), not check"


def test_v7_a_bring_in_by_the_wrong_seat_is_refused() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    assert refused(state, "ana", "bringin") == "it is bo's turn, not ana's"
    assert refused(state, "cy", "complete") == "it is bo's turn, not cy's"


def test_v7_a_bring_in_by_the_wrong_seat_leaves_the_tournament_unchanged() -> None:
    game = variant("F7S")
    t = Tournament.start(TournamentConfig(players=("ana", "bo", "cy"), variant=game, levels=default_levels(game)))
    t, _ = t.deal_deck(full_deck())  # 2s2h 2d | 2c3s 3h | 3d3c 4s: ana's 2d brings in
    before = copy.deepcopy(t)
    with pytest.raises(IllegalAction) as error:
        t.act(Action(1, ActionKind.BRINGIN))
    assert str(error.value) == "it is ana's turn, not bo's" and t == before


def test_v7_a_forfeited_bring_in_turn_posts_the_bring_in() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    state, events = act_events(state, "bo", "timeout")
    assert moves_of(events) == [("bo", "bringin", 5)]
    assert to_act(state) == "cy" and behind(state)["bo"] == 493


def test_v7_a_stack_no_more_than_the_bring_in_posts_it_all_in() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"), stacks=(500, 6, 500))
    legal = state.legal_actions()
    assert legal is not None and legal.moves == ("bringin", "allin") and legal.bring_in == 4
    state, events = act_events(state, "bo", "bringin")
    assert moves_of(events) == [("bo", "bringin", 4)] and behind(state)["bo"] == 0


def test_v7_a_stack_no_more_than_a_completion_may_go_all_in_as_a_completion() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"), stacks=(500, 17, 500))
    legal = state.legal_actions()
    assert legal is not None and legal.moves == ("bringin", "complete", "allin")
    state, events = act_events(state, "bo", "allin")
    assert moves_of(events) == [("bo", "complete", 15)] and behind(state)["bo"] == 0
    # 15 is more than half the small bet: a full completion, the next raise is to 35.
    assert sizes(state) == (35,)


def test_v7_all_in_above_a_completion_is_refused_at_the_bring_in() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    assert refused(state, "bo", "allin") == "cannot go all-in: bring in (5) or complete (20) (V7)"


def test_v7_the_next_seat_brings_in_when_the_bring_in_player_is_all_in_from_the_ante() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d", "Ac8s7s6s"), stacks=(500, 2, 500, 500))
    assert behind(state) == {"ana": 498, "bo": 0, "cy": 498, "di": 498}
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "cy" and legal.bring_in == 5


def test_v7_a_resigned_bring_in_player_leaves_the_next_seat_to_open() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    state = act(state, "bo", "resign")
    legal = state.legal_actions()
    assert legal is not None and to_act(state) == "cy" and legal.moves == ("fold", "check", "bet")
    assert legal.sizes == (20,)


# -- V3 in stud: sizes and the cap ---------------------------------------------------
def test_v3_stud_bets_small_on_third_and_fourth_street_and_big_from_fifth() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d"))
    assert sizes(state) == (20,)  # third street: a completion to the small bet
    seen: dict[int, tuple[int, ...]] = {}
    state = finish_third(state)
    while not state.finished:
        seen.setdefault(state.street, sizes(state))
        state = act(state, state.actor, "check")
    assert seen == {1: (20,), 2: (40,), 3: (40,), 4: (40,)}


def test_v3_stud_bring_in_is_not_a_bet_the_completion_is() -> None:
    state = stud("F7S", *with_downs("5h9c8c7c", "2dKsQsJs", "9d4s3s6d", "Ac8s7s6s"))
    state = play(state, ("bo", "bringin"), ("cy", "complete"), ("di", "raise", 40), ("ana", "raise", 60), ("bo", "raise", 80))
    legal = state.legal_actions()
    # A completion and three raises: capped, although four raises were made over the bring-in.
    assert legal is not None and to_act(state) == "cy" and not legal.can_raise
    assert legal.no_raise_reason == "the betting is capped: a bet and 3 raises"


# -- V7: who acts first from fourth street -------------------------------------------
def test_v7_best_showing_hand_acts_first_from_fourth_street() -> None:
    # Fourth street: ana shows 9c-9h, bo 2d-As, cy Kd-Qs.
    state = stud("F7S", *with_downs("9c9h8c7c", "2dAsQhJs", "KdQs3s6d"))
    state = check_to(state, 1)
    assert to_act(state) == "ana"
    state = play(state, ("ana", "check"), ("bo", "check"), ("cy", "check"))
    # Fifth street: ana 9c9h8c, bo 2dAsQh, cy KdQs3s: the pair still opens.
    assert state.street == 2 and to_act(state) == "ana"


@pytest.mark.parametrize(
    ("ana", "bo", "opens"),
    [
        ("9hThJhQh", "2s2h6c8c", "bo"),  # a pair beats a showing four-flush and four-straight
        ("5s5h6c6d", "4s4h4d9c", "bo"),  # three of a kind beats two pair
        ("8s8h8d8c", "AsAhAdKc", "ana"),  # four of a kind beats three
        ("5s5h6c6d", "AsAhKdQc", "ana"),  # two pair beats a pair
        ("3s3h2c4d", "AsKhQdJc", "ana"),  # a pair beats high cards
        ("AsKh9d7c", "AdKs9c8h", "bo"),  # high cards compare from the top down
        ("7s8s9sTs", "2h2d3c4c", "bo"),  # no straight flush with four up-cards
    ],
)
def test_v7_showing_hands_rank_without_straights_or_flushes(ana: str, bo: str, opens: str) -> None:
    state = check_to(stud("F7S", *with_downs(ana, bo)), 3)  # sixth street: four up-cards each
    assert to_act(state) == opens


def test_v7_equal_showing_hands_the_first_from_seat_one_acts_first() -> None:
    # Fourth street: bo and cy both show K-5; cy's suits are higher, but bo sits first.
    state = stud("F7S", *with_downs("2c3d9h8h", "Kc5c8s7s", "Ks5s9c6d"))
    state = check_to(state, 1)
    assert to_act(state) == "bo"


# -- V7: dealing ---------------------------------------------------------------
def test_v7_fourth_fifth_and_sixth_street_face_up_seventh_face_down() -> None:
    state = check_to(stud("F7S", *with_downs("9c9h8c7c", "2dAsQhJs")), 4)
    assert state.up == ((False, False, True, True, True, True, False),) * 2
    assert [len(held) for held in state.cards] == [7, 7]


def test_v7_up_to_eight_players() -> None:
    deck = "".join(str(card) for card in full_deck())
    assert stud_from_deck(deck, 8).seat_count == 8
    with pytest.raises(Exception, match="played by 2 to 8 players, got 9"):
        stud_from_deck(deck, 9)


def stud_from_deck(deck: str, players: int, *, stacks: int = 500) -> HandState:
    return start("F7S", (stacks,) * players, deck=deck, **LEVEL)


def deck_by_streets(third: Sequence[str], fourth: str, fifth: str, sixth: str, rest: str) -> str:
    """A deck in dealing order: third street's three cards per seat, then one
    card per seat for each of fourth, fifth and sixth street, then the rest."""
    return "".join(third) + fourth + fifth + sixth + rest


def test_v7_shared_card_when_the_deck_runs_short() -> None:
    # Eight players go all-in on third street; after sixth street 48 cards are
    # out and four are left: one shared card, the next in the deck, is turned
    # face up for everyone.  ana's three kings become four with it; without
    # it bo's three aces, and hal's queen-high straight, would beat them.
    deck = deck_by_streets(
        third=["KsKh2c", "AsAh3d", "4c5d6h", "7c8d9h", "Tc Jd Qh", "2d 3h 4s", "5s 6d 7h", "8s 9d Th"],
        fourth="Kd" "Ad" "3c" "4d" "5h" "6s" "9s" "Js",
        fifth="3s" "5c" "6c" "Td" "Jh" "Qs" "2h" "Qd",
        sixth="4h" "7d" "8h" "9c" "Ts" "Jc" "Qc" "2s",
        rest="Kc" "Ac" "7s" "8c",
    )
    state = start("F7S", (22,) * 8, deck=deck, **LEVEL)
    assert to_act(state) == "ana"  # 2c is the lowest up-card
    state, events = play_events(state, ("ana", "allin"), *((name, "call") for name in NAMES[1:8]))
    assert state.finished
    seventh = [e for e in events if isinstance(e, StreetDealt) and e.street == "seventh street"]
    assert seventh == [StreetDealt("seventh street", cards("Kc"))]
    assert state.board == cards("Kc") and all(len(held) == 6 for held in state.cards)
    assert final(state) == {"ana": 176, **{name: 0 for name in NAMES[1:8]}}


def test_v7_shared_card_is_decided_from_the_cards_left_in_the_deck() -> None:
    # Eight players, one folds on sixth street: seven are left for seventh
    # street but only four cards remain, so they share one (no card is burned).
    deck = "".join(str(card) for card in full_deck())
    state = stud_from_deck(deck, 8)
    state = check_to(state, 3)
    state = act(state, state.actor, "bet", 40)
    folder = state.actor
    state = act(state, folder, "fold")
    while state.street == 3:
        state = act(state, state.actor, "call")
    assert state.street == 4 and state.board == (full_deck()[48],)
    assert len(state.cards[folder]) == 6 and all(len(held) == 6 for held in state.cards)


def test_v7_seventh_cards_are_dealt_while_the_deck_lasts() -> None:
    # Eight players, one folds on third street: 24 + 7 * 3 = 45 cards are out
    # at seventh street and seven remain, one for each player still in.
    deck = "".join(str(card) for card in full_deck())
    state = stud_from_deck(deck, 8)
    state = act(state, state.actor, "complete")
    folder = state.actor
    state = act(state, folder, "fold")
    while state.street == 0:
        state = act(state, state.actor, "call")
    state = check_to(state, 4)
    assert state.board == ()
    assert [len(held) for seat, held in enumerate(state.cards) if seat != folder] == [7] * 7
    assert len(state.cards[folder]) == 3


def test_v7_each_hand_is_the_best_five_of_seven() -> None:
    # ana: a flush in spades from her two first down cards, two up-cards and
    # the last down card; bo: a pair of aces.
    state = stud("F7S", "As9s 2s  Ad Kc 5s  3s", "Ah8d 4c  Ac Kd Qc  7h")
    state = check_down(finish_third(state))
    assert final(state) == {"ana": 500 + 7, "bo": 500 - 7}


def test_v7_open_pair_on_fourth_allows_the_big_bet() -> None:
    state = check_to(stud("F7S", "2c3d 9h  9c Kc Qs 4d", "Ah8d 4c  Ac Kd Qc 7h", "5s6s Th  2h Ks Jd 3c"), 1)
    assert to_act(state) == "ana" and sizes(state) == (20, 40)
    state = act(state, "ana", "bet", 40)
    assert sizes(state) == (80,)  # after the big bet, raises are big too
    state = play(state, ("bo", "call"), ("cy", "call"))
    assert state.street == 2 and behind(state) == {"ana": 453, "bo": 453, "cy": 453}


def test_v7_without_an_open_pair_fourth_street_bets_small() -> None:
    state = check_to(stud("F7S", "2c3d 9h  8c Kc Qs 4d", "Ah8d 4c  Ac Kd Qc 7h", "5s6s Th  2h Ks Jd 3c"), 1)
    assert sizes(state) == (20,)
    assert illegal(state, state.actor, "bet", 40) == "bet to 40 is not a fixed-limit size: bet to 20"


# -- V8: stud hi/lo ------------------------------------------------------------
def test_v8_stud_hi_lo_bring_in_ace_high_and_no_open_pair_big_bet() -> None:
    state = stud("F7S/8", "2c3d Ac  9c Kc Qs 4d", "Ah8d 3h  2h Kd Qc 7h", "5s6s Th  Tc Ks Jd 3c")
    assert to_act(state) == "bo"  # 3h, not the ace, is the lowest up-card
    state = finish_third(state)
    assert to_act(state) == "cy"  # cy's open pair of tens opens fourth street …
    assert sizes(state) == (20,)  # … but allows no big bet in hi/lo


def test_v8_stud_hi_lo_splits_each_pot_between_high_and_low() -> None:
    # ana: 7-5-4-2-A low; bo: kings, no low; cy: two pair.  ana's 7d brings in
    # and the others call: pot 3 * 2 + 3 * 5 = 21, high 11 to bo, low 10 to ana (V6).
    state = stud("F7S/8", "As2c 7d  Kh 4c 9s  5h", "KcKd 8d  Ks Jh Qd  Th", "3s3c Tc  Td 6s 6h  9c")
    assert to_act(state) == "ana"
    state = check_down(finish_third(state))
    assert final(state) == {"ana": 493 + 10, "bo": 493 + 11, "cy": 493}


# -- V9: odd chips without a button --------------------------------------------------
@pytest.mark.parametrize(
    ("ana", "bo", "odd_chip"),
    [
        # Both play 5-6-7-8-9; the highest card of all of a player's cards decides.
        ("5s6h 7d  8c 9s Kc  3c", "5h6d 7c  8s 9h Kd  3d", "bo"),  # kings: diamonds above clubs
        ("5s6h 7d  8c 9s Ks  3c", "5h6d 7c  8s 9h Kd  3d", "ana"),  # spades highest
        ("5s6h 7d  8c 9s 2c  3c", "5h6d 7c  8s 9h Kd  3d", "bo"),  # bo's king does not play, but counts
        ("5s6h 7d  8c 9s 2c  3c", "5h6d 7c  8s 9h 2s  3d", "ana"),  # nines: spades above hearts
    ],
)
def test_v9_stud_odd_chip_to_the_highest_card_by_suit(ana: str, bo: str, odd_chip: str) -> None:
    # cy's 2d brings in and ana and bo call: a pot of 3 * 2 + 3 * 5 = 21; cy's jacks lose.
    state = stud("F7S", ana, bo, "JhTd 2d  Qd 4s Ah  Jc")
    assert to_act(state) == "cy"
    state = check_down(finish_third(state))
    other = "bo" if odd_chip == "ana" else "ana"
    assert final(state) == {odd_chip: 493 + 11, other: 493 + 10, "cy": 493}


def test_v9_razz_odd_chip_counts_the_ace_high() -> None:
    # ana and bo both make 5-4-3-2-A.  Counted high, ana's ace of spades is the
    # highest card of the two hands (counted low, bo's king would be).
    state = stud("FR", "As2c 3d  4h 5c 7s  8d", "Ad2s 3h  4c 5h Kd  Qs", "KhQh Kc  Qc Jh Js  Th")
    assert to_act(state) == "cy"  # the king is the highest up-card
    state = check_down(finish_third(state))
    assert final(state) == {"ana": 493 + 11, "bo": 493 + 10, "cy": 493}


def test_v9_stud_hi_lo_odd_chip_within_a_half() -> None:
    # ana and bo tie for high and for low (8-7-6-5-4 is both their straight and
    # their low); cy has nothing.  Pot 21: high 11, low 10; each half splits,
    # and each odd chip goes to bo, whose Kd outranks ana's Kc.
    state = stud("F7S/8", "4s5h 6d  7c 8s Kc  Jc", "4h5d 6c  7s 8h Kd  Jd", "JhTd 2d  Qd 3s Ah  9c")
    assert to_act(state) == "cy"
    state = check_down(finish_third(state))
    assert final(state) == {"ana": 493 + 5 + 5, "bo": 493 + 6 + 5, "cy": 493}


# -- V10: razz -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("ups", "brings_in"),
    [
        (("Kc", "Ah", "Qs"), "ana"),  # the king is highest, the ace lowest
        (("Kc", "Ks", "Qs"), "bo"),  # equal kings: spades highest
        (("Ac", "2d", "3h"), "cy"),  # the ace is low
    ],
)
def test_v10_razz_highest_up_card_brings_in_king_high_ace_low(ups: tuple[str, ...], brings_in: str) -> None:
    state = stud("FR", *with_downs(*ups))
    assert to_act(state) == brings_in
    legal = state.legal_actions()
    assert legal is not None and legal.moves == ("bringin", "complete")


def test_v10_razz_lowest_showing_hand_acts_first() -> None:
    # Fourth street: ana shows 2-2 (a pair), bo A-3, cy K-4.
    state = check_to(stud("FR", *with_downs("2c2dTsJs", "Ah3cTdJd", "Kh4sTcJc")), 1)
    assert to_act(state) == "bo"
    state = play(state, ("bo", "check"), ("cy", "check"), ("ana", "check"))
    # Fifth street: ana 2-2-T, bo A-3-T, cy K-4-T: bo still opens.
    assert state.street == 2 and to_act(state) == "bo"


def test_v10_razz_is_ace_to_five_low_without_a_qualifier() -> None:
    # ana: A-2-3-4-5, a straight that does not count; bo: 6-4-3-2-A.
    state = stud("FR", "As2c 3d  4h 5s Kc  Kd", "Ah2d 3c  4s 6d Qc  Qd")
    assert final(check_down(finish_third(state))) == {"ana": 507, "bo": 493}
    # Nobody has an eight or better: the lower hand still wins (no qualifier).
    state = stud("FR", "KsQc Jd  9h 9s Kc  Kd", "KhQd Jc  Th 9c Qh  Qs")
    assert final(check_down(finish_third(state))) == {"ana": 493, "bo": 507}


def test_v10_razz_open_pair_allows_no_big_bet() -> None:
    state = check_to(stud("FR", "2c3d 9h  9c Kc Qs 4d", "Ah8d 4c  Ac Kd Qc 7h", "5s6s Th  2h Ks Jd 3c"), 1)
    assert sizes(state) == (20,)


# -- V17 in stud ----------------------------------------------------------------
# ana's straight (2-3-4-5-6) beats bo's ace high and cy's jacks.  Up-cards:
# ana 4h 5c 6d 9s, bo 7c Kd Qc Ts, cy Th 2d 3s 4s: bo's king opens every
# later round.
SHOWDOWN = ("2c3d 4h  5c 6d 9s  Ah", "Ac8d 7c  Kd Qc Ts  2h", "JhJd Th  2d 3s 4s  6h")


def test_v17_stud_shows_from_the_opener_of_the_last_round_when_nobody_bet() -> None:
    state = check_to(stud("F7S", *SHOWDOWN), 4)
    assert to_act(state) == "bo"
    state, events = play_events(state, ("bo", "check"), ("cy", "check"), ("ana", "check"))
    assert state.finished and shown_order(events) == ["bo", "cy", "ana"]
    assert awards(events) == [(0, "", 21, {"ana": 21})]


def test_v17_stud_shows_from_the_last_aggressor() -> None:
    state = check_to(stud("F7S", *SHOWDOWN), 4)
    state, events = play_events(state, ("bo", "check"), ("cy", "bet", 40), ("ana", "call"), ("bo", "call"))
    assert state.finished and shown_order(events) == ["cy", "ana", "bo"]
    assert final(state) == {"ana": 493 + 21 + 80, "bo": 453, "cy": 453}
