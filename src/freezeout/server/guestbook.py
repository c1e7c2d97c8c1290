"""A private table's guest list as its log keeps it (issue #37): the places its creator holds for
named accounts, whether they approve each seat, and the seat requests waiting for them.

Each change is a ``guests`` entry (:class:`GuestEntry`) in the table's log and the list is the
fold of them (:meth:`GuestBook.after`, called by table/state.py), so a restart or a cluster's
new owner of the table rebuilds it as it was: a hold keeps its end (``until``, a time written
in the entry, not read from a clock), a request waits on.  The ``sit`` of an account takes its
hold and its request (:meth:`GuestBook.seated`).  What a creator's request writes, and why one
is refused, is table/guestlist.py's; this module only remembers.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

__all__ = ["GuestBook", "GuestEntry", "Hold", "SeatRequest"]


@dataclass(frozen=True, slots=True)
class GuestEntry:
    """A private table's guest list changes: its creator holds a place for an account (``hold``:
    ``user``, ``name``, ``slot``, ``until``) or lets it go (``release``: ``slot``), or turns the
    approval of seats on or off (``approval``: ``on``); a seat request waits for the creator
    (``request``: ``user``, ``name``, the account's kind ``as`` and the ``seat`` it asked, a
    ``sit`` or ``buy_in`` as the client sent it) or is refused (``refuse``: ``user``)."""

    kind: ClassVar[str] = "guests"
    op: str
    user: int | None = None
    name: str | None = None
    slot: int | None = None
    until: float | None = None
    on: bool | None = None
    account: str | None = None  # a request's account kind (``user``, ``guest``)
    seat: Mapping[str, Any] | None = None

    OPS: ClassVar[tuple[str, ...]] = ("hold", "release", "approval", "request", "refuse")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"op": self.op}
        for key, value in (("user", self.user), ("name", self.name), ("slot", self.slot), ("until", self.until),
                           ("on", self.on), ("as", self.account)):
            if value is not None:
                data[key] = value
        if self.seat is not None:
            data["seat"] = dict(self.seat)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GuestEntry:
        user, slot, until, on, seat = data.get("user"), data.get("slot"), data.get("until"), data.get("on"), data.get("seat")
        name, account = data.get("name"), data.get("as")
        return cls(str(data["op"]), int(user) if user is not None else None, str(name) if name is not None else None,
                   int(slot) if slot is not None else None, float(until) if until is not None else None,
                   bool(on) if on is not None else None, str(account) if account is not None else None,
                   dict(seat) if seat is not None else None)


@dataclass(frozen=True, slots=True)
class Hold:
    user_id: int
    name: str
    slot: int
    until: float


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A seat asked for while the creator approves each: who (by account) and what they asked."""

    user_id: int
    name: str
    account: str
    seat: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GuestBook:
    approval: bool = False
    holds: tuple[Hold, ...] = ()
    requests: tuple[SeatRequest, ...] = ()

    def live(self, now: float) -> tuple[Hold, ...]:
        """The holds still running at ``now`` (one past its time has let its place go)."""
        return tuple(hold for hold in self.holds if hold.until > now)

    def held_slots(self, now: float) -> frozenset[int]:
        return frozenset(hold.slot for hold in self.holds if hold.until > now)

    def held_for(self, user_id: int, now: float) -> Hold | None:
        return next((hold for hold in self.live(now) if hold.user_id == user_id), None)

    def request_of(self, user_id: int) -> SeatRequest | None:
        return next((request for request in self.requests if request.user_id == user_id), None)

    def view(self, now: float) -> dict[str, Any]:
        """What the creator is shown (``guests``)."""
        return {"approval": self.approval,
                "holds": [{"slot": h.slot, "name": h.name, "until": h.until} for h in sorted(self.live(now), key=lambda h: h.slot)],
                "requests": [{"user_id": r.user_id, "name": r.name} for r in self.requests]}

    # -- the fold ------------------------------------------------------------------
    def after(self, body: GuestEntry, at: float) -> GuestBook:
        """The list after ``body`` (written at ``at``); :class:`ValueError` for a change no table writes."""
        holds = self.live(at)
        if body.op == "hold" and body.user is not None and body.slot is not None and body.until is not None:
            kept = tuple(h for h in holds if h.user_id != body.user and h.slot != body.slot)
            hold = Hold(body.user, body.name or "", body.slot, body.until)
            return replace(self, holds=(*kept, hold), requests=self._without(body.user))
        if body.op == "release" and body.slot is not None:
            return replace(self, holds=tuple(h for h in holds if h.slot != body.slot))
        if body.op == "approval" and body.on is not None:
            return replace(self, approval=body.on, holds=holds)
        if body.op == "request" and body.user is not None and body.seat is not None:
            request = SeatRequest(body.user, body.name or "", body.account or "user", body.seat)
            return replace(self, holds=holds, requests=(*self._without(body.user), request))
        if body.op == "refuse" and body.user is not None:
            return replace(self, holds=holds, requests=self._without(body.user))
        raise ValueError(f"unknown guest-list change {body.op!r}")

    def seated(self, user_id: int | None) -> GuestBook:
        """The account took a place: its hold and its request are answered."""
        if user_id is None or (not any(h.user_id == user_id for h in self.holds) and self.request_of(user_id) is None):
            return self
        return replace(self, holds=tuple(h for h in self.holds if h.user_id != user_id), requests=self._without(user_id))

    def _without(self, user_id: int) -> tuple[SeatRequest, ...]:
        return tuple(request for request in self.requests if request.user_id != user_id)
