"""The cash game as a table's game (C1–C11): the second :class:`~.game.TableGame`.

A thin shell around :class:`freezeout.rules.cash.CashTable`, as :mod:`.freezeout` is
around the tournament: it answers the table's questions (who acts, what they may do, what
the hand dealt to whom, each seat's view) and takes the cash requests (a seat with chips,
top up, sit out and in, leave, straddle, run it twice) its log entries carry (entries.py).

What the ledger must see (docs/ledger.md "Cash tables"): every transition says which
chips crossed the table's edge — a buy-in, a top-up, the cash-outs of players who left,
the house's rake of a hand that ended — and the game's ``transfers`` (table/cashledger.py)
turns that into the ledger's rows, written in the same transaction as the log entry
(table/writer.py).  A cash table is never finished while it is open: a seat comes and
goes, the game goes on.  What its log says it holds: table/chips.py.

Choices (docs/ledger.md):

* **A leave during a hand waits for its end**: the player is dealt out of
  nothing more, plays the hand out (or folds by timeout), and the entry that
  ends the hand leaves them and carries their cash-out.  The hit-and-run
  clock (C3) starts then, at the hand's end, when they really left with
  their chips (not at the leave request; docs/rules.md, "C3, hit-and-run").
* **Rake per hand**: the house's row rides with the entry that ended the hand, for its rake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from freezeout.bots.cashview import cash_table_view
from freezeout.cards import Card
from freezeout.rules.actions import Action
from freezeout.rules.cash import CashTable, ChipsAdded, SeatLeft, SeatTaken, Status, StatusChanged
from freezeout.rules.errors import IllegalAction, RulesError
from freezeout.rules.events import Event
from freezeout.rules.legal import LegalActions
from freezeout.rules.variant import Variant
from freezeout.rules.views import TableView
from freezeout.server.entries import (
    ActEntry,
    CashSeatEntry,
    CloseEntry,
    DealEntry,
    EntryBody,
    LogEntry,
    SitEntry,
    Slot,
    StandEntry,
    TopUpEntry,
    WaitlistEntry,
)
from freezeout.server.fairness import HandCards, hand_cards_of
from freezeout.server.gamespec import CashOptions, GameRefused, GameSpec
from freezeout.server.table import cashbots, cashview
from freezeout.server.table.cashconfig import STUD_MIN_BIG_BLIND, account_key, cash_config
from freezeout.server.table.cashintents import cash_entry
from freezeout.server.table.cashledger import ledger_rows
from freezeout.server.table.cashlobby import after_move, cash_fields
from freezeout.server.table.cashwait import (
    Waitlist,
    break_due,
    fold_waitlist,
    lapse_at,
    note_short,
    on_sit,
    seat_freed,
)
from freezeout.server.table.commands import Refused
from freezeout.server.table.game import TableGame
from freezeout.server.table.tableevents import (
    AutoTopUpNews,
    CashSeatChanged,
    Closed,
    Leaving,
    Seated,
    SeatNews,
    Stood,
    TableEvent,
    ToppedUp,
)

if TYPE_CHECKING:
    from freezeout.server.entries import Slot, Stamped
    from freezeout.server.settings import Settings
    from freezeout.server.storage.ledger import Transfer
    from freezeout.server.storage.users import UserRow
    from freezeout.server.table.cashbots import BotEntry, CashBotMove
    from freezeout.server.table.commands import Intent
    from freezeout.server.table.game import Folded
    from freezeout.server.table.state import TableState

__all__ = ["STUD_MIN_BIG_BLIND", "CashGame", "after_hand_move",
           "cash_config", "fold_request", "game_of"]


def _rules_events(events: Iterable[object]) -> list[Event]:
    """The rules' events of a transition (the table's own, seats and chips, the fold tells itself)."""
    return [event for event in events if not isinstance(event, (SeatTaken, ChipsAdded, SeatLeft, StatusChanged))]  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class CashGame:
    """A cash table's game; ``table`` is the rules' value.

    ``leaving``: seats that asked to leave during a hand, with when (C3), left at its end.
    ``cash_outs``: the (seat, chips) the last transition took off the table (leaves);
    ``raked``: the rake of a hand the last transition ended.  Both are what the ledger
    must record of that transition, and are cleared by the next one."""

    spec: GameSpec
    table: CashTable
    leaving: tuple[tuple[int, float], ...] = ()
    cash_outs: tuple[tuple[int, int], ...] = ()
    raked: int = 0
    transfer_ids: frozenset[str] = frozenset()  # the transfer ids the table's buy-ins and top-ups named
    bot_seats: frozenset[int] = frozenset()  # the seats bots hold (the fold keeps it from the slots; table/cashbots.py)

    @classmethod
    def open(cls, spec: GameSpec, seats: int, button: int = 0) -> CashGame:
        return cls(spec, CashTable.open(cash_config(spec, seats, button)))

    hand_over: bool = False  # the last transition ended a hand
    auto_top_up: tuple[tuple[int, int], ...] = ()  # C2: (seat, chips to top up to between hands)
    auto_due: frozenset[int] = frozenset()  # the seats whose auto top-up the table owes before the next deal
    waitlist: Waitlist = Waitlist()  # noqa: RUF009 (frozen) C13: the players waiting for a seat (table/cashwait.py)
    short_since: float | None = None  # C14: since when fewer than two players can play (table/cashwait.py)

    def _with(self, table: CashTable, **changes: Any) -> CashGame:
        auto = changes.get("auto_top_up", self.auto_top_up)
        seated = {seat for seat, held in enumerate(table.seats) if held is not None}
        auto = tuple((seat, to) for seat, to in auto if seat in seated)  # a seat left: its option with it
        due = frozenset(seat for seat in changes.get("auto_due", self.auto_due) if seat in seated)
        return replace(self, table=table, cash_outs=changes.get("cash_outs", ()), raked=changes.get("raked", 0),
                       leaving=changes.get("leaving", self.leaving), hand_over=changes.get("hand_over", False),
                       auto_top_up=auto, auto_due=due)

    def auto_top_up_of(self, seat: int) -> int | None:
        return next((to for s, to in self.auto_top_up if s == seat), None)

    def _owed_top_ups(self, table: CashTable) -> frozenset[int]:
        """C2: the seats with an auto top-up whose stack is below it (between hands)."""
        return frozenset(seat for seat, to in self.auto_top_up
                         if (held := table.seats[seat]) is not None and held.stack < to and not self.is_leaving(seat))

    # -- queries -----------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.player if seat is not None else "" for seat in self.table.seats)

    @property
    def variant(self) -> Variant:
        hand = self.table.hand
        if hand is not None and self.table.in_hand:
            return hand.setup.variant
        return self.table.next_variant

    @property
    def hand_number(self) -> int:
        return self.table.hand_number

    @property
    def in_hand(self) -> bool:
        return self.table.in_hand

    @property
    def finished(self) -> bool:
        return False  # a cash table goes on while it is open

    @property
    def can_deal(self) -> bool:
        """Whether the next hand can be dealt: two players with chips who are not sitting out."""
        if self.table.in_hand:
            return False
        try:
            self.table.plan()
        except RulesError:
            return False
        return True

    @property
    def to_act(self) -> int:
        return self.table.to_act

    @property
    def alive(self) -> tuple[bool, ...]:
        return tuple(seat is not None and seat.status in (Status.PLAYING, Status.WAITING) for seat in self.table.seats)

    @property
    def places(self) -> tuple[int | None, ...]:
        return (None,) * len(self.table.seats)

    @property
    def winner(self) -> int:
        return -1

    @property
    def board(self) -> tuple[Card | None, ...]:
        hand = self.table.hand
        return hand.board if hand is not None else ()

    @property
    def events_in_hand(self) -> int:
        return len(self.table.hand_log)

    def legal_actions(self) -> LegalActions | None:
        return self.table.legal_actions()

    def held(self) -> int:
        """The chips on the table: every seat's stack as of the hand's start (so anything in the
        pot mid-hand is counted where it came from); the rake has left at the hand's end."""
        return sum(seat.stack for seat in self.table.seats if seat is not None)

    def is_leaving(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.leaving)

    # -- the hand ----------------------------------------------------------------------
    def deal(self, deck: Sequence[Card], reshuffle: Sequence[Card] = ()) -> tuple[TableGame, list[Event]]:
        table, events = self.table.deal(deck, reshuffle)
        return self._after(table, events, None)

    def apply(self, action: Action, bank: float | None = None, at: float | None = None) -> tuple[TableGame, list[Event]]:
        """A move at ``at``; ``bank``: the seconds of the mover's time bank it used (C11; None: none)."""
        table, events = self.table.act(action, bank_used=bank if bank is not None else 0.0)
        return self._after(table, events, at)

    banks_time = True  # C11: a move past the clock spends the mover's time bank

    def time_bank(self, seat: int) -> float:
        held = self.table.seats[seat] if 0 <= seat < len(self.table.seats) else None
        return held.time_bank if held is not None else 0.0

    def _after(self, table: CashTable, events: Sequence[object], at: float | None) -> tuple[CashGame, list[Event]]:
        """A hand move; if it ended the hand (at ``at``), its rake, the leaves that waited for it
        — C3's 30 minutes count from then, when the player really left — and the auto top-ups due."""
        raked = table.rake_total - self.table.rake_total
        outs: list[tuple[int, int]] = []
        leaving = self.leaving
        over = not table.in_hand and table.hand is not None and table.hand is not self.table.hand  # (a hand may end as dealt)
        due = frozenset() if table.in_hand else self.auto_due  # dealt: a top-up not made in time lapses
        if over:
            for seat, when in leaving:
                held = table.seats[seat]
                if held is not None:
                    outs.append((seat, held.stack))
                    table, _ = table.leave(seat, at if at is not None else when)
            leaving = ()
        game = self._with(table, cash_outs=tuple(outs), raked=raked, leaving=leaving, hand_over=over, auto_due=due)
        if over:
            game = replace(game, auto_due=game._owed_top_ups(table))
        return game, _rules_events(events)

    def hand_cards(self) -> HandCards | None:
        """Every card each seat was dealt and the cards that became public (as the freezeout's)."""
        t = self.table
        if t.hand is None:
            return None
        cards = hand_cards_of(t.hand, t.hand_seats)
        if not t.mucked:
            return cards
        # V17: a mucked hand was never shown: its cards stay closed (all but stud's up-cards)
        up = {card for seat in t.mucked for card, face_up in zip(t.hand.cards[t.hand_seats.index(seat)],
                                                                  t.hand.up[t.hand_seats.index(seat)] if t.hand.up else (),
                                                                  strict=False) if face_up}
        closed = {card for seat in t.mucked for card in t.hand.cards[t.hand_seats.index(seat)]} - up
        return replace(cards, public=tuple(card for card in cards.public if card not in closed))

    def hands_ended(self, before: TableGame) -> bool:
        return before.in_hand and not self.in_hand

    def same_turn(self, before: TableGame) -> bool:
        """The rules' hand value is the same one (values are immutable: a move, a deal, a run-it-
        twice agreement (C7: what a call faces) make a new one); a top-up, a sit-out, a leave at
        the hand's end, a straddle or auto top-up for the next hand only change the seats (C2–C6)."""
        return isinstance(before, CashGame) and before.table.hand is self.table.hand

    def forget_past(self, keep: int) -> TableGame:
        return self  # a cash table keeps only the current hand's public events

    def rematch(self, players: tuple[str, ...], button: int) -> TableGame:
        raise GameRefused("a cash table has no rematch: players come and go")

    # -- the cash requests (C1–C7): each returns the new game or raises RulesError --------
    def join(self, seat: int, player: str, chips: int, now: float, post: bool | None = None,
             account: int | None = None) -> CashGame:
        """``player`` (the name shown) of ``account`` sits down: C3 and C11 know them by the account."""
        table, _ = self.table.join(seat, player, chips, now, post=post, key=account_key(account))
        return self._with(table)

    def join_moved(self, seat: int, player: str, chips: int, now: float, post: bool | None, account: int | None) -> CashGame:
        """C14: a player moved from a broken table of the same stakes sits with the chips they
        had there, even below the minimum buy-in or above the maximum (seed 002)."""
        table, _ = self.table.join(seat, player, chips, now, post=post, key=account_key(account), moved=True)
        return self._with(table)

    def buy_in_range(self, account: int | None, now: float) -> tuple[int, int]:
        """C1, C3: what ``account`` may buy in for now (at least what it left with in the last
        30 minutes, whatever name it shows now)."""
        return self.table.buy_in_range(account_key(account), now)

    def top_up(self, seat: int, chips: int) -> CashGame:
        if self.is_leaving(seat):
            raise IllegalAction("a player leaving at the end of the hand adds no chips")
        table, _ = self.table.top_up(seat, chips)
        return self._with(table, auto_due=self.auto_due - {seat})

    def set_auto_top_up(self, seat: int, to: int | None) -> CashGame:
        """C2: top ``seat`` up to ``to`` chips between hands whenever it has fewer (None: stop),
        within the buy-ins (C1); due at once when it is between hands for the seat."""
        held = self.table.seats[seat] if 0 <= seat < len(self.table.seats) else None
        if held is None:
            raise IllegalAction(f"seat {seat + 1} is not seated")
        config = self.table.config
        if to is not None and (type(to) is not int or not config.min_buy_in <= to <= config.max_buy_in):
            raise IllegalAction(f"an auto top-up is to {config.min_buy_in} to {config.max_buy_in} chips "
                                f"(the buy-ins, C1, C2), not {to}")
        auto = tuple((s, t) for s, t in self.auto_top_up if s != seat) + (((seat, to),) if to is not None else ())
        game = self._with(self.table, auto_top_up=auto, auto_due=self.auto_due - {seat})
        if to is not None and not (self.table.in_hand and seat in self.table.hand_seats):
            game = replace(game, auto_due=game.auto_due | (game._owed_top_ups(self.table) & {seat}))
        return game

    def skip_auto_top_up(self, seat: int) -> CashGame:
        """The auto top-up due for ``seat`` is skipped (the balance could not pay it)."""
        if seat not in self.auto_due:
            raise IllegalAction(f"no auto top-up is due for seat {seat + 1}")
        return self._with(self.table, auto_due=self.auto_due - {seat})

    def auto_top_up_chips(self, seat: int, balance: int) -> int:
        """C2: what the auto top-up due for ``seat`` adds with ``balance`` chips in the account:
        up to its amount, as much as the balance pays; 0 when it pays nothing or not a rebuy's
        minimum (C1) — the table skips it then."""
        held = self.table.seats[seat]
        to = self.auto_top_up_of(seat)
        if held is None or to is None:
            return 0
        chips = max(0, min(to - held.stack, balance))
        if held.stack == 0 and chips < self.table.config.min_buy_in:
            return 0
        return chips

    def leave(self, seat: int, now: float) -> tuple[CashGame, int | None]:
        """C3: leave now with the chips (returned), or — dealt in the hand in progress — at its end (None)."""
        held = self.table.seats[seat] if 0 <= seat < len(self.table.seats) else None
        if held is None:
            raise IllegalAction(f"seat {seat + 1} is not seated")
        if self.table.in_hand and seat in self.table.hand_seats:
            if self.is_leaving(seat):
                raise IllegalAction(f"{held.player} leaves at the end of this hand already")
            return self._with(self.table, leaving=(*self.leaving, (seat, now))), None
        table, _ = self.table.leave(seat, now)
        return self._with(table, cash_outs=((seat, held.stack),)), held.stack

    def sit_out(self, seat: int) -> CashGame:
        return self._with(self.table.sit_out(seat)[0])

    def sit_in(self, seat: int, post: bool | None = None) -> CashGame:
        return self._with(self.table.sit_in(seat, post=post)[0])

    def straddle(self, seat: int) -> CashGame:
        return self._with(self.table.straddle(seat)[0])

    def run_twice(self, seat: int, agree: bool) -> CashGame:
        if not (self.spec.cash or CashOptions()).run_twice:
            raise IllegalAction("this table does not run it twice (C7)")
        return self._with(self.table.agree_to_run_twice(seat, agree)[0])

    # -- views (built in table/cashview.py) --------------------------------------
    def seat_view(self, viewer: int | None) -> TableView:
        return cashview.seat_view(self, viewer)

    def fold(self, state: TableState, body: EntryBody, at: float, play: Callable[[], Folded]) -> Folded | None:
        return fold_entry(state, body, at, play)

    def entry_for(self, state: TableState, user: UserRow, intent: Intent, now: float, settings: Settings,
                  online: Callable[[int], bool], moved: tuple[int, int] | None) -> Stamped | None:
        return cash_entry(state, self, user, intent, now, settings, online, moved)

    @property
    def records_each_hand(self) -> bool:
        return True  # a record per hand (table/records.py CashHands)

    def top_up_due(self) -> int | None:
        return min(self.auto_due) if self.auto_due else None  # C2: the first seat owed one

    def offer_lapse_at(self) -> float | None:
        return lapse_at(self)  # C13

    def lobby_key(self) -> tuple[Any, ...]:
        return self.waitlist, self.short_since  # C13's list and C14's break clock

    # -- the bots' seat changes (table/cashbots.py) --------------------------------------------
    def may_deal(self) -> bool:
        return cashbots.can_deal(self)

    def bot_seat_change(self, state: TableState, now: float, asked: str | None, fill_after: float | None,
                        level: str | None) -> CashBotMove | None:
        return cashbots.cash_bot_due(self, state, now, asked=asked, fill_after=fill_after, level=level)

    def bots_wake_at(self, state: TableState, fill_after: float | None) -> float | None:
        return cashbots.cash_bot_deadline(self, state, fill_after)

    def check_add_bot(self, state: TableState, user: UserRow, level: str, offered: tuple[str, ...],
                      now: float = 0.0) -> None:
        cashbots.check_add_bot(self, state, user, level, offered, now)

    def bot_entry(self, state: TableState, move: CashBotMove, now: float, bot: Slot | None) -> BotEntry:
        return cashbots.bot_entry(self, move, now, bot)

    def lobby_fields(self, state: TableState) -> dict[str, Any]:
        return cash_fields(state, self)

    def transfers(self, old: TableState, new: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
        return ledger_rows(self, old, entry, epoch)

    def close_at(self, state: TableState, idle: float) -> float | None:
        """Nobody seated and no seat held for the waiting list (C13): ``idle`` after the last entry,
        or after the last place a private table holds for a named account lapses (issue #37: the
        friend it waits for finds the table, however long the creator held the place)."""
        if state.closed or self.waitlist.line.offers or any(slot.taken for slot in state.slots):
            return None
        return max([state.last_at, *(hold.until for hold in state.guests.holds)]) + idle

    def bot_view(self, viewer: int) -> TableView:
        """A human's seat view in the rules' :class:`TableView` the bots read (bots/cashview.py), so
        ``hard`` plays its deep-stack game at 100 big blinds (bots/deep.py: the stack at the hand's start)."""
        return cash_table_view(self.table, viewer)

    def view_dicts(self, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        return cashview.view_dicts(self, viewers)

    def view(self, viewer: int | None) -> dict[str, Any]:
        return cashview.view(self, viewer)


# -- the fold of a cash table's requests (table/state.py dispatches here) -------------------
_Result = tuple["TableState", list[TableEvent], list[Event]]


def game_of(state: TableState) -> CashGame:
    game = state.table_game
    assert isinstance(game, CashGame)
    return game


def _changed(state: TableState, game: CashGame, slots: Any = None) -> TableState:
    slots = state.slots if slots is None else slots
    bots = frozenset(index for index, slot in enumerate(slots) if slot.taken and slot.kind == "bot")
    if bots != game.bot_seats:
        game = replace(game, bot_seats=bots)
    return replace(state, table_game=game, players=game.players, slots=slots)


def fold_entry(state: TableState, body: EntryBody, at: float, play: Callable[[], _Result]) -> _Result | None:
    """A cash table's step of the fold (its game's ``fold`` hook): its requests and closing, its
    hands as any table's (``play``), then the lobby's numbers (table/cashlobby.py) and C14's clock."""
    if isinstance(body, (SitEntry, StandEntry, TopUpEntry, CashSeatEntry, WaitlistEntry, CloseEntry)):
        return after_entry(fold_request(state, body, at), at)
    if not isinstance(body, (ActEntry, DealEntry)):
        return None
    before = game_of(state)
    moved, told, events = play()
    after = game_of(moved)
    if before.in_hand != after.in_hand:
        moved = replace(moved, hand_stats=after_move(moved.hand_stats, before.in_hand, after.in_hand, at, events))
    return after_entry(after_hand_move((moved, told, events), at), at)


def fold_request(state: TableState, body: Any, at: float) -> _Result:
    """A cash request's entry (entries.py: ``sit`` with its buy-in, ``stand`` with its cash-out,
    ``top_up``, ``cash_seat``) applied to a cash table; :class:`Refused` (state untouched) says why not."""
    if isinstance(body, CloseEntry):  # an empty cash table closes (table/cashlobby.py): it holds no chip
        if any(slot.taken for slot in state.slots):
            raise Refused("illegal", "a cash table closes only when nobody sits there")
        return replace(state, closed=True), [Closed()], []
    game = game_of(state)
    try:
        if isinstance(body, WaitlistEntry):  # C13 (table/cashwait.py)
            listed, said = fold_waitlist(state, game, body, at)
            return _changed(state, listed), said, []
        if isinstance(body, SitEntry):
            return _sit(state, game, body, at)
        if isinstance(body, StandEntry):
            return _stand(state, game, body, at)
        if isinstance(body, TopUpEntry):
            _fresh_transfer(game, body.transfer)
            if body.auto and body.seat not in game.auto_due:
                raise Refused("illegal", f"no auto top-up is due for seat {body.seat + 1}")
            changed = game.top_up(body.seat, body.chips)
            if body.transfer is not None:
                changed = replace(changed, transfer_ids=changed.transfer_ids | {body.transfer})
            return _changed(state, changed), [ToppedUp(body.seat, body.chips, body.auto)], []
        request, seat, flag = body.request, body.seat, body.flag
        if request == "auto_top_up":
            changed = game.set_auto_top_up(seat, body.to)
            return _changed(state, changed), [AutoTopUpNews("auto_top_up", seat, body.to)], []
        if request == "auto_top_up_skipped":
            changed = game.skip_auto_top_up(seat)
            return (_changed(state, changed), [AutoTopUpNews("auto_top_up_skipped", seat, game.auto_top_up_of(seat),
                                                              "the balance cannot pay it")], [])
        if request == "sit_out":
            changed = game.sit_out(seat)
        elif request == "sit_in":
            changed = game.sit_in(seat, flag)
        elif request == "straddle":
            changed = game.straddle(seat)
        else:
            changed = game.run_twice(seat, True if flag is None else flag)
        return _changed(state, changed), [CashSeatChanged(request, seat, flag)], []
    except RulesError as error:
        raise Refused("illegal", str(error)) from None


def _fresh_transfer(game: CashGame, transfer: str | None) -> None:
    """A transfer id this table's entries named before would move no chips the second time (the
    ledger answers its first result) while the table counted them again: refused."""
    if transfer is not None and transfer in game.transfer_ids:
        raise Refused("transfer_mismatch", f"transfer {transfer!r} was used at this table already: name a new one")


def _sit(state: TableState, game: CashGame, body: Any, at: float) -> _Result:
    index, slot = body.slot, body.player
    if not 0 <= index < state.size or state.slots[index].taken:
        raise Refused("illegal", f"seat {index} is not free")
    if slot.kind not in ("user", "bot") or slot.user_id is None:  # a bot's account has play chips too (table/bots.py)
        raise Refused("forbidden", "play chips belong to an account: log in to sit at a cash table")
    if state.slot_of_user(slot.user_id) is not None:
        raise Refused("illegal", "you already have a seat at this table")
    if body.chips is None:
        raise Refused("bad_message", "a seat at a cash table is taken with a buy-in (chips, C1)")
    _fresh_transfer(game, body.transfer)
    listed, told = on_sit(game, index, slot.user_id, at)  # C13: a seat held from the waiting list is its player's
    if body.moved_from is not None:  # C14: moved from a broken table with the chips they had, even below the minimum
        if state.private:
            raise Refused("illegal", "a private table takes players by invitation only, not by a move (C14)")
        changed = listed.join_moved(index, slot.name or "", body.chips, at, body.post, slot.user_id)
    else:
        # C3, C11: a player is known by the account; bots share one account a level, so by name
        changed = listed.join(index, slot.name or "", body.chips, at, body.post, slot.user_id if slot.kind != "bot" else None)
    if body.transfer is not None:
        changed = replace(changed, transfer_ids=changed.transfer_ids | {body.transfer})
    slots = (*state.slots[:index], slot, *state.slots[index + 1 :])
    seated = Seated(index, slot.name, body.chips, body.moved_from)
    return _changed(state, changed, slots), [*told, seated], []


def _stand(state: TableState, game: CashGame, body: Any, at: float) -> _Result:
    index = body.slot
    if not 0 <= index < state.size or not state.slots[index].taken:
        raise Refused("illegal", f"seat {index} has no player to leave")
    if body.moved_to is not None and (body.user != state.slots[index].user_id or not break_due(game, at)):
        raise Refused("illegal", "a player moves with their chips only from a table that broke, and only themselves (C14)")
    changed, chips = game.leave(index, at)
    if chips != body.chips:
        said = "at the end of the hand" if chips is None else f"with {chips} chips"
        raise Refused("illegal", f"the player leaves {said}, not as the entry says ({body.chips})")
    name = state.slots[index].name
    if body.moved_to is not None and chips is None:
        raise Refused("illegal", "a player in a hand moves to another table once it is over (C14)")
    if chips is None:  # C3: dealt in: plays the hand out, and leaves with the entry that ends it
        return _changed(state, changed), [Leaving(index, name)], []
    slots = (*state.slots[:index], Slot(), *state.slots[index + 1 :])
    stood = Stood(index, name, chips, body.moved_to)  # moved_to: C14, the table broke; the chips go there
    changed, offered = seat_freed(changed, index, at)  # C13: the first in line is offered the seat
    return _changed(state, changed, slots), [stood, *offered], []


def after_hand_move(result: _Result, at: float) -> _Result:
    """A deal or a move at a cash table: the seats of the players whose leave waited for the
    hand's end are free once it ends (their cash-outs ride with this entry), each offered to
    the first in line (C13)."""

    state, table_events, events = result
    game = game_of(state)
    told = list(table_events)
    if game.hand_over:  # V17: the losing hands the showdown mucked, said (their cards are not)
        told.extend(SeatNews("mucked", seat) for seat in game.table.mucked)
    if not game.cash_outs:
        return _changed(state, game), told, events
    slots = list(state.slots)
    for seat, chips in game.cash_outs:
        told.append(Stood(seat, slots[seat].name, chips))
        slots[seat] = Slot()
        game, offered = seat_freed(game, seat, at)
        told.extend(offered)
    return _changed(state, game, tuple(slots)), told, events


def after_entry(result: _Result, at: float) -> _Result:
    """Every cash entry: C14's clock (table/cashwait.py ``note_short``) as the entry leaves the table."""
    state, told, events = result
    game = game_of(state)
    noted = note_short(game, at)
    return (state if noted is game else replace(state, table_game=noted)), told, events

