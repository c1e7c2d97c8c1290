"""Which bots play which game (issue #22): a table offers only the bots that play its game.

``random`` and ``station`` play every game (they choose among the legal moves the
view lists: bets, bring-ins, draws); the stronger bots read hold'em hands and
play the house game, no-limit hold'em, only.  The bots' owners widen this as
their bots learn other games.
"""

from __future__ import annotations

from freezeout.bots.registry import BOT_NAMES
from freezeout.rules.variant import NLHE, Variant

__all__ = ["EVERY_GAME", "bots_for"]

#: The bots that play any game of the registry.
EVERY_GAME: tuple[str, ...] = ("random", "station")


def bots_for(variant: Variant) -> tuple[str, ...]:
    """The ladder's bots (weakest first) that play ``variant``."""
    if variant.code == NLHE.code:
        return tuple(BOT_NAMES)
    return tuple(name for name in BOT_NAMES if name in EVERY_GAME)
