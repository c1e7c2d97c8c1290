"""V18: a level lasts 6 hands, or one orbit at a table that dealt more than 6
players at the level's start (rules.md V18); the house game (R1, R6) keeps 6."""

from __future__ import annotations

import random

import pytest

from freezeout.cards import full_deck
from freezeout.rules import Action, ActionKind
from freezeout.rules.games import MIXES
from freezeout.rules.levels import HANDS_PER_LEVEL, LevelClock, level_length
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import VARIANTS
from freezeout.rules.views import seat_view

NAMES = tuple(f"p{i}" for i in range(10))


def fold_round(t: Tournament, seed: int) -> Tournament:
    """Deal the next hand from a shuffled deck and fold (or check) it out."""
    deck = list(full_deck())
    random.Random(seed).shuffle(deck)
    t, _ = t.deal_deck(deck, reshuffle=tuple(reversed(deck)))
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        if legal.bring_in:
            action = Action(legal.seat, ActionKind.BRINGIN)
        elif legal.draw:
            action = Action(legal.seat, ActionKind.STANDPAT)
        else:
            action = Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)
        t, _ = t.act(action)
    return t


def freezeout(players: int, code: str = "NT", **options: object) -> Tournament:
    return Tournament.start(TournamentConfig(players=NAMES[:players], variant=VARIANTS[code], **options))  # type: ignore[arg-type]


def test_v18_level_length_is_six_hands_up_to_six_players_and_an_orbit_beyond() -> None:
    assert [level_length(n) for n in range(2, 11)] == [6, 6, 6, 6, 6, 7, 8, 9, 10]
    assert level_length(9, per_level=12) == 12  # a longer schedule still gives everyone the blinds
    assert HANDS_PER_LEVEL == 6


@pytest.mark.parametrize("players", [7, 9, 10])
def test_v18_at_a_table_of_more_than_six_each_level_lasts_one_orbit(players: int) -> None:
    t = freezeout(players)
    big_blinds: list[int] = []
    for hand in range(2 * players + 1):
        t = fold_round(t, hand)
        big_blinds.append(t.level(hand + 1).big_blind)
    assert big_blinds == [20] * players + [40] * players + [80]
    # every player posted each level's big blind once (the orbit)
    assert t.level_clock == LevelClock(2, 2 * players + 1, players)


def test_v18_a_level_lasts_as_many_hands_as_its_first_hand_dealt() -> None:
    t = freezeout(9)
    t = fold_round(t, 0)
    assert t.level_clock == LevelClock(0, 1, 9)
    # busting players in the middle of the level does not shorten it: the clock was set at its start
    t = fold_round(t, 1)
    assert t.hands_to_next_level() == 7
    view = seat_view(t, 0)
    assert (view.hands_per_level, view.level_number, view.hands_to_next_level) == (9, 1, 7)
    assert view.to_dict()["level_number"] == 1 and view.to_dict()["hands_per_level"] == 9


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_v18_r6_tables_of_six_or_fewer_keep_six_hands_a_level(players: int) -> None:
    t = freezeout(players)
    blinds = []
    for hand in range(13):
        t = fold_round(t, hand)
        blinds.append(t.level(hand + 1).big_blind)
    assert blinds == [20] * 6 + [40] * 6 + [80]


def test_v18_the_house_game_is_unchanged_at_four_players() -> None:
    t = Tournament.start(TournamentConfig(players=NAMES[:4]))
    for hand in range(7):
        t = fold_round(t, hand)
    assert t.hand_number == 7 and t.level().small_blind == 20 and t.level_clock == LevelClock(1, 7, 6)


def test_v18_v19_a_mix_at_eight_changes_game_with_each_orbit() -> None:
    t = Tournament.start(TournamentConfig(players=NAMES[:8], mix=MIXES["HORSE"]))
    games = []
    for hand in range(17):
        games.append(t.next_variant.code)
        t = fold_round(t, hand)
        assert t.variant.code == games[-1]
    assert games == ["FT"] * 8 + ["FO/8"] * 8 + ["FR"]
    assert t.following_variant.code == "F7S"


def test_v18_stud_at_eight_levels_last_eight_hands() -> None:
    t = freezeout(8, "F7S")
    antes = []
    for hand in range(9):
        t = fold_round(t, hand)
        antes.append(t.level().ante)
    assert antes == [2] * 8 + [4]
