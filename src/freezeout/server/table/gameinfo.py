"""What game a table deals, in words a lobby can show (issue #21-11).

The page names the game on quick play, in the tables list and on the create
form ("No-Limit Texas Hold'em freezeout, 1,000 chips, blinds 10/20, up every
6 hands"; "Seven Card Stud freezeout, 1,000 chips, ante 2, bring-in 5, bets
20/40, …") without knowing any poker itself: the server says which game, which
format and the numbers, as structured data the page words through its own
catalogues (en, cs).  :func:`with_format` reads a table summary's game code
(none: the house game, R1-R30), so a table of any game, freezeout or cash,
describes itself the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from freezeout.rules.games import HOUSE_GAME, MIXES, Mix, parse_game, tournament_config
from freezeout.rules.tournament import HANDS_PER_LEVEL, STARTING_STACK
from freezeout.rules.variant import VARIANTS, UnsupportedVariant

__all__ = ["catalogue", "describe", "first_level", "house", "with_format"]

def first_level(code: str = HOUSE_GAME) -> dict[str, int]:
    """The forced bets of a freezeout's first hand, as the rules schedule them (R6, V18, V19):
    the game's own level schedule (``rules.tournament.default_levels``: blinds; a fixed-limit
    game's small and big bet; stud's ante and bring-in with its bets, ``stud_level``), and in a
    mix the first game's (``game_level``).  Only the non-zero ones: ``{"small_blind": 10,
    "big_blind": 20}`` in the house game, ``{"ante": 2, "bring_in": 5, "small_bet": 20,
    "big_bet": 40}`` in seven card stud."""
    return dict(_first_level(code))


@functools.lru_cache(maxsize=64)
def _first_level(code: str) -> tuple[tuple[str, int], ...]:
    """:func:`first_level`, remembered: the lobby describes every table it lists."""
    game = parse_game(code)
    players = tuple(f"p{i}" for i in range(max(2, game.min_players)))
    config = tournament_config(game, players, button=0, starting_stack=STARTING_STACK)
    return tuple((key, value) for key, value in config.hand_level(1)._asdict().items() if value)


def describe(code: str = HOUSE_GAME) -> dict[str, Any]:
    """``{"game": "NT", "name": "No-Limit Texas Hold'em", "type": "freezeout", "stack": 1000,
    "level": {"small_blind": 10, "big_blind": 20}, "blinds": [10, 20], "hands_per_level": 6}``:
    ``level`` is the first level's forced bets in the game's own schedule (:func:`first_level`),
    ``blinds`` only where the game posts blinds (stud posts an ante and a bring-in, V7); a mix
    adds ``"games"``, its games' names."""
    game = parse_game(code)
    level = first_level(code)
    info: dict[str, Any] = {"game": game.code, "name": game.name, "type": "freezeout", "stack": STARTING_STACK,
                            "level": level}
    if "big_blind" in level:
        info["blinds"] = [level.get("small_blind", 0), level["big_blind"]]
    info["hands_per_level"] = HANDS_PER_LEVEL
    if isinstance(game, Mix):
        info["games"] = [g.name for g in game.games]
    return info


_HOUSE = describe()


def house() -> dict[str, Any]:
    """The house game's description (what quick play deals)."""
    return dict(_HOUSE)


def _code(summary: dict[str, Any]) -> str:
    """The game code a summary names (``game_code``, or ``game`` once it is a code rather
    than the game's number), else the house game."""
    table_game = summary.get("table_game")
    if isinstance(table_game, dict) and isinstance(table_game.get("code"), str):
        return str(table_game["code"])
    for key in ("game_code", "variant", "game"):
        value = summary.get(key)
        if isinstance(value, str) and value:
            return value
    return HOUSE_GAME


def with_format(summary: dict[str, Any]) -> dict[str, Any]:
    """The table summary with ``format``, the description of the game it deals."""
    if "format" in summary:
        return summary
    code = _code(summary)
    try:
        info = _HOUSE if code == HOUSE_GAME else describe(code)
    except UnsupportedVariant:
        info = {"game": code, "name": code, "type": "freezeout"}
    table_game = summary.get("table_game")
    stack = table_game.get("starting_stack") if isinstance(table_game, dict) else None
    if isinstance(stack, int) and "stack" in info and stack != info["stack"]:
        info = {**info, "stack": stack}  # the table's own (GameSpec.starting_stack), not R1's
    if isinstance(table_game, dict) and table_game.get("format") == "cash":  # issue #25: no stack, no levels
        info = {key: value for key, value in info.items() if key in ("game", "name", "games")}
        info.update(type="cash", stakes=summary.get("stakes"), buy_in=summary.get("buy_in"))
    return {**summary, "format": info}


def catalogue(family: Callable[[str], str], seats: Callable[[str], dict[str, dict[str, Any]]],
              bots: Callable[[str], tuple[str, ...]]) -> list[dict[str, Any]]:
    """Every game a table can deal, for the lobby's game picker (issue #22): the house
    game first, then each engine game in the order of docs/rules.md, then the mixes
    (V19).  Each is :func:`describe`'s words plus what the page needs to offer it
    without knowing poker: its rating ``family``, the betting structure, the most
    seats a table of it has here per format (C12: ``seats``, e.g. ``{"freezeout": {"min": 2,
    "max": 4, "usual": [2, 4]}, "cash": {...}}``; ``min_seats``/``max_seats`` are the freezeout's)
    and the bots that play it.  The rules and the room answer those (``family``, ``seats``,
    ``bots``), so the page never guesses."""
    codes = [HOUSE_GAME, *(code for code in VARIANTS if code != HOUSE_GAME), *MIXES]
    games = []
    for code in codes:
        game = parse_game(code)
        info = describe(code)
        info["family"] = family(code)
        info["betting"] = None if isinstance(game, Mix) else game.betting.value
        info["seats"] = seats(code)
        info["max_seats"] = info["seats"]["freezeout"]["max"]
        info["min_seats"] = info["seats"]["freezeout"]["min"]
        info["bots"] = list(bots(code))
        games.append(info)
    return games
