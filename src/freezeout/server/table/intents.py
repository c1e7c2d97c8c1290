"""What a client's intent writes: the log entry it asks for, or why it is refused.

One job, pure: given the table's state, the account and its typed intent
(commands.Intent), the entry body (server/entries.py) that applies it, or
:class:`Refused` with the protocol's code.  Whether the entry is legal is the
fold's to say (table.state.reduce, the rules): this only checks what the fold
cannot know — who is asking, and whether the intent was decided on the
table's current version.
"""

from __future__ import annotations

from collections.abc import Callable

from freezeout.cards import CardError, parse_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import RulesError
from freezeout.server.entries import (
    ActEntry,
    CashSeatEntry,
    RematchEntry,
    SitEntry,
    Slot,
    Stamped,
    StandEntry,
    TopUpEntry,
    WaitlistEntry,
)
from freezeout.server.settings import Settings
from freezeout.server.storage.ledger import client_transfer
from freezeout.server.storage.store import UserRow
from freezeout.server.table.cash import CashGame
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
from freezeout.server.table.state import Refused, TableState

__all__ = ["entry_for"]


def _slot(state: TableState, asked: int | None) -> int:
    """The place a sit or buy-in takes: the one asked for, within this table's own size (C12:
    ``bad_message`` naming its seats otherwise), or the first free one (``illegal`` when full)."""
    if asked is not None:
        if asked >= state.size:
            raise Refused("bad_message", f"this table has {state.size} seats (slot 0 to {state.size - 1}), "
                                         f"so there is no slot {asked}")
        return asked
    free = next((i for i, s in enumerate(state.slots) if not s.taken), None)
    if free is None:
        raise Refused("illegal", "the table is full")
    return free


def entry_for(state: TableState, user: UserRow | None, intent: Intent, now: float, settings: Settings,
              online: Callable[[int], bool], moved: tuple[int, int] | None = None) -> Stamped:
    """The entry that applies ``intent`` of ``user`` at ``now``; :class:`Refused` if it cannot.
    ``moved``: for a ``move_in``, the broken table's ``stand`` entry it names as the actor read
    it (its seq and chips; None: there is none for this account and table)."""
    if user is None:
        raise Refused("not_seated", "log in or play as a guest to take part")
    if isinstance(intent, Chat):  # the actor's chat takes it (table/chat.py): it writes no entry
        raise Refused("illegal", "a chat line writes no entry of the table's log")
    if isinstance(state.table_game, CashGame):
        return _cash_entry(state, state.table_game, user, intent, now, settings, online, moved)
    if isinstance(intent, (BuyIn, TopUp, SitOut, SitIn, Straddle, RunTwice, AutoTopUp, *_WAIT_INTENTS)):
        raise Refused("illegal", f"{intent.type!r} is a cash table's request; this table plays a freezeout")
    if isinstance(intent, Sit):
        slot = _slot(state, intent.slot)
        return SitEntry(slot, Slot(user.id, user.shown, user.kind))
    if isinstance(intent, Stand) or (isinstance(intent, Resign) and state.table_game is None):
        found = state.slot_of_user(user.id)
        if found is None:
            raise Refused("not_seated", "you have no place at this table")
        return StandEntry(found)
    seat = state.seat_of_user(user.id)
    t = state.table_game
    if seat is None or t is None:
        raise Refused("not_seated", "you are not playing at this table")
    if isinstance(intent, Resign):
        return ActEntry(Action(seat, ActionKind.RESIGN))
    if isinstance(intent, Rematch):
        return RematchEntry(seat)
    _check_version(state, intent.version)
    if isinstance(intent, Act):
        if t.to_act != seat:
            raise Refused("not_your_turn", "it is not your turn")
        try:
            action = Action.parse(seat, intent.move, intent.amount)
        except RulesError as error:
            raise Refused("illegal", str(error)) from None
        return ActEntry(action)
    if isinstance(intent, Draw):  # V11: throw away ``cards`` and draw as many; none: stand pat
        if t.to_act != seat:
            raise Refused("not_your_turn", "it is not your turn to draw")
        return ActEntry(_draw_action(seat, intent.cards))
    assert isinstance(intent, DontWait)
    return _dont_wait(state, seat, now, settings, online)


def _dont_wait(state: TableState, seat: int, now: float, settings: Settings, online: Callable[[int], bool]) -> ActEntry:
    """R26 (C8 at a cash table): ``seat`` ends the late player's turn, once the turn's time
    — and at a cash table the late player's time bank (C11) — has run out."""
    t = state.table_game
    assert t is not None
    late = t.to_act
    if late < 0 or late == seat or not t.alive[seat]:
        raise Refused("illegal", "nobody else is late")
    if now < state.turn_deadline(settings.turn_seconds):
        raise Refused("too_early", "the turn's time has not run out yet")
    if now < state.act_deadline(settings.turn_seconds):
        raise Refused("too_early", "the late player is using their time bank (C11)")
    if now < state.grace_until and not online(late):
        raise Refused("too_early", "the late player may reconnect after the server's restart until "
                                   f"{state.grace_until:.0f} (Unix time)")
    return ActEntry(Action(late, ActionKind.TIMEOUT), reason="dont_wait", by=seat)


def _check_version(state: TableState, version: int) -> None:
    if version != state.version:
        raise Refused("stale", f"decided on version {version}, the table is at {state.version}")


def _draw_action(seat: int, cards: str | None) -> Action:
    """A ``draw`` intent's move: ``discard`` of the named cards, or ``standpat`` for none."""
    if not cards:
        return Action(seat, ActionKind.STANDPAT)
    try:
        thrown = parse_cards(cards)
    except CardError as error:
        raise Refused("bad_message", f"cannot read the cards to discard {cards!r}: {error}") from None
    return Action(seat, ActionKind.DISCARD, cards=thrown)


_WAIT_INTENTS = (WaitlistJoin, WaitlistLeave, DeclineSeat, MoveOut, MoveIn)


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
    slot = _slot(state, asked)
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


def _cash_entry(state: TableState, game: CashGame, user: UserRow, intent: Intent, now: float, settings: Settings,
                online: Callable[[int], bool], moved: tuple[int, int] | None = None) -> Stamped:
    """A cash table's entry for ``intent`` (C1–C7): what the asker may not do is said here, in the
    table's words; what the rules refuse the fold says (table/cash.py), what the balance cannot
    pay the ledger says (``insufficient``), and nothing is written."""
    if isinstance(intent, Chat):
        raise Refused("illegal", "a chat line writes no entry of the table's log")
    if isinstance(intent, _WAIT_INTENTS):
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
        _check_version(state, intent.version)
        return _dont_wait(state, seat, now, settings, online)
    if game.to_act != seat:
        raise Refused("not_your_turn", "it is not your turn")
    _check_version(state, intent.version)
    bank = state.bank_used(now, settings.turn_seconds)  # C11: the log keeps the bank the move used
    if isinstance(intent, Act):
        try:
            return ActEntry(Action.parse(seat, intent.move, intent.amount), bank=bank or None)
        except RulesError as error:
            raise Refused("illegal", str(error)) from None
    assert isinstance(intent, Draw)
    return ActEntry(_draw_action(seat, intent.cards), bank=bank or None)
