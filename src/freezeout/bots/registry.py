"""Named bots.  ``get_bot(name)`` returns a shared instance (bots are
stateless, so one per process is enough).

:data:`BOT_NAMES` is the ladder players are offered, weakest first;
:data:`BENCH_NAMES` are opponents for measuring it — the five playing
styles of :mod:`.archetypes` and ``hard-v1``, ``hard`` as it was before
opponent models — which ``freezeout bot match`` accepts as well."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Final

from freezeout.bots.base import Bot

__all__ = ["ALL_BOT_NAMES", "BENCH_NAMES", "BOT_NAMES", "EVERY_GAME_NAMES", "bots_for_game", "get_bot"]

BOT_NAMES: Final = ("random", "station", "easy", "medium", "hard")
BENCH_NAMES: Final = ("hard-v1", "tight-passive", "loose-passive", "tag", "maniac", "nit", "jammer")
ALL_BOT_NAMES: Final = BOT_NAMES + BENCH_NAMES
#: The ladder levels that play every game and every mix, weakest first.
EVERY_GAME_NAMES: Final = ("random", "station", "medium", "hard")


def bots_for_game(code: str) -> tuple[str, ...]:
    """The ladder levels offered at a table of ``code`` (an engine variant
    or a mix, :func:`freezeout.rules.games.parse_game`), weakest first: the
    whole ladder in the house game, in every other game the levels that
    play it.  An unknown code raises the rules' ``UnsupportedVariant``."""
    from freezeout.rules.games import HOUSE_GAME, parse_game

    game = parse_game(code)
    return BOT_NAMES if game.code == HOUSE_GAME else EVERY_GAME_NAMES


def _factories() -> dict[str, Callable[[], Bot]]:
    from freezeout.bots.archetypes import (
        JammerBot,
        LoosePassiveBot,
        ManiacBot,
        NitBot,
        TagBot,
        TightPassiveBot,
    )
    from freezeout.bots.deep import DeepBot
    from freezeout.bots.easy import EasyBot
    from freezeout.bots.game_bot import HARD, MEDIUM, ByGame, GameBot
    from freezeout.bots.hard import HardBot
    from freezeout.bots.hard_v1 import HardV1Bot
    from freezeout.bots.medium import MediumBot
    from freezeout.bots.simple import RandomBot, StationBot

    return {
        "random": RandomBot,
        "station": StationBot,
        "easy": EasyBot,
        "medium": lambda: ByGame(MediumBot(), GameBot("medium", MEDIUM)),
        "hard": lambda: ByGame(HardBot(), GameBot("hard", HARD), DeepBot()),
        "hard-v1": HardV1Bot,
        "tight-passive": TightPassiveBot,
        "loose-passive": LoosePassiveBot,
        "tag": TagBot,
        "maniac": ManiacBot,
        "nit": NitBot,
        "jammer": JammerBot,
    }


@cache
def get_bot(name: str) -> Bot:
    """The bot called ``name`` (one of :data:`ALL_BOT_NAMES`)."""
    factories = _factories()
    if name not in factories:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(ALL_BOT_NAMES)}")
    return factories[name]()
