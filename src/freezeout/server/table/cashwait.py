"""A cash table's waiting list (C13) and when it breaks (C14), wired into the cash game's fold.

The decisions are the rules' (``rules/waitlist.py``, ``rules/breaking.py``); this module keeps
their values in the cash game (:class:`Waitlist` in ``CashGame.waitlist``, the time the table
began to lack two players in ``CashGame.short_since``) and says how each log entry changes
them, so a table rebuilt from its log (a restart, a new owner in a cluster) has the same list,
the same offers with the same deadlines, and the same break clock:

* a ``waitlist`` entry (server/entries.py) joins, leaves, declines, or — the table's own step
  when an offer's time has run out (table/timers.py) — passes lapsed offers on;
* the entry that frees a seat (a ``stand`` between hands, the hand's end for a player who was
  leaving) offers it to the first in line (C13) at that entry's time;
* a ``sit`` at a seat offered to someone is that player's only, and takes them off the list;
  anyone else's ``sit`` there is refused; a player on the list who sits elsewhere at the table
  leaves the list;
* every cash entry notes whether two players can play (C14's clock; only a table that has
  dealt a hand can break: a new table is waiting for its players, not breaking).

Players on the list are known by their account (the key is the account id as text); the name
shown is kept beside it for the views.  Pure: the time comes from the entries.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from freezeout.rules.breaking import BREAK_AFTER, short_since, table_broken
from freezeout.rules.errors import RulesError
from freezeout.rules.waitlist import (
    Joined,
    Left,
    Offered,
    OfferLapsed,
    SeatTakenFromList,
    WaitingList,
    WaitlistEvent,
)
from freezeout.server.table.commands import Refused
from freezeout.server.table.tableevents import TableEvent, WaitlistNews

if TYPE_CHECKING:
    from freezeout.server.entries import WaitlistEntry
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.state import TableState

__all__ = ["Waitlist", "break_due", "fold_waitlist", "held_seats", "is_full", "lapse_at", "note_short", "on_sit",
           "seat_freed", "waitlist_json"]


@dataclass(frozen=True, slots=True)
class Waitlist:
    """The rules' list (keys: account ids as text), the names shown, and who joined it with
    "first available" (``anywhere``: the room takes them off the others once seated)."""

    line: WaitingList = WaitingList()  # noqa: RUF009 (frozen)
    names: tuple[tuple[str, str], ...] = ()
    anywhere: frozenset[str] = frozenset()

    def name_of(self, key: str) -> str:
        return next((name for k, name in self.names if k == key), key)

    def kept(self, line: WaitingList) -> Waitlist:
        """The list ``line``, with names and flags of the players still on it only."""
        on = set(line.queue)
        return Waitlist(line, tuple((k, n) for k, n in self.names if k in on), frozenset(self.anywhere & on))


def is_full(game: CashGame) -> bool:
    """C13: a table keeps a list when every seat is taken or held for someone on it."""
    offered = set(game.waitlist.line.offered_seats)
    return all(held is not None or index in offered for index, held in enumerate(game.table.seats))


def _told(waitlist: Waitlist, events: list[WaitlistEvent]) -> list[TableEvent]:
    """The list's events as the table tells them (docs/protocol.md "Waiting list")."""
    out: list[TableEvent] = []
    for event in events:
        user, name = int(event.player), waitlist.name_of(event.player)
        match event:
            case Joined(_, place):
                out.append(WaitlistNews(user, name, "joined", place=place))
            case Left():
                out.append(WaitlistNews(user, name, "left"))
            case Offered(_, seat, until):
                out.append(WaitlistNews(user, name, "offered", seat=seat, until=until))
            case OfferLapsed(_, seat):
                out.append(WaitlistNews(user, name, "lapsed", seat=seat))
            case SeatTakenFromList(_, seat):
                out.append(WaitlistNews(user, name, "seated", seat=seat))
    return out


def fold_waitlist(state: TableState, game: CashGame, body: WaitlistEntry, at: float) -> tuple[CashGame, list[TableEvent]]:
    """A ``waitlist`` entry applied (C13); :class:`~.state.Refused` (nothing changed) says why not.
    It moves no chips: the last transition's cash-outs and rake are not this entry's."""
    game = game._with(game.table)
    waitlist = game.waitlist
    line = waitlist.line
    if body.request == "lapse":
        line, events = line.expire(at)
        if not events:
            raise Refused("illegal", "no offer from the waiting list has run out")
        return replace(game, waitlist=waitlist.kept(line)), _told(waitlist, events)
    if body.user is None:
        raise Refused("bad_message", "a waiting-list request names its account")
    key = str(body.user)
    try:
        if body.request == "join":
            if state.private and body.moved:
                raise Refused("illegal", "a private table takes players by invitation only, not by a move (C14)")
            line, events = line.join(key, table_full=is_full(game), seated=state.slot_of_user(body.user) is not None,
                                     moved=body.moved)
            waitlist = Waitlist(waitlist.line, (*waitlist.names, (key, body.name or key)),
                                waitlist.anywhere | {key} if body.anywhere else waitlist.anywhere)
        elif body.request == "leave":
            line, events = line.leave(key, at)
        else:  # decline
            line, events = line.decline(key, at)
    except RulesError as error:
        raise Refused("illegal", str(error)) from None
    return replace(game, waitlist=waitlist.kept(line)), _told(waitlist, events)


def seat_freed(game: CashGame, seat: int, at: float) -> tuple[CashGame, list[TableEvent]]:
    """C13: ``seat`` freed at ``at``: offered to the first in line without an offer (none: free for anyone)."""
    line, events = game.waitlist.line.seat_freed(seat, at)
    if not events:
        return game, []
    return replace(game, waitlist=game.waitlist.kept(line)), _told(game.waitlist, events)


def on_sit(game: CashGame, seat: int, account: int | None, at: float) -> tuple[CashGame, list[TableEvent]]:
    """A ``sit`` at ``seat`` by ``account``: a seat held for someone on the list is theirs only
    (C13: they take it, in time, and leave the list); anyone on the list sitting at another
    seat of this table leaves the list."""
    waitlist = game.waitlist
    line = waitlist.line
    key = str(account) if account is not None else None
    holder = next((offer for offer in line.offers if offer.seat == seat), None)
    try:
        if holder is not None:
            if key != holder.player:
                raise Refused("illegal", f"seat {seat + 1} is held for {waitlist.name_of(holder.player)} from the "
                                          f"waiting list until {holder.until:.0f} (C13)")
            line, _, events = line.accept(key, at)
        elif key is not None and line.place(key) is not None:
            line, events = line.leave(key, at)
        else:
            return game, []
    except RulesError as error:
        raise Refused("illegal", str(error)) from None
    return replace(game, waitlist=waitlist.kept(line)), _told(waitlist, events)


def held_seats(game: CashGame, account: int) -> tuple[frozenset[int], int | None]:
    """The seats held for others on the list, and the one offered to ``account`` (or None)."""
    key = str(account)
    offers = game.waitlist.line.offers
    return (frozenset(o.seat for o in offers if o.player != key),
            next((o.seat for o in offers if o.player == key), None))


def lapse_at(game: CashGame) -> float | None:
    """When the first offer now held runs out (the table's ``lapse`` step), or None."""
    offers = game.waitlist.line.offers
    return min(offer.until for offer in offers) if offers else None


def players_able(game: CashGame) -> int:
    """C14: the players who can play: seated with chips and not sitting out."""
    return sum(1 for seat, alive in zip(game.table.seats, game.alive, strict=True)
               if alive and seat is not None and seat.stack > 0)


def note_short(game: CashGame, at: float) -> CashGame:
    """C14's clock after an entry at ``at``: since when the table lacks two players who can play
    (None while two can, and at a table that has not dealt a hand yet)."""
    since = short_since(players_able(game), game.short_since, at) if game.hand_number >= 1 else None
    return game if since == game.short_since else replace(game, short_since=since)


def break_due(game: CashGame, now: float, after: float = BREAK_AFTER) -> bool:
    """C14: the table has lacked two players who can play for ``after`` seconds, between hands."""
    return not game.in_hand and table_broken(game.short_since, now, after)


def waitlist_json(game: CashGame) -> dict[str, Any]:
    """The list as the lobby and the table's views say it (docs/protocol.md "Waiting list"):
    each player in order with their place, the seats offered with until when, whether the
    table is full (a list can be joined), and C14's ``short_since``."""
    waitlist = game.waitlist
    line = waitlist.line
    return {
        "full": is_full(game),
        "players": [{"user": int(key), "name": waitlist.name_of(key), "place": index + 1,
                     "anywhere": key in waitlist.anywhere, "moved": index < line.moved}
                    for index, key in enumerate(line.queue)],
        "offers": [{"user": int(o.player), "name": waitlist.name_of(o.player), "seat": o.seat, "until": o.until}
                   for o in line.offers],
        "offer_seconds": line.offer_seconds,
    }
