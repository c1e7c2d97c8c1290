"""V19 mixed games: HORSE and the 8-game mix as freezeouts (R1–R30, V18).

The game changes with each level (every 6 hands), each game takes its
forced bets from the level's big blind, the table seats the smallest
maximum of the games, and the button freezes through stud games and then
moves on one seat from where it stood in the last button hand (WSOP 67b).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from freezeout.formats.phh_export import record_to_phh
from freezeout.formats.record import (
    FORMAT_2,
    PlayedHand,
    RecordError,
    RecordWriter,
    parse_record,
    replay_record,
)
from freezeout.formats.stars import record_to_stars
from freezeout.rules import Action, ActionKind, Tournament, TournamentConfig
from freezeout.rules.errors import InvalidInput
from freezeout.rules.events import Event, HandStarted, Resigned
from freezeout.rules.games import MIXES, Mix, max_seats, parse_game, tournament_config
from freezeout.rules.tournament import HOUSE_LEVELS, STUD_LEVELS, Level, game_level, stud_level
from freezeout.rules.variant import NLHE, VARIANTS, UnsupportedVariant
from freezeout.rules.views import seat_view
from freezeout.server.fairness import verify_record

from variantplay import choose

HORSE = MIXES["HORSE"]
EIGHT = MIXES["8GAME"]


def codes(mix: Mix, hands: range) -> list[str]:
    config = tournament_config(mix, ("a", "b", "c"), button=0)
    return [config.variant_for_hand(number).code for number in hands]


def passive_move(t: Tournament) -> Action:
    """Fold when anything is to pay, else check; bring in when forced; stand pat."""
    legal = t.legal_actions()
    assert legal is not None
    if legal.bring_in:
        return Action(legal.seat, ActionKind.BRINGIN)
    if legal.draw:
        return Action(legal.seat, ActionKind.STANDPAT)
    return Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)


def deal(t: Tournament, rng: random.Random) -> tuple[Tournament, list[Event]]:
    game = t.next_variant
    deck = list(game.deck)
    rng.shuffle(deck)
    order = list(game.deck)
    rng.shuffle(order)
    return t.deal_deck(deck, order if game.has_draws else ())


def play_passive(t: Tournament, hands: int, rng: random.Random) -> tuple[Tournament, list[HandStarted]]:
    started: list[HandStarted] = []
    for _ in range(hands):
        t, events = deal(t, rng)
        started.extend(e for e in events if isinstance(e, HandStarted))
        while t.in_hand:
            t, _ = t.act(passive_move(t))
    return t, started


# -- the games and their order ------------------------------------------------


def test_v19_horse_deals_its_five_games_in_order_six_hands_each_round_and_round() -> None:
    assert codes(HORSE, range(1, 7)) == ["FT"] * 6
    assert codes(HORSE, range(1, 61, 6)) == ["FT", "FO/8", "FR", "F7S", "F7S/8"] * 2
    assert codes(HORSE, range(6, 8)) == ["FT", "FO/8"]  # the change comes after the 6th hand


def test_v19_eight_game_deals_its_eight_games_in_order() -> None:
    assert codes(EIGHT, range(1, 49, 6)) == ["F2L3D", "FT", "FO/8", "FR", "F7S", "F7S/8", "NT", "PO"]
    assert codes(EIGHT, range(49, 50)) == ["F2L3D"]  # and again after the last level holds


def test_v19_the_game_keeps_changing_after_the_last_level() -> None:
    config = TournamentConfig(players=("a", "b"), mix=HORSE, levels=((10, 20), (20, 40)))
    assert [config.variant_for_hand(n).code for n in (1, 7, 13, 19)] == ["FT", "FO/8", "FR", "F7S"]
    assert config.hand_level(19) == stud_level(40)  # the last level holds, the game still changes


def test_v19_a_mix_is_named_by_its_code() -> None:
    assert parse_game("HORSE") is HORSE
    assert parse_game("8GAME") is EIGHT
    assert parse_game("FO/8") is VARIANTS["FO/8"]
    with pytest.raises(UnsupportedVariant, match="HORSE"):
        parse_game("HOSE")


# -- seats ---------------------------------------------------------------------


def test_v19_seat_counts_are_the_smallest_maximum_of_the_games() -> None:
    assert max_seats(HORSE) == 8  # the stud games seat 8
    assert max_seats(EIGHT) == 6  # 2-7 triple draw seats 6
    tournament_config(HORSE, [f"p{i}" for i in range(8)], button=0)
    with pytest.raises(InvalidInput, match="2 to 8 players, got 9"):
        tournament_config(HORSE, [f"p{i}" for i in range(9)], button=0)
    tournament_config(EIGHT, [f"p{i}" for i in range(6)], button=0)
    with pytest.raises(InvalidInput, match="2 to 6 players, got 7"):
        tournament_config("8GAME", [f"p{i}" for i in range(7)], button=0)


def test_v19_a_table_plays_a_game_or_a_mix_not_both() -> None:
    with pytest.raises(InvalidInput, match="one game or in a mix"):
        TournamentConfig(players=("a", "b"), variant=VARIANTS["PO"], mix=HORSE)
    assert TournamentConfig(players=("a", "b"), mix=HORSE).variant is VARIANTS["FT"]  # the first hand's


def test_v19_a_mix_needs_blinds_to_take_its_sizes_from() -> None:
    with pytest.raises(InvalidInput, match="level 2 of a mix needs blinds"):
        TournamentConfig(players=("a", "b"), mix=HORSE, levels=((10, 20), Level(ante=5, bring_in=10, small_bet=20, big_bet=40)))


# -- sizes: every game from the same big blind ---------------------------------


def test_v18_v19_stud_sizes_come_from_the_big_blind_in_stud_levels_proportions() -> None:
    assert tuple(stud_level(big) for _small, big in HOUSE_LEVELS) == STUD_LEVELS
    assert stud_level(20) == Level(ante=2, bring_in=5, small_bet=20, big_bet=40)
    assert stud_level(150) == Level(ante=15, bring_in=40, small_bet=150, big_bet=300)
    assert stud_level(10) == Level(ante=1, bring_in=5, small_bet=10, big_bet=20)
    assert stud_level(4) == Level(ante=0, bring_in=2, small_bet=4, big_bet=8)  # the bring-in stays below the bet (V7)


def test_v19_each_game_of_a_level_takes_its_sizes_from_the_same_big_blind() -> None:
    level = Level(40, 80)
    assert game_level(level, VARIANTS["NT"]) == Level(40, 80)
    assert game_level(level, VARIANTS["PO"]) == Level(40, 80)
    assert game_level(level, VARIANTS["FT"]) == Level(40, 80, small_bet=80, big_bet=160)
    assert game_level(level, VARIANTS["F2L3D"]) == Level(40, 80, small_bet=80, big_bet=160)
    assert game_level(level, VARIANTS["FR"]) == Level(ante=8, bring_in=20, small_bet=80, big_bet=160)


def test_v19_horse_levels_hand_by_hand() -> None:
    config = tournament_config(HORSE, ("a", "b", "c"), button=0)
    assert config.hand_level(1) == Level(10, 20, small_bet=20, big_bet=40)  # FT, R6 level 1
    assert config.hand_level(7) == Level(20, 40, small_bet=40, big_bet=80)  # FO/8, level 2
    assert config.hand_level(13) == Level(ante=8, bring_in=20, small_bet=80, big_bet=160)  # FR, level 3
    assert config.hand_level(19) == Level(ante=15, bring_in=40, small_bet=150, big_bet=300)  # F7S, level 4
    assert config.hand_level(25) == Level(ante=30, bring_in=75, small_bet=300, big_bet=600)  # F7S/8, level 5
    assert config.hand_level(31) == Level(300, 600, small_bet=600, big_bet=1200)  # FT again, level 6


def test_v19_eight_game_no_limit_and_pot_limit_play_the_blinds() -> None:
    config = tournament_config(EIGHT, ("a", "b"), button=0)
    assert config.hand_level(37) == Level(500, 1000)  # NT, level 7
    assert config.hand_level(43) == Level(500, 1000)  # PO, level 7 holds
    assert config.hand_level(1) == Level(10, 20, small_bet=20, big_bet=40)  # F2L3D


def test_v19_the_hands_are_dealt_at_their_games_sizes() -> None:
    t = Tournament.start(tournament_config(HORSE, ("a", "b", "c"), button=0, starting_stack=100_000))
    t, started = play_passive(t, 31, random.Random(5))
    by_number = {s.number: s for s in started}
    assert (by_number[1].small_blind, by_number[1].big_blind, by_number[1].small_bet) == (10, 20, 20)
    assert (by_number[13].ante, by_number[13].bring_in, by_number[13].small_bet, by_number[13].big_blind) == (8, 20, 80, 0)
    assert by_number[31].big_bet == 1200
    assert t.variant.code == "FT"


# -- the button -----------------------------------------------------------------


def test_v19_the_button_moves_in_button_games_freezes_through_stud_and_moves_one_seat_after() -> None:
    t = Tournament.start(tournament_config(HORSE, ("a", "b", "c"), button=1, starting_stack=100_000))
    t, started = play_passive(t, 37, random.Random(1))
    buttons = [s.button for s in started]
    assert buttons[:12] == [1, 2, 0] * 4  # FT, FO/8: clockwise every hand (R4)
    assert buttons[12:30] == [0] * 18  # FR, F7S, F7S/8: frozen where hand 12 left it
    assert buttons[30:37] == [1, 2, 0, 1, 2, 0, 1]  # FT: one seat on from the last button hand (67b)


def test_v19_eight_game_button_runs_through_draw_and_hold_em_then_freezes() -> None:
    t = Tournament.start(tournament_config(EIGHT, ("a", "b", "c", "d"), button=3, starting_stack=100_000))
    t, started = play_passive(t, 37, random.Random(2))
    buttons = [s.button for s in started]
    assert buttons[:18] == [3, 0, 1, 2] * 4 + [3, 0]  # F2L3D, FT, FO/8
    assert buttons[18:36] == [0] * 18  # FR, F7S, F7S/8
    assert buttons[36] == 1  # NT: one seat on


def test_v19_67b_when_the_frozen_button_player_is_eliminated_the_button_moves_to_the_next_player_in() -> None:
    t = Tournament.start(tournament_config(HORSE, ("a", "b", "c", "d"), button=0, starting_stack=100_000))
    t, started = play_passive(t, 12, random.Random(3))
    assert started[-1].button == 3  # hand 12's button: d
    t, _ = play_passive(t, 3, random.Random(4))  # razz hands: the button stays on d
    t, _ = t.act(Action(3, ActionKind.RESIGN))  # d resigns between stud hands (R28)
    t, more = play_passive(t, 15, random.Random(6))
    assert {s.button for s in more} == {3}  # still frozen where it stood
    assert not t.alive[3]
    t, back = play_passive(t, 2, random.Random(7))  # hand 31: fixed-limit hold'em again
    assert t.variant.code == "FT"
    assert [s.button for s in back] == [0, 1]  # d is out: the next seat in, a, then on


def test_v19_a_stud_hand_after_eliminations_still_deals_with_the_button_frozen() -> None:
    t = Tournament.start(tournament_config(HORSE, ("a", "b", "c"), button=0, starting_stack=100_000))
    t, _ = play_passive(t, 12, random.Random(8))
    frozen = t.button
    t, _ = t.act(Action(frozen, ActionKind.RESIGN))
    t, started = play_passive(t, 1, random.Random(9))
    assert started[0].button == frozen and t.variant.code == "FR"
    assert t.hand is not None and t.hand.setup.button == 0  # stud reads no button; the hand is dealt all the same


# -- the view -----------------------------------------------------------------


def test_v19_the_view_names_the_current_game_the_next_and_when_it_changes() -> None:
    t = Tournament.start(tournament_config(HORSE, ("a", "b"), button=0, starting_stack=100_000))
    before = seat_view(t, 0).to_dict()
    assert before["game"] == "FT"
    assert before["mix"] == {
        "code": "HORSE", "name": "HORSE", "games": ["FT", "FO/8", "FR", "F7S", "F7S/8"],
        "next_game": "FO/8", "next_game_name": "Fixed-Limit Omaha Hi/Lo", "hands_to_next_game": 5,
    }
    t, _ = play_passive(t, 6, random.Random(10))
    view = seat_view(t, 0).to_dict()
    assert (view["game"], view["mix"]["next_game"], view["mix"]["hands_to_next_game"]) == ("FT", "FO/8", 0)
    t, _ = play_passive(t, 1, random.Random(11))
    view = seat_view(t, 1).to_dict()
    assert (view["game"], view["mix"]["next_game"], view["mix"]["hands_to_next_game"]) == ("FO/8", "FR", 5)
    assert view["level"]["small_bet"] == 40


def test_v19_an_eight_game_hold_em_hand_still_names_its_game_and_mix() -> None:
    config = tournament_config(EIGHT, ("a", "b"), button=0, starting_stack=100_000)
    t = Tournament.start(config)
    t, _ = play_passive(t, 37, random.Random(12))
    view = seat_view(t, None).to_dict()
    assert view["game"] == "NT" and view["mix"]["next_game"] == "PO"


# -- the house game is untouched -------------------------------------------------


def test_the_house_game_config_is_exactly_r6() -> None:
    config = tournament_config("NT", ("a", "b", "c"), button=2)
    assert config == TournamentConfig(players=("a", "b", "c"), button=2)
    assert config.levels is HOUSE_LEVELS and config.variant is NLHE and config.mix is None
    assert [config.hand_level(n)[:2] for n in (1, 7, 37, 100)] == [(10, 20), (20, 40), (500, 1000), (500, 1000)]
    view = seat_view(Tournament.start(config), 0).to_dict()
    assert "game" not in view and "mix" not in view


def test_v18_single_games_keep_their_default_levels() -> None:
    config = tournament_config("F7S", ("a", "b"), button=0)
    assert config.levels == STUD_LEVELS and config.mix is None
    assert tournament_config(VARIANTS["FT"], ("a", "b"), button=0).hand_level(7) == Level(20, 40, small_bet=40, big_bet=80)


# -- whole freezeouts ------------------------------------------------------------


def play_mix(mix: Mix, seed: int, players: int, *, stack: int = 1000, max_hands: int = 600) -> tuple[Tournament, RecordWriter, int]:
    """A whole freezeout in ``mix`` by random legal moves (with a rare
    timeout or resignation), written by a RecordWriter; returns the chips
    that left with resigners."""
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    button = rng.randrange(players)
    t = Tournament.start(tournament_config(mix, names, button=button, starting_stack=stack))
    writer = RecordWriter(names, names[button], starting_stack=stack, mix=mix)
    vanished = 0
    for _ in range(max_hands):
        if t.finished:
            break
        t, events = deal(t, rng)
        writer.observe(events)
        while t.in_hand:
            legal = t.legal_actions()
            assert legal is not None and t.hand is not None
            roll = rng.random()
            if roll < 0.003:
                action = Action(rng.choice([s for s in range(players) if t.alive[s]]), ActionKind.RESIGN)
            elif roll < 0.02:
                action = Action(legal.seat, ActionKind.TIMEOUT)
            else:
                action = choose(legal, t.hand.cards[t.seats.index(legal.seat)], rng)
            t, events = t.act(action)
            writer.act(names[action.seat], action)
            writer.observe(events)
            vanished += sum(e.vanished for e in events if isinstance(e, Resigned))
            if not t.in_hand:
                assert sum(t.stacks) + vanished == players * stack  # chips are conserved hand by hand
    return t, writer, vanished


# V18: at 8 players a level (and so a mix's game) lasts an orbit of 8 hands; the record writer
# (freezeout.formats.record) still changes game every 6 hands and must follow (rules34's handoff).
def _orbit_games(mix: Mix, hands: Sequence[PlayedHand]) -> list[str]:
    """V18/V19: each hand's game when a level lasts 6 hands, or one orbit of the
    players its first hand dealt past 6."""
    games, first, length, level = [], 1, 0, -1
    for hand in hands:
        if hand.number >= first + length:
            dealt = next(len(e.seats) for e in hand.events if isinstance(e, HandStarted))
            level, first, length = level + 1, hand.number, (dealt if dealt > 6 else 6)
        games.append(mix.games[level % len(mix.games)].code)
    return games


@pytest.mark.parametrize(("code", "players", "seed"), [
    ("HORSE", 3, 1), ("HORSE", 8, 2), ("8GAME", 4, 3), ("8GAME", 6, 4),
])
def test_v19_a_whole_mixed_freezeout_is_played_to_the_end_and_replays_from_its_record(code: str, players: int, seed: int) -> None:
    t, writer, vanished = play_mix(MIXES[code], seed, players)
    assert t.finished
    assert sorted(place for place in t.places if place is not None) == list(range(1, players + 1))
    assert t.stacks[t.winner] + vanished == players * 1000
    data = writer.to_json()
    assert data["format"] == FORMAT_2 and data["game"] == {"mix": code}
    result = replay_record(parse_record(json.dumps(data)))
    assert result.tournament.places == t.places and result.tournament.stacks == t.stacks
    games = [hand.game for hand in result.hands]
    assert games == _orbit_games(MIXES[code], result.hands)
    if players <= 6:
        assert games == [MIXES[code].games[(n // 6) % len(MIXES[code].games)].code for n in range(len(games))]
    else:  # V18: the first level at 8 players lasts one orbit of 8 hands
        assert games[:8] == [MIXES[code].games[0].code] * 8
    assert all(hand.setup.variant.code == hand.game for hand in result.hands)
    assert "game" in result.to_json()["hands"][0]
    assert record_to_phh(result).count("variant = ") == len(result.hands)


def test_v19_a_mix_record_with_an_unknown_mix_is_refused() -> None:
    data = {"format": FORMAT_2, "game": {"mix": "HOSE"}, "players": ["a", "b"], "button": "a", "hands": []}
    with pytest.raises(RecordError, match="'mix' must be one of HORSE, 8GAME"):
        parse_record(data)
    data["game"] = {"mix": "HORSE", "variant": "FT"}
    with pytest.raises(RecordError, match="either 'variant' or 'mix'"):
        parse_record(data)


def test_v19_a_mix_record_seats_at_most_the_mix_maximum() -> None:
    data = {"format": FORMAT_2, "game": {"mix": "8GAME"}, "players": [f"p{i}" for i in range(7)], "button": "p0", "hands": []}
    with pytest.raises(RecordError, match="2 to 6"):
        parse_record(data)


def test_v18_an_eight_handed_mixs_record_exports_and_verifies_by_orbit_levels() -> None:
    """V18: at 8 players a level lasts one orbit: the PokerStars text numbers hand 7 and 8 in
    level I, and the fairness check replays it (each hand's game from the replay)."""
    _table, writer, _vanished = play_mix(MIXES["HORSE"], 2, 8)
    data = writer.to_json()
    result = replay_record(parse_record(json.dumps(data)))
    assert [hand.level_index for hand in result.hands[:9]] == [0] * 8 + [1]
    text = record_to_stars(result, tournament=1)
    heads = [line for line in text.splitlines() if line.startswith("PokerStars Hand #")]
    assert all(" - Level I (" in head for head in heads[:8]) and " - Level II (" in heads[8]
    checked = verify_record(data)  # no commitments here: each hand says so, the record itself replays
    assert "error" not in checked and [hand["reason"] for hand in checked["hands"]] == ["no commitment"] * len(result.hands)
