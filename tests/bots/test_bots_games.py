"""Bots in every game (V1–V19): the levels :func:`bots_for_game` offers for a
game play it legally, deterministically and on their own seat's view only."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from freezeout.bots import bots_for_game, get_bot
from freezeout.bots.cash import play_session
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


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    from freezeout.cli import main

    assert main(["bot", "match", "--jobs", "1", "--json", "--seed", "3", *argv]) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_match_plays_a_freezeout_of_the_named_game(capsys: pytest.CaptureFixture[str]) -> None:
    document = _run(capsys, "--bots", "random,station", "--game", "FO/8", "--tournaments", "4")
    assert document["game"] == "FO/8" and document["tournaments"] == 4
    entries = document["entries"]
    assert isinstance(entries, list) and sum(e["wins"] for e in entries) == 4


def test_cash_sessions_report_big_blinds_per_100_hands_and_conserve_chips(capsys: pytest.CaptureFixture[str]) -> None:
    document = _run(
        capsys, "--bots", "random,station", "--game", "F7S", "--cash", "--hands", "40", "--session-hands", "20"
    )
    assert document["cash"] is True and document["sessions"] == 2 and document["stack_bb"] == 100
    entries = document["entries"]
    assert isinstance(entries, list) and [e["hands"] for e in entries] == [80, 80]
    assert abs(sum(e["bb_per_100"] for e in entries)) < 1e-9  # what one wins the other loses
    low, high = entries[0]["ci95"]
    assert low <= entries[0]["bb_per_100"] <= high


def test_cash_resets_stacks_every_hand() -> None:
    session = play_session(("random", "random"), seed=1, deal=0, rotation=0, game="NT", hands=30, stack=100)
    # random busts players every few hands; play goes on at full stacks
    assert session.hands == 30 and sum(session.decisions) > 30
    assert abs(sum(session.won)) < 1e-9 and all(abs(w) <= 30 * 100 for w in session.won)


def test_a_mix_cash_session_changes_game_every_six_hands_at_one_big_blind() -> None:  # V19, C1
    session = play_session(("hard", "station"), seed=3, deal=0, rotation=1, game="HORSE", hands=30, stack=100)
    assert session.games == ("FT", "FO/8", "FR", "F7S", "F7S/8")
    assert abs(sum(session.won)) < 1e-9 and all(abs(w) <= 30 * 100 for w in session.won)
    mixed = play_session(("random", "station"), seed=3, deal=0, rotation=0, game="8GAME", hands=48, stack=100)
    assert len(mixed.games) == 8 and abs(sum(mixed.won)) < 1e-9


def test_match_refuses_a_bot_that_does_not_play_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    from freezeout.cli import main

    assert main(["bot", "match", "--bots", "easy,random", "--game", "FR", "--tournaments", "2"]) == 2
    assert "easy does not play FR" in capsys.readouterr().err
    assert main(["bot", "match", "--bots", "random,station", "--game", "XX", "--tournaments", "2"]) == 2
    assert "unknown game" in capsys.readouterr().err


def test_the_house_models_play_only_a_table_that_has_dealt_nothing_but_the_house_game() -> None:
    from dataclasses import replace

    from freezeout.bots.game_bot import house_table
    from freezeout.rules.events import HandStarted

    _, view = next(game_points("NT", 1, 2, limit=1))
    assert house_table(view)
    stud_hand = (HandStarted(1, 0, 0, 0, (0, 1), (1000, 1000), 2, 5, 20, 40),)
    assert not house_table(replace(view, past=(stud_hand,)))  # a mix's hold'em hand (V19)
    _, fixed = next(game_points("FT", 1, 2, limit=1))
    assert not house_table(fixed)
