"""A table as a pure fold over its event log.

``reduce(state, entry)`` is the only way a table changes — the live actor
uses it to validate a command before writing it, and a restarted server uses
it to rebuild every table from the log (design principle 7).  It never reads
the clock or randomness: the entry carries its time and any drawn values
(seating, button, deck).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from freezeout.rules.actions import ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import Eliminated, Event
from freezeout.rules.tournament import Tournament
from freezeout.server.entries import (
    ActEntry,
    CloseEntry,
    CommitEntry,
    CreateEntry,
    DealEntry,
    EndEntry,
    EntryBody,
    GuestEntry,
    InviteEntry,
    LogEntry,
    RematchEntry,
    ResumeEntry,
    SitEntry,
    Slot,
    StandEntry,
    StartEntry,
    UnknownEntry,
    WaitlistEntry,
)
from freezeout.server.fairness import AnyDeal, Reveal
from freezeout.server.gamespec import GameRefused, GameSpec
from freezeout.server.guestbook import GuestBook
from freezeout.server.table import cashlobby
from freezeout.server.table.commands import Refused
from freezeout.server.table.formats import open_table, start_game
from freezeout.server.table.game import TableGame
from freezeout.server.table.idempotency import Applied
from freezeout.server.table.tableevents import (
    DontWaited,
    GameOver,
    GameStarted,
    Resumed,
    Seated,
    SeatNews,
    Stood,
    TableEvent,
)

__all__ = ["PUBLIC_MEMORY_HANDS", "Refused", "Slot", "TableState", "initial_state", "reduce"]  # Slot: server/entries.py

# The rules keep every earlier hand's public events (``Tournament.past_logs``) for one
# reader: the bots' reads on their opponents (``view.past``).  A table keeps the last this
# many hands of it when a bot plays there, none otherwise: a game of a hundred hands
# would otherwise hold all of them, at every table (issue #10, docs/protocol.md "Memory").
PUBLIC_MEMORY_HANDS = 24


@dataclass(frozen=True, slots=True)
class TableState:
    id: str
    size: int
    ranked: bool
    slots: tuple[Slot, ...]
    created_at: float
    created_by: int | None = None  # the account that opened the table
    version: int = 1
    game: int = 0
    game_id: str | None = None
    players: tuple[str, ...] = ()
    seat_slots: tuple[int, ...] = ()  # game seat -> lobby slot
    spec: GameSpec = GameSpec()  # noqa: RUF009 (frozen) what the table plays, as its ``create`` entry names it
    table_game: TableGame | None = None  # the game being played (or the last one), once started
    started_at: float = 0.0
    next_deal: AnyDeal | None = None  # committed, not dealt yet
    current_deal: AnyDeal | None = None  # the hand in progress or the last one
    revealed: Reveal | None = None  # what the last finished hand opens (fairness)
    turn_started: float = 0.0
    hand_ended_at: float | None = None
    ended: bool = False  # the current game's end (and Elo) is stored
    rematch: frozenset[int] = frozenset()
    last_at: float = 0.0
    # After a restart (a ``resume`` entry): until then nobody is forfeited for being offline.
    grace_until: float = 0.0
    # How many hands were complete when a player left (resigned, or was forfeited out); None while
    # nobody has.  A ranked game left at 0 is aborted, one left in its first hands is short (elo.py).
    left_after: int | None = None
    # The keyed intents its last entries applied, for answering a resend (table/idempotency.py).
    intents: Applied = field(default_factory=Applied)
    # A cash table's recent hands, for the lobby's average pot and hands per hour (table/cashlobby.py).
    hand_stats: cashlobby.HandStats = cashlobby.HandStats()  # noqa: RUF009 (frozen)
    closed: bool = False  # a cash table closed (its ``close`` entry): it takes nothing more
    # A private table's invite secret (issue #37, table/privacy.py): None for a public table.
    invite: str | None = None
    # Its places held for named accounts, approval of seats and seat requests (server/guestbook.py).
    guests: GuestBook = GuestBook()  # noqa: RUF009 (frozen)

    @property
    def private(self) -> bool:
        return self.invite is not None

    # -- derived ---------------------------------------------------------
    @property
    def tournament(self) -> Tournament | None:
        """The rules' tournament of a freezeout (for tests and tools; the table asks ``table_game``)."""
        game = self.table_game
        found = getattr(game, "tournament", None)
        return found if isinstance(found, Tournament) else None

    @property
    def left_early(self) -> bool:
        """A player left before the first hand was complete: a ranked game is aborted."""
        return self.left_after == 0

    @property
    def status(self) -> str:
        if self.closed:
            return "closed"
        if self.table_game is None:
            return "waiting"
        return "finished" if self.ended else "playing"

    @property
    def full(self) -> bool:
        return all(slot.taken for slot in self.slots)

    def seat_slot(self, seat: int) -> Slot:
        return self.slots[self.seat_slots[seat]]

    def seat_of_user(self, user_id: int) -> int | None:
        for seat, slot_index in enumerate(self.seat_slots):
            if self.slots[slot_index].user_id == user_id and self.slots[slot_index].kind != "bot":
                return seat
        return None

    def slot_of_user(self, user_id: int) -> int | None:
        for index, slot in enumerate(self.slots):
            if slot.user_id == user_id and slot.kind != "bot":
                return index
        return None

    @property
    def needs_commit(self) -> bool:
        t = self.table_game
        return t is not None and not t.finished and not t.in_hand and self.next_deal is None and t.may_deal()

    def deal_due(self, pause: float) -> float | None:
        t = self.table_game
        if t is None or t.finished or t.in_hand or self.next_deal is None or not t.may_deal():
            return None
        return self.started_at if self.hand_ended_at is None else self.hand_ended_at + pause

    def turn_deadline(self, turn_seconds: float) -> float:
        """R15: when the running turn's time runs out."""
        return self.turn_started + turn_seconds

    def time_bank(self, seat: int) -> float:
        """C11: the seconds left in ``seat``'s time bank (a cash table's; a freezeout has none)."""
        t = self.table_game
        return t.time_bank(seat) if t is not None else 0.0

    def act_deadline(self, turn_seconds: float) -> float:
        """R26, C11: when the player to act has run out of time: the turn's clock, then (at a
        cash table) their whole time bank, which starts when the clock runs out."""
        t = self.table_game
        bank = self.time_bank(t.to_act) if t is not None and t.to_act >= 0 else 0.0
        return self.turn_started + turn_seconds + bank

    def bank_used(self, now: float, turn_seconds: float) -> float | None:
        """C11: the seconds of the time bank a move made at ``now`` by the player to act uses
        (what it took past the clock, at most the bank): what the move's entry records at a
        cash table; None elsewhere."""
        t = self.table_game
        if t is None or not t.banks_time or t.to_act < 0:
            return None
        return round(min(self.time_bank(t.to_act), max(0.0, now - self.turn_deadline(turn_seconds))), 3)

    @property
    def needs_end(self) -> bool:
        return self.table_game is not None and self.table_game.finished and not self.ended


# Each field's slot descriptor, for :func:`_evolve`.
_SLOTS: tuple[tuple[str, Any], ...] = tuple((f.name, getattr(TableState, f.name)) for f in fields(TableState))
_NAMES = frozenset(name for name, _ in _SLOTS)


def _evolve(state: TableState, **changes: Any) -> TableState:
    """``dataclasses.replace(state, **changes)`` at a third of its cost, for the fold's hot path
    (every move copies the state twice; ``replace`` goes through ``__init__`` and its
    defaults): the new state's slots are set directly.  Same value, same checks of names."""
    if not changes.keys() <= _NAMES:
        raise TypeError(f"TableState has no field {sorted(changes.keys() - _NAMES)}")
    new = object.__new__(TableState)
    for name, slot in _SLOTS:
        slot.__set__(new, changes[name] if name in changes else slot.__get__(state))
    return new


def initial_state(entry: LogEntry) -> TableState:
    """The table its ``create`` entry opens; an entry without ``game`` (written before tables
    named their game) opens a table of the house game."""
    body = entry.body
    if not isinstance(body, CreateEntry):
        raise Refused("bad_message", f"a table's log starts with a create entry, not {entry.kind!r}")
    state = TableState(id=entry.table_id, size=len(body.slots), ranked=body.ranked, slots=body.slots,
                       created_at=entry.at, created_by=body.created_by, version=entry.seq, last_at=entry.at,
                       intents=Applied(turn=entry.seq), spec=body.game or GameSpec(), invite=body.invite,
                       guests=GuestBook(approval=body.approval))
    return open_table(state, entry.at)


def reduce(state: TableState, entry: LogEntry) -> tuple[TableState, list[TableEvent], list[Event]]:
    """Apply one log entry; returns the new state, the table's own public
    events (table/tableevents.py) and the rules core's events.  Raises :class:`Refused` (state untouched)."""
    if entry.seq != state.version + 1:
        raise Refused("stale", f"entry {entry.seq} does not follow version {state.version}")
    try:
        body = entry.body
    except UnknownEntry as error:
        raise Refused("bad_message", str(error)) from None
    except RulesError as error:  # a move that cannot be read
        raise Refused("illegal", str(error)) from None
    new, table_events, events = _apply(state, body, entry.at)
    if new.invite is not None and isinstance(body, SitEntry):  # a private table's hold or request is answered
        new = replace(new, guests=new.guests.seated(body.player.user_id))
    turned = _moves_turn(state, new, body)
    return _evolve(new, version=entry.seq, last_at=entry.at, intents=new.intents.after(entry, turned)), table_events, events


def _moves_turn(old: TableState, new: TableState, body: EntryBody) -> bool:
    """Whether ``body`` (taking ``old`` to ``new``) changes what the player to act decides, so a
    move decided before it is ``stale`` (issue #34).  Every move does — the entry that applies a
    versioned intent always moves the turn, which table/idempotency.py's bounded memory rests on;
    any other entry only when the hand itself changed (a deal, a run-it-twice agreement): another
    seat's top-up, sit-out, leave, waiting-list request, a guest list's change or a ``resume``
    leave the same hand, the same player to act and the same legal choices."""
    if isinstance(body, ActEntry):
        return True
    before, after = old.table_game, new.table_game
    if before is after:
        return False
    return before is None or after is None or not after.same_turn(before)


_Result = tuple[TableState, list[TableEvent], list[Event]]


def _sit(state: TableState, body: SitEntry, at: float) -> _Result:
    if state.table_game is not None:
        raise Refused("illegal", "the game has started")
    index = body.slot
    if not 0 <= index < state.size or state.slots[index].taken:
        raise Refused("illegal", f"place {index} is not free")
    slot = body.player
    if slot.kind == "guest" and state.ranked:
        raise Refused("forbidden", "guests cannot join ranked tables")
    if slot.user_id is not None and slot.kind != "bot" and state.slot_of_user(slot.user_id) is not None:
        raise Refused("illegal", "you already have a place at this table")
    slots = (*state.slots[:index], slot, *state.slots[index + 1 :])
    return replace(state, slots=slots), [Seated(index, slot.name)], []


def _stand(state: TableState, body: StandEntry, at: float) -> _Result:
    if state.table_game is not None:
        raise Refused("illegal", "the game has started: resign to leave")
    index = body.slot
    if not 0 <= index < state.size or not state.slots[index].taken or state.slots[index].kind == "bot":
        raise Refused("illegal", f"place {index} has no player to leave")
    name = state.slots[index].name
    slots = (*state.slots[:index], Slot(), *state.slots[index + 1 :])
    return replace(state, slots=slots), [Stood(index, name)], []


def _start(state: TableState, body: StartEntry, at: float) -> _Result:
    if not state.full:
        raise Refused("illegal", "not every place is taken")
    if state.table_game is not None and not state.ended:
        raise Refused("illegal", "a game is in progress")
    if state.table_game is not None and len(state.rematch) < len(state.players):
        raise Refused("illegal", "not everyone accepted the rematch")
    players, button = body.players, body.button
    try:
        # R3: a rematch is a new game of the same kind between the same players, seated anew.
        game = start_game(state.spec, players, button) if state.table_game is None else state.table_game.rematch(players, button)
    except (GameRefused, RulesError) as error:
        raise Refused("illegal", str(error)) from None
    new = replace(
        state, game=body.game, game_id=body.game_id, players=players,
        seat_slots=body.seat_slots, table_game=game, started_at=at,
        next_deal=body.deal, current_deal=None, revealed=None, hand_ended_at=None, ended=False, rematch=frozenset(),
        left_after=None,
    )
    return new, [GameStarted(new.game, new.game_id, players, button, state.ranked)], []


def _commit(state: TableState, body: CommitEntry, at: float) -> _Result:
    if not state.needs_commit:
        raise Refused("illegal", "no deck is due")
    return replace(state, next_deal=body.deal), [], []


def _deal(state: TableState, at: float) -> _Result:
    t = state.table_game
    deal = state.next_deal
    if t is None or deal is None or t.in_hand or t.finished:
        raise Refused("illegal", "no hand is due")
    if deal.hand != t.hand_number + 1:
        raise Refused("illegal", f"the committed deck is for hand {deal.hand}, not {t.hand_number + 1}")
    try:
        reshuffle = deal.reshuffle() if t.variant.has_draws else ()  # V13
        t, events = t.deal(deal.deck, reshuffle)  # the rules say which card goes where
    except RulesError as error:
        raise Refused("illegal", f"the committed deck cannot deal this hand: {error}") from None
    keep = PUBLIC_MEMORY_HANDS if any(slot.kind == "bot" for slot in state.slots) else 0
    t = t.forget_past(keep)
    new = replace(state, table_game=t, current_deal=deal, next_deal=None, turn_started=at)
    return _after_move(state, new, at, events), [], events


def _act(state: TableState, body: ActEntry, at: float) -> _Result:
    t = state.table_game
    if t is None:
        raise Refused("illegal", "the game has not started")
    if t.hand_number == 0:
        raise Refused("illegal", "the first hand is being dealt")
    action = body.action
    seat = action.seat
    try:
        new_t, events = t.apply(action, body.bank, at)  # a cash table spends its time bank (C11)
    except RulesError as error:
        raise Refused("illegal", str(error)) from None
    table_events: list[TableEvent] = []
    reason = body.reason
    if reason == "dont_wait":
        table_events.append(DontWaited(body.by, seat))
    elif reason == "inactivity":
        table_events.append(SeatNews("inactivity", seat))
    restarts = not (action.kind is ActionKind.RESIGN and seat != t.to_act and new_t.to_act == t.to_act)
    new = _evolve(state, table_game=new_t, turn_started=at) if restarts else _evolve(state, table_game=new_t)
    if state.left_after is None and action.kind in (ActionKind.RESIGN, ActionKind.TIMEOUT) and any(
            isinstance(e, Eliminated) and e.seat == seat for e in events):
        new = replace(new, left_after=max(0, t.hand_number - (1 if t.in_hand else 0)))  # hands complete
    return _after_move(state, new, at, events), table_events, events


def _after_move(old: TableState, new: TableState, at: float, events: list[Event]) -> TableState:
    """When a hand has just ended: open what became public (fairness) and start the pause (R30)."""
    before, after = old.table_game, new.table_game
    assert after is not None
    if before is not None and after.hands_ended(before):
        cards, deal = after.hand_cards(), new.current_deal
        assert cards is not None and deal is not None
        return replace(new, revealed=Reveal.after_hand(deal, cards), hand_ended_at=at)
    return new


def _resume(state: TableState, body: ResumeEntry, at: float) -> _Result:
    """The server restarted: a running turn starts again in full (R15) and nobody is forfeited
    for being offline (R26) before ``grace_until``: the outage is not the players' fault.

    A table that changed owner in a cluster knows how long it had no owner (``outage``, in
    seconds, from the leases): its running turn keeps the time it had left, moved on by the
    outage (never past a full turn), so its deadlines are the same ones less nothing the
    players lost, and the 10 h rule (R29) is not restarted from zero."""
    t = state.table_game
    if t is None or t.finished or state.ended:
        raise Refused("illegal", "no game is running")
    new = replace(state, grace_until=body.grace_until)
    if t.in_hand:
        outage = body.outage
        started = at if outage is None else min(at, state.turn_started + max(0.0, float(outage)))
        new = replace(new, turn_started=started)
    return new, [Resumed(new.grace_until)], []


def _end(state: TableState, body: EndEntry, at: float) -> _Result:
    if not state.needs_end:
        raise Refused("illegal", "the game is not over")
    # ``unrated``: a ranked game that changed no rating ("aborted", "pair_limit"); ``provisional``:
    # the rated players whose ratings are still provisional
    event = GameOver(state.game_id, body.places, body.ratings, body.unrated or None, body.provisional)
    return replace(state, ended=True), [event], []


def _rematch(state: TableState, body: RematchEntry, at: float) -> _Result:
    if not state.ended:
        raise Refused("illegal", "a rematch can be accepted only after the game")
    seat = body.seat
    if not 0 <= seat < len(state.players) or seat in state.rematch:
        raise Refused("illegal", "already accepted")
    return replace(state, rematch=state.rematch | {seat}), [SeatNews("rematch_accepted", seat)], []


def _apply(state: TableState, body: EntryBody, at: float) -> _Result:
    """The one step of the fold: each kind of entry to its rule."""
    if state.closed:
        raise Refused("closed", "this cash table is closed: choose another in the lobby")
    t = state.table_game
    if t is not None:  # the game's own step first (a cash table's seats and chips: table/cash.py)
        folded = t.fold(state, body, at, lambda: _act(state, body, at) if isinstance(body, ActEntry) else _deal(state, at))
        if folded is not None:
            return folded
    if isinstance(body, CloseEntry):
        raise Refused("illegal", "only a cash table closes this way")
    if isinstance(body, WaitlistEntry):
        raise Refused("illegal", "a waiting list is a cash table's (C13); this table plays a freezeout")
    if isinstance(body, ActEntry):  # the most frequent first
        return _act(state, body, at)
    if isinstance(body, DealEntry):
        return _deal(state, at)
    if isinstance(body, CommitEntry):
        return _commit(state, body, at)
    if isinstance(body, SitEntry):
        return _sit(state, body, at)
    if isinstance(body, StandEntry):
        return _stand(state, body, at)
    if isinstance(body, StartEntry):
        return _start(state, body, at)
    if isinstance(body, EndEntry):
        return _end(state, body, at)
    if isinstance(body, RematchEntry):
        return _rematch(state, body, at)
    if isinstance(body, ResumeEntry):
        return _resume(state, body, at)
    if isinstance(body, InviteEntry):
        if not state.private:
            raise Refused("illegal", "only a private table has an invite link")
        return replace(state, invite=body.secret), [], []
    if isinstance(body, GuestEntry):  # issue #37: places held, approval, seat requests (server/guestbook.py)
        if not state.private:
            raise Refused("illegal", "only a private table holds places and takes seat requests")
        try:
            return replace(state, guests=state.guests.after(body, at)), [], []
        except ValueError as error:
            raise Refused("bad_message", str(error)) from None
    raise Refused("bad_message", f"a {body.kind!r} entry opens a table: it cannot follow")
