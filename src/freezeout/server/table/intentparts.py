"""What every format's intents share (table/intents.py, the cash game's table/cashintents.py):
the place a sit or buy-in takes, the version a move was decided on, a draw's move, and a
``dont_wait`` (R26; C8 at a cash table).  Pure, as the intents are."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from freezeout.cards import CardError, parse_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import ActEntry
from freezeout.server.settings import Settings
from freezeout.server.table.commands import Refused

if TYPE_CHECKING:
    from freezeout.server.table.state import TableState

__all__ = ["check_version", "dont_wait", "draw_action", "slot_of"]


def slot_of(state: TableState, asked: int | None) -> int:
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


def dont_wait(state: TableState, seat: int, now: float, settings: Settings, online: Callable[[int], bool]) -> ActEntry:
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


def check_version(state: TableState, version: int) -> None:
    """A move decided on ``version`` is judged now if the turn has not moved since (issue #34:
    only entries that leave the hand as it was came between — another seat's top-up, sit-out,
    waiting-list request, a ``resume``; state.py's ``_moves_turn``), else refused ``stale``.
    A move applied moves the turn, so the same move resent is refused: never applied twice."""
    if not state.intents.turn <= version <= state.version:
        raise Refused("stale", f"decided on version {version}, the table is at {state.version} "
                               f"and its turn moved on at version {state.intents.turn}")


def draw_action(seat: int, cards: str | None) -> Action:
    """A ``draw`` intent's move: ``discard`` of the named cards, or ``standpat`` for none."""
    if not cards:
        return Action(seat, ActionKind.STANDPAT)
    try:
        thrown = parse_cards(cards)
    except CardError as error:
        raise Refused("bad_message", f"cannot read the cards to discard {cards!r}: {error}") from None
    return Action(seat, ActionKind.DISCARD, cards=thrown)
