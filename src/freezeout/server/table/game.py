"""What a table holds: a game, named in its ``create`` entry, behind one boundary.

A table seats people; what they play there is a :class:`TableGame`.  The
freezeout (R1–R30, V18: levels, elimination, rematch, Elo) is the first
implementation (:mod:`freezeout.server.table.freezeout`); a cash game is meant
to be the second, beside it, without the table knowing the difference.

* :class:`GameSpec` is what the table's ``create`` entry names: the game (an
  engine variant code such as ``FO/8`` or a V19 mix such as ``HORSE``, which
  fixes the betting structure and the level schedule) and the format.  An
  entry without it (every log written before games had names) is the house
  game, so old logs replay unchanged.
* :class:`TableGame` is everything the table, its clocks, its log and its
  views ask of the game: deal a hand from a committed deck, apply a move (a
  betting move, a draw, a forfeit on timeout, a resignation), who acts and
  what they may do, the results, the seat's view — nothing about cards,
  chips or seats beyond what it answers.
* :func:`action_data` / :func:`action_from_data` are the one serialiser of a
  move into and out of a log entry.

Nothing here does I/O, reads a clock or draws randomness: the deck and the
seating come in from the caller, as they do into the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from freezeout.cards import Card, parse_cards
from freezeout.rules.actions import Action
from freezeout.rules.errors import InvalidInput, RulesError
from freezeout.rules.events import Event
from freezeout.rules.games import HOUSE_GAME, Game, Mix, parse_game
from freezeout.rules.legal import LegalActions
from freezeout.rules.variant import VARIANTS, Variant
from freezeout.rules.views import TableView
from freezeout.server.table.fairness import HandCards

__all__ = [
    "FORMATS",
    "LAYOUT_MAX_SEATS",
    "GameRefused",
    "GameSpec",
    "HandCards",
    "TableGame",
    "action_data",
    "action_from_data",
    "check_game",
    "game_summary",
    "start_game",
]

#: The most seats the table's layout (the page, web/js/felt.js: 2 to 4 seats) draws; a game
#: seats the smaller of this and its own maximum (V5–V16; a mix: V19's smallest maximum of
#: its games).  Raise it when the page lays out more seats.
LAYOUT_MAX_SEATS = 4
#: The formats a table can hold; "cash" is meant to join it (the next issue).
FORMATS = ("freezeout",)


class GameRefused(ValueError):
    """A game a table cannot hold (unknown code or format, too many seats): the message says why."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a table plays, as its ``create`` entry names it.

    ``code`` is an engine variant (its betting structure is part of the code:
    ``NT`` no-limit, ``PO`` pot-limit, ``FT`` fixed-limit …) or a mix; the
    level schedule is the game's own (R6, V18, V19), and the stack R1's."""

    code: str = HOUSE_GAME
    format: str = "freezeout"
    starting_stack: int = 1000

    @property
    def game(self) -> Game:
        return parse_game(self.code)

    def variant_for_hand(self, number: int) -> Variant:
        """The game of hand ``number`` (1-based): the one game, or the mix's of that level (V19)."""
        game = self.game
        return game.game_for_hand(number) if isinstance(game, Mix) else game

    @property
    def is_house(self) -> bool:
        return self.code == HOUSE_GAME and self.format == "freezeout" and self.starting_stack == 1000

    @property
    def max_seats(self) -> int:
        """The most seats a table of this game has: the game's maximum, within the layout."""
        return min(self.game.max_players, LAYOUT_MAX_SEATS)

    @property
    def min_seats(self) -> int:
        return max(2, self.game.min_players)

    def check(self, seats: int) -> None:
        """Raise :class:`GameRefused` unless a table of ``seats`` seats can hold this game."""
        if self.format not in FORMATS:
            raise GameRefused(f"unknown format {self.format!r} (formats: {', '.join(FORMATS)})")
        name = self.game.name
        if seats > self.max_seats:
            limit = "the layout draws" if self.max_seats < self.game.max_players else f"{name} seats"
            raise GameRefused(f"{name} is played by at most {self.max_seats} players here ({limit} at most "
                              f"{self.max_seats}), not {seats}")
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
        return data

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "format": self.format}
        if self.starting_stack != 1000:
            data["starting_stack"] = self.starting_stack
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> GameSpec:
        """The spec an entry names; none (a log from before games had names) is the house game."""
        if not data:
            return cls()
        return cls(str(data.get("code", HOUSE_GAME)), str(data.get("format", "freezeout")),
                   int(data.get("starting_stack", 1000)))

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


class TableGame(Protocol):
    """A game in progress at a table (see the module docstring).

    Values are immutable: every transition returns the new game and the rules'
    events (the complete stream: the private deal is among them, for the log's
    readers; :func:`freezeout.rules.events.public_event` is the gate to clients)."""

    @property
    def spec(self) -> GameSpec: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def variant(self) -> Variant:
        """The game of the current (or next) hand: a mix's changes every level (V19)."""
        ...
    @property
    def hand_number(self) -> int: ...
    @property
    def in_hand(self) -> bool: ...
    @property
    def finished(self) -> bool: ...
    @property
    def to_act(self) -> int:
        """The seat whose turn it is, or -1."""
        ...
    @property
    def alive(self) -> tuple[bool, ...]:
        """Who still plays (a freezeout: not eliminated)."""
        ...
    @property
    def places(self) -> tuple[int | None, ...]: ...
    @property
    def winner(self) -> int: ...
    @property
    def board(self) -> tuple[Card | None, ...]:
        """The current (or last) hand's board dealt so far."""
        ...
    @property
    def events_in_hand(self) -> int:
        """How many public events the current hand has had (a point in the game, for seeded bots)."""
        ...
    def legal_actions(self) -> LegalActions | None: ...
    def deal(self, deck: Sequence[Card], reshuffle: Sequence[Card] = ()) -> tuple[TableGame, list[Event]]:
        """Start the next hand from a shuffled deck (R2) of :attr:`variant`'s cards."""
        ...
    def apply(self, action: Action) -> tuple[TableGame, list[Event]]:
        """A move by ``action.seat``: a betting move, a draw, ``timeout`` (R26/R27; a draw's
        follows V12, a bring-in's posts it) or ``resign`` (R28).  Raises RulesError."""
        ...
    def hand_cards(self) -> HandCards | None: ...
    def hands_ended(self, before: TableGame) -> bool:
        """Whether a hand ended between ``before`` and this game."""
        ...
    def forget_past(self, keep: int) -> TableGame:
        """Keep only the last ``keep`` hands' public events (the bots' memory, issue #10)."""
        ...
    def seat_view(self, viewer: int | None) -> TableView: ...
    def view_dicts(self, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]: ...
    def rematch(self, players: tuple[str, ...], button: int) -> TableGame:
        """A new game of the same spec between ``players`` (R3: seated anew by the caller)."""
        ...


def start_game(spec: GameSpec, players: Sequence[str], button: int) -> TableGame:
    """The game a ``start`` entry begins (the format's own start)."""
    if spec.format == "freezeout":
        from freezeout.server.table.freezeout import FreezeoutGame

        return FreezeoutGame.start(spec, tuple(players), button)
    raise GameRefused(f"unknown format {spec.format!r}")


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


def check_game(spec: GameSpec, seats: int) -> None:
    """Raise :class:`GameRefused` unless a table of ``seats`` seats can hold ``spec`` now: the
    game and seat count (:meth:`GameSpec.check`) and what its format can deal in this build."""
    spec.check(seats)
    if spec.format == "freezeout":
        from freezeout.server.table.freezeout import tournament_config

        tournament_config(spec, [f"p{i}" for i in range(seats)], 0)


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

