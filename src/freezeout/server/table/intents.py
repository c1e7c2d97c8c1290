"""What a client's intent writes: the log entry it asks for, or why it is refused.

One job, pure: given the table's state, the account and its typed intent
(protocol.Intent), the entry body (table/entries.py) that applies it, or
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
from freezeout.server.settings import Settings
from freezeout.server.storage.store import UserRow
from freezeout.server.table.entries import ActEntry, RematchEntry, SitEntry, Slot, Stamped, StandEntry
from freezeout.server.table.state import Refused, TableState
from freezeout.server.transport.protocol import Act, DontWait, Draw, Intent, Rematch, Resign, Sit, Stand

__all__ = ["entry_for"]


def entry_for(state: TableState, user: UserRow | None, intent: Intent, now: float, settings: Settings,
              online: Callable[[int], bool]) -> Stamped:
    """The entry that applies ``intent`` of ``user`` at ``now``; :class:`Refused` if it cannot."""
    if user is None:
        raise Refused("not_seated", "log in or play as a guest to take part")
    if isinstance(intent, Sit):
        slot = intent.slot
        if slot is None:
            slot = next((i for i, s in enumerate(state.slots) if not s.taken), None)
            if slot is None:
                raise Refused("illegal", "the table is full")
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
    late = t.to_act
    if late < 0 or late == seat or not t.alive[seat]:
        raise Refused("illegal", "nobody else is late")
    if now < state.turn_deadline(settings.turn_seconds):
        raise Refused("too_early", "the turn's time has not run out yet")
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
