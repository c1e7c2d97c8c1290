"""A full cash table's waiting list (C13), as a frozen value.

Players join in order; when a seat frees, the first player in line who
has no offer yet is offered it until a time (60 seconds by default); an
offer not taken in time lapses — that player loses their place — and the
seat goes to the next in line.  Leaving the list (or the room) drops the
place, and an offer the player held passes on.  A player may join the list
of every table of a game and stakes ("first available", C13 as card rooms
offer it): taking a seat anywhere drops them from every list
(:func:`drop_everywhere`).

Pure: the caller passes in the time (``now``, seconds on any clock it
likes); nothing here reads a clock.  Every change returns the new list and
the events it made, for the table's log; bad input raises and changes
nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from freezeout.rules.errors import IllegalAction, InvalidInput

__all__ = [
    "OFFER_SECONDS",
    "Joined",
    "Left",
    "Offer",
    "OfferLapsed",
    "Offered",
    "SeatTakenFromList",
    "WaitingList",
    "WaitlistEvent",
    "drop_everywhere",
]

#: C13: how long a freed seat is held for the player it is offered to.
OFFER_SECONDS: Final = 60.0


class Offer(NamedTuple):
    player: str
    seat: int
    until: float  # the offer lapses at this time


class Joined(NamedTuple):
    player: str
    place: int  # 1: first in line


class Left(NamedTuple):
    player: str


class Offered(NamedTuple):
    player: str
    seat: int
    until: float


class OfferLapsed(NamedTuple):
    player: str
    seat: int


class SeatTakenFromList(NamedTuple):
    player: str
    seat: int


WaitlistEvent = Joined | Left | Offered | OfferLapsed | SeatTakenFromList


@dataclass(frozen=True, slots=True)
class WaitingList:
    """C13: the players waiting for a seat at one table, in the order they
    joined, and the seats offered to them now."""

    queue: tuple[str, ...] = ()
    offers: tuple[Offer, ...] = ()
    offer_seconds: float = OFFER_SECONDS
    moved: int = 0  # C14: the first this many in line were moved from a broken table, ahead of the rest

    def __post_init__(self) -> None:
        if not self.offer_seconds > 0:
            raise InvalidInput(f"an offer lasts a positive number of seconds, got {self.offer_seconds!r}")

    # -- queries -----------------------------------------------------------
    def place(self, player: str) -> int | None:
        """The player's place in line (1: first), or None when not on the list."""
        return self.queue.index(player) + 1 if player in self.queue else None

    def offer_of(self, player: str) -> Offer | None:
        return next((offer for offer in self.offers if offer.player == player), None)

    @property
    def offered_seats(self) -> tuple[int, ...]:
        """The seats held for players on the list: nobody else may sit there."""
        return tuple(offer.seat for offer in self.offers)

    # -- transitions -------------------------------------------------------
    def join(self, player: str, *, table_full: bool, seated: bool = False,
             moved: bool = False) -> tuple[WaitingList, list[WaitlistEvent]]:
        """C13: ``player`` joins the end of the line.  Only a full table keeps
        a list (``table_full``: every seat taken or held); nobody joins twice,
        nor the list of a table they sit at.  ``moved``: a player whose table
        broke (C14) waits ahead of everyone who joined by choice, after the
        players moved before them."""
        if not player:
            raise InvalidInput("a player joins the waiting list by name")
        if seated:
            raise IllegalAction(f"{player} already sits at this table")
        if player in self.queue:
            raise IllegalAction(f"{player} is already on the waiting list (place {self.place(player)})")
        if not table_full:
            raise IllegalAction("the table has a free seat: sit down instead of joining its waiting list (C13)")
        if moved:
            queue = (*self.queue[:self.moved], player, *self.queue[self.moved:])
            waiting = replace(self, queue=queue, moved=self.moved + 1)
        else:
            waiting = replace(self, queue=(*self.queue, player))
        return waiting, [Joined(player, waiting.queue.index(player) + 1)]

    def leave(self, player: str, now: float) -> tuple[WaitingList, list[WaitlistEvent]]:
        """C13: ``player`` leaves the list (or the room) and drops their
        place; a seat they were offered goes to the next in line."""
        if player not in self.queue:
            raise IllegalAction(f"{player} is not on the waiting list")
        held = self.offer_of(player)
        waiting = replace(self._without(player), offers=tuple(o for o in self.offers if o.player != player))
        events: list[WaitlistEvent] = [Left(player)]
        if held is not None:
            waiting, more = waiting.seat_freed(held.seat, now)
            events.extend(more)
        return waiting, events

    def seat_freed(self, seat: int, now: float) -> tuple[WaitingList, list[WaitlistEvent]]:
        """C13: a seat frees: the first player in line without an offer is
        offered it until ``now`` plus the offer's time.  Nobody waiting:
        nothing happens (the seat is free for anyone)."""
        if seat < 0:
            raise InvalidInput(f"seat {seat} is not at the table")
        if seat in self.offered_seats:
            raise IllegalAction(f"seat {seat} is already offered to {next(o.player for o in self.offers if o.seat == seat)}")
        offered = {offer.player for offer in self.offers}
        player = next((p for p in self.queue if p not in offered), None)
        if player is None:
            return self, []
        offer = Offer(player, seat, now + self.offer_seconds)
        return replace(self, offers=(*self.offers, offer)), [Offered(*offer)]

    def expire(self, now: float) -> tuple[WaitingList, list[WaitlistEvent]]:
        """C13: every offer whose time has come lapses: its player loses their
        place, and the seat is offered to the next in line."""
        waiting: WaitingList = self
        events: list[WaitlistEvent] = []
        for offer in self.offers:
            if now < offer.until:
                continue
            waiting = replace(waiting._without(offer.player), offers=tuple(o for o in waiting.offers if o != offer))
            events.append(OfferLapsed(offer.player, offer.seat))
            waiting, more = waiting.seat_freed(offer.seat, now)
            events.extend(more)
        return waiting, events

    def accept(self, player: str, now: float) -> tuple[WaitingList, int, list[WaitlistEvent]]:
        """C13: ``player`` takes the seat offered to them, in time: they leave
        the list; returns the seat (the caller seats them with a buy-in)."""
        offer = self.offer_of(player)
        if offer is None:
            raise IllegalAction(f"{player} has no seat offered" + ("" if player in self.queue else " and is not on the waiting list"))
        if now >= offer.until:
            raise IllegalAction(f"the seat offered to {player} was held until {offer.until:g}; it has lapsed")
        waiting = replace(self._without(player), offers=tuple(o for o in self.offers if o != offer))
        return waiting, offer.seat, [SeatTakenFromList(player, offer.seat)]

    def _without(self, player: str) -> WaitingList:
        """The list with ``player`` out of the line (their offer stays for the caller to drop)."""
        index = self.queue.index(player)
        return replace(self, queue=(*self.queue[:index], *self.queue[index + 1:]),
                       moved=self.moved - 1 if index < self.moved else self.moved)

    def decline(self, player: str, now: float) -> tuple[WaitingList, list[WaitlistEvent]]:
        """C13: ``player`` turns the offered seat down: as leaving the list."""
        if self.offer_of(player) is None:
            raise IllegalAction(f"{player} has no seat offered")
        return self.leave(player, now)


def drop_everywhere(lists: Mapping[str, WaitingList], player: str, now: float,
                    keep: Iterable[str] = ()) -> tuple[dict[str, WaitingList], list[tuple[str, WaitlistEvent]]]:
    """C13 "first available": ``player`` took a seat (or left the room):
    they leave every list they are on (by table id) except those in
    ``keep``; offers they held pass on.  Returns the lists and each event
    with its table."""
    kept = set(keep)
    out: dict[str, WaitingList] = {}
    events: list[tuple[str, WaitlistEvent]] = []
    for table, waiting in lists.items():
        if table in kept or waiting.place(player) is None:
            out[table] = waiting
            continue
        out[table], made = waiting.leave(player, now)
        events.extend((table, event) for event in made)
    return out, events
