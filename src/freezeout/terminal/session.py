"""The game driver behind ``freezeout play``: one human against bots, in any game.

A :class:`GameSession` owns the :class:`~freezeout.rules.tournament.Tournament`
of one game or mix (built by :func:`freezeout.rules.games.tournament_config`,
the one path for both, V18, V19)
(a frozen value it replaces after every move), shuffles a fresh deck for each
hand from the game's own deck (V16's 36 cards; a draw game's reshuffle
order comes with it, V13), asks the bots for their moves, keeps the record
of every game (``freezeout.record/1`` for the house game, ``/2`` for any
other game or a mix) and starts rematches.  It has no clock and no I/O except the
record file, so the textual app only decides *when* to call it (bot delays,
the pause between hands) and the tests can play whole tournaments through it
in milliseconds.

Randomness is injected, never global (design principle 1): a seed gives one
root ``random.Random`` from which three independent streams are split — the
seat and button draw (R3), the decks (R2) and the bots' choices — so that a
seeded game replays exactly and a human's different move does not change the
cards that follow.  Without a seed the decks come from the operating
system's CSPRNG, as R2 asks of production shuffles.
"""

from __future__ import annotations

import importlib
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from freezeout.cards import Card, system_random
from freezeout.formats.record import FORMAT, RecordError, RecordWriter, parse_record, replay_record
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction, RulesError
from freezeout.rules.events import Event
from freezeout.rules.games import HOUSE_GAME, Game, Mix, parse_game, tournament_config
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import Tournament, rematch_players
from freezeout.rules.variant import UnsupportedVariant
from freezeout.rules.views import TableView, seat_view

__all__ = [
    "HUMAN",
    "Bot",
    "BotUnavailable",
    "GameSession",
    "Standing",
    "bot_names",
    "bots_for_game",
    "load_bot",
    "seat_range",
]

HUMAN = "you"


class Bot(Protocol):
    """What the session needs from a bot (``freezeout.bots.get_bot(name)``)."""

    def act(self, view: TableView, rng: random.Random) -> Action: ...


class BotUnavailable(RuntimeError):
    """The bots package is missing or does not know the requested level."""


def _bots_module() -> Any:
    # Imported by name so that this package neither needs the bots to be
    # installed nor pays for loading them (solvers, tables) until a game starts.
    try:
        module = importlib.import_module("freezeout.bots")
    except ImportError as error:
        raise BotUnavailable(f"the bots are not available: {error}") from None
    if not hasattr(module, "get_bot") or not hasattr(module, "BOT_NAMES"):
        raise BotUnavailable("the bots are not available: freezeout.bots has no get_bot/BOT_NAMES")
    return module


def bot_names() -> tuple[str, ...]:
    """The bot levels ``freezeout.bots`` offers (random, station, easy, ...)."""
    return tuple(str(name) for name in _bots_module().BOT_NAMES)


def bots_for_game(game: str) -> tuple[str, ...]:
    """The bot levels that play ``game`` (``freezeout.bots.bots_for_game``);
    an unknown code raises the rules' ``UnsupportedVariant`` listing the codes."""
    module = _bots_module()
    if not hasattr(module, "bots_for_game"):
        return tuple(str(name) for name in module.BOT_NAMES) if game == HOUSE_GAME else ()
    return tuple(str(name) for name in module.bots_for_game(game))


def load_bot(level: str, game: str = HOUSE_GAME) -> Bot:
    """The bot for ``level`` at a table of ``game``; :class:`BotUnavailable`
    names the choices (only the levels that play the game are offered)."""
    module = _bots_module()
    names = tuple(str(name) for name in module.BOT_NAMES)
    if level not in names:
        raise BotUnavailable(f"unknown bot level {level!r}: choose one of {', '.join(names)}")
    playing = bots_for_game(game)
    if level not in playing:
        raise BotUnavailable(
            f"the {level} bot does not play {game}: choose one of {', '.join(playing)}"
            if playing
            else f"no bot plays {game}"
        )
    try:
        return cast(Bot, module.get_bot(level))
    except (ImportError, KeyError) as error:
        raise BotUnavailable(f"the {level} bot is not available: {error}") from None


def _safe_move(legal: LegalActions | None) -> ActionKind:
    """The move that replaces a bot's illegal one: stand pat in a draw
    (V11), post a due bring-in (V7), else check or fold."""
    if legal is not None and legal.draw:
        return ActionKind.STANDPAT
    if legal is not None and legal.bring_in:
        return ActionKind.BRINGIN
    return ActionKind.CHECK if legal is not None and legal.can_check else ActionKind.FOLD


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final (or current) standings."""

    place: int | None  # None while still in the tournament
    player: str
    chips: int


def seat_range(game: Game) -> tuple[int, int]:
    """Players at a table of ``game``: the house game 2–4 (R1); any other
    game up to its own maximum (V5–V16), a mix up to the smallest of its
    games' (V19)."""
    if game.code == HOUSE_GAME:
        return 2, 4
    return max(2, game.min_players), game.max_players


class GameSession:
    """One human (``HUMAN``) against bots: a series of freezeouts of ``game``
    (an engine variant's code or a mix's, :func:`~freezeout.rules.games.parse_game`).

    ``bots`` is one bot for every bot seat or one per bot seat.  Each game is
    written to ``record_path`` (game 1) or ``<stem>-<n><suffix>`` (rematch
    n), rewritten after every finished hand so that the file on disk is
    always a valid record of complete hands.
    """

    def __init__(
        self,
        bots: Bot | Sequence[Bot],
        *,
        players: int = 2,
        seed: int | None = None,
        human: str = HUMAN,
        bot_level: str = "bot",
        record_path: str | os.PathLike[str] | None = None,
        starting_stack: int = 1000,
        game: str | Game = HOUSE_GAME,
    ) -> None:
        try:
            self.game: Game = parse_game(game) if isinstance(game, str) else game
        except UnsupportedVariant as error:
            raise ValueError(str(error)) from None
        least, most = seat_range(self.game)
        if not least <= players <= most:
            raise ValueError(f"{self.game.name} is played by {least} to {most} players, got {players}")
        bot_ids = tuple(f"bot{i}" for i in range(1, players))
        if human in bot_ids or not human:
            raise ValueError(f"the human's name {human!r} clashes with a bot's")
        if isinstance(bots, Sequence):
            if len(bots) != players - 1:
                raise ValueError(f"need {players - 1} bots for {players} players, got {len(bots)}")
            bot_list = list(bots)
        else:
            bot_list = [bots] * (players - 1)
        self.human = human
        self.bot_level = bot_level
        self.seed = seed
        self.starting_stack = starting_stack
        self.record_path = Path(record_path) if record_path is not None else None
        self._bots: dict[str, Bot] = dict(zip(bot_ids, bot_list, strict=True))
        self.labels: dict[str, str] = {human: human, **{b: f"{b} ({bot_level})" for b in bot_ids}}
        root = random.Random(seed) if seed is not None else random.Random(system_random().getrandbits(64))
        self._draw_rng = random.Random(root.getrandbits(64))
        self._deck_rng: random.Random = (
            random.Random(root.getrandbits(64)) if seed is not None else system_random()
        )
        self._bot_rng = random.Random(root.getrandbits(64))
        self.bot_errors: list[str] = []  # moves a bot got wrong (replaced by check/fold)
        self.finished_games: list[tuple[Standing, ...]] = []
        self.record_verified: bool | None = None  # set when a game ends
        self.game_number = 0
        self.tournament: Tournament
        self.writer: RecordWriter
        order = [human, *bot_ids]
        self._draw_rng.shuffle(order)  # R3: seats are drawn for the first game
        self._start_game(tuple(order))

    # -- state -------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.tournament.players

    @property
    def human_seat(self) -> int:
        return self.tournament.seat_of(self.human)

    @property
    def human_in(self) -> bool:
        """Whether the human is still in the tournament (not busted, not resigned)."""
        return self.tournament.alive[self.human_seat]

    @property
    def finished(self) -> bool:
        return self.tournament.finished

    @property
    def in_hand(self) -> bool:
        return self.tournament.in_hand

    @property
    def human_to_act(self) -> bool:
        return self.tournament.in_hand and self.tournament.to_act == self.human_seat

    @property
    def bot_to_act(self) -> bool:
        seat = self.tournament.to_act
        return self.tournament.in_hand and seat >= 0 and seat != self.human_seat

    def view(self) -> TableView:
        """What the human may see (their own cards, shown hands, public log)."""
        return seat_view(self.tournament, self.human_seat)

    @property
    def mix(self) -> Mix | None:
        """V19: the mix being played, or ``None`` in one game."""
        return self.game if isinstance(self.game, Mix) else None

    def label(self, seat: int) -> str:
        return self.labels[self.players[seat]]

    def standings(self) -> tuple[Standing, ...]:
        """Players by place; those still in (place ``None``) first, by chips."""
        t = self.tournament
        stacks = t.current_stacks()
        rows = [Standing(t.places[s], t.players[s], stacks[s]) for s in range(len(t.players))]
        return tuple(sorted(rows, key=lambda r: (r.place is not None, r.place or 0, -r.chips)))

    @property
    def current_record_path(self) -> Path | None:
        return self.record_path_for(self.game_number)

    def record_path_for(self, game: int) -> Path | None:
        if self.record_path is None:
            return None
        if game <= 1:
            return self.record_path
        return self.record_path.with_name(f"{self.record_path.stem}-{game}{self.record_path.suffix}")

    # -- moves -------------------------------------------------------------
    def act(
        self, kind: ActionKind, amount: int | None = None, cards: tuple[Card, ...] | None = None
    ) -> list[Event]:
        """The human's move; raises :class:`RulesError` (state unchanged)
        when it is not their turn or the move is not allowed — also a draw
        out of turn or a discard of a card the human does not hold (V11)."""
        if not self.human_to_act:
            what = "draw" if kind in (ActionKind.DISCARD, ActionKind.STANDPAT) else "move"
            raise IllegalAction(f"it is not your turn to {what}")
        if kind in (ActionKind.RESIGN, ActionKind.TIMEOUT):
            raise IllegalAction(f"{kind.value} is not a move to choose here")
        if kind is ActionKind.DISCARD:
            held = self.view().seats[self.human_seat].cards or ()
            stranger = [str(card) for card in cards or () if card not in held]
            if stranger:
                raise IllegalAction(f"you do not hold {', '.join(stranger)}: discard only cards in your hand")
        return self._apply(Action(self.human_seat, kind, amount, cards))

    def discard(self, cards: tuple[Card, ...]) -> list[Event]:
        """V11: throw ``cards`` away and draw as many; none is standing pat."""
        if not cards:
            return self.act(ActionKind.STANDPAT)
        return self.act(ActionKind.DISCARD, cards=cards)

    def resign(self) -> list[Event]:
        """R28: the human resigns (any time, also during a bot's turn)."""
        if self.finished:
            raise IllegalAction("the tournament is over")
        if not self.human_in:
            raise IllegalAction("you are no longer in the tournament")
        return self._apply(Action(self.human_seat, ActionKind.RESIGN))

    def timeout(self) -> list[Event]:
        """R26: the human's time ran out and the bot pressed Don't wait — the
        turn is forfeited (check or fold; the second in a row eliminates, R27)."""
        if not self.human_to_act:
            raise IllegalAction("it is not your turn")
        return self._apply(Action(self.human_seat, ActionKind.TIMEOUT))

    def bot_step(self) -> list[Event]:
        """Let the bot to act make its move.  A move the rules refuse is logged
        in :attr:`bot_errors` and replaced by a check or fold, so that a bot
        bug cannot freeze the human's game."""
        t = self.tournament
        seat = t.to_act
        if not self.bot_to_act:
            raise IllegalAction("no bot is to act")
        player = t.players[seat]
        action = self._bots[player].act(seat_view(t, seat), self._bot_rng)
        try:
            if action.seat != seat:
                raise IllegalAction(f"the bot answered for seat {action.seat}, not its own seat {seat}")
            if action.kind is ActionKind.RESIGN or action.kind is ActionKind.TIMEOUT:
                raise IllegalAction(f"a bot may not {action.kind.value}")
            return self._apply(action)
        except RulesError as error:
            self.bot_errors.append(f"hand {t.hand_number}: {player} {action}: {error}")
            return self._apply(Action(seat, _safe_move(t.legal_actions())))

    def deal_next(self) -> list[Event]:
        """Shuffle a fresh deck (R2) and deal the next hand."""
        t = self.tournament
        if t.finished:
            raise IllegalAction("the tournament is over")
        if t.in_hand:
            raise IllegalAction("a hand is already in progress")
        variant = t.next_variant
        deck = self._shuffled(variant.deck)  # R2, V16: the game's own deck
        # V13: a draw game that runs out reshuffles the discards in this order
        # (drawn after the deck; the house game draws no second deck, so a
        # seeded house game deals what it always dealt).
        reshuffle = self._shuffled(variant.deck) if variant.has_draws else ()
        self.tournament, events = t.deal_deck(deck, reshuffle)  # the rules deal (R2, R8)
        self.writer.observe(events)
        self._after_move()
        return events

    def advance(self) -> list[Event]:
        """One automatic step: a bot's move, or the next deal between hands.
        Returns no events when the human is to act or the game is over."""
        if self.finished:
            return []
        if self.in_hand:
            return self.bot_step() if self.bot_to_act else []
        return self.deal_next()

    def play_out(self, *, max_steps: int = 100_000) -> list[Event]:
        """Advance until the human must act or the tournament is over (the
        bots play on alone once the human is out)."""
        events: list[Event] = []
        for _ in range(max_steps):
            if self.finished or self.human_to_act:
                return events
            events.extend(self.advance())
        raise RuntimeError(f"the game did not end within {max_steps} steps")

    def close(self) -> None:
        """Leaving is resigning (R28): the bots finish the game so that the
        record is complete and the standings final."""
        if not self.finished:
            if self.human_in:
                self.resign()
            self.play_out()
        self.save()

    def rematch(self) -> list[Event]:
        """R3: a new game with every player one seat on and a fresh button draw."""
        if not self.finished:
            raise IllegalAction("the tournament is not over yet")
        return self._start_game(rematch_players(self.players))

    # -- internals ---------------------------------------------------------
    def _shuffled(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        deck = list(cards)
        self._deck_rng.shuffle(deck)
        return tuple(deck)

    def _start_game(self, players: tuple[str, ...]) -> list[Event]:
        button = self._draw_rng.randrange(len(players))  # R3: the first button is drawn
        self.game_number += 1
        self.record_verified = None
        config = tournament_config(self.game, players, button=button, starting_stack=self.starting_stack)
        self.tournament = Tournament.start(config)
        self.writer = RecordWriter(
            players=players,
            button=players[button],
            starting_stack=self.starting_stack,
            variant=config.variant,
            mix=config.mix,
        )
        # record/1 numbers the game in "game"; record/2's "game" names what
        # is played, so there the number goes in "game_number".
        number_key = "game" if self.writer.format == FORMAT else "game_number"
        self.writer.extra.update({number_key: self.game_number, "seed": self.seed, "bots": self.bot_level})
        self.save()  # an unwritable --record path fails now, not after hand 1
        # Deal at once: a record cannot hold a move before the first hand.
        return self.deal_next()

    def _apply(self, action: Action) -> list[Event]:
        t = self.tournament
        self.tournament, events = t.act(action)
        self.writer.act(t.players[action.seat], action)
        self.writer.observe(events)  # stud's later streets and a draw's cards are dealt by moves
        self._after_move()
        return events

    def _after_move(self) -> None:
        if not self.tournament.in_hand:
            self.save()
            if self.tournament.finished and len(self.finished_games) < self.game_number:
                self.finished_games.append(self.standings())
                self.record_verified = self.verify_record()

    def verify_record(self) -> bool:
        """Replay the record through the rules (as ``freezeout record replay``
        would) and check it ends where this game is: same stacks, places and
        hand count.  A record that does not replay is worse than none."""
        try:
            result = replay_record(parse_record(self.writer.to_json()))
        except RecordError:
            return False
        t = self.tournament
        return (
            result.tournament.places == t.places
            and result.tournament.stacks == t.stacks
            and result.finished == t.finished
            and len(result.hands) == t.hand_number
        )

    def save(self) -> None:
        """Write the current game's record (only between hands, when every
        hand in it is complete); atomic so a crash never leaves half a file."""
        path = self.current_record_path
        if path is None or self.tournament.in_hand:
            return
        text = json.dumps(self.writer.to_json(), ensure_ascii=False, indent=1)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        os.replace(tmp, path)
