"""The other games across the board (rules.md V16–V18), dealing from a deck
(formats.md "Dealing from a deck"), and bad input of any game: one clear
line, nothing changed.

Blinds are the house game's first level, 10/20; ana has the button unless
a test says otherwise.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from freezeout.cards import full_deck
from freezeout.cli import main as freezeout_main
from freezeout.formats.phh import PhhError
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.formats.record import RecordError, parse_record, replay_record
from freezeout.rules import Action, ActionKind, HandState, InvalidInput, Tournament, TournamentConfig
from freezeout.rules.dealing import flop_deal_positions
from freezeout.rules.events import CardsShown, HandStarted
from freezeout.rules.tournament import HOUSE_LEVELS, Level, default_levels
from freezeout.rules.variant import VARIANTS, UnsupportedVariant, variant

from varianthelpers import (
    NAMES,
    act,
    cards,
    check_down,
    final,
    held,
    play,
    play_events,
    shown_order,
    start,
    to_act,
)

DECK = "".join(str(card) for card in full_deck())  # 2s 2h 2d 2c 3s 3h … Ad Ac
PHH = Path(__file__).resolve().parent.parent / "data" / "phh" / "pluribus" / "102_0.phh"


# -- V16: short-deck hold'em ---------------------------------------------------------
def test_v16_short_deck_has_thirty_six_cards_six_to_ace() -> None:
    deck = variant("NS").deck
    assert len(deck) == 36 and {str(card)[0] for card in deck} == set("6789TJQKA")
    with pytest.raises(InvalidInput, match=r"card 5h is not in the deck of No-Limit Short-Deck Hold'em \(V16: six to ace\)"):
        start("NS", (1000, 1000), blinds=(10, 20), hole=("As5h", "KdKh"), board="6c7d8hKsQc")


@pytest.mark.parametrize(
    ("board", "ana", "bo", "winner"),
    [
        ("AhKh7h7cTs", "Qh9h", "7dTc", "ana"),  # a flush beats a full house
        ("6c7d8hKsQc", "As9s", "KdKh", "ana"),  # A-6-7-8-9 is a straight, and beats three kings
        ("6c7d8hKsQc", "As9s", "9cTd", "bo"),  # … the lowest one
        ("AhKh7h7cTs", "Qh9h", "7d7s", "bo"),  # four of a kind still beats a flush
    ],
)
def test_v16_short_deck_flush_beats_full_house_and_a6789_straight(board: str, ana: str, bo: str, winner: str) -> None:
    state = start("NS", (1000, 1000), blinds=(10, 20), hole=(ana, bo), board=board)
    state = check_down(act(state, "ana", "call"))
    loser = "bo" if winner == "ana" else "ana"
    assert final(state) == {winner: 1020, loser: 980}


# -- V17: showdown order ----------------------------------------------------------
HOLD_EM = ("AsKs", "QdQc", "8h8d")
OMAHA = ("AsKsQhJh", "QdQcTdTc", "8h8d9s9c")
RIVER = "2c7d9hJs3s"


def river(code: str = "FT") -> HandState:
    """Three players called and checked to the river; bo acts first there."""
    hole = OMAHA if variant(code).hole_cards == 4 else HOLD_EM
    state = start(code, (1000, 1000, 1000), blinds=(0, 10, 20), hole=hole, board=RIVER)
    state = play(state, ("ana", "call"), ("bo", "call"), ("cy", "check"))
    while state.street < 3:
        state = act(state, state.actor, "check")
    return state


@pytest.mark.parametrize("code", ["FT", "NT", "PO"])
def test_v17_last_aggressor_shows_first(code: str) -> None:
    state, events = play_events(river(code), ("bo", "check"), ("cy", "bet", 40), ("ana", "call"), ("bo", "call"))
    assert state.finished and shown_order(events) == ["cy", "ana", "bo"]


def test_v17_without_a_bet_the_first_left_of_the_button_shows_first() -> None:
    state, events = play_events(river(), ("bo", "check"), ("cy", "check"), ("ana", "check"))
    assert state.finished and shown_order(events) == ["bo", "cy", "ana"]


def test_v17_a_bet_in_an_earlier_round_does_not_decide() -> None:
    state = start("FT", (1000, 1000, 1000), blinds=(0, 10, 20), hole=HOLD_EM, board=RIVER)
    state = play(state, ("ana", "call"), ("bo", "call"), ("cy", "check"))
    state = play(state, ("bo", "check"), ("cy", "check"), ("ana", "check"))  # flop
    state = play(state, ("bo", "check"), ("cy", "bet", 40), ("ana", "call"), ("bo", "call"))  # turn
    state, events = play_events(state, ("bo", "check"), ("cy", "check"), ("ana", "check"))  # river
    assert shown_order(events) == ["bo", "cy", "ana"]


def test_v17_in_the_house_game_every_hand_at_a_showdown_is_shown() -> None:
    state, events = play_events(river("NT"), ("bo", "check"), ("cy", "bet", 100), ("ana", "call"), ("bo", "call"))
    assert state.shown == (True, True, True)
    assert [e.seat for e in events if isinstance(e, CardsShown)] == [2, 0, 1]  # the losers' hands too
    assert final(state) == {"ana": 880, "bo": 1240, "cy": 880}


# -- V18: tournament levels for other games --------------------------------------------
def test_v18_stud_levels_are_the_documented_schedule() -> None:
    # formats.md: antes 2/4/8/15/30/60/100, bring-ins 5/10/20/40/75/150/250, bets 20/40 … 1000/2000.
    levels = default_levels(variant("F7S"))
    assert [(lv.ante, lv.bring_in) for lv in levels] == [(2, 5), (4, 10), (8, 20), (15, 40), (30, 75), (60, 150), (100, 250)]
    assert (levels[0].small_bet, levels[0].big_bet, levels[-1].small_bet, levels[-1].big_bet) == (20, 40, 1000, 2000)
    assert default_levels(variant("FR")) == default_levels(variant("F7S/8")) == levels


@pytest.mark.parametrize("code", ["FT", "FO/8", "F5CD", "F2L3D", "FB"])
def test_v18_fixed_limit_levels_are_the_r6_blinds_with_bets_of_one_and_two_big_blinds(code: str) -> None:
    assert default_levels(variant(code)) == tuple(Level(sb, bb, small_bet=bb, big_bet=2 * bb) for sb, bb in HOUSE_LEVELS)


@pytest.mark.parametrize("code", ["NT", "PO", "NS", "P5CD", "N2L1D", "NB"])
def test_v18_no_limit_and_pot_limit_levels_are_the_r6_blinds(code: str) -> None:
    assert default_levels(variant(code)) == tuple(Level(sb, bb) for sb, bb in HOUSE_LEVELS)


def stud_freezeout(config: TournamentConfig, hands: int) -> list[HandStarted]:
    """Play ``hands`` hands: the bring-in is posted and everyone else folds."""
    t = Tournament.start(config)
    started: list[HandStarted] = []
    for _ in range(hands):
        t, events = t.deal_deck(full_deck())
        started.extend(e for e in events if isinstance(e, HandStarted))
        while t.in_hand:
            legal = t.legal_actions()
            assert legal is not None
            t, _ = t.act(Action(legal.seat, ActionKind.BRINGIN if legal.bring_in else ActionKind.FOLD))
    return started


def test_v18_stud_freezeout_levels_rise_every_six_hands() -> None:
    game = variant("F7S")
    config = TournamentConfig(players=("ana", "bo", "cy"), variant=game, levels=default_levels(game))
    started = stud_freezeout(config, 13)
    forced = [(h.ante, h.bring_in, h.small_bet, h.big_bet, h.small_blind, h.big_blind) for h in started]
    assert [h.number for h in started] == list(range(1, 14))
    assert forced[:6] == [(2, 5, 20, 40, 0, 0)] * 6
    assert forced[6:12] == [(4, 10, 40, 80, 0, 0)] * 6
    assert forced[12] == (8, 20, 80, 160, 0, 0)


def test_v18_a_stud_freezeout_without_levels_of_its_own_plays_the_stud_schedule() -> None:
    started = stud_freezeout(TournamentConfig(players=("ana", "bo"), variant=variant("F7S")), 1)
    assert (started[0].ante, started[0].bring_in, started[0].small_bet) == (2, 5, 20)


def test_v18_a_record_without_levels_plays_the_games_own_schedule() -> None:
    record = {
        "format": "freezeout.record/2",
        "game": {"variant": "F7S"},
        "players": ["ana", "bo"],
        "button": "ana",
        "hands": [{"hole": {"ana": ["AsKd2c", "Qh"], "bo": ["7c7d9h", "3s"]},
                   "actions": [["ana", "bringin"], ["bo", "complete"], ["ana", "fold"]]}],
    }
    result = replay_record(parse_record(record)).to_json()
    assert result["hands"][0]["level"] == {"ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}
    assert result["hands"][0]["stacks"] == {"ana": 993, "bo": 1007}


# -- Dealing from a deck (formats.md) ---------------------------------------------------
def test_dealing_hold_em_seat_by_seat_then_the_board_no_burn() -> None:
    state = start("NT", (1000, 1000, 1000), blinds=(0, 10, 20), deck=DECK)
    assert [held(state, seat) for seat in range(3)] == ["2s2h", "2d2c", "3s3h"]
    state = play(state, ("ana", "call"), ("bo", "call"), ("cy", "check"))
    assert state.board == cards("3d3c4s")
    state = play(state, ("bo", "check"), ("cy", "check"), ("ana", "check"))
    assert state.board == cards("3d3c4s4h")


@pytest.mark.parametrize("code", [code for code, game in VARIANTS.items() if not game.deals_later_hole_cards and not game.has_draws])
def test_dealing_positions_stated_up_front_are_the_ones_the_engine_deals(code: str) -> None:
    game = VARIANTS[code]
    deck = "".join(str(card) for card in game.deck)
    state = start(code, (20, 10, 20), blinds=(0, 10, 20), deck=deck)  # both blinds all-in
    state = play(state, ("ana", "call"))  # and the button too: the board runs out
    hole, board = flop_deal_positions(game, 3)
    assert [tuple(game.deck[p] for p in positions) for positions in hole] == list(state.cards)
    assert state.board == tuple(game.deck[p] for p in board)


@pytest.mark.parametrize("code", ["F7S", "FR", "F5CD", "F2L3D", "FB"])
def test_games_dealing_during_the_hand_have_no_fixed_positions(code: str) -> None:
    with pytest.raises(InvalidInput, match="deals cards during the hand"):
        flop_deal_positions(VARIANTS[code], 3)


def test_dealing_starts_with_the_lowest_seat_not_left_of_the_button() -> None:
    game = variant("FO/8")
    t = Tournament.start(TournamentConfig(players=("ana", "bo", "cy"), button=2, variant=game, levels=default_levels(game)))
    t, _ = t.deal_deck(full_deck())
    assert t.hand is not None and held(t.hand, 0) == "2s2h2d2c" and held(t.hand, 2) == "4s4h4d4c"


def test_dealing_stud_each_street_to_the_players_still_in_seat_by_seat() -> None:
    state = start("F7S", (500, 500, 500), deck=DECK, ante=2, bring_in=5, small_bet=20, big_bet=40)
    assert [held(state, seat) for seat in range(3)] == ["2s2h2d", "2c3s3h", "3d3c4s"]
    # 2d (ana) is the lowest up-card; cy folds on third street.
    state = play(state, ("ana", "bringin"), ("bo", "call"), ("cy", "fold"))
    assert [held(state, seat) for seat in range(3)] == ["2s2h2d4h", "2c3s3h4d", "3d3c4s"]


def test_dealing_a_draw_gives_the_replacements_at_the_discard() -> None:
    state = start("F2L3D", (1000, 1000), blinds=(10, 20), deck=DECK)
    state = play(state, ("ana", "call"), ("bo", "check"))
    # ana holds 2s2h2d2c3s and bo 3h3d3c4s4h; bo draws first, from the eleventh card on.
    state = play(state, ("bo", "discard", None, "3h3d"), ("ana", "discard", None, "2s"))
    assert held(state, "bo") == "3c4s4h4d4c" and held(state, "ana") == "2h2d2c3s5s"


# -- Bad input: one clear line, nothing changed ----------------------------------------------
def test_an_unknown_variant_code_is_refused() -> None:
    with pytest.raises(UnsupportedVariant) as error:
        variant("XX")
    assert str(error.value) == f"unknown variant 'XX' (known: {', '.join(VARIANTS)})"


def record_of(code: object) -> dict[str, object]:
    return {
        "format": "freezeout.record/2",
        "game": {"variant": code},
        "players": ["ana", "bo"],
        "button": "ana",
        "hands": [{"hole": {"ana": "AsKd", "bo": "7c7d"}, "board": "", "actions": [["ana", "fold"]]}],
    }


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("XX", "invalid game: unknown variant 'XX' (known: NT, PT, FT, "),
        ("nt", "invalid game: unknown variant 'nt' (known: NT, PT, FT, "),
        ("F7S/9", "invalid game: unknown variant 'F7S/9' (known: NT, PT, FT, "),
        (7, "invalid game: 'variant' must be a variant code such as 'PO' or 'F7S'"),
    ],
)
def test_a_record_of_an_unknown_variant_is_refused_in_one_line(code: object, reason: str) -> None:
    record = record_of(code)
    before = copy.deepcopy(record)
    with pytest.raises(RecordError) as error:
        replay_record(parse_record(record))
    assert str(error.value).startswith(reason)
    assert "\n" not in str(error.value) and record == before


def test_freezeout_record_replay_of_an_unknown_variant_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    text = json.dumps(record_of("F7X"))
    path.write_text(text, encoding="utf-8")
    assert freezeout_main(["record", "replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "unknown variant 'F7X'" in err
    assert path.read_text(encoding="utf-8") == text


def test_a_phh_hand_of_an_unknown_variant_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = re.sub(r"variant = '\w+'", "variant = 'XT'", PHH.read_text(encoding="utf-8"))
    with pytest.raises(PhhError) as error:
        replay_phh_text(text)
    assert str(error.value) == "variant 'XT' is not supported"
    path = tmp_path / "hand.phh"
    path.write_text(text, encoding="utf-8")
    assert freezeout_main(["phh", "replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"file": str(path), "error": "variant 'XT' is not supported"} and err == ""
    assert path.read_text(encoding="utf-8") == text


def test_an_action_of_another_game_is_refused_and_changes_nothing() -> None:
    state = start("NT", (1000, 1000), blinds=(10, 20), hole=("AsKs", "QdQc"), board=RIVER)
    before = copy.deepcopy(state)
    for word in ("bringin", "complete", "standpat"):
        with pytest.raises(Exception) as error:
            act(state, "ana", word)
        assert str(error.value) and "\n" not in str(error.value)
    assert state == before and to_act(state) == "ana" and NAMES[0] == "ana"
