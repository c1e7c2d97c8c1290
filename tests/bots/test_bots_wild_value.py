"""The solved value of chips against a card-independent player (bots/wild_value.py)
and ``hard``'s play on it against a player who moves all-in every hand."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from freezeout.bots import get_bot
from freezeout.bots.classes import CLASS_NAMES
from freezeout.bots.hard import WILD_EDGE
from freezeout.bots.ranges import equity_vs_random
from freezeout.bots.reads import wild_seats
from freezeout.bots.versus_solved import solution_is_exact
from freezeout.bots.wild_value import WildProfile, profile_of, solved_edge, wild_value
from freezeout.cards import parse_cards, shuffled_deck
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import seat_view

A = ActionKind
JAMMER = WildProfile(shove=1.0, big=0.0, fold=0.0, call=1.0)
TOTAL = 2000


def _even(profile: WildProfile, hand: int = 1) -> float:
    solved = wild_value(profile, TOTAL)
    return (solved.at(TOTAL / 2, hand, True) + solved.at(TOTAL / 2, hand, False)) / 2


def test_the_solution_is_a_chance_of_winning_that_grows_with_the_chips() -> None:
    for profile in (JAMMER, WildProfile(0.25, 0.25, 0.25, 0.5), WildProfile(0.0, 0.0, 0.0, 0.0)):
        solved = wild_value(profile, TOTAL)
        assert np.all(solved.table[:, :, 0] == 0.0) and np.all(solved.table[:, :, -1] == 1.0)
        assert np.all(np.diff(solved.table, axis=2) >= -1e-12)


def test_against_an_always_all_in_player_nobody_wins_much_more_than_three_games_in_five() -> None:
    """Against a jammer push or fold is the whole game, so the solution is its
    exact best response: about 60.5 % from even stacks (pushing and calling
    from about 0.6 equity against a random hand at the first level)."""
    assert _even(JAMMER) == pytest.approx(0.605, abs=0.005)
    assert (
        0.5 < _even(JAMMER, hand=19) < _even(JAMMER, hand=7) < _even(JAMMER)
    )  # the edge shrinks with the blinds


def test_a_player_who_gives_everything_up_is_beaten_almost_surely() -> None:
    assert _even(WildProfile(shove=0.0, big=0.0, fold=1.0, call=0.0)) > 0.99


def test_a_player_who_folds_more_leaves_a_bigger_edge() -> None:
    wilder, folder = WildProfile(0.5, 0.0, 0.0, 1.0), WildProfile(0.25, 0.0, 0.25, 0.5)
    assert _even(JAMMER) < _even(wilder) < _even(folder)


def _facing_a_jammer(button_hand: str, *, earlier: int = 4) -> Tournament:
    """Hand ``earlier + 1`` of a heads-up freezeout in which seat 1 has moved
    all-in at its every turn and seat 0 limped with the button and folded to
    the shove (so every hand showed seat 1's first move); seat 0 holds ``button_hand``."""
    rng = random.Random(5)
    t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=0))
    for _ in range(earlier):
        t, _ = t.deal_deck(shuffled_deck(rng))
        limped = False
        while t.in_hand:
            if t.to_act == 1:
                t, _ = t.act(Action(1, A.ALLIN))
            else:
                t, _ = t.act(Action(0, A.FOLD if limped or t.button != 0 else A.CALL))
                limped = True
    hole = {0: tuple(parse_cards(button_hand)), 1: tuple(parse_cards("2c6c"))}
    t, _ = t.deal(hole, tuple(parse_cards("3s4s9hTdQc")))
    return t


def _equity(name: str) -> float:
    return float(equity_vs_random()[CLASS_NAMES.index(name)])


def test_the_jammer_is_read_as_card_independent_and_its_rates_as_shoving() -> None:
    view = seat_view(_facing_a_jammer("AhJd"), 0)
    assert wild_seats(view, (1,))
    profile = profile_of(view, 1)  # four first moves seen, all shoves: past the prior
    uniform = WildProfile(shove=0.25, big=0.25, fold=0.25, call=0.5)  # the prior: every move alike
    assert profile.shove > 0.7 and profile.fold < uniform.fold and profile.big < uniform.big
    assert solution_is_exact(profile)  # no limped pots against it: hard plays the solution


def test_hard_calls_a_jammers_shove_with_what_the_solution_calls_with() -> None:
    """AJo (about 0.64 against a random hand) calls a jammer's shove early on:
    against a player who shoves everything there are no better spots to wait
    for.  ``hard-v1``'s assumed edge folds it."""
    assert 0.61 < _equity("AJo") < 0.66
    t = _facing_a_jammer("AhJd", earlier=3)
    assert t.to_act == 1  # the jammer has the button, acts first, and moves in
    t, _ = t.act(Action(1, A.ALLIN))
    view = seat_view(t, 0)
    assert get_bot("hard").act(view, random.Random(1)).kind in (A.CALL, A.ALLIN)
    assert get_bot("hard-v1").act(view, random.Random(1)).kind is A.FOLD


def test_hard_keeps_its_edge_against_the_uniform_mover_and_drops_it_against_a_jammer() -> None:
    """``hard`` assumes at most :data:`WILD_EDGE` (``hard-v1``'s, tuned against
    ``random``); against a player who shoves every hand the solved edge is
    about 0.85, the value of a freezeout from even stacks being 60.5 %."""
    uniform = WildProfile(shove=0.25, big=0.25, fold=0.25, call=0.5)
    assert solved_edge(uniform, TOTAL) > WILD_EDGE
    assert solved_edge(JAMMER, TOTAL) == pytest.approx(2 * math.log(0.605 / 0.395), abs=0.05)


def test_hard_does_not_limp_into_a_jammer_with_a_hand_it_would_fold() -> None:
    """With the button and a hand below the calling line, completing the small
    blind only pays a big blind to fold to the shove that always comes: the
    solution folds it, and moves in with one above the line."""
    assert _equity("T7o") < 0.5 < 0.6 < _equity("AJo")
    t = _facing_a_jammer("Th7d")
    assert t.to_act == 0  # four hands on, seat 0 has the button again
    assert get_bot("hard").act(seat_view(t, 0), random.Random(1)).kind is A.FOLD
    t = _facing_a_jammer("AhJd")
    assert get_bot("hard").act(seat_view(t, 0), random.Random(1)).kind in (A.CALL, A.ALLIN)
