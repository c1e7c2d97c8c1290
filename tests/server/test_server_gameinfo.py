"""The lobby names each game's first level truthfully (issue #22 item 4).

``GET /api/catalogue`` (and every table's ``format``) describe a game through
server/table/gameinfo.py.  Its first level is the engine's own schedule (R6, V18,
V19): blinds in the blind games (no-limit and pot-limit), plus a small and a big
bet in fixed limit (V3), an ante and a bring-in with the bets in stud (V7) — never
"blinds 10/20" for a game that posts none.
"""

from __future__ import annotations

import pytest

from freezeout.rules import games
from freezeout.rules.games import MIXES, Mix
from freezeout.rules.tournament import default_levels, game_level
from freezeout.rules.variant import VARIANTS, BettingStructure, Forced
from freezeout.server.gamespec import seat_ranges
from freezeout.server.table.gameinfo import catalogue, describe, with_format

CODES = [*VARIANTS, *MIXES]


def _nonzero(level: object) -> dict[str, int]:
    return {key: value for key, value in level._asdict().items() if value}  # type: ignore[attr-defined]


@pytest.mark.parametrize("code", CODES)
def test_each_game_names_its_own_first_level(code: str) -> None:
    game = games.parse_game(code)
    info = describe(code)
    first = game.games[0] if isinstance(game, Mix) else game
    wanted = _nonzero(default_levels(first)[0])  # V18; a mix's first game at R6's first blinds, V19
    assert info["level"] == wanted, (code, info)
    if first.forced is Forced.BRING_IN:  # stud: an ante and a bring-in, no blinds (V7)
        assert "blinds" not in info and info["level"]["ante"] > 0 and info["level"]["bring_in"] > 0
        assert not {"small_blind", "big_blind"} & set(info["level"])
    else:
        assert info["blinds"] == [wanted["small_blind"], wanted["big_blind"]]
    if first.betting is BettingStructure.FIXED_LIMIT:  # V3: the bets of the level
        assert info["level"]["big_bet"] == 2 * info["level"]["small_bet"] > 0
    else:
        assert "small_bet" not in info["level"] and "bring_in" not in info["level"]


def test_stud_razz_and_the_house_game_in_numbers() -> None:
    assert describe("NT")["level"] == {"small_blind": 10, "big_blind": 20}  # R6
    assert describe("FT")["level"] == {"small_blind": 10, "big_blind": 20, "small_bet": 20, "big_bet": 40}
    for stud in ("F7S", "FR", "F7S/8"):
        assert describe(stud)["level"] == _nonzero(game_level((10, 20), VARIANTS[stud]))
        assert describe(stud)["level"] == {"ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}


def test_the_catalogue_and_the_tables_list_carry_the_same_words() -> None:
    listed = catalogue(lambda code: "house", seat_ranges, lambda code: ("random",))
    assert {game["game"]: game["level"] for game in listed} == {code: describe(code)["level"] for code in CODES}
    assert with_format({"table_game": {"code": "FR"}})["format"] == describe("FR")


def test_a_tables_starting_stack_comes_from_its_game_not_a_default() -> None:
    """R1: a freezeout's seats start with the stack its game names (``GameSpec.starting_stack``):
    the table's summary says it, and the lobby's words (``format.stack``) and the waiting
    table's seats (web/js/tablewait.js) read it there; a cash table names none (C1: buy-ins)."""
    from freezeout.rules.tournament import STARTING_STACK, TournamentConfig
    from freezeout.server.gamespec import GameSpec

    assert TournamentConfig(("a", "b")).starting_stack == STARTING_STACK == GameSpec().starting_stack
    deep = GameSpec("NT", starting_stack=3000).summary()
    assert deep["starting_stack"] == 3000
    assert with_format({"table_game": deep})["format"]["stack"] == 3000
    assert with_format({"table_game": GameSpec().summary()})["format"] == describe("NT")
    assert "starting_stack" not in GameSpec.from_json({"code": "NT", "format": "cash", "cash": {}}).summary()
