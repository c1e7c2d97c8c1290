"""What a cash table's intents write (C1–C7, C13, C14): the entry of a buy-in, a top-up, a
sit-out or -in, a straddle, run it twice, an auto top-up, a leave, a move or a waiting-list
request, or why it is refused.  The cash game's ``TableGame.entry_for``; what every format
shares is table/intentparts.py's, the freezeout's table/intents.py's."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from freezeout.rules.actions import Action
from freezeout.rules.errors import RulesError
from freezeout.server.entries import (
    ActEntry,
    CashSeatEntry,
    SitEntry,
    Slot,
    Stamped,
    StandEntry,
    TopUpEntry,
    WaitlistEntry,
)
from freezeout.server.settings import Settings
from freezeout.server.storage.ledger import client_transfer
from freezeout.server.table.cashwait import break_due, held_seats
from freezeout.server.table.commands import (
    Act,
    AutoTopUp,
    BuyIn,
    Chat,
    DeclineSeat,
    DontWait,
    Draw,
    Intent,
    MoveIn,
    MoveOut,
    Refused,
    Rematch,
    Resign,
    RunTwice,
    Sit,
    SitIn,
    SitOut,
    Stand,
    Straddle,
    TopUp,
    WaitIntent,
    WaitlistJoin,
    WaitlistLeave,
)
from freezeout.server.table.intentparts import check_version, dont_wait, draw_action, slot_of

if TYPE_CHECKING:
    from freezeout.server.storage.users import UserRow
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.state import TableState

__all__ = ["CASH_INTENTS", "WAIT_INTENTS", "cash_entry"]

WAIT_INTENTS = (WaitlistJoin, WaitlistLeave, DeclineSeat, MoveOut, MoveIn)
#: The requests only a cash table takes.
CASH_INTENTS = (BuyIn, TopUp, SitOut, SitIn, Straddle, RunTwice, AutoTopUp, *WAIT_INTENTS)


def _cash_slot(state: TableState, game: CashGame, user: UserRow, asked: int | None) -> int:
    """The seat a buy-in takes at a cash table (C13): the one offered to the asker from the
    waiting list when none is named, else as :func:`_slot`, never a seat held for another."""
    held, own = held_seats(game, user.id)
    if asked is None and own is not None:
        return own
    if asked is None:
        free = next((i for i, s in enumerate(state.slots) if not s.taken and i not in held), None)
        if free is None:
            raise Refused("illegal", "the table is full: join its waiting list (C13)" if not held
                          else "every free seat is held for a player from the waiting list: join it (C13)")
        return free
    slot = slot_of(state, asked)
    if slot in held:
        raise Refused("illegal", f"seat {slot + 1} is held for a player from the waiting list (C13)")
    return slot


def _wait_entry(state: TableState, game: CashGame, user: UserRow, intent: WaitIntent, now: float,
                moved: tuple[int, int] | None) -> Stamped:
    """C13, C14: the entry of a waiting-list request or of a broken table's move."""
    if isinstance(intent, WaitlistJoin):
        if user.kind != "user":
            raise Refused("forbidden", "play chips belong to an account: log in to wait for a seat at a cash table")
        if state.slot_of_user(user.id) is not None:
            raise Refused("illegal", "you sit at this table already: its waiting list is for players without a seat")
        return WaitlistEntry("join", user.id, user.shown, anywhere=intent.anywhere, moved=intent.moved_from is not None)
    if isinstance(intent, (WaitlistLeave, DeclineSeat)):
        return WaitlistEntry("leave" if isinstance(intent, WaitlistLeave) else "decline", user.id)
    if isinstance(intent, MoveIn):
        if moved is None:
            raise Refused("illegal", f"no move from table {intent.source} to this table is waiting for you (C14): "
                                     "a player who changes table by choice buys in (at least the minimum buy-in)")
        if state.private:
            raise Refused("illegal", "a private table takes players by invitation only, not by a move (C14)")
        if state.slot_of_user(user.id) is not None:
            raise Refused("illegal", "you already have a seat at this table")
        seq, chips = moved
        return SitEntry(_cash_slot(state, game, user, intent.slot), Slot(user.id, user.shown, user.kind), chips=chips,
                        transfer=f"move:{intent.source}.{seq}", moved_from=intent.source)
    seat = state.slot_of_user(user.id)
    if seat is None:
        raise Refused("not_seated", "you have no seat at this table")
    if intent.to == state.id:
        raise Refused("illegal", "a player moves to another table (C14)")
    if not break_due(game, now):
        raise Refused("illegal", "this table has not broken (C14): leave it (stand), or buy in at another table "
                                 "with at least its minimum buy-in")
    if game.in_hand and seat in game.table.hand_seats:
        raise Refused("illegal", "you are in a hand: you move once it is over (C14)")
    chips = game.table.current_stacks()[seat]
    if chips <= 0:
        raise Refused("illegal", "no chips to move: leave the table (stand)")
    return StandEntry(seat, chips=chips, moved_to=intent.to, user=user.id)


def _filed(user: UserRow, transfer: str | None) -> str | None:
    """The ledger's id of a client's named transfer (C9): under the asker's account, never another's."""
    return None if transfer is None else client_transfer("cash", user.id, transfer)


def cash_entry(state: TableState, game: CashGame, user: UserRow, intent: Intent, now: float, settings: Settings,
                online: Callable[[int], bool], moved: tuple[int, int] | None = None) -> Stamped:
    """A cash table's entry for ``intent`` (C1–C7): what the asker may not do is said here, in the
    table's words; what the rules refuse the fold says (table/cash.py), what the balance cannot
    pay the ledger says (``insufficient``), and nothing is written."""
    if isinstance(intent, Chat):
        raise Refused("illegal", "a chat line writes no entry of the table's log")
    if isinstance(intent, WAIT_INTENTS):
        return _wait_entry(state, game, user, intent, now, moved)
    if isinstance(intent, BuyIn):
        if user.kind != "user":
            raise Refused("forbidden", "play chips belong to an account: log in to sit at a cash table")
        if state.slot_of_user(user.id) is not None:
            raise Refused("illegal", "you already have a seat at this table: add chips with a top-up")
        slot = _cash_slot(state, game, user, intent.slot)
        low, high = game.buy_in_range(user.id, now)  # C3: by account, not the name shown
        if not low <= intent.chips <= high:
            why = (" (C3: within 30 minutes of leaving, at least the chips you left with)" if low > game.table.config.min_buy_in
                   else " (C1)")
            raise Refused("illegal", f"a buy-in here is {low} to {high} chips, not {intent.chips}{why}")
        return SitEntry(slot, Slot(user.id, user.shown, user.kind), chips=intent.chips, transfer=_filed(user, intent.transfer),
                        post=intent.post)
    if isinstance(intent, Sit):
        raise Refused("illegal", "a seat at a cash table is taken with a buy-in (send buy_in with chips)")
    seat = state.slot_of_user(user.id)
    if seat is None:
        raise Refused("not_seated", "you have no seat at this table")
    if isinstance(intent, Stand):
        if game.is_leaving(seat):
            raise Refused("illegal", "you leave at the end of this hand already")
        dealt = game.in_hand and seat in game.table.hand_seats
        return StandEntry(seat, chips=None if dealt else game.table.current_stacks()[seat])
    if isinstance(intent, TopUp):
        if game.in_hand and seat in game.table.hand_seats:
            raise Refused("illegal", "you are in a hand: chips are added between hands (C2)")
        return TopUpEntry(seat, intent.chips, _filed(user, intent.transfer))
    if isinstance(intent, SitOut):
        return CashSeatEntry("sit_out", seat)
    if isinstance(intent, SitIn):
        return CashSeatEntry("sit_in", seat, intent.post)
    if isinstance(intent, Straddle):
        return CashSeatEntry("straddle", seat)
    if isinstance(intent, RunTwice):
        return CashSeatEntry("run_twice", seat, intent.agree)
    if isinstance(intent, AutoTopUp):
        return CashSeatEntry("auto_top_up", seat, to=intent.to)
    if isinstance(intent, Resign):
        raise Refused("illegal", "at a cash table a player folds, sits out or leaves (stand)")
    if isinstance(intent, Rematch):
        raise Refused("illegal", "a cash table has no rematch")
    if isinstance(intent, DontWait):  # C8: R26 applies at cash tables too
        check_version(state, intent.version)
        return dont_wait(state, seat, now, settings, online)
    if game.to_act != seat:
        raise Refused("not_your_turn", "it is not your turn")
    check_version(state, intent.version)
    bank = state.bank_used(now, settings.turn_seconds)  # C11: the log keeps the bank the move used
    if isinstance(intent, Act):
        try:
            return ActEntry(Action.parse(seat, intent.move, intent.amount), bank=bank or None)
        except RulesError as error:
            raise Refused("illegal", str(error)) from None
    assert isinstance(intent, Draw)
    return ActEntry(draw_action(seat, intent.cards), bank=bank or None)
