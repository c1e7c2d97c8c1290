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

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import RulesError
from freezeout.server.entries import (
    ActEntry,
    RematchEntry,
    SitEntry,
    Slot,
    Stamped,
    StandEntry,
)
from freezeout.server.settings import Settings
from freezeout.server.storage.store import UserRow
from freezeout.server.table.cashintents import CASH_INTENTS
from freezeout.server.table.commands import (
    Act,
    Chat,
    DontWait,
    Draw,
    Intent,
    Rematch,
    Resign,
    Sit,
    Stand,
)
from freezeout.server.table.intentparts import check_version, dont_wait, draw_action, slot_of
from freezeout.server.table.state import Refused, TableState

__all__ = ["entry_for"]


def entry_for(state: TableState, user: UserRow | None, intent: Intent, now: float, settings: Settings,
              online: Callable[[int], bool], moved: tuple[int, int] | None = None) -> Stamped:
    """The entry that applies ``intent`` of ``user`` at ``now``; :class:`Refused` if it cannot.
    ``moved``: for a ``move_in``, the broken table's ``stand`` entry it names as the actor read
    it (its seq and chips; None: there is none for this account and table)."""
    if user is None:
        raise Refused("not_seated", "log in or play as a guest to take part")
    if isinstance(intent, Chat):  # the actor's chat takes it (table/chat.py): it writes no entry
        raise Refused("illegal", "a chat line writes no entry of the table's log")
    game = state.table_game
    own = game.entry_for(state, user, intent, now, settings, online, moved) if game is not None else None
    if own is not None:  # the game's own entry (a cash table's: table/cashintents.py)
        return own
    if isinstance(intent, CASH_INTENTS):
        raise Refused("illegal", f"{intent.type!r} is a cash table's request; this table plays a freezeout")
    if isinstance(intent, Sit):
        slot = slot_of(state, intent.slot)
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
    check_version(state, intent.version)
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
        return ActEntry(draw_action(seat, intent.cards))
    assert isinstance(intent, DontWait)
    return dont_wait(state, seat, now, settings, online)


