"""What a cash table states (C1): its game or mix (V19), stakes, seats, buy-ins, rake (C5)
and options (C6 straddles, V17 showing called hands), checked once when it is opened.

The game of each hand (V19) and each game's forced bets (V18) follow from it, so the table
(rules/cash.py) and the lobby read them from here."""

from __future__ import annotations

from dataclasses import dataclass

from freezeout.rules.errors import InvalidInput
from freezeout.rules.games import Mix
from freezeout.rules.pots import Rake
from freezeout.rules.tournament import Level, game_level
from freezeout.rules.variant import NLHE, BettingStructure, Ruleset, Variant

__all__ = ["CashConfig"]


@dataclass(frozen=True, slots=True)
class CashConfig:
    """C1: a table states its game, its stakes and its buy-ins.

    ``blinds`` name the stakes (small, big); each game takes its forced
    bets from them (V18/V19: fixed limit bets one and two big blinds, stud
    antes and brings in by :func:`~freezeout.rules.tournament.stud_level`).
    The buy-ins default to at most 100 big blinds — 100 big bets in limit
    games, the largest of its games in a mix — and at least a fifth of
    that."""

    game: Variant | Mix = NLHE
    blinds: tuple[int, int] = (1, 2)
    seats: int = 9
    min_buy_in: int = 0  # 0: the default
    max_buy_in: int = 0  # 0: the default (C1)
    rake: Rake | None = None  # C5, C10
    straddles: bool = True  # C6: under the gun
    button_straddle: bool = False  # C6: the table may also allow one from the button
    show_called: bool = False  # V17: every called hand is shown; else a losing hand is mucked
    ruleset: Ruleset = Ruleset.HOUSE
    hands_per_game: int = 0  # V19 in a mix; 0: the mix's own (6)
    first_button: int = 0  # the first hand's button (drawn by the caller)

    def __post_init__(self) -> None:
        small, big = self.blinds
        if type(big) is not int or type(small) is not int or big < 2 or not 0 < small <= big:
            raise InvalidInput(f"a cash table's blinds are a small blind of at least 1 and a big blind of at least 2, got {self.blinds}")
        if not self.game.min_players <= self.seats <= self.game.max_players:
            raise InvalidInput(f"{self.game.name} seats {self.game.min_players} to {self.game.max_players}, got {self.seats}")
        if not 0 <= self.first_button < self.seats:
            raise InvalidInput(f"button seat {self.first_button} is not at the table")
        if isinstance(self.game, Mix) and not self.hands_per_game:
            object.__setattr__(self, "hands_per_game", self.game.hands_per_game)
        if type(self.hands_per_game) is not int or self.hands_per_game < 0:
            raise InvalidInput(f"hands per game must be a whole number, got {self.hands_per_game!r}")
        games = self.game.games if isinstance(self.game, Mix) else (self.game,)
        largest = max(self._max_for(game) for game in games)
        if not self.max_buy_in:
            object.__setattr__(self, "max_buy_in", largest)
        if not self.min_buy_in:
            object.__setattr__(self, "min_buy_in", max(1, self.max_buy_in // 5))
        if type(self.min_buy_in) is not int or type(self.max_buy_in) is not int or not 0 < self.min_buy_in <= self.max_buy_in:
            raise InvalidInput(f"buy-ins need 0 < minimum <= maximum, got {self.min_buy_in} and {self.max_buy_in}")

    def _max_for(self, game: Variant) -> int:
        """C1: 100 big blinds, or 100 maximum bets in limit games."""
        level = self.level(game)
        return 100 * (level.big_bet if game.betting is BettingStructure.FIXED_LIMIT else level.big_blind)

    def level(self, game: Variant) -> Level:
        return game_level(self.blinds, game)

    def variant_for_hand(self, number: int) -> Variant:
        """V19: the game of hand ``number`` (1-based)."""
        if isinstance(self.game, Mix):
            games = self.game.games
            return games[((max(number, 1) - 1) // self.hands_per_game) % len(games)]
        return self.game
