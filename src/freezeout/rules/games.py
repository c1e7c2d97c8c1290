"""What a table deals: one game of the registry, or a mix that rotates games (V19).

A table names its game by a code — an engine variant (``"NT"``, ``"FO/8"``,
``"F2L3D"`` …, :data:`freezeout.rules.variant.VARIANTS`) or a mix
(``"HORSE"``, ``"8GAME"``, :data:`MIXES`).  :func:`parse_game` is the one
place that turns such a code into a value, with an error that lists the
valid codes, so the server, the terminal and the bots agree on what exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from freezeout.rules.errors import InvalidInput
from freezeout.rules.variant import NLHE, VARIANTS, Ruleset, UnsupportedVariant, Variant

if TYPE_CHECKING:
    from freezeout.rules.tournament import TournamentConfig

__all__ = ["HOUSE_GAME", "MIXES", "Game", "Mix", "game_code", "max_seats", "parse_game", "tournament_config"]

#: The house game (seed 000, R1–R30): what a table deals when nothing else is named.
HOUSE_GAME = NLHE.code


@dataclass(frozen=True)
class Mix:
    """V19: a list of games dealt in rotation, one per level (every
    :attr:`hands_per_game` hands), each at the level's sizes."""

    code: str
    name: str
    games: tuple[Variant, ...]
    hands_per_game: int = 6

    def __post_init__(self) -> None:
        if len(self.games) < 2:
            raise InvalidInput(f"a mix needs at least two games, got {len(self.games)}")

    @property
    def min_players(self) -> int:
        return max(game.min_players for game in self.games)

    @property
    def max_players(self) -> int:
        """V19: seat counts are the smallest maximum of the games in the mix."""
        return min(game.max_players for game in self.games)

    def game_for_hand(self, number: int) -> Variant:
        """V19: the game of hand ``number`` (1-based): the list in order, a
        new game every :attr:`hands_per_game` hands, round and round."""
        if number < 1:
            raise InvalidInput(f"hands are numbered from 1, got {number}")
        return self.games[((number - 1) // self.hands_per_game) % len(self.games)]


#: V19: the mixes real sites deal.
MIXES: dict[str, Mix] = {
    mix.code: mix
    for mix in (
        Mix("HORSE", "HORSE", tuple(VARIANTS[code] for code in ("FT", "FO/8", "FR", "F7S", "F7S/8"))),
        Mix(
            "8GAME",
            "8-Game Mix",
            tuple(VARIANTS[code] for code in ("F2L3D", "FT", "FO/8", "FR", "F7S", "F7S/8", "NT", "PO")),
        ),
    )
}

Game = Variant | Mix


def parse_game(code: object) -> Game:
    """The game a code names; a clear error for anything else."""
    if not isinstance(code, str) or not code:
        raise UnsupportedVariant(f"a game is named by a code such as 'NT', 'FO/8' or 'HORSE', got {code!r}")
    if code in MIXES:
        return MIXES[code]
    if code in VARIANTS:
        return VARIANTS[code]
    raise UnsupportedVariant(
        f"unknown game {code!r} (games: {', '.join(VARIANTS)}; mixes: {', '.join(MIXES)})"
    )


def game_code(game: Game) -> str:
    return game.code


def max_seats(game: Game) -> int:
    """The most players the game seats (V5–V16, V19)."""
    return game.max_players


def tournament_config(
    game: Game | str,
    players: Sequence[str],
    *,
    button: int,
    starting_stack: int | None = None,
    ruleset: Ruleset = Ruleset.HOUSE,
) -> TournamentConfig:
    """The freezeout of ``game`` (a value or a code, :func:`parse_game`) for
    ``players``, the first button at seat ``button`` (drawn by the caller, R3).

    One game plays its V18 default levels — the house game (``NT``) exactly
    R6's, as it always has; a mix (V19) changes game with each level of R6,
    each game's sizes taken from the level's big blind
    (:func:`freezeout.rules.tournament.game_level`).  Too many players for
    the game is an :class:`InvalidInput` naming its seat range; no ``starting_stack``: R1's."""
    from freezeout.rules.tournament import (  # the tournament imports this module
        STARTING_STACK,
        TournamentConfig,
    )

    starting_stack = STARTING_STACK if starting_stack is None else starting_stack

    chosen = parse_game(game) if isinstance(game, str) else game
    if isinstance(chosen, Mix):
        return TournamentConfig(
            players=tuple(players), button=button, starting_stack=starting_stack, ruleset=ruleset, mix=chosen
        )
    return TournamentConfig(
        players=tuple(players), button=button, starting_stack=starting_stack, ruleset=ruleset, variant=chosen
    )
