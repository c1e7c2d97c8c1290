"""Who sits at a private table (issue #37): places reserved for named accounts, and seat
requests the creator approves or refuses when they asked for approval.

Anyone with the invite link may take a free place; the creator may hold a place for an
account (by account, not by a shown name that can change) for a while (``HOLD_SECONDS`` by
default), and may ask to approve each seat: a request then waits for them.  The creator and
an account a place is held for are never asked to wait.  Each function here says what a
request writes (a ``guests`` entry) or why it is refused; the list itself is the fold of those
entries (server/guestbook.py), so a restart or a new owner in a cluster keeps it.
"""

from __future__ import annotations

from freezeout.server.guestbook import GuestEntry, SeatRequest
from freezeout.server.storage.store import UserRow
from freezeout.server.table.commands import INTENT, BuyIn, Intent, Sit
from freezeout.server.table.state import Refused, TableState

__all__ = ["HOLD_SECONDS", "MAX_REQUESTS", "admit", "held_slots", "release", "requester", "reserve", "waiting"]

HOLD_SECONDS = 300.0  # a reserved place is held 5 minutes by default
MAX_HOLD_SECONDS = 3600.0
MAX_REQUESTS = 20  # seat requests waiting at once (a link shared too widely cannot bury the creator)


def held_slots(state: TableState, now: float) -> frozenset[int]:
    """The places held for named accounts at ``now`` (none at a public table): nobody else, and
    no bot, takes them (table/bots.py)."""
    return state.guests.held_slots(now) if state.private else frozenset()


# -- the creator's ----------------------------------------------------------------
def reserve(state: TableState, user: UserRow, slot: int | None, seconds: float | None, now: float) -> GuestEntry:
    """Hold a place for ``user``: ``slot``, or the first free one not held already."""
    if user.kind == "bot":
        raise Refused("bad_message", "places are held for players, not bots")
    if user.id == state.created_by:
        raise Refused("illegal", "you are the table's creator: take a place yourself")
    if state.slot_of_user(user.id) is not None:
        raise Refused("illegal", f"{user.shown} has a place at this table already")
    hold_for = HOLD_SECONDS if seconds is None else seconds
    if not 0 < hold_for <= MAX_HOLD_SECONDS:
        raise Refused("bad_message", f"a place is held from 1 second to {int(MAX_HOLD_SECONDS)} seconds")
    others = {h.slot for h in state.guests.live(now) if h.user_id != user.id}
    free = [i for i, s in enumerate(state.slots) if not s.taken and i not in others]
    if slot is None:
        if not free:
            raise Refused("illegal", "no place is free to hold")
        slot = free[0]
    elif not 0 <= slot < state.size:
        raise Refused("bad_message", f"the table has {state.size} places, so there is no place {slot}")
    elif slot not in free:
        raise Refused("illegal", f"place {slot} is taken or held already")
    return GuestEntry("hold", user.id, user.shown, slot, now + hold_for)


def release(state: TableState, slot: int, now: float) -> GuestEntry:
    if slot not in state.guests.held_slots(now):
        raise Refused("illegal", f"place {slot} is not held")
    return GuestEntry("release", slot=slot)


def waiting(state: TableState, user_id: int) -> SeatRequest:
    """A seat request waiting for the creator's answer."""
    request = state.guests.request_of(user_id)
    if request is None:
        raise Refused("illegal", "that player has no seat request waiting (withdrawn, or answered already)")
    return request


def requester(request: SeatRequest) -> tuple[UserRow, Intent]:
    """Who asked, and the seat they asked, as the log keeps them (a ``sit`` or ``buy_in``)."""
    user = UserRow(request.user_id, request.name, request.account, None, 0.0, 0, request.name)
    return user, INTENT.validate_python(dict(request.seat))


# -- a seat asked for -----------------------------------------------------
def admit(state: TableState, user: UserRow, intent: Intent, now: float, *, approved: bool = False) -> Intent | GuestEntry:
    """A seat request (``sit``, ``buy_in``) at a private table, with its place chosen past the
    held ones; a ``request`` entry when it waits for the creator's approval.  :class:`Refused`
    says why not."""
    if not isinstance(intent, (Sit, BuyIn)):
        return intent
    guests = state.guests
    mine = guests.held_for(user.id, now)
    if mine is not None:  # the place held for them, whatever they asked
        return intent.model_copy(update={"slot": mine.slot})
    if guests.approval and not approved and user.id != state.created_by:
        if guests.request_of(user.id) is None and len(guests.requests) >= MAX_REQUESTS:
            raise Refused("busy", "too many seat requests wait for the creator: try again later")
        seat = intent.model_dump(mode="json", exclude={"id", "key"}, exclude_none=True)
        return GuestEntry("request", user.id, user.shown, account=user.kind, seat=seat)
    holds = {h.slot: h for h in guests.live(now)}
    if intent.slot is not None:
        if intent.slot in holds:
            raise Refused("illegal", f"place {intent.slot} is held for {holds[intent.slot].name}")
        return intent
    free = next((i for i, s in enumerate(state.slots) if not s.taken and i not in holds), None)
    if free is None:
        raise Refused("illegal", "every free place is held for an invited player" if holds else "the table is full")
    return intent.model_copy(update={"slot": free})
