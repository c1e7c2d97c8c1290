"""Who sits at a private table (issue #37): places reserved for named accounts, and seat
requests the creator approves or refuses when they asked for approval.

Anyone with the invite link may take a free place; the creator may hold a place for an
account (by account, not by a shown name that can change) for a while (``HOLD_SECONDS`` by
default), and may ask to approve each seat: a request then waits for them.  The creator and
an account a place is held for are never asked to wait.  Kept in the table's memory: holds
last minutes and requests are answered at once, so a restart only lets them lapse (the
table's privacy and its secret are in the log: table/privacy.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from freezeout.server.storage.store import UserRow
from freezeout.server.table.commands import BuyIn, Intent, Sit
from freezeout.server.table.state import Refused, TableState

__all__ = ["HOLD_SECONDS", "MAX_REQUESTS", "GuestList", "Hold"]

HOLD_SECONDS = 300.0  # a reserved place is held 5 minutes by default
MAX_HOLD_SECONDS = 3600.0
MAX_REQUESTS = 20  # seat requests waiting at once (a link shared too widely cannot bury the creator)


@dataclass(frozen=True, slots=True)
class Hold:
    user_id: int
    name: str
    slot: int
    until: float


@dataclass
class GuestList:
    approval: bool = False
    holds: dict[int, Hold] = field(default_factory=dict)  # place -> its hold
    requests: dict[int, tuple[UserRow, Intent]] = field(default_factory=dict)  # account -> its seat request

    def live(self, now: float) -> dict[int, Hold]:
        """The holds still running (those past their time are let go)."""
        for slot in [slot for slot, hold in self.holds.items() if hold.until <= now]:
            del self.holds[slot]
        return self.holds

    def view(self, now: float) -> dict[str, Any]:
        """What the creator is shown (``guests``)."""
        return {"approval": self.approval,
                "holds": [{"slot": h.slot, "name": h.name, "until": h.until} for h in sorted(self.live(now).values(),
                                                                                        key=lambda h: h.slot)],
                "requests": [{"user_id": user.id, "name": user.shown} for user, _ in self.requests.values()]}

    def held_for(self, user_id: int, now: float) -> Hold | None:
        return next((h for h in self.live(now).values() if h.user_id == user_id), None)

    # -- the creator's -------------------------------------------------------
    def reserve(self, state: TableState, user: UserRow, slot: int | None, seconds: float | None, now: float) -> Hold:
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
        holds = self.live(now)
        mine = self.held_for(user.id, now)
        if mine is not None:
            del holds[mine.slot]
        free = [i for i, s in enumerate(state.slots) if not s.taken and i not in holds]
        if slot is None:
            if not free:
                raise Refused("illegal", "no place is free to hold")
            slot = free[0]
        elif not 0 <= slot < state.size:
            raise Refused("bad_message", f"the table has {state.size} places, so there is no place {slot}")
        elif slot not in free:
            raise Refused("illegal", f"place {slot} is taken or held already")
        hold = holds[slot] = Hold(user.id, user.shown, slot, now + hold_for)
        self.requests.pop(user.id, None)
        return hold

    def release(self, slot: int) -> None:
        if self.holds.pop(slot, None) is None:
            raise Refused("illegal", f"place {slot} is not held")

    def answer(self, user_id: int) -> tuple[UserRow, Intent]:
        """Take a waiting request off the list (approved or refused)."""
        request = self.requests.pop(user_id, None)
        if request is None:
            raise Refused("illegal", "that player has no seat request waiting (withdrawn, or answered already)")
        return request

    # -- a seat asked for -----------------------------------------------------
    def admit(self, state: TableState, user: UserRow, intent: Intent, now: float, *, approved: bool = False) -> Intent | None:
        """A seat request (``sit``, ``buy_in``) at a private table, with its place chosen past the
        held ones; None when it waits for the creator's approval.  :class:`Refused` says why not."""
        if not isinstance(intent, (Sit, BuyIn)):
            return intent
        holds = self.live(now)
        mine = self.held_for(user.id, now)
        if mine is not None:  # the place held for them, whatever they asked
            del holds[mine.slot]
            return intent.model_copy(update={"slot": mine.slot})
        if self.approval and not approved and user.id != state.created_by:
            if user.id not in self.requests and len(self.requests) >= MAX_REQUESTS:
                raise Refused("busy", "too many seat requests wait for the creator: try again later")
            self.requests[user.id] = (user, intent)
            return None
        if intent.slot is not None:
            if intent.slot in holds:
                raise Refused("illegal", f"place {intent.slot} is held for {holds[intent.slot].name}")
            return intent
        free = next((i for i, s in enumerate(state.slots) if not s.taken and i not in holds), None)
        if free is None:
            raise Refused("illegal", "every free place is held for an invited player" if holds else "the table is full")
        return intent.model_copy(update={"slot": free})
