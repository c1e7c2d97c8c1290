"""Tournament records: ``freezeout.record/1`` (the house game) and
``freezeout.record/2`` (a freezeout in any game or mix, V18, V19) — docs/formats.md §1.

:func:`parse_record` turns JSON into a typed :class:`Record` (structure and
cards checked, nothing replayed yet); :func:`replay_record` plays it through
the rules core and returns the per-hand results, or raises
:class:`RecordError` whose message is the one line formats.md asks for
(``hand 3, action 5 ["bo","raise",30]: raise to 30 is below the minimum
raise to 40``).  :class:`RecordWriter` builds a record while a tournament is
played, so that every game can be exported and audited.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from freezeout.cards import Card, CardError, parse_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import CardsDealt, Drew, Eliminated, Event, HandStarted, HoleDealt, StreetDealt
from freezeout.rules.games import MIXES, Mix
from freezeout.rules.hand import HandSetup
from freezeout.rules.tournament import (
    HANDS_PER_LEVEL,
    HOUSE_LEVELS,
    Level,
    LevelClock,
    Tournament,
    TournamentConfig,
    default_levels,
)
from freezeout.rules.variant import NLHE, Ruleset, UnsupportedVariant, Variant, variant

__all__ = [
    "FORMAT",
    "FORMAT_2",
    "PlayedHand",
    "Record",
    "RecordError",
    "RecordHand",
    "RecordWriter",
    "ReplayResult",
    "deal_recorded_hand",
    "parse_record",
    "play_recorded_action",
    "replay_record",
]

FORMAT = "freezeout.record/1"
FORMAT_2 = "freezeout.record/2"
_LEVEL_KEYS = Level._fields


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; the message is one line."""


RawAction = tuple[str, str] | tuple[str, str, int]


@dataclass(frozen=True, slots=True)
class RecordHand:
    hole: Mapping[str, tuple[Card | None, ...]]  # every card the player is dealt, in order
    board: tuple[Card | None, ...]
    actions: tuple[Any, ...]  # raw JSON entries, validated during the replay


@dataclass(frozen=True, slots=True)
class Record:
    players: tuple[str, ...]
    button: str
    ruleset: Ruleset
    starting_stack: int
    hands: tuple[Any, ...]  # raw JSON hands; parsed one by one so errors name the hand
    variant: Variant = NLHE
    levels: tuple[Level | tuple[int, int], ...] = HOUSE_LEVELS
    hands_per_level: int = HANDS_PER_LEVEL
    format: str = FORMAT
    mix: Mix | None = None  # V19: the record's game is a mix (``variant`` is then its first game)

    def config(self) -> TournamentConfig:
        return TournamentConfig(
            players=self.players,
            button=self.players.index(self.button),
            starting_stack=self.starting_stack,
            ruleset=self.ruleset,
            levels=self.levels,
            hands_per_level=self.hands_per_level,
            variant=self.variant,
            mix=self.mix,
        )


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One replayed hand: what formats need to export it (PHH, UI)."""

    number: int
    button: str
    blinds: tuple[int, int]
    stacks: dict[str, int]
    eliminated: tuple[str, ...]
    setup: HandSetup
    actions: tuple[tuple[str, Action], ...]  # (player, action with *tournament* seat)
    events: tuple[Event, ...]
    level: Level | None = None  # record/2: the hand's forced bets (V18)
    game: str | None = None  # a mix's record: the hand's game (V19)
    level_index: int = 0  # V18: the hand's level (0-based, counting past the last; orbits past 6 players)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"number": self.number, "button": self.button, "blinds": list(self.blinds)}
        if self.game is not None:
            data["game"] = self.game
        if self.level is not None:
            data["level"] = {key: value for key, value in self.level._asdict().items() if value}
        data.update(stacks=dict(self.stacks), eliminated=list(self.eliminated))
        return data


@dataclass(frozen=True, slots=True)
class ReplayResult:
    hands: tuple[PlayedHand, ...]
    standings: tuple[tuple[str, int | None], ...]
    finished: bool
    tournament: Tournament

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [hand.to_json() for hand in self.hands],
            "standings": [{"player": player, "place": place} for player, place in self.standings],
            "finished": self.finished,
        }


def _is_int(value: object) -> bool:
    return type(value) is int


def parse_record(data: str | bytes | Mapping[str, Any]) -> Record:
    """Check the record's envelope (formats.md §1 "Validation")."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise RecordError(f"malformed JSON: {error}") from None
    if not isinstance(data, Mapping):
        raise RecordError("malformed record: the top level must be a JSON object")
    kind = data.get("format")
    if kind not in (FORMAT, FORMAT_2):
        raise RecordError(f"unsupported format {kind!r}: expected {FORMAT!r} or {FORMAT_2!r}")
    game: Variant = NLHE
    mix: Mix | None = None
    levels: tuple[Level | tuple[int, int], ...] = HOUSE_LEVELS
    per_level = HANDS_PER_LEVEL
    if kind == FORMAT_2:
        game, mix, levels, per_level = _parse_game(data.get("game"))
    players = data.get("players")
    most = 4 if kind == FORMAT else (mix or game).max_players
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= most
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise RecordError(f"invalid players: need 2 to {most} distinct non-empty player ids")
    button = data.get("button")
    if not isinstance(button, str) or button not in players:
        raise RecordError(f"invalid button {button!r}: it must be one of the players")
    ruleset_text = data.get("ruleset", "house")
    try:
        ruleset = Ruleset(ruleset_text)
    except ValueError:
        raise RecordError(f"invalid ruleset {ruleset_text!r}: expected 'house' or 'standard'") from None
    stack = data.get("starting_stack", 1000)
    if not _is_int(stack) or stack <= 0:
        raise RecordError(f"invalid starting_stack {stack!r}: expected a positive integer")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RecordError("invalid hands: expected a list")
    return Record(tuple(players), button, ruleset, stack, tuple(hands), game, levels, per_level, kind, mix)


def _parse_game(raw: Any) -> tuple[Variant, Mix | None, tuple[Level | tuple[int, int], ...], int]:
    """record/2's ``game``: the variant's code — or a mix's (V19) — and
    optionally its levels (V18; default :func:`default_levels`, a mix's R6
    blinds) and hands per level (default 6)."""
    if not isinstance(raw, Mapping):
        raise RecordError("invalid game: expected an object with the variant's code, e.g. {\"variant\": \"F7S\"}")
    mix: Mix | None = None
    if "mix" in raw:
        code = raw["mix"]
        if "variant" in raw:
            raise RecordError("invalid game: give either 'variant' or 'mix', not both")
        if not isinstance(code, str) or code not in MIXES:
            raise RecordError(f"invalid game: 'mix' must be one of {', '.join(MIXES)}, got {code!r}")
        mix = MIXES[code]
        game = mix.games[0]
    else:
        code = raw.get("variant")
        if not isinstance(code, str):
            raise RecordError("invalid game: 'variant' must be a variant code such as 'PO' or 'F7S' (or give a 'mix')")
        try:
            game = variant(code)
        except UnsupportedVariant as error:
            raise RecordError(f"invalid game: {error}") from None
    per_level = raw.get("hands_per_level", HANDS_PER_LEVEL)
    if not _is_int(per_level) or per_level <= 0:
        raise RecordError(f"invalid game: hands_per_level must be a positive integer, got {per_level!r}")
    if "levels" not in raw:
        return game, mix, HOUSE_LEVELS if mix is not None else default_levels(game), per_level
    levels_raw = raw["levels"]
    if not isinstance(levels_raw, list) or not levels_raw:
        raise RecordError("invalid game: levels must be a non-empty list of objects")
    levels: list[Level] = []
    for number, entry in enumerate(levels_raw, start=1):
        if not isinstance(entry, Mapping) or set(entry) - set(_LEVEL_KEYS):
            raise RecordError(f"invalid game: level {number} must be an object with keys among {', '.join(_LEVEL_KEYS)}")
        values = {key: entry.get(key, 0) for key in _LEVEL_KEYS}
        if not all(_is_int(value) and value >= 0 for value in values.values()):
            raise RecordError(f"invalid game: level {number} amounts must be integers >= 0")
        levels.append(Level(**values))
    return game, mix, tuple(levels), per_level


def _parse_hand(raw: Any, number: int, alive: Sequence[str], game: Variant) -> RecordHand:
    where = f"hand {number}"
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: expected an object with hole, board and actions")
    hole_raw = raw.get("hole")
    if not isinstance(hole_raw, Mapping):
        raise RecordError(f"{where}: hole must map each player still in to their cards")
    missing = [p for p in alive if p not in hole_raw]
    extra = [p for p in hole_raw if p not in alive]
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("not still in: " + ", ".join(str(p) for p in extra))
        raise RecordError(f"{where}: hole must give exactly the players still in ({'; '.join(parts)})")
    hole: dict[str, tuple[Card | None, ...]] = {}
    seen: dict[Card, str] = {}
    low, high = game.hole_card_range
    try:
        for player in alive:
            cards = _cards(hole_raw[player], f"{player}'s cards")
            if not low <= len(cards) <= high:
                wanted = str(low) if low == high else f"{low} to {high}" if high < 99 else f"at least {low}"
                noun = "hole cards" if low == high else "cards"
                raise RecordError(f"{where}: {player} must have exactly {wanted} {noun}, got {len(cards)}"
                                  if low == high else f"{where}: {player} must have {wanted} {noun}, got {len(cards)}")
            hole[player] = cards
        board = _cards(raw.get("board", ""), "board")
    except CardError as error:
        raise RecordError(f"{where}: {error}") from None
    most_board = game.board_size + (1 if game.deals_later_hole_cards else 0)
    if len(board) > most_board:
        raise RecordError(f"{where}: the board has {len(board)} cards, at most {most_board}")
    if not game.has_draws:
        for owner, cards in [*hole.items(), ("the board", board)]:
            for card in cards:
                if card is None:
                    continue
                if card in seen:
                    raise RecordError(f"{where}: duplicate card {card} ({seen[card]} and {owner})")
                seen[card] = owner
    actions = raw.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list")
    return RecordHand(hole, board, tuple(actions))


_UNKNOWN = re.compile(r"(\?\?)")


def _cards(value: Any, what: str) -> tuple[Card | None, ...]:
    """Cards as one string (``"AsKd"``) or a list of strings (``["As", "Kd"]``;
    in record/2 one string per dealing — stud's streets, the cards of each
    draw, ``""`` for standing pat); ``??`` is a card the record does not
    show (a record given to a player hides what that player did not see)."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(card for item in value for card in _cards(item, what))
    if not isinstance(value, str):
        raise CardError(f"{what} must be a card string or a list of cards, got {value!r}")
    if "??" not in value:
        return tuple(parse_cards(value, distinct=False))
    cards: list[Card | None] = []
    for part in _UNKNOWN.split(value):
        if part == "??":
            cards.append(None)
        elif part:
            cards.extend(parse_cards(part, distinct=False))
    return tuple(cards)


_WORDS = {kind.value: kind for kind in ActionKind}


def _parse_action(raw: Any, players: Sequence[str]) -> tuple[str, Action]:
    if not isinstance(raw, list) or len(raw) not in (2, 3) or not all(isinstance(x, str) for x in raw[:2]):
        raise RecordError("an action must be [player, move] or [player, move, amount]")
    player, word = raw[0], raw[1]
    if player not in players:
        raise RecordError(f"unknown player {player!r}")
    kind = _WORDS.get(word)
    if kind is None:
        raise RecordError(f"unknown move {word!r}")
    seat = players.index(player)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if len(raw) != 3 or not _is_int(raw[2]):
            raise RecordError(f"{word} needs an integer amount (the total bet for the round)")
        return player, Action(seat, kind, raw[2])
    if kind is ActionKind.COMPLETE and len(raw) == 3:
        if not _is_int(raw[2]):
            raise RecordError("complete takes an integer amount (the total bet for the round) or none")
        return player, Action(seat, kind, raw[2])
    if kind is ActionKind.DISCARD:
        if len(raw) != 3 or not isinstance(raw[2], str | list):
            raise RecordError("discard needs the cards thrown away, e.g. [\"ana\", \"discard\", \"7d2c\"]")
        try:
            cards = _cards(raw[2], "discarded cards")
        except CardError as error:
            raise RecordError(str(error)) from None
        return player, Action(seat, kind, cards=cards)
    if len(raw) != 2:
        raise RecordError(f"{word} takes no amount")
    return player, Action(seat, kind)


def deal_recorded_hand(tournament: Tournament, raw_hand: Any, number: int, players: Sequence[str],
                       ) -> tuple[Tournament, list[Event], Any]:
    """Deal hand ``number`` of a record (its hole cards and board) to the players still in;
    the record's words for what does not fit the rules.  Returns the tournament, the deal's
    events and the parsed hand (its actions follow: :func:`play_recorded_action`)."""
    alive = [p for p, a in zip(players, tournament.alive, strict=True) if a]
    hand = _parse_hand(raw_hand, number, alive, tournament.variant_for_hand(number))
    hole = {players.index(p): cards for p, cards in hand.hole.items()}
    try:
        tournament, events = tournament.deal(hole, hand.board)
    except RulesError as error:
        raise RecordError(f"hand {number}: {error}") from None
    return tournament, list(events), hand


def play_recorded_action(tournament: Tournament, raw_action: Any, players: Sequence[str],
                         ) -> tuple[Tournament, list[Event], str, Action]:
    """One recorded action played through the rules: after a hand only a resignation."""
    try:
        player, action = _parse_action(raw_action, players)
        if tournament.finished:
            raise RecordError("the tournament is over")
        if not tournament.in_hand and action.kind is not ActionKind.RESIGN:
            raise RecordError("the hand is over; only a resignation may follow it")
        tournament, events = tournament.act(action)
    except RulesError as error:
        raise RecordError(str(error)) from None
    return tournament, list(events), player, action


def replay_record(record: Record) -> ReplayResult:
    """Play the record through the rules (R1–R30) and collect the results."""
    try:
        tournament = Tournament.start(record.config())
    except RulesError as error:
        raise RecordError(f"invalid record: {error}") from None
    played: list[PlayedHand] = []
    players = record.players
    for number, raw_hand in enumerate(record.hands, start=1):
        if tournament.finished:
            raise RecordError(f"hand {number}: the tournament is already over")
        tournament, events, hand = deal_recorded_hand(tournament, raw_hand, number, players)
        assert tournament.hand is not None
        setup = tournament.hand.setup
        seats_in = tournament.seats
        button = players[tournament.button]
        applied: list[tuple[str, Action]] = []
        all_events = list(events)
        for index, raw_action in enumerate(hand.actions, start=1):
            where = f"hand {number}, action {index} {_quote(raw_action)}"
            try:
                tournament, events, player, action = play_recorded_action(tournament, raw_action, players)
            except RecordError as error:
                raise RecordError(f"{where}: {error}") from None
            applied.append((player, action))
            all_events.extend(events)
        if tournament.in_hand:
            actor = players[tournament.to_act] if tournament.to_act >= 0 else "nobody"
            raise RecordError(f"hand {number}: the hand is not complete ({actor} to act)")
        eliminated = tuple(players[e.seat] for e in all_events if isinstance(e, Eliminated))
        stacks = {players[seat]: tournament.stacks[seat] for seat in seats_in}
        config = tournament.config
        level = tournament.level(number)  # V18: the replayed clock knows its orbits
        played.append(
            PlayedHand(
                number=number,
                button=button,
                blinds=(level.small_blind, level.big_blind),
                stacks=stacks,
                eliminated=eliminated,
                setup=setup,
                actions=tuple(applied),
                events=tuple(all_events),
                level=level if record.format == FORMAT_2 else None,
                game=setup.variant.code if config.mix is not None else None,
                level_index=tournament.level_index(number),
            )
        )
    standings = tuple(zip(players, tournament.places, strict=True))
    return ReplayResult(tuple(played), standings, tournament.finished, tournament)


def _quote(raw: Any) -> str:
    try:
        return json.dumps(raw, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(raw)


@dataclass
class RecordWriter:
    """Collects a tournament as it is played, then writes its record:
    ``freezeout.record/1`` for the house game, ``freezeout.record/2`` for
    any other game (or levels).

    A flop game's hand is written from :meth:`deal` (or from the private
    ``CardsDealt`` event given to :meth:`observe`); games that deal during
    the hand are written from the events: :meth:`observe` every event batch
    of the tournament (the full stream, private events included), and each
    player's cards become one string per dealing."""

    players: tuple[str, ...]
    button: str
    ruleset: Ruleset = Ruleset.HOUSE
    starting_stack: int = 1000
    hands: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    variant: Variant = NLHE
    levels: tuple[Level | tuple[int, int], ...] | None = None  # None: the game's default (V18; a mix's: R6's blinds)
    hands_per_level: int = HANDS_PER_LEVEL
    mix: Mix | None = None  # V19: a mix's record names the mix (and ``variant`` is ignored)
    # The number of the hand being written, from its HandStarted (the server moves
    # finished hands out of ``hands``, so their count does not tell it).
    hand_number: int = 0
    # V18: the level clock of the hand being written (a level lasts an orbit past 6 players).
    level_clock: LevelClock = LevelClock()  # noqa: RUF009 (an immutable NamedTuple)

    @property
    def format(self) -> str:
        levels = None if self.levels is None else tuple(Level(*level) for level in self.levels)
        house_levels = levels is None or levels == default_levels(NLHE)
        house = self.variant is NLHE and self.mix is None and house_levels and self.hands_per_level == HANDS_PER_LEVEL
        return FORMAT if house and len(self.players) <= 4 else FORMAT_2

    def _game(self) -> Variant:
        """The game of the hand being written (V19: a mix changes it with each level)."""
        if self.mix is None:
            return self.variant
        level = max(self.level_clock.level, 0)
        return self.mix.games[level % len(self.mix.games)]

    def deal(self, hole: Mapping[str, Sequence[Card | None]], board: Sequence[Card | None], **extra: Any) -> None:
        hand: dict[str, Any] = {
            "hole": {player: _text(cards) for player, cards in hole.items()},
            "board": _text(board),
            "actions": [],
        }
        hand.update(extra)
        self.hands.append(hand)

    def observe(self, events: Sequence[Event]) -> None:
        """Take the cards of a hand from the tournament's (full) events."""
        for event in events:
            if isinstance(event, HandStarted):
                self.hand_number = event.number
                self.level_clock = self.level_clock.for_hand(event.number, len(event.seats), self.hands_per_level)
                self.hands.append({"hole": {self.players[seat]: [] for seat in event.seats}, "board": "", "actions": []})
            elif not self.hands:
                continue
            elif isinstance(event, CardsDealt) and event.hole and not self._announced:
                hand = self.hands[-1]
                hand["hole"] = {self.players[seat]: _text(cards) for seat, cards in event.hole}
                hand["board"] = _text(event.board)
            elif isinstance(event, HoleDealt):
                self.hands[-1]["hole"][self.players[event.seat]].append(_text(event.cards))
            elif isinstance(event, Drew):
                self.hands[-1]["hole"][self.players[event.seat]].append(_text(event.drawn))
            elif isinstance(event, StreetDealt) and event.cards and not self._game().board_size:
                self.hands[-1]["board"] += _text(event.cards)  # stud's shared card

    @property
    def _announced(self) -> bool:
        """Stud and draw games announce every card they deal (HoleDealt, Drew)."""
        game = self._game()
        return game.deals_later_hole_cards or game.has_draws

    def act(self, player: str, action: Action) -> None:
        entry: list[Any] = [player, action.kind.value]
        if action.amount is not None:
            entry.append(action.amount)
        if action.cards is not None:
            entry.append(_text(action.cards))
        if not self.hands:
            raise RecordError("no hand has been dealt yet")
        self.hands[-1]["actions"].append(entry)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": self.format}
        if data["format"] == FORMAT_2:
            game: dict[str, Any] = {"variant": self.variant.code} if self.mix is None else {"mix": self.mix.code}
            if self.levels is not None:
                game["levels"] = [
                    {key: value for key, value in (level if isinstance(level, Level) else Level(*level))._asdict().items() if value}
                    for level in self.levels
                ]
            if self.hands_per_level != HANDS_PER_LEVEL:
                game["hands_per_level"] = self.hands_per_level
            data["game"] = game
        data.update(
            ruleset=self.ruleset.value,
            starting_stack=self.starting_stack,
            players=list(self.players),
            button=self.button,
            hands=self.hands,
        )
        data.update(self.extra)
        return data


def _text(cards: Sequence[Card | None]) -> str:
    return "".join("??" if card is None else str(card) for card in cards)
