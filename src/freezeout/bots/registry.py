"""Named bots, weakest first.  ``get_bot(name)`` returns a shared instance
(bots are stateless, so one per process is enough)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Final

from freezeout.bots.base import Bot

__all__ = ["BOT_NAMES", "get_bot"]

BOT_NAMES: Final = ("random", "station", "easy", "medium", "hard")


def _factories() -> dict[str, Callable[[], Bot]]:
    from freezeout.bots.easy import EasyBot
    from freezeout.bots.hard import HardBot
    from freezeout.bots.medium import MediumBot
    from freezeout.bots.simple import RandomBot, StationBot

    return {"random": RandomBot, "station": StationBot, "easy": EasyBot, "medium": MediumBot, "hard": HardBot}


@cache
def get_bot(name: str) -> Bot:
    """The bot called ``name`` (one of :data:`BOT_NAMES`)."""
    factories = _factories()
    if name not in factories:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
    return factories[name]()
