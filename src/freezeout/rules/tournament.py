"""The freezeout tournament around the hands (R1, R3–R7, R23–R28, D8–D11, V18, V19).

A :class:`Tournament` is a frozen value: ``deal`` starts the next hand with
cards the caller supplies (R2: the deck is an input), ``act`` applies a move
by a tournament seat — a hand move, a ``timeout`` (R26) or a ``resign``
(R28, any player, any time).  Both return the new tournament and the events.

A freezeout is played in one game (V18) or in a mix that changes game with
every level (V19, :class:`~freezeout.rules.games.Mix`).  Either way the
game of a hand is :meth:`TournamentConfig.variant_for_hand` (and
:attr:`Tournament.variant` for the current one) and its forced bets are
:meth:`TournamentConfig.hand_level`: readers ask those, never
``config.variant``, which in a mix is only the first hand's game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from freezeout.cards import Card
from freezeout.rules import hand as hand_engine
from freezeout.rules.actions import PLAYER_MOVES, Action, ActionKind
from freezeout.rules.dealing import flop_deal_positions
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.events import (
    CardsDealt,
    Eliminated,
    Event,
    Forfeited,
    HandEnded,
    HandStarted,
    PotAwarded,
    Resigned,
    TournamentEnded,
    public_event,
)
from freezeout.rules.games import Mix
from freezeout.rules.hand import HandSetup, HandState
from freezeout.rules.legal import LegalActions
from freezeout.rules.levels import (
    HANDS_PER_LEVEL,
    HOUSE_LEVELS,
    STUD_LEVELS,
    Level,
    LevelClock,
    blinds_for_hand,
    default_levels,
    game_level,
    level_for_hand,
    level_length,
    stud_level,
)
from freezeout.rules.variant import NLHE, Forced, Ruleset, Variant

__all__ = [
    "HANDS_PER_LEVEL",
    "HOUSE_LEVELS",
    "STARTING_STACK",
    "STUD_LEVELS",
    "Level",
    "LevelClock",
    "Tournament",
    "TournamentConfig",
    "blinds_for_hand",
    "default_levels",
    "game_level",
    "level_for_hand",
    "level_length",
    "rematch_players",
    "stud_level",
]

#: R1: the chips every player of a freezeout starts with; the one default of the room's code
#: (a table's game names its own, ``GameSpec.starting_stack``).
STARTING_STACK = 1000


def rematch_players(players: Sequence[str]) -> tuple[str, ...]:
    """R3: in a rematch every player moves one seat on (seat i -> seat i+1)."""
    return (players[-1], *players[:-1])


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """How a freezeout is set up.

    One game (``variant``, V18) or a mix (``mix``, V19).  In a mix the game
    changes with each level (every ``hands_per_level`` hands, round and
    round, also after the last level), ``levels`` name blinds and each game
    takes its forced bets from the level's big blind (:func:`game_level`);
    ``variant`` is then the first hand's game."""

    players: tuple[str, ...]
    button: int = 0  # seat of the first hand's button (drawn at random by the caller, R3)
    starting_stack: int = STARTING_STACK  # R1
    ruleset: Ruleset = Ruleset.HOUSE
    levels: tuple[Level | tuple[int, int], ...] = HOUSE_LEVELS
    hands_per_level: int = HANDS_PER_LEVEL
    variant: Variant = NLHE  # V18: a freezeout can be played in any game
    mix: Mix | None = None  # V19: or in a mix of games

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 10:
            raise InvalidInput(f"a tournament needs 2 to 10 players, got {len(self.players)}")
        if self.mix is not None:
            if self.variant is not NLHE and self.variant != self.mix.games[0]:
                raise InvalidInput(f"a freezeout is played in one game or in a mix, not both ({self.variant.code}, {self.mix.code})")
            object.__setattr__(self, "variant", self.mix.games[0])
        game = self.game
        if not game.min_players <= len(self.players) <= game.max_players:
            raise InvalidInput(
                f"{game.name} is played by {game.min_players} to {game.max_players} players,"  # V19: the smallest maximum
                f" got {len(self.players)}"
            )
        if not self.levels:
            raise InvalidInput("a tournament needs at least one level")
        if type(self.hands_per_level) is not int or self.hands_per_level <= 0:
            raise InvalidInput(f"hands per level must be a positive whole number, got {self.hands_per_level!r}")
        if len(set(self.players)) != len(self.players) or not all(self.players):
            raise InvalidInput("player ids must be distinct and non-empty")
        if not 0 <= self.button < len(self.players):
            raise InvalidInput(f"button seat {self.button} is not at the table")
        if type(self.starting_stack) is not int or self.starting_stack <= 0:
            raise InvalidInput("the starting stack must be a positive whole number")
        if self.mix is not None:
            for number, level in enumerate(self.levels, start=1):
                if type(level[1]) is not int or level[1] < 2 or not 0 <= level[0] <= level[1]:
                    raise InvalidInput(
                        f"level {number} of a mix needs blinds (small at most big, big at least 2): every game"
                        f" takes its sizes from the big blind (V19), got {tuple(level[:2])}"
                    )
        elif self.levels is HOUSE_LEVELS and self.variant is not NLHE:
            # V18: left at its default, the schedule is the game's own (stud's antes and bring-in,
            # fixed limit's bets); the house game keeps R6's blinds exactly.
            object.__setattr__(self, "levels", default_levels(self.variant))

    @property
    def game(self) -> Variant | Mix:
        """What the table plays: its one game, or its mix (V19)."""
        return self.variant if self.mix is None else self.mix

    def variant_for_hand(self, number: int) -> Variant:
        """V19: the game of hand ``number`` (1-based) — in a mix the games in
        order, a new one with each level, round and round."""
        if self.mix is None:
            return self.variant
        games = self.mix.games
        return games[((max(number, 1) - 1) // self.hands_per_level) % len(games)]

    def hand_level(self, number: int) -> Level:
        """R6, V18, V19: the forced bets of hand ``number`` in its game, at a
        table of at most 6 players (levels of ``hands_per_level`` hands; a
        bigger table's levels are orbits: :meth:`Tournament.level`)."""
        level = level_for_hand(max(number, 1), self.levels, self.hands_per_level)
        return level if self.mix is None else game_level(level, self.variant_for_hand(number))

    def variant_at(self, index: int) -> Variant:
        """V19: the game of level ``index`` (0-based): in a mix the games in
        order, round and round; otherwise the one game."""
        if self.mix is None:
            return self.variant
        return self.mix.games[max(index, 0) % len(self.mix.games)]

    def level_at(self, index: int) -> Level:
        """R6, V18, V19: the forced bets of level ``index`` (0-based; the last
        level holds) in its game."""
        level = self.levels[min(max(index, 0), len(self.levels) - 1)]
        level = level if isinstance(level, Level) else Level(*level)
        return level if self.mix is None else game_level(level, self.variant_at(index))


@dataclass(frozen=True, slots=True)
class Tournament:
    """The state of a freezeout between and during hands."""

    config: TournamentConfig
    stacks: tuple[int, ...]  # chips of each seat, as of the start of the current hand
    alive: tuple[bool, ...]
    places: tuple[int | None, ...]
    forfeits: tuple[int, ...]  # forfeited turns in a row (R27, D9)
    hand_number: int = 0  # hands dealt so far
    button: int = -1  # button seat of the current or last hand
    hand: HandState | None = None
    seats: tuple[int, ...] = ()  # hand seat -> tournament seat for the current hand
    winner: int = -1
    hand_log: tuple[Event, ...] = ()  # public events of the current (or last) hand
    #: Public events of every earlier hand, oldest first: what anyone at the
    #: table has seen, so a player (or a bot) can read its opponents' habits.
    past_logs: tuple[tuple[Event, ...], ...] = ()
    level_clock: LevelClock = LevelClock()  # noqa: RUF009 (an immutable NamedTuple); V18: the current level

    @classmethod
    def start(cls, config: TournamentConfig) -> Tournament:
        n = len(config.players)
        return cls(
            config=config,
            stacks=(config.starting_stack,) * n,
            alive=(True,) * n,
            places=(None,) * n,
            forfeits=(0,) * n,
        )

    # -- queries ---------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.winner >= 0

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.finished

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    def seat_of(self, player: str) -> int:
        try:
            return self.config.players.index(player)
        except ValueError:
            raise InvalidInput(f"unknown player {player!r}") from None

    @property
    def to_act(self) -> int:
        """Tournament seat of the player to act, or -1."""
        if not self.in_hand:
            return -1
        assert self.hand is not None
        return self.seats[self.hand.actor] if self.hand.actor >= 0 else -1

    def legal_actions(self) -> LegalActions | None:
        if not self.in_hand:
            return None
        assert self.hand is not None
        legal = self.hand.legal_actions()
        return None if legal is None else legal._replace(seat=self.seats[legal.seat])

    def current_stacks(self) -> tuple[int, ...]:
        """Chips behind right now (a hand in progress holds the rest)."""
        if self.hand is None or self.hand.finished:
            return self.stacks
        stacks = list(self.stacks)
        for hand_seat, seat in enumerate(self.seats):
            stacks[seat] = self.hand.stacks[hand_seat]
        for seat in range(len(stacks)):
            if not self.alive[seat]:
                stacks[seat] = 0
        return tuple(stacks)

    def clock_for_hand(self, number: int) -> LevelClock:
        """V18: the level clock of hand ``number``: the hands dealt so far are
        known; a hand still to come is reckoned with the players now in (exact
        for the next hand)."""
        clock = self.level_clock
        dealt = sum(self.alive)
        per_level = self.config.hands_per_level
        number = max(number, 1)
        if clock.level < 0 and self.hand_number > 0:  # built at a later hand, without its clock
            clock = clock.for_hand(self.hand_number, dealt, per_level)
        while number > clock.last:
            clock = clock.for_hand(clock.last + 1, dealt, per_level)
        return clock

    @property
    def current_clock(self) -> LevelClock:
        """V18: the clock of the current (or last) hand; before the first
        hand, the first one's."""
        return self.clock_for_hand(max(self.hand_number, 1))

    def level_index(self, number: int | None = None) -> int:
        """V18: the level (0-based, counting past the last) of hand ``number``
        (default: the current or last hand; before the first hand, the first)."""
        return self.clock_for_hand(self.hand_number if number is None else number).level

    def level(self, number: int | None = None) -> Level:
        """The forced bets of hand ``number`` (default: the current or last
        hand's; before the first hand, the first one's), in its game (V19)."""
        if number is None:
            number = self.hand_number if self.in_hand or (self.hand is not None and self.hand_number) else self.hand_number + 1
        return self.config.level_at(self.clock_for_hand(number).level)

    @property
    def variant(self) -> Variant:
        """The game of the current (or last) hand; before the first hand, the
        first one's.  In one game always that game; in a mix (V19) it
        changes with the levels."""
        return self.config.variant_at(self.current_clock.level)

    @property
    def next_variant(self) -> Variant:
        """The game of the next hand to be dealt."""
        return self.variant_for_hand(self.hand_number + 1)

    def variant_for_hand(self, number: int) -> Variant:
        """The game of hand ``number`` (1-based)."""
        return self.config.variant_at(self.clock_for_hand(number).level)

    def hands_to_next_level(self) -> int:
        """R6, V18: hands still to be dealt in the current (or last) hand's
        level after it."""
        return self.current_clock.last - max(self.hand_number, 1)

    def hands_to_next_game(self) -> int:
        """V19: hands still to be dealt in the current game after the current
        (or last) hand before a mix changes game; in one game, the hands
        left in the level (it never changes game)."""
        return self.hands_to_next_level()

    @property
    def following_variant(self) -> Variant:
        """V19: the game after the current one (a page shows "current and
        next game"); in one game, that game."""
        return self.config.variant_at(self.current_clock.level + 1)

    def next_button(self) -> int:
        """R4/D11: the first hand's button is drawn; then it moves clockwise to
        the next player still in the tournament (no dead button)."""
        if self.button < 0:
            return self.config.button
        return self._next_alive(self.button)

    def _next_alive(self, seat: int) -> int:
        n = len(self.alive)
        for offset in range(1, n + 1):
            candidate = (seat + offset) % n
            if self.alive[candidate]:
                return candidate
        raise IllegalAction("nobody is left in the tournament")

    # -- transitions -----------------------------------------------------
    def deal(
        self, hole: Mapping[int, Sequence[Card | None]], board: Sequence[Card | None]
    ) -> tuple[Tournament, list[Event]]:
        """Start the next hand with each player's cards (per tournament seat:
        every card the player is dealt, in order — a flop game's hole cards;
        stud's seven; a draw game's hand and then the cards it draws) and the
        board in dealing order (stud: the shared card).  Cards never reached
        are never dealt; ``None`` is a card nobody knows."""
        seats = self._seats_in()
        if set(hole) != set(seats):
            missing = [self.players[s] for s in seats if s not in hole]
            extra = [str(s) for s in hole if s not in seats]
            raise InvalidInput(
                "hole cards must be given for exactly the players still in"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; not in the tournament: {', '.join(extra)}" if extra else "")
            )
        dealt = CardsDealt(tuple((s, tuple(hole[s])) for s in seats), tuple(board))
        return self._start(dealt, hole=tuple(tuple(hole[s]) for s in seats), board=tuple(board))

    def deal_deck(self, deck: Sequence[Card], reshuffle: Sequence[Card] = ()) -> tuple[Tournament, list[Event]]:
        """Start the next hand dealing from ``deck`` (R2: shuffled by the
        caller), in any game; the rules decide who gets which card
        (:mod:`freezeout.rules.dealing`).  ``reshuffle`` orders the cards a
        draw game reshuffles when the deck runs out (V13)."""
        seats = self._seats_in()
        variant = self.next_variant
        if not (variant.deals_later_hole_cards or variant.has_draws):
            hole_positions, board_positions = flop_deal_positions(variant, len(seats))
            needed = variant.hole_cards * len(seats) + variant.board_size
            if len(deck) < needed:
                raise InvalidInput(f"the deck has {len(deck)} cards; {variant.name} needs {needed}")
            hole = {seat: tuple(deck[p] for p in positions) for seat, positions in zip(seats, hole_positions, strict=True)}
            return self.deal(hole, tuple(deck[p] for p in board_positions))
        dealt = CardsDealt((), (), tuple(deck), tuple(reshuffle))
        return self._start(dealt, deck=tuple(deck), reshuffle=tuple(reshuffle))

    def _seats_in(self) -> tuple[int, ...]:
        if self.finished:
            raise IllegalAction("the tournament is over")
        if self.in_hand:
            raise IllegalAction("a hand is already in progress")
        return tuple(seat for seat in range(len(self.alive)) if self.alive[seat])

    def _start(self, dealt: CardsDealt, **cards: Any) -> tuple[Tournament, list[Event]]:
        """Post the level's forced bets (R5–R7, V18) and start the hand."""
        seats = self._seats_in()
        number = self.hand_number + 1
        clock = self.level_clock.for_hand(number, len(seats), self.config.hands_per_level)  # V18: orbits past 6
        variant = self.config.variant_at(clock.level)
        level = self.config.level_at(clock.level)
        if variant.uses_button or self.config.mix is None:
            button = self.next_button()
            hand_button = seats.index(button)
        else:
            # V19: the button stays frozen through stud games (where it stood in
            # the last button hand, or where it was drawn); the next button game
            # moves it on one seat from there (WSOP 67b), eliminations skipped as
            # R4 says.  Stud reads no button; the hand gets the frozen seat, or
            # the next one still in.
            button = self.button if self.button >= 0 else self.config.button
            hand_button = seats.index(button if self.alive[button] else self._next_alive(button))
        n = len(seats)
        blinds = [0] * n
        if variant.forced is Forced.BLINDS:
            if n == 2:  # R5: heads-up the button posts the small blind
                blinds[hand_button] = level.small_blind
                blinds[(hand_button + 1) % n] = level.big_blind
            else:
                blinds[(hand_button + 1) % n] = level.small_blind
                blinds[(hand_button + 2) % n] = level.big_blind
        setup = HandSetup(
            stacks=tuple(self.stacks[s] for s in seats),
            button=hand_button,
            blinds=tuple(blinds) if any(blinds) else (),
            big_blind=level.big_blind or level.small_bet,
            antes=(level.ante,) * n if level.ante else (),
            bring_in=level.bring_in,
            small_bet=level.small_bet,
            big_bet=level.big_bet,
            ruleset=self.config.ruleset,
            variant=variant,
            names=tuple(self.players[s] for s in seats),
            **cards,
        )
        state, hand_events = hand_engine.start_hand(setup)
        past = (*self.past_logs, self.hand_log) if self.hand_log else self.past_logs
        started = replace(self, hand_number=number, button=button, hand=state, seats=seats, hand_log=(), past_logs=past,
                          level_clock=clock)
        events: list[Event] = [
            HandStarted(number, button, level.small_blind, level.big_blind, seats, setup.stacks,
                        level.ante, level.bring_in, level.small_bet, level.big_bet),
            dealt,
        ]
        events.extend(_to_table(event, seats, len(self.alive)) for event in hand_events)
        return started._after_hand_move(events)

    def act(self, action: Action) -> tuple[Tournament, list[Event]]:
        """Apply a move by tournament seat ``action.seat``."""
        seat = action.seat
        if not 0 <= seat < len(self.alive):
            raise InvalidInput(f"seat {seat} is not at the table")
        if self.finished:
            raise IllegalAction("the tournament is over")
        if not self.alive[seat]:
            raise IllegalAction(f"{self.players[seat]} is no longer in the tournament")
        if action.kind is ActionKind.RESIGN:
            return self._eliminate_now(seat, [])
        if not self.in_hand:
            raise IllegalAction("no hand is in progress")
        assert self.hand is not None
        if self.to_act != seat:
            actor = self.to_act
            raise IllegalAction(f"it is {self.players[actor]}'s turn, not {self.players[seat]}'s")
        hand_seat = self.seats.index(seat)
        if action.kind is ActionKind.TIMEOUT:
            count = self.forfeits[seat] + 1
            forfeited: list[Event] = [Forfeited(seat, count)]
            if count >= 2:  # R27, D9: the second forfeit in a row eliminates at once
                return replace(self, forfeits=_set(self.forfeits, seat, count))._eliminate_now(seat, forfeited)
            state, hand_events = hand_engine.apply(self.hand, Action(hand_seat, ActionKind.TIMEOUT))
            moved = replace(self, hand=state, forfeits=_set(self.forfeits, seat, count))
            return moved._after_hand_move(forfeited + [_to_table(e, self.seats, len(self.alive)) for e in hand_events])
        state, hand_events = hand_engine.apply(self.hand, action._replace(seat=hand_seat))
        forfeits = _set(self.forfeits, seat, 0) if action.kind in PLAYER_MOVES else self.forfeits  # D9
        moved = replace(self, hand=state, forfeits=forfeits)
        return moved._after_hand_move([_to_table(e, self.seats, len(self.alive)) for e in hand_events])

    def _eliminate_now(self, seat: int, events: list[Event]) -> tuple[Tournament, list[Event]]:
        """R28/D8/D10: resignation (or a second forfeit) eliminates at once,
        placed below everyone still in; the chips behind leave the game."""
        alive = _set(self.alive, seat, False)
        remaining = sum(alive)
        place = remaining + 1
        state = replace(self, alive=alive, places=_set(self.places, seat, place))
        if self.in_hand:
            assert self.hand is not None
            hand_seat = self.seats.index(seat)
            hand, hand_events = hand_engine.resign(self.hand, hand_seat)
            events = events + [_to_table(e, self.seats, len(self.alive)) for e in hand_events]
            events.append(Eliminated(seat, place))
            state = replace(state, hand=hand)
            if remaining == 1 and not hand.finished:
                winner_hand_seat = next(i for i, s in enumerate(self.seats) if alive[s])
                hand, more = hand_engine.concede(hand, winner_hand_seat)
                events.extend(_to_table(e, self.seats, len(self.alive)) for e in more)
                state = replace(state, hand=hand)
            return state._after_hand_move(events)
        vanished = self.stacks[seat]
        events = [*events, Resigned(seat, vanished), Eliminated(seat, place)]
        state = replace(state, stacks=_set(self.stacks, seat, 0))
        state, events = state._check_winner(events)
        return replace(state, hand_log=state.hand_log + tuple(events)), events

    def _after_hand_move(self, events: list[Event]) -> tuple[Tournament, list[Event]]:
        new, events = self._settle(events)
        public = tuple(shown for event in events if (shown := public_event(event)) is not None)
        return replace(new, hand_log=new.hand_log + public), events

    def _settle(self, events: list[Event]) -> tuple[Tournament, list[Event]]:
        """When the hand has ended: settle stacks, eliminate busted players
        together (R23, D10) and see whether the tournament is over (R24)."""
        hand = self.hand
        if hand is None or not hand.finished:
            return self, events
        final = hand.final_stacks()
        stacks = list(self.stacks)
        start = self.stacks
        for hand_seat, seat in enumerate(self.seats):
            stacks[seat] = final[hand_seat]
        busted = [seat for seat in self.seats if self.alive[seat] and stacks[seat] == 0]
        alive = list(self.alive)
        places = list(self.places)
        for seat in busted:
            alive[seat] = False
        remaining = sum(alive)
        for seat in busted:
            better = sum(1 for other in busted if start[other] > start[seat])
            places[seat] = remaining + 1 + better  # equal stacks share the better place
        for seat in sorted(busted, key=lambda s: places[s] or 0):
            events.append(Eliminated(seat, places[seat] or 0))
        for seat in range(len(stacks)):
            if not alive[seat]:
                stacks[seat] = 0
        state = replace(self, stacks=tuple(stacks), alive=tuple(alive), places=tuple(places))
        return state._check_winner(events)

    def _check_winner(self, events: list[Event]) -> tuple[Tournament, list[Event]]:
        if sum(self.alive) != 1 or self.in_hand:
            return self, events
        winner = self.alive.index(True)
        events.append(TournamentEnded(winner, self.stacks[winner]))
        return replace(self, winner=winner, places=_set(self.places, winner, 1)), events


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1:])


def _to_table(event: Event, seats: tuple[int, ...], size: int) -> Event:
    """Translate a hand event's hand seats into tournament seats."""
    if isinstance(event, PotAwarded):
        return event._replace(
            eligible=tuple(seats[s] for s in event.eligible),
            shares=tuple((seats[s], chips) for s, chips in event.shares),
        )
    if isinstance(event, HandEnded):
        return event._replace(stacks=tuple(event.stacks[seats.index(s)] if s in seats else 0 for s in range(size)))
    if "seat" in event._fields:
        return event._replace(seat=seats[event.seat])  # type: ignore[union-attr,call-arg]
    return event
