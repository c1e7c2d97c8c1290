"""The games the equity engine knows: every variant where nothing but cards remains.

Flop games (hold'em, short-deck, Omaha, Omaha Hi/Lo) complete a shared
board; stud games (Stud, Stud Hi/Lo, Razz) complete each player's seven
cards.  Draw games have none: a draw still to come is a decision, so no
equity would be honest there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from freezeout.rules.variant import UnsupportedVariant, variant

__all__ = ["ALIASES", "Game", "GameError", "game_for"]


class GameError(ValueError):
    """A game code the equity engine cannot serve."""


#: Friendly names accepted wherever a variant code is.
ALIASES: Final = {
    "holdem": "NT",
    "hold'em": "NT",
    "shortdeck": "NS",
    "short-deck": "NS",
    "omaha": "PO",
    "omaha8": "FO/8",
    "omaha-hilo": "FO/8",
    "stud": "F7S",
    "stud8": "F7S/8",
    "stud-hilo": "F7S/8",
    "razz": "FR",
}


@dataclass(frozen=True, slots=True)
class Game:
    """What the engine needs of a variant."""

    code: str
    name: str
    rankings: tuple[str, ...]  # one, or (high, low) for the hi/lo games (V6)
    hole: int  # flop games: each hand's cards; stud: the seven a hand ends with
    board: int  # cards of the shared board (0 in stud)
    short_deck: bool

    @property
    def stud(self) -> bool:
        return self.board == 0

    @property
    def split(self) -> bool:
        return len(self.rankings) == 2

    @property
    def deck(self) -> tuple[int, ...]:
        """Card indices of the game's deck (V16: short-deck is six to ace)."""
        return tuple(range(16, 52)) if self.short_deck else tuple(range(52))


def game_for(code: str) -> Game:
    """The game of a variant code (``NT``, ``FO/8``, ``FR`` …) or an alias (``razz``)."""
    code = ALIASES.get(code.lower(), code)
    try:
        found = variant(code)
    except UnsupportedVariant:
        known = ", ".join(sorted(ALIASES))
        raise GameError(f"unknown game {code!r} (a variant code such as NT, NS, PO, FO/8, F7S, F7S/8, FR, or {known})") from None
    if found.has_draws:
        raise GameError(f"{found.name}: no equity while a draw is still to come (it is a decision, not a run-out)")
    stud = found.deals_later_hole_cards
    return Game(
        code=found.code,
        name=found.name,
        rankings=found.rankings,
        hole=found.total_hole_cards if stud else found.hole_cards,
        board=found.board_size,
        short_deck=found.short_deck,
    )
