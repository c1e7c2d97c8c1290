"""Bots in every game (V1–V19): the levels :func:`bots_for_game` offers for a
game play it legally, deterministically and on their own seat's view only."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from freezeout.bots import bots_for_game, get_bot
from freezeout.bots.match import deck_of, play_tournament, shuffled, tournament_config
from freezeout.rules.games import MIXES
from freezeout.rules.tournament import Tournament
from freezeout.rules.variant import VARIANTS, UnsupportedVariant
from freezeout.rules.views import TableView, seat_view

GAMES = tuple(VARIANTS)
OTHER_GAMES = tuple(code for code in VARIANTS if code != "NT")


def game_points(code: str, seed: int, players: int, limit: int) -> Iterator[tuple[Tournament, TableView]]:
    """Decision points of a freezeout of ``code`` driven by the random bot."""
    rng = random.Random(seed)
    driver = get_bot("random")
    names = tuple(f"p{i}" for i in range(players))
    tournament = Tournament.start(tournament_config(code, names, button=rng.randrange(players)))
    count = 0
    while not tournament.finished and count < limit:
        cards = deck_of(code)
        tournament, _ = tournament.deal_deck(shuffled(cards, rng), shuffled(cards, rng))
        while tournament.in_hand and count < limit:
            view = seat_view(tournament, tournament.to_act)
            yield tournament, view
            count += 1
            tournament, _ = tournament.act(driver.act(view, rng))


def test_the_house_game_offers_the_whole_ladder() -> None:
    assert bots_for_game("NT") == ("random", "station", "easy", "medium", "hard")


@pytest.mark.parametrize("code", OTHER_GAMES + tuple(MIXES))
def test_every_game_offers_random_and_station_first_and_never_the_house_only_bots(code: str) -> None:
    levels = bots_for_game(code)
    assert levels[:2] == ("random", "station")
    assert "easy" not in levels


def test_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(UnsupportedVariant, match="unknown game"):
        bots_for_game("XYZ")


@pytest.mark.parametrize("code", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_offered_bots_act_legally_in_every_game(code: str, players: int) -> None:
    names = bots_for_game(code)
    for number, (tournament, view) in enumerate(game_points(code, 7 + players, players, limit=80)):
        for name in names:
            action = get_bot(name).act(view, random.Random(number))
            assert action.seat == view.viewer
            tournament.act(action)  # raises IllegalAction if the move is not legal


@pytest.mark.parametrize("code", GAMES)
def test_offered_bots_are_deterministic_in_every_game(code: str) -> None:
    for number, (_, view) in enumerate(game_points(code, 3, 3, limit=30)):
        for name in bots_for_game(code):
            bot = get_bot(name)
            assert bot.act(view, random.Random(number)) == bot.act(view, random.Random(number))


def test_random_draws_and_brings_in_and_station_stands_pat() -> None:
    kinds: dict[str, set[str]] = {"random": set(), "station": set()}
    for code in ("F2L3D", "F7S"):
        for number, (_, view) in enumerate(game_points(code, 5, 2, limit=200)):
            assert view.legal is not None
            if view.legal.draw or view.legal.bring_in:
                for name in kinds:
                    kinds[name].add(get_bot(name).act(view, random.Random(number)).kind.value)
    assert {"discard", "standpat", "bringin", "complete"} <= kinds["random"]
    assert kinds["station"] == {"standpat", "bringin"}


@pytest.mark.parametrize("code", GAMES)
def test_a_freezeout_of_every_game_ends_with_one_winner(code: str) -> None:
    result = play_tournament(("random", "station", "random"), seed=2, deal=0, rotation=1, game=code)
    assert sorted(result.places)[0] == 1 and set(result.places) <= {1, 2, 3}
