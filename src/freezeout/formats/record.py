"""The tournament record ``freezeout.record/1`` (formats.md §1).

:func:`parse_record` turns JSON into a typed :class:`Record` (structure and
cards checked, nothing replayed yet); :func:`replay_record` plays it through
the rules core and returns the per-hand results, or raises
:class:`RecordError` whose message is the one line formats.md asks for
(``hand 3, action 5 ["bo","raise",30]: raise to 30 is below the minimum
raise to 40``).  :class:`RecordWriter` builds a record while a tournament is
played, so that every game can be exported and audited.

A card may be ``??`` (unknown, the PHH convention) where it never needs to be
known: the hole cards of a player who never shows them, board cards the hand
never reaches.  A record whose hand would have to show an unknown card is
refused with a clear error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from freezeout.cards import Card, CardError, format_cards, full_deck, parse_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import CardsDealt, CardsShown, Eliminated, Event
from freezeout.rules.hand import HandSetup
from freezeout.rules.tournament import Tournament, TournamentConfig, blinds_for_hand
from freezeout.rules.variant import Ruleset

__all__ = [
    "FORMAT",
    "PlayedHand",
    "Record",
    "RecordError",
    "RecordHand",
    "RecordWriter",
    "ReplayResult",
    "parse_record",
    "replay_record",
]

FORMAT = "freezeout.record/1"


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; the message is one line."""


RawAction = tuple[str, str] | tuple[str, str, int]


UNKNOWN = "??"  # a card the record does not know (the PHH convention)


@dataclass(frozen=True, slots=True)
class RecordHand:
    hole: Mapping[str, tuple[Card | None, ...]]  # None: a card the record does not know (``??``)
    board: tuple[Card, ...]  # the known board cards (unknown ones may only trail: never reached)
    actions: tuple[Any, ...]  # raw JSON entries, validated during the replay


@dataclass(frozen=True, slots=True)
class Record:
    players: tuple[str, ...]
    button: str
    ruleset: Ruleset
    starting_stack: int
    hands: tuple[Any, ...]  # raw JSON hands; parsed one by one so errors name the hand

    def config(self) -> TournamentConfig:
        return TournamentConfig(
            players=self.players,
            button=self.players.index(self.button),
            starting_stack=self.starting_stack,
            ruleset=self.ruleset,
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

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "button": self.button,
            "blinds": list(self.blinds),
            "stacks": dict(self.stacks),
            "eliminated": list(self.eliminated),
        }


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
    if data.get("format") != FORMAT:
        raise RecordError(f"unsupported format {data.get('format')!r}: expected {FORMAT!r}")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise RecordError("invalid players: need 2 to 4 distinct non-empty player ids")
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
    return Record(tuple(players), button, ruleset, stack, tuple(hands))


def _parse_hand(raw: Any, number: int, alive: Sequence[str]) -> RecordHand:
    where = f"hand {number}"
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: expected an object with hole, board and actions")
    hole_raw = raw.get("hole")
    if not isinstance(hole_raw, Mapping):
        raise RecordError(f"{where}: hole must map each player still in to two cards")
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
    try:
        for player in alive:
            cards = _cards(hole_raw[player], f"{player}'s hole cards")
            if len(cards) != 2:
                raise RecordError(f"{where}: {player} must have exactly 2 hole cards, got {len(cards)}")
            hole[player] = cards
        board_or_unknown = _cards(raw.get("board", ""), "board")
    except CardError as error:
        raise RecordError(f"{where}: {error}") from None
    if len(board_or_unknown) > 5:
        raise RecordError(f"{where}: the board has {len(board_or_unknown)} cards, at most 5")
    known = len(board_or_unknown) if None not in board_or_unknown else board_or_unknown.index(None)
    if any(card is not None for card in board_or_unknown[known:]):
        raise RecordError(f"{where}: an unknown board card ({UNKNOWN}) can only be followed by unknown ones")
    board = tuple(card for card in board_or_unknown[:known] if card is not None)
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


def _cards(value: Any, what: str) -> tuple[Card | None, ...]:
    """Cards as text or a list; ``??`` is an unknown card (None)."""
    if isinstance(value, str) and UNKNOWN in value:
        if len(value) % 2:
            raise CardError(f"{what}: {value!r} is not a list of two-character cards")
        value = [value[i : i + 2] for i in range(0, len(value), 2)]
    if isinstance(value, str):
        return parse_cards(value, distinct=False)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(None if item == UNKNOWN else parse_cards([item], distinct=False)[0] for item in value)
    raise CardError(f"{what} must be a card string or a list of cards, got {value!r}")


def _stand_ins(hand: RecordHand) -> dict[str, tuple[Card, ...]]:
    """Hole cards for the replay: unknown ones are stood in for by cards the hand does not
    use (they never matter: a hand that would show them is refused, see ``_check_unknown``)."""
    used = {card for cards in hand.hole.values() for card in cards if card is not None} | set(hand.board)
    spare = iter(card for card in full_deck() if card not in used)
    return {player: tuple(card if card is not None else next(spare) for card in cards) for player, cards in hand.hole.items()}


def _check_unknown(events: Sequence[Event], unknown: set[int], players: Sequence[str]) -> None:
    for event in events:
        if isinstance(event, CardsShown) and event.seat in unknown:
            raise RecordError(f"{players[event.seat]}'s hole cards are unknown ({UNKNOWN}) but the hand shows them")


def _hide_unknown(events: Sequence[Event], setup: HandSetup, unknown: set[int], seats: Sequence[int]) -> tuple[HandSetup, list[Event]]:
    """The stand-in cards out of what the replay returns: unknown hole cards are None in the
    setup (as in hand histories) and absent from the deal event."""
    hole = tuple(None if seat in unknown else cards for seat, cards in zip(seats, setup.hole, strict=True))
    kept = [
        CardsDealt(tuple(pair for pair in e.hole if pair[0] not in unknown), e.board) if isinstance(e, CardsDealt) else e
        for e in events
    ]
    return replace(setup, hole=hole), kept


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
    if len(raw) != 2:
        raise RecordError(f"{word} takes no amount")
    return player, Action(seat, kind)


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
        alive = [p for p, a in zip(players, tournament.alive, strict=True) if a]
        hand = _parse_hand(raw_hand, number, alive)
        hole = {players.index(p): cards for p, cards in _stand_ins(hand).items()}
        unknown = {players.index(p) for p, cards in hand.hole.items() if None in cards}
        try:
            tournament, events = tournament.deal(hole, hand.board)
            _check_unknown(events, unknown, players)
        except RulesError as error:
            raise RecordError(f"hand {number}: {error}") from None
        except RecordError as error:
            raise RecordError(f"hand {number}: {error}") from None
        assert tournament.hand is not None
        setup = tournament.hand.setup
        seats_in = tournament.seats
        button = players[tournament.button]
        applied: list[tuple[str, Action]] = []
        all_events = list(events)
        for index, raw_action in enumerate(hand.actions, start=1):
            where = f"hand {number}, action {index} {_quote(raw_action)}"
            try:
                player, action = _parse_action(raw_action, players)
                if tournament.finished:
                    raise RecordError("the tournament is over")
                if not tournament.in_hand and action.kind is not ActionKind.RESIGN:
                    raise RecordError("the hand is over; only a resignation may follow it")
                tournament, events = tournament.act(action)
                _check_unknown(events, unknown, players)
            except (RecordError, RulesError) as error:
                raise RecordError(f"{where}: {error}") from None
            applied.append((player, action))
            all_events.extend(events)
        if tournament.in_hand:
            actor = players[tournament.to_act] if tournament.to_act >= 0 else "nobody"
            raise RecordError(f"hand {number}: the hand is not complete ({actor} to act)")
        eliminated = tuple(players[e.seat] for e in all_events if isinstance(e, Eliminated))
        stacks = {players[seat]: tournament.stacks[seat] for seat in seats_in}
        if unknown:
            setup, all_events = _hide_unknown(all_events, setup, unknown, seats_in)
        played.append(
            PlayedHand(
                number=number,
                button=button,
                blinds=blinds_for_hand(number, tournament.config.levels, tournament.config.hands_per_level),
                stacks=stacks,
                eliminated=eliminated,
                setup=setup,
                actions=tuple(applied),
                events=tuple(all_events),
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
    """Collects a tournament as it is played, then writes ``freezeout.record/1``."""

    players: tuple[str, ...]
    button: str
    ruleset: Ruleset = Ruleset.HOUSE
    starting_stack: int = 1000
    hands: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def deal(self, hole: Mapping[str, Sequence[Card]], board: Sequence[Card], **extra: Any) -> None:
        hand: dict[str, Any] = {
            "hole": {player: format_cards(cards) for player, cards in hole.items()},
            "board": format_cards(board),
            "actions": [],
        }
        hand.update(extra)
        self.hands.append(hand)

    def act(self, player: str, action: Action) -> None:
        entry: list[Any] = [player, action.kind.value]
        if action.amount is not None:
            entry.append(action.amount)
        if not self.hands:
            raise RecordError("no hand has been dealt yet")
        self.hands[-1]["actions"].append(entry)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.value,
            "starting_stack": self.starting_stack,
            "players": list(self.players),
            "button": self.button,
            "hands": self.hands,
        }
        data.update(self.extra)
        return data
