"""What a table plays, as its ``create`` entry names it, and a move as its log stores it.

Below the table and storage both (the log's entries, server/entries.py, name a
:class:`GameSpec` and store moves): nothing here knows a table, a socket or a
database.

* :class:`GameSpec` is the game (an engine variant code such as ``FO/8`` or a
  V19 mix such as ``HORSE``, which fixes the betting structure and the level
  schedule) and the format, with a cash table's :class:`CashOptions`.  An entry
  without it (every log written before games had names) is the house game, so
  old logs replay unchanged.
* :func:`action_data` / :func:`action_from_data` are the one serialiser of a
  move into and out of a log entry.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from freezeout.cards import Card, parse_cards
from freezeout.rules.actions import Action
from freezeout.rules.errors import InvalidInput, RulesError
from freezeout.rules.games import HOUSE_GAME, Game, Mix, parse_game
from freezeout.rules.tournament import STARTING_STACK
from freezeout.rules.variant import VARIANTS, Variant

__all__ = [
    "FORMATS",
    "HOUSE_MAX_SEATS",
    "LAYOUT_MAX_SEATS",
    "USUAL_SIZES",
    "CashOptions",
    "GameRefused",
    "GameSpec",
    "action_data",
    "action_from_data",
    "game_summary",
    "seat_ranges",
]

#: The most seats any table has: the page lays out 2 to 10 (web/js/felt.js), hold'em and
#: Omaha seat 10 (C12).  A table seats its own game's maximum (V5–V16; a mix: V19's smallest).
LAYOUT_MAX_SEATS = 10
#: The house game's freezeout seats 2 to 4 (R1, seed 000); its cash table seats the game's 10 (C12).
HOUSE_MAX_SEATS = 4
#: The sizes a card room usually offers (C12): heads-up, 6-max, 9-max (full ring); stud 8, draw 6.
USUAL_SIZES = (2, 6, 9)
#: The formats a table can hold: the freezeout (R1–R30) and the cash game (C1–C11, table/cash.py).
FORMATS = ("freezeout", "cash")


class GameRefused(ValueError):
    """A game a table cannot hold (unknown code or format, too many seats): the message says why."""


def _whole(data: Mapping[str, Any], key: str, default: int, *, low: int = 0) -> int:
    """A whole-number option (not a bool, a float, NaN or a string): :class:`GameRefused` otherwise."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameRefused(f"the cash option {key!r} must be a whole number, not {value!r}")
    if value < low:
        raise GameRefused(f"the cash option {key!r} must be at least {low}, not {value}")
    return value


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise GameRefused(f"the cash option {key!r} must be true or false, not {value!r}")
    return value


def _caps(data: Mapping[str, Any]) -> int | tuple[int, int, int]:
    """C5, C10: ``rake_cap`` is one cap for every hand, or three: for hands dealt to 2
    players, to 3–4 and to 5 or more (each at least the one before)."""
    value = data.get("rake_cap", 0)
    if isinstance(value, (list, tuple)):
        if len(value) != 3:
            raise GameRefused(f"the cash option 'rake_cap' is one cap or three (2, 3–4, 5+ players dealt in), "
                              f"not {len(value)}")
        caps = tuple(_whole({"rake_cap": cap}, "rake_cap", 0) for cap in value)
        if not caps[0] <= caps[1] <= caps[2]:
            raise GameRefused(f"rake caps rise with the players dealt in (C10): {list(caps)} falls")
        return caps[0], caps[1], caps[2]
    return _whole(data, "rake_cap", 0)


@dataclass(frozen=True, slots=True)
class CashOptions:
    """A cash table's stakes and house rules (C1, C5, C6, C7, V17), as its ``create`` entry names them.

    The stakes are named by the big blind (the small blind is half of it, at least 1);
    the buy-ins default to C1's (0: 100 big blinds, and a fifth of that); the rake is
    ``rake_bp`` hundredths of a percent of each pot up to ``rake_cap`` chips (0: no rake),
    one cap or three by the players dealt in (C10: 2, 3–4, 5+); ``straddle`` allows C6's
    straddle under the gun, ``button_straddle`` one on the button too, ``run_twice`` C7's
    agreement; ``show_called``: every called hand is shown at the showdown (V17), else a
    losing hand is mucked (the default, as at online cash tables: docs/rules.md C notes).

    The keys added after the first cash tables (``button_straddle``, ``show_called``) are
    written only when they differ from their defaults, so an entry that does not use them
    reads the same everywhere."""

    big_blind: int = 2
    min_buy_in: int = 0
    max_buy_in: int = 0
    rake_bp: int = 0
    rake_cap: int | tuple[int, int, int] = 0
    straddle: bool = True
    run_twice: bool = True
    button_straddle: bool = False
    show_called: bool = False

    KEYS: ClassVar[tuple[str, ...]] = ("big_blind", "min_buy_in", "max_buy_in", "rake_bp", "rake_cap", "straddle",
                                       "run_twice", "button_straddle", "show_called")
    _LATER: ClassVar[dict[str, bool]] = {"button_straddle": False, "show_called": False}

    @property
    def blinds(self) -> tuple[int, int]:
        return max(1, self.big_blind // 2), self.big_blind

    @property
    def rake_caps(self) -> tuple[int, int, int]:
        """C10: the caps for 2, 3–4 and 5+ players dealt in."""
        cap = self.rake_cap
        return cap if isinstance(cap, tuple) else (cap, cap, cap)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for key in self.KEYS:
            value = getattr(self, key)
            if key in self._LATER and value == self._LATER[key]:
                continue
            data[key] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> CashOptions:
        """The options a client or an entry names; :class:`GameRefused` says which one is wrong."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise GameRefused(f"a cash table's options are an object, not {data!r}")
        unknown = sorted(set(data) - set(cls.KEYS))
        if unknown:
            raise GameRefused(f"unknown cash option {unknown[0]!r} (options: {', '.join(cls.KEYS)})")
        options = cls(_whole(data, "big_blind", 2, low=2), _whole(data, "min_buy_in", 0), _whole(data, "max_buy_in", 0),
                      _whole(data, "rake_bp", 0), _caps(data), _flag(data, "straddle", True),
                      _flag(data, "run_twice", True), _flag(data, "button_straddle", False),
                      _flag(data, "show_called", False))
        if options.rake_bp > 10000:
            raise GameRefused(f"a rake of {options.rake_bp} basis points is more than the whole pot")
        if options.rake_bp and not options.rake_caps[0]:
            raise GameRefused("a rake needs its cap (rake_cap, C5)")
        if options.button_straddle and not options.straddle:
            raise GameRefused("a button straddle is a straddle: it needs 'straddle' allowed too (C6)")
        return options


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a table plays, as its ``create`` entry names it.

    ``code`` is an engine variant (its betting structure is part of the code:
    ``NT`` no-limit, ``PO`` pot-limit, ``FT`` fixed-limit …) or a mix; the
    level schedule is the game's own (R6, V18, V19), and the stack R1's."""

    code: str = HOUSE_GAME
    format: str = "freezeout"
    starting_stack: int = STARTING_STACK  # R1
    cash: CashOptions | None = None  # a cash table's stakes and rules (format "cash" only)

    @property
    def game(self) -> Game:
        return parse_game(self.code)

    def variant_for_hand(self, number: int) -> Variant:
        """The game of hand ``number`` (1-based): the one game, or the mix's of that level (V19)."""
        game = self.game
        return game.game_for_hand(number) if isinstance(game, Mix) else game

    @property
    def is_house(self) -> bool:
        return self.code == HOUSE_GAME and self.format == "freezeout" and self.starting_stack == STARTING_STACK

    @property
    def max_seats(self) -> int:
        """The most seats a table of this game has (C12): the game's maximum (a mix: V19's
        smallest), within the layout; the house game's freezeout 4 (R1, V18)."""
        most = min(self.game.max_players, LAYOUT_MAX_SEATS)
        return min(most, HOUSE_MAX_SEATS) if self.code == HOUSE_GAME and self.format == "freezeout" else most

    @property
    def usual_sizes(self) -> list[int]:
        """The sizes the lobby offers first (C12): heads-up, 6-max, 9-max within the game's most,
        and the most itself (stud 8, draw 6, the house freezeout 4)."""
        most = self.max_seats
        return sorted({n for n in USUAL_SIZES if self.min_seats <= n <= most} | {most})

    @property
    def min_seats(self) -> int:
        return max(2, self.game.min_players)

    def check(self, seats: int) -> None:
        """Raise :class:`GameRefused` unless a table of ``seats`` seats can hold this game."""
        if self.format not in FORMATS:
            raise GameRefused(f"unknown format {self.format!r} (formats: {', '.join(FORMATS)})")
        if (self.format == "cash") != (self.cash is not None):
            raise GameRefused("a cash table names its options (stakes, buy-ins, rake), and only a cash table does")
        name = self.game.name
        if seats > self.max_seats:
            limit = ("the house game's freezeout seats" if self.max_seats < min(self.game.max_players, LAYOUT_MAX_SEATS)
                     else "a table seats" if self.max_seats < self.game.max_players else f"{name} seats")
            raise GameRefused(f"{name} is played by at most {self.max_seats} players here ({limit} at most "
                              f"{self.max_seats}, C12), not {seats}")
        if seats < self.min_seats:
            raise GameRefused(f"{name} needs at least {self.min_seats} players, not {seats}")

    def summary(self) -> dict[str, Any]:
        """The game as the lobby shows it: code, name, format and, for a mix, its games."""
        game = self.game
        data: dict[str, Any] = {"code": game.code, "name": game.name, "format": self.format,
                                "max_seats": self.max_seats}
        if isinstance(game, Mix):
            data["games"] = [{"code": v.code, "name": v.name} for v in game.games]
        else:
            data["betting"] = game.betting.value
        if self.cash is not None:
            data["cash"] = self.cash.to_json()
        else:
            data["starting_stack"] = self.starting_stack  # R1: what a freezeout's seats start with
        return data

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "format": self.format}
        if self.starting_stack != STARTING_STACK:
            data["starting_stack"] = self.starting_stack
        if self.cash is not None:
            data["cash"] = self.cash.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> GameSpec:
        """The spec an entry names; none (a log from before games had names) is the house game."""
        if not data:
            return cls()
        cash = data.get("cash")
        return cls(str(data.get("code", HOUSE_GAME)), str(data.get("format", "freezeout")),
                   int(data.get("starting_stack", STARTING_STACK)), CashOptions.from_json(cash) if cash is not None else None)

    @classmethod
    def parse(cls, code: object, *, format: str = "freezeout") -> GameSpec:
        """A spec from a client's choice (None: the house game); :class:`GameRefused` names the problem."""
        if code is None:
            return cls(format=format)
        try:
            game = parse_game(code)
        except RulesError as error:
            raise GameRefused(_lacking_structure(code) or str(error)) from None
        return cls(game.code, format)

    @classmethod
    def parse_cash(cls, code: object, options: Mapping[str, Any] | None) -> GameSpec:
        """A cash table's spec from a client's choice of game and options (:class:`GameRefused`)."""
        game = cls.parse(code)
        return cls(game.code, "cash", cash=CashOptions.from_json(options or {}))


_STRUCTURES = {"N": "no-limit", "P": "pot-limit", "F": "fixed-limit"}


def _lacking_structure(code: object) -> str | None:
    """A code of a game that exists in other betting structures only: say which exist."""
    if not isinstance(code, str) or len(code) < 2 or code[0] not in _STRUCTURES:
        return None
    others = [v for v in VARIANTS.values() if v.code[1:] == code[1:] and v.code[0] in _STRUCTURES]
    if not others:
        return None
    name = others[0].name.split(" ", 1)[1]
    return (f"{name} has no {_STRUCTURES[code[0]]} version: choose "
            + " or ".join(f"{v.code} ({_STRUCTURES[v.code[0]]})" for v in others))


@functools.lru_cache(maxsize=64)
def game_summary(spec: GameSpec) -> dict[str, Any]:
    """:meth:`GameSpec.summary`, built once per spec (it goes out in every table summary): read-only."""
    return spec.summary()


def seat_ranges(code: str) -> dict[str, dict[str, Any]]:
    """A game's seats per format, as the catalogue gives them (C12): the fewest, the most and the
    usual sizes of a freezeout and of a cash table (the house game's freezeout 2–4, R1)."""
    ranges: dict[str, dict[str, Any]] = {}
    for format in FORMATS:
        spec = GameSpec(code, format)
        ranges[format] = {"min": spec.min_seats, "max": spec.max_seats, "usual": spec.usual_sizes}
    return ranges


# -- moves in log entries ------------------------------------------------------
def action_data(action: Action) -> dict[str, Any]:
    """A move as a log entry (and the record) stores it: seat, move word, amount, cards."""
    data: dict[str, Any] = {"seat": action.seat, "move": action.kind.value}
    if action.amount is not None:
        data["amount"] = action.amount
    if action.cards is not None:
        data["cards"] = "".join("??" if card is None else str(card) for card in action.cards)
    return data


def action_from_data(data: Mapping[str, Any]) -> Action:
    """The move a log entry stores (:func:`action_data`); InvalidInput when malformed."""
    cards_text = data.get("cards")
    cards: tuple[Card, ...] | None = None
    if cards_text is not None:
        try:
            cards = tuple(parse_cards(str(cards_text)))
        except ValueError as error:
            raise InvalidInput(f"bad cards {cards_text!r}: {error}") from None
    amount = data.get("amount")
    return Action.parse(int(data["seat"]), str(data["move"]), amount if amount is None else int(amount), cards)

