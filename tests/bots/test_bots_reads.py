"""Reads on opponents (bots/reads.py) and ``hard``'s play against a
card-independent player (bots/versus_wild.py)."""

from __future__ import annotations

import random

import pytest

from freezeout.bots import get_bot
from freezeout.bots.base import situation
from freezeout.bots.reads import WILD_PRIOR, WILD_READ, tells, wild_probability, wild_seats
from freezeout.bots.versus_wild import PREMIUM, call_pays, skill_utility, versus_wild
from freezeout.cards import parse_cards, shuffled_deck
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import CardsDealt
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import TableView, seat_view

A = ActionKind


def heads_up(button: int = 0) -> Tournament:
    return Tournament.start(TournamentConfig(players=("p0", "p1"), button=button))


def deal(t: Tournament, seed: int = 1) -> Tournament:
    deck = shuffled_deck(random.Random(seed))
    hole = {s: deck[2 * s : 2 * s + 2] for s in range(2) if t.alive[s]}
    t, _ = t.deal(hole, deck[4:9])
    return t


def play(t: Tournament, *moves: tuple[int, ActionKind, int | None]) -> Tournament:
    for seat, kind, amount in moves:
        t, _ = t.act(Action(seat, kind, amount))
    return t


# -- the table's public memory -------------------------------------------
def test_the_view_carries_every_earlier_hand_public_events_only() -> None:
    t = deal(heads_up())  # hand 1: p0 is the button and small blind (R5)
    t = play(t, (0, A.FOLD, None))
    t = deal(t, seed=2)
    view = seat_view(t, 1)
    assert len(view.past) == 1
    assert not any(isinstance(e, CardsDealt) for hand in view.past for e in hand)
    assert any(getattr(e, "kind", None) == "fold" for e in view.past[0])
    assert view.to_dict().keys() == seat_view(t, 0).to_dict().keys()  # not on the wire: protocol unchanged


# -- tells -------------------------------------------------------------------
def test_a_player_nobody_has_seen_has_the_prior() -> None:
    view = seat_view(deal(heads_up()), 0)
    assert wild_probability(view, 1) == pytest.approx(WILD_PRIOR)


def test_a_fifty_big_blind_shove_into_one_and_a_half_is_a_wild_size() -> None:
    t = play(deal(heads_up()), (0, A.ALLIN, None))  # 1000 chips at 10/20
    view = seat_view(t, 1)
    assert tells(view, 0).wild_sizes == 1
    assert wild_probability(view, 0) >= WILD_READ
    assert wild_seats(view, [0]) == {0}


def test_a_short_stack_shove_is_ordinary_poker() -> None:
    t = heads_up()
    for _ in range(12):  # blinds reach 40/80 at hand 13 (R6): 1000 chips are 12.5 big blinds
        t = deal(t)
        t = play(t, (t.to_act, A.FOLD, None))
    t = deal(t)
    shover = t.to_act
    t = play(t, (shover, A.ALLIN, None))
    view = seat_view(t, 1 - shover)
    assert tells(view, shover).wild_sizes == 0
    assert wild_probability(view, shover) < WILD_PRIOR


def test_folding_when_a_check_is_free_is_a_tell() -> None:
    t = play(deal(heads_up()), (0, A.CALL, None), (1, A.FOLD, None))  # big blind folds to a limp (D5)
    view = seat_view(deal(t, seed=3), 0)
    assert tells(view, 1).free_folds == 1
    assert wild_probability(view, 1) >= WILD_READ


def test_ordinary_sizes_and_calls_make_a_player_look_sound() -> None:
    t = play(deal(heads_up()), (0, A.RAISE, 60), (1, A.RAISE, 180), (0, A.CALL, None))
    view = seat_view(t, 1)
    assert tells(view, 0).ordinary == 2 and tells(view, 0).wild_sizes == 0
    assert wild_probability(view, 0) < WILD_PRIOR
    assert tells(view, 1).ordinary == 1


def test_the_random_bot_is_read_within_a_few_hands_and_medium_never() -> None:
    """Over real games, ``random`` is read as wild by the fourth hand in most
    games, and no view of ``medium`` ever crosses the line."""
    for opponent, expect_wild in (("random", True), ("medium", False)):
        reads = []
        for seed in range(12):
            rng = random.Random(seed)
            bots = {0: get_bot("station"), 1: get_bot(opponent)}
            t = heads_up(button=seed % 2)
            while not t.finished and t.hand_number < 4:
                deck = shuffled_deck(rng)
                t, _ = t.deal({s: deck[2 * s : 2 * s + 2] for s in range(2)}, deck[4:9])
                while t.in_hand:
                    view = seat_view(t, t.to_act)
                    t, _ = t.act(bots[t.to_act].act(view, rng))
            reads.append(wild_probability(seat_view(t, 0), 1) >= WILD_READ)
        if expect_wild:
            assert sum(reads) >= 9, reads
        else:
            assert not any(reads)


# -- play against a wild player ----------------------------------------------
def test_skill_utility_is_concave_from_nothing_to_everything() -> None:
    assert skill_utility(0.0) == 0.0 and skill_utility(1.0) == pytest.approx(1.0)
    for x in (0.1, 0.3, 0.5, 0.7, 0.9):
        assert skill_utility(x) > x  # an edge makes every share worth more than its chips
        assert skill_utility(x) > (skill_utility(x - 0.1) + skill_utility(x + 0.1)) / 2


def _facing_a_deep_shove(cards: str) -> TableView:
    t = heads_up()
    hole = {0: tuple(parse_cards("2c7d")), 1: tuple(parse_cards(cards))}
    board = tuple(parse_cards("3s4s9hTdQc"))
    t, _ = t.deal(hole, board)
    t = play(t, (0, A.ALLIN, None))
    return seat_view(t, 1)


def test_against_a_wild_shove_a_coin_flip_for_everything_is_passed_up() -> None:
    view = _facing_a_deep_shove("Ts9c")  # about even against a random hand
    s = situation(view)
    assert not call_pays(s, view, 0.52)
    assert versus_wild(s, view) == [(1.0, "fold", None)]


def test_against_a_wild_shove_a_big_favourite_calls() -> None:
    view = _facing_a_deep_shove("JhJd")  # about 0.77 against a random hand
    s = situation(view)
    assert call_pays(s, view, 0.77)
    assert versus_wild(s, view)[0][1] in ("allin", "passive")


def test_premium_hands_want_all_the_chips_in() -> None:
    t = deal(heads_up())
    view = seat_view(t, t.to_act)
    s = situation(view)
    plan = versus_wild(s, view, equity=PREMIUM + 0.01)
    assert plan == [(1.0, "allin", None)]
    plan = versus_wild(s, view, equity=0.45)
    assert plan == [(1.0, "passive", None)]  # the small blind completes: small pots with the rest


def test_hard_exploits_a_read_wild_player_and_plays_the_chart_otherwise() -> None:
    hard = get_bot("hard")
    view = _facing_a_deep_shove("Ts9c")  # the shover is read as wild at once
    assert hard.act(view, random.Random(1)).kind is ActionKind.FOLD
