"""The freezeout as a table's game (R1–R30, V18): the first :class:`~.game.TableGame`.

A thin shell around :class:`freezeout.rules.tournament.Tournament`, which
knows the levels, eliminations and forfeits; this module answers the
table's questions in the table's terms (who acts, what the hand dealt to
whom, the seat's view) so that nothing above it needs a tournament.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from freezeout.cards import Card
from freezeout.rules import games
from freezeout.rules.actions import Action
from freezeout.rules.events import Event
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import Level, Tournament, TournamentConfig
from freezeout.rules.variant import Variant
from freezeout.rules.views import TableView, seat_view, view_dicts
from freezeout.server.fairness import HandCards, hand_cards_of
from freezeout.server.gamespec import GameRefused, GameSpec
from freezeout.server.table.commands import Refused
from freezeout.server.table.dealing import dealing_json
from freezeout.server.table.game import TableGame

if TYPE_CHECKING:
    from collections.abc import Callable

    from freezeout.server.entries import EntryBody, LogEntry, Slot, Stamped
    from freezeout.server.settings import Settings
    from freezeout.server.storage.ledger import Transfer
    from freezeout.server.storage.users import UserRow
    from freezeout.server.table.cashbots import BotEntry, CashBotMove
    from freezeout.server.table.commands import Intent
    from freezeout.server.table.game import Folded
    from freezeout.server.table.state import TableState

__all__ = ["FREEZEOUT_BOTS", "FreezeoutGame", "freezeout_places", "freezeout_spec", "tournament_config"]


def tournament_config(spec: GameSpec, players: Sequence[str], button: int) -> TournamentConfig:
    """The one place a table's game becomes a tournament's configuration.

    The rules' :func:`games.tournament_config` builds it for one game (V18) and for a
    mix (V19) alike."""
    return games.tournament_config(spec.game, tuple(players), button=button, starting_stack=spec.starting_stack)


def freezeout_spec(creator: UserRow, slots: Sequence[str | None], game: str | None, cash: Mapping[str, Any] | None,
                   ranked: bool, sit: bool) -> GameSpec:
    """A new freezeout's spec from a client's choice of game (None: the house game); the room's
    create (table/formats.py).  Cash options belong to a cash table."""
    if cash is not None:
        raise Refused("bad_message", "cash options belong to a cash table: send \"format\": \"cash\"")
    try:
        return GameSpec.parse(game)
    except GameRefused as error:
        raise Refused("bad_message", str(error)) from None


def freezeout_places(game: str | None, slots: list[str | None], seats: int | None, sit: bool,
                     sent: frozenset[str]) -> tuple[list[str | None], bool]:
    """A new freezeout's places (bot levels, or None for a human) and whether its creator sits
    down, as sent (``POST /api/tables``); ``seats`` are a cash table's."""
    if seats is not None:
        raise Refused("bad_message", "a freezeout names its places with slots; seats are a cash table's")
    return slots, sit


#: Why a freezeout takes no bot once it is opened (its bots are named with its seats).
FREEZEOUT_BOTS = "bots are added to a freezeout when it is opened; this is not a cash table"


@dataclass(frozen=True, slots=True)
class FreezeoutGame:
    """A freezeout at a table; ``tournament`` is the rules' value."""

    spec: GameSpec
    tournament: Tournament

    @classmethod
    def start(cls, spec: GameSpec, players: tuple[str, ...], button: int) -> FreezeoutGame:
        return cls(spec, Tournament.start(tournament_config(spec, players, button)))

    def _with(self, tournament: Tournament) -> FreezeoutGame:
        return FreezeoutGame(self.spec, tournament)

    # -- queries -----------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.tournament.players

    @property
    def variant(self) -> Variant:
        hand = self.tournament.hand
        if hand is not None and self.tournament.in_hand:
            return hand.setup.variant
        return self.spec.variant_for_hand(self.tournament.hand_number + 1)

    @property
    def hand_number(self) -> int:
        return self.tournament.hand_number

    @property
    def in_hand(self) -> bool:
        return self.tournament.in_hand

    @property
    def finished(self) -> bool:
        return self.tournament.finished

    @property
    def to_act(self) -> int:
        return self.tournament.to_act

    @property
    def alive(self) -> tuple[bool, ...]:
        return self.tournament.alive

    @property
    def places(self) -> tuple[int | None, ...]:
        return self.tournament.places

    @property
    def winner(self) -> int:
        return self.tournament.winner

    @property
    def board(self) -> tuple[Card | None, ...]:
        hand = self.tournament.hand
        return hand.board if hand is not None else ()

    @property
    def events_in_hand(self) -> int:
        return len(self.tournament.hand_log)

    def legal_actions(self) -> LegalActions | None:
        return self.tournament.legal_actions()

    def levels(self) -> tuple[Level, ...]:
        return tuple(level if isinstance(level, Level) else Level(*level) for level in self.tournament.config.levels)

    # -- transitions ---------------------------------------------------------------
    def deal(self, deck: Sequence[Card], reshuffle: Sequence[Card] = ()) -> tuple[TableGame, list[Event]]:
        t, events = self.tournament.deal_deck(deck, reshuffle)
        return self._with(t), events

    def apply(self, action: Action, bank: float | None = None, at: float | None = None) -> tuple[TableGame, list[Event]]:
        t, events = self.tournament.act(action)
        return self._with(t), events

    # -- hooks a freezeout answers neutrally (game.py's TableGame) -------------------
    @property
    def banks_time(self) -> bool:
        return False  # R26: the clock alone

    def time_bank(self, seat: int) -> float:
        return 0.0

    def bot_view(self, viewer: int) -> TableView:
        return self.seat_view(viewer)

    def fold(self, state: TableState, body: EntryBody, at: float, play: Callable[[], Folded]) -> Folded | None:
        return None  # the table's own steps (R1–R30)

    def lobby_fields(self, state: TableState) -> dict[str, Any]:
        return {}

    def close_at(self, state: TableState, idle: float) -> float | None:
        return None  # a freezeout ends with its game (R1)

    def transfers(self, old: TableState, new: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
        return []  # a freezeout's chips are its own (R1): the ledger sees none

    def entry_for(self, state: TableState, user: UserRow, intent: Intent, now: float, settings: Settings,
                  online: Callable[[int], bool], moved: tuple[int, int] | None) -> Stamped | None:
        return None  # the table's own (table/intents.py)

    @property
    def records_each_hand(self) -> bool:
        return False  # one record per game (freezeout.record)

    def top_up_due(self) -> int | None:
        return None

    def offer_lapse_at(self) -> float | None:
        return None

    def lobby_key(self) -> tuple[Any, ...]:
        return ()

    # -- the bots' seat changes (a cash table's: table/cashbots.py): a freezeout's bots keep theirs
    def may_deal(self) -> bool:
        return True

    def bot_seat_change(self, state: TableState, now: float, asked: str | None, fill_after: float | None,
                        level: str | None) -> CashBotMove | None:
        return None

    def bots_wake_at(self, state: TableState, fill_after: float | None) -> float | None:
        return None

    def check_add_bot(self, state: TableState, user: UserRow, level: str, offered: tuple[str, ...],
                      now: float = 0.0) -> None:
        raise Refused("illegal", FREEZEOUT_BOTS)

    def bot_entry(self, state: TableState, move: CashBotMove, now: float, bot: Slot | None) -> BotEntry:
        raise Refused("illegal", "a freezeout's bots keep their seats")

    def held(self) -> int | None:
        return None

    def forget_past(self, keep: int) -> TableGame:
        t = self.tournament
        if len(t.past_logs) <= keep:
            return self
        return self._with(replace(t, past_logs=t.past_logs[len(t.past_logs) - keep :]))

    def rematch(self, players: tuple[str, ...], button: int) -> TableGame:
        return FreezeoutGame.start(self.spec, players, button)

    def hands_ended(self, before: TableGame) -> bool:
        return before.in_hand and not self.in_hand

    def same_turn(self, before: TableGame) -> bool:
        """The rules' hand value is the same one (a freezeout's players change it only by moves)."""
        return isinstance(before, FreezeoutGame) and before.tournament.hand is self.tournament.hand

    def hand_cards(self) -> HandCards | None:
        """Every card each seat was dealt (its own; thrown-away cards too) and the cards that
        became public: the board dealt, up-cards, and the hands shown down (R17)."""
        t = self.tournament
        return None if t.hand is None else hand_cards_of(t.hand, t.seats)

    # -- views ---------------------------------------------------------------------
    def seat_view(self, viewer: int | None) -> TableView:
        return seat_view(self.tournament, viewer)

    def view_dicts(self, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """Each viewer's view (rules/views.py); a game other than the house game adds what a
        client needs to draw any game (docs/protocol.md "Every game"): the level schedule,
        the game's name (a mix: the next game), and each seat's card slots."""
        views = view_dicts(self.tournament, viewers)
        if self.spec.is_house:
            return views  # the house game's wire stays exactly as it was
        extra = self._game_fields()
        held = self._held_counts()
        out: dict[int | None, dict[str, Any]] = {}
        for viewer, view in views.items():
            seats = [dict(seat, slots=card_slots(seat, held.get(index, 0))) for index, seat in enumerate(view["seats"])]
            out[viewer] = {**view, **extra, "seats": seats}
        return out

    def _held_counts(self) -> dict[int, int]:
        """How many cards each seat still in the hand holds (public: V7's up-cards, V11's draw counts)."""
        t = self.tournament
        hand = t.hand
        if hand is None:
            return {}
        return {seat: len(hand.cards[i]) for i, seat in enumerate(t.seats) if not hand.folded[i]}

    def _game_fields(self) -> dict[str, Any]:
        t = self.tournament
        variant = self.variant
        number = max(t.hand_number, 1) if t.in_hand or t.hand is not None else t.hand_number + 1
        clock = t.clock_for_hand(number)
        fields: dict[str, Any] = {
            "game": variant.code,
            "game_name": variant.name,
            "betting": variant.betting.value,
            "dealing": dealing_json(variant),  # what the page's fairness check needs (web/js/fairness.js)
            # V18: the current level's length (one orbit past 6 players) and index, from the clock
            "schedule": {"hands_per_level": clock.length,
                         "levels": [{k: v for k, v in level._asdict().items() if v} for level in self.levels()],
                         "level": min(clock.level, len(t.config.levels) - 1)},
        }
        # a mix's current and next game come in the rules' view (``mix``, rules/views.py)
        return fields


def card_slots(seat: dict[str, Any], held: int) -> list[str]:
    """A seat's cards as slots a client draws: ``up`` (face up for everyone), ``down`` (face
    down, and this viewer sees it: their own, or shown down) or ``unknown`` (face down and
    hidden from this viewer); ``held`` cards when the view shows none of them."""
    text = seat.get("cards")
    if not text:
        return ["unknown"] * held
    up = seat.get("up") or []
    slots = []
    for index in range(0, len(text), 2):
        card = index // 2
        if card < len(up) and up[card]:
            slots.append("up")
        else:
            slots.append("unknown" if text[index : index + 2] == "??" else "down")
    return slots

