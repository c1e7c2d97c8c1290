"""What a table holds: a game, named in its ``create`` entry, behind one boundary.

A table seats people; what they play there is a :class:`TableGame`: the
freezeout (R1–R30, V18: levels, elimination, rematch, Elo,
:mod:`freezeout.server.table.freezeout`) or the cash game (C1–C13,
:mod:`freezeout.server.table.cash`), without the table knowing the difference.
What the ``create`` entry names (the game and its format) is a
:class:`~freezeout.server.gamespec.GameSpec`, below the table.

:class:`TableGame` is everything the table, its clocks, its log and its views
ask of the game: deal a hand from a committed deck, apply a move (a betting
move, a draw, a forfeit on timeout, a resignation), who acts and what they may
do, the results, the seat's view — nothing about cards, chips or seats beyond
what it answers.

Nothing here does I/O, reads a clock or draws randomness: the deck and the
seating come in from the caller, as they do into the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from freezeout.cards import Card
from freezeout.rules.actions import Action
from freezeout.rules.events import Event
from freezeout.rules.legal import LegalActions
from freezeout.rules.variant import Variant
from freezeout.rules.views import TableView
from freezeout.server.fairness import HandCards
from freezeout.server.gamespec import GameSpec

if TYPE_CHECKING:
    from collections.abc import Callable

    from freezeout.server.entries import EntryBody, LogEntry, Slot, Stamped
    from freezeout.server.settings import Settings
    from freezeout.server.storage.ledger import Transfer
    from freezeout.server.storage.users import UserRow
    from freezeout.server.table.cashbots import BotEntry, CashBotMove
    from freezeout.server.table.commands import Intent
    from freezeout.server.table.state import TableState
    from freezeout.server.table.tableevents import TableEvent

    #: A step of the fold: the new state, the table's own public events and the rules' events.
    Folded: TypeAlias = tuple[TableState, list[TableEvent], list[Event]]

__all__ = ["TableGame"]


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
    def apply(self, action: Action, bank: float | None = None, at: float | None = None) -> tuple[TableGame, list[Event]]:
        """A move by ``action.seat``: a betting move, a draw, ``timeout`` (R26/R27; a draw's
        follows V12, a bring-in's posts it) or ``resign`` (R28), made at ``at`` with ``bank``
        seconds of the mover's time bank (C11; a game without one ignores both).  Raises RulesError."""
        ...
    def fold(self, state: TableState, body: EntryBody, at: float, play: Callable[[], Folded]) -> Folded | None:
        """The game's own step of the fold (state.py) for ``body``, ``play()`` being the table's
        step of a deal or a move: a cash table's seats and chips (C1–C14) and what each entry
        leaves behind.  None (neutral): the table's step alone."""
        ...
    def lobby_fields(self, state: TableState) -> dict[str, Any]:
        """What the lobby shows of the table beyond its seats and game (a cash table's stakes,
        buy-ins, average pot …: table/cashlobby.py).  Neutral: nothing."""
        ...
    def close_at(self, state: TableState, idle: float) -> float | None:
        """When the table closes itself, ``idle`` seconds after its last entry (an open cash
        table with nobody seated: table/cashlobby.py).  Neutral: never (None)."""
        ...
    def transfers(self, old: TableState, new: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
        """The ledger rows ``entry`` (taking ``old`` to ``new``, whose game this is) is written
        with: a cash table's chips across its edge (C9, table/cashledger.py).  Neutral: none."""
        ...
    def held(self) -> int | None:
        """The chips on the table, as the ledger check reads them (a cash table's).  Neutral: None."""
        ...
    def entry_for(self, state: TableState, user: UserRow, intent: Intent, now: float, settings: Settings,
                  online: Callable[[int], bool], moved: tuple[int, int] | None) -> Stamped | None:
        """The entry a client's ``intent`` writes at this game's table, or :class:`~.commands.Refused`
        (a cash table's requests: table/cashintents.py).  Neutral: None, the table's own
        (table/intents.py: a freezeout's places, moves and rematch)."""
        ...
    @property
    def records_each_hand(self) -> bool:
        """Whether the game's record is one per hand (a cash table's: players come and go,
        table/records.py ``CashHands``), not one per game (a freezeout's ``freezeout.record``)."""
        ...
    def top_up_due(self) -> int | None:
        """C2: the first seat whose auto top-up the table owes now (between hands).  Neutral: None."""
        ...
    def offer_lapse_at(self) -> float | None:
        """C13: when the first seat offered from the waiting list runs out.  Neutral: None."""
        ...
    def lobby_key(self) -> tuple[Any, ...]:
        """What the lobby record says beyond the seats, so a cluster's owner lists the table
        again when it changes (a cash table's waiting list and break clock).  Neutral: ()."""
        ...
    # -- the bots' seat changes (a cash table's, table/cashbots.py): neutral, bots keep their seats
    def may_deal(self) -> bool:
        """Whether the next hand can be committed and dealt (a cash table: two players with chips
        who are not sitting out, never bots alone).  Neutral: always."""
        ...
    def bot_seat_change(self, state: TableState, now: float, asked: str | None, fill_after: float | None,
                        level: str | None) -> CashBotMove | None:
        """The bots' next seat change (sit, top up, sit in, leave) at ``now``: ``asked``, the level a
        player asked for; ``fill_after``, how long a lone human waits; ``level``, the default bot.
        Neutral: None."""
        ...
    def bots_wake_at(self, state: TableState, fill_after: float | None) -> float | None:
        """When a wait for bots runs out by itself (the actor sleeps until then).  Neutral: None."""
        ...
    def check_add_bot(self, state: TableState, user: UserRow, level: str, offered: tuple[str, ...],
                      now: float = 0.0) -> None:
        """Raise :class:`~.commands.Refused` unless ``user`` may add a bot of ``level`` now.
        Neutral: refused (a freezeout's bots are named when it is opened)."""
        ...
    def bot_entry(self, state: TableState, move: CashBotMove, now: float, bot: Slot | None) -> BotEntry:
        """The entry of the bots' seat change ``move`` (``bot``: a new bot's account and name)."""
        ...
    # -- the time bank (C11): hooks whose neutral answer is "none" (a freezeout's) ---------
    @property
    def banks_time(self) -> bool:
        """Whether a move past the clock spends the mover's time bank (its entry records it)."""
        ...
    def time_bank(self, seat: int) -> float:
        """The seconds left in table seat ``seat``'s time bank (0: none, or an empty seat)."""
        ...
    def hand_cards(self) -> HandCards | None: ...
    def hands_ended(self, before: TableGame) -> bool:
        """Whether a hand ended between ``before`` and this game."""
        ...
    def same_turn(self, before: TableGame) -> bool:
        """Whether a move decided on ``before`` is still the same decision in this game: the
        same hand in the same state (the same player to act, the same legal choices).  A
        change of seats, of the stacks or statuses of players not in the hand, of what the
        next hand deals, keeps it (state.py's turn, table/idempotency.py); any move does not."""
        ...
    def forget_past(self, keep: int) -> TableGame:
        """Keep only the last ``keep`` hands' public events (the bots' memory, issue #10)."""
        ...
    def seat_view(self, viewer: int | None) -> TableView: ...
    def bot_view(self, viewer: int) -> TableView:
        """What the bot at table seat ``viewer`` reads: exactly a human's seat view (neutral: :meth:`seat_view`)."""
        ...
    def view_dicts(self, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]: ...
    def rematch(self, players: tuple[str, ...], button: int) -> TableGame:
        """A new game of the same spec between ``players`` (R3: seated anew by the caller)."""
        ...
