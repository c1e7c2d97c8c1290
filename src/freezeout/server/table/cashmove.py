"""The room's side of the waiting lists (C13 "first available") and of broken tables (C14).

What spans tables is done by the room through the tables' own doors — the intents a
player could send (``waitlist_join``, ``waitlist_leave``, ``move_out``, ``move_in``), each
handed to the table's handle (``room.get(id).request``) — so it runs the same way in one
process (the room's actors) and in a cluster (a gateway routes each to the table's owner),
and every change is an entry in the table's own log.  What the room reads is the lobby's
summaries (``table/cashlobby.py`` ``cash_fields``: the options a move must match, whether
the table is public, its waiting list, since when it lacks two players).

* :func:`first_available`: one join for every public table of a game and stakes: the
  player joins the list of each such table that is full (``anywhere``), and is told which
  have a free seat now.
* :func:`tend` (every few seconds): a player seated at one table of a kind leaves the
  "first available" lists of the others (the first seat taken anywhere wins); a table that
  broke (C14: fewer than two players who can play for ``BREAK_AFTER``) moves its players
  with their chips to public tables of the same kind with free seats (``plan_break``): its
  ``move_out`` takes the chips off it (a ``stand`` naming the other table, a ``cash_out``
  row), the other table's ``move_in`` seats them with exactly those chips (a ``sit``, a
  ``buy_in`` row filed as ``move:<table>.<seq>``, once).  A player for whom no seat is free
  stays seated where they are, and is moved when one frees.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from freezeout.rules.breaking import BREAK_AFTER, Mover, OpenTable, plan_break
from freezeout.rules.errors import RulesError
from freezeout.server.gamespec import GameRefused, GameSpec
from freezeout.server.storage.users import UserRow
from freezeout.server.table.cash import cash_config
from freezeout.server.table.commands import Intent, MoveIn, MoveOut, WaitlistJoin, WaitlistLeave
from freezeout.server.table.state import Refused

__all__ = ["TEND_SECONDS", "first_available", "leave_every_list", "leave_first_available", "leave_lists", "tend"]

log = logging.getLogger(__name__)

TEND_SECONDS = 2.0  # how often the room tends the lists and the broken tables

def _cash_tables(room: Any) -> list[dict[str, Any]]:
    """Every open cash table's summary, as the room lists them."""
    tables: list[dict[str, Any]] = []
    after: str | None = None
    while True:
        page, after = room.listing(None, limit=200, after=after, format="cash")
        tables.extend(t for t in page if t.get("status") != "closed" and "waitlist" in t)
        if after is None:
            return tables


def _kind(summary: dict[str, Any]) -> str:
    """C14: what two tables must share for a move or one "first available" join (game and options)."""
    return orjson.dumps(summary.get("options"), option=orjson.OPT_SORT_KEYS).decode()


def _player(user_id: int, name: str) -> UserRow:
    """The account a request on a player's behalf is made as (the name shown at the table)."""
    return UserRow(user_id, name, "user", None, 0.0, 0)


def _seated(summary: dict[str, Any], user_id: int) -> bool:
    return any(slot["user"] is not None and slot["user"]["id"] == user_id and slot["user"]["kind"] != "bot"
               for slot in summary["slots"])


def _listed(summary: dict[str, Any], user_id: int) -> dict[str, Any] | None:
    return next((p for p in summary["waitlist"]["players"] if p["user"] == user_id), None)


async def _ask(room: Any, table_id: str, user: UserRow, intent: Intent) -> dict[str, Any] | None:
    """The table's summary after ``intent``, or None when the table refused it (logged)."""
    try:
        summary: dict[str, Any] = await room.get(table_id).request(user, intent)
    except Refused as refusal:
        log.info("table %s refused %s for %s: %s", table_id, intent.type, user.id, refusal.message)
        return None
    return summary


async def first_available(room: Any, user: UserRow, table_id: str) -> dict[str, Any]:
    """C13 "first available": ``user`` waits for a seat at every public table of the game and
    stakes of ``table_id``: joined to the list of each full one; ``free``: those with a seat now."""
    if user.kind != "user":
        raise Refused("forbidden", "play chips belong to an account: log in to wait for a seat at a cash table")
    summary = await room.summary(table_id)
    if "waitlist" not in summary:
        raise Refused("illegal", "a waiting list is a cash table's (C13)")
    if not summary.get("public", True):
        raise Refused("illegal", "first available joins public tables; this one is by invitation")
    kind = _kind(summary)
    tables = [t for t in _cash_tables(room) if _kind(t) == kind and t.get("public", True)]
    sitting = next((t["id"] for t in tables if _seated(t, user.id)), None)
    if sitting is not None:  # the first seat taken anywhere ends the others' lists (tend): one is taken
        raise Refused("illegal", f"you sit at table {sitting} of this game and stakes already: first available "
                                 "is for a player without a seat at them")
    joined: list[str] = []
    free: list[str] = []
    for table in tables:
        if not table["waitlist"]["full"]:
            free.append(table["id"])
        elif _listed(table, user.id) is not None or await _ask(room, table["id"], user, WaitlistJoin(type="waitlist_join", anywhere=True)) is not None:
            joined.append(table["id"])
    if not joined and not free:
        raise Refused("illegal", "no public table of this game and stakes has a list to join or a free seat")
    return {"joined": joined, "free": free}


async def leave_first_available(room: Any, user: UserRow, table_id: str) -> dict[str, Any]:
    """Leave every list of the game and stakes of ``table_id`` that ``user`` is on."""
    kind = _kind(await room.summary(table_id))
    left = []
    for table in _cash_tables(room):
        if (_kind(table) == kind and _listed(table, user.id) is not None
                and await _ask(room, table["id"], user, WaitlistLeave(type="waitlist_leave")) is not None):
            left.append(table["id"])
    if not left:
        raise Refused("illegal", f"{user.shown} is not on the waiting list of any table of this game and stakes")
    return {"left": left}


async def tend(room: Any, now: float) -> None:
    """One round of the room's care (module docstring): first-available players seated somewhere
    leave the other lists of that kind; broken tables' players move."""
    tables = _cash_tables(room)
    broken = {t["id"]: t for t in tables if t.get("short_since") is not None and now - t["short_since"] >= BREAK_AFTER}
    seated: set[tuple[int, str]] = set()  # (account, kind) of every player seated at a table that plays on
    for table in tables:
        for slot in table["slots"]:
            if slot["user"] is not None and slot["user"]["kind"] == "user" and table["id"] not in broken:
                seated.add((slot["user"]["id"], _kind(table)))
    for table in tables:
        for player in table["waitlist"]["players"]:
            if player["anywhere"] and (player["user"], _kind(table)) in seated:
                await _ask(room, table["id"], _player(player["user"], player["name"]), WaitlistLeave(type="waitlist_leave"))
    for table in tables:  # C14: a seat offered to a moved player: they move there with their chips
        for offer in table["waitlist"]["offers"]:
            mover = _listed(table, offer["user"])
            source = next((s for s in broken.values() if _seated(s, offer["user"])), None)
            if mover is None or not mover["moved"]:
                continue
            user = _player(offer["user"], offer["name"])
            if source is None:  # their table plays on (or they left it): the seat passes on
                await _ask(room, table["id"], user, WaitlistLeave(type="waitlist_leave"))
            else:
                await _move(room, user, source["id"], table["id"], None)
    for table in broken.values():
        await _break(room, table, tables)


def _open_table(summary: dict[str, Any]) -> OpenTable | None:
    try:
        config = cash_config(GameSpec.from_json(summary["options"]), summary["size"], 0)
    except (GameRefused, RulesError, KeyError, TypeError, ValueError):
        return None
    offered = {offer["seat"] for offer in summary["waitlist"]["offers"]}
    free = tuple(slot["slot"] for slot in summary["slots"] if slot["user"] is None and slot["slot"] not in offered)
    return OpenTable(summary["id"], config, private=not summary.get("public", True), free_seats=free)


async def _break(room: Any, broken: dict[str, Any], tables: list[dict[str, Any]]) -> None:
    """C14: move the broken table's players (humans; bots leave by their own rule) to the
    fullest public tables of its kind with free seats, each with every chip they have."""
    source = _open_table(broken)
    if source is None:
        return
    movers = [Mover(str(slot["user"]["id"]), 0) for slot in broken["slots"]
              if slot["user"] is not None and slot["user"]["kind"] == "user"]
    names = {slot["user"]["id"]: slot["user"]["name"] for slot in broken["slots"] if slot["user"] is not None}
    targets = [t for t in (_open_table(s) for s in tables if _kind(s) == _kind(broken)) if t is not None]
    plan = plan_break(source, movers, targets)
    for mover in plan.waiting:  # no seat free: first in line (after earlier movers) at every full table of the kind
        user = _player(int(mover.player), names.get(int(mover.player), mover.player))
        for table in tables:
            if (_kind(table) == _kind(broken) and table["id"] != broken["id"] and table.get("public", True)
                    and table["waitlist"]["full"] and _listed(table, user.id) is None):
                await _ask(room, table["id"], user, WaitlistJoin(type="waitlist_join", anywhere=True,
                                                                 moved_from=broken["id"]))
    for move in plan.moves:
        user = _player(int(move.player), names.get(int(move.player), str(move.player)))
        await _move(room, user, broken["id"], move.table, move.seat)


async def _move(room: Any, user: UserRow, source: str, target: str, seat: int | None) -> bool:
    """C14: ``user`` leaves broken table ``source`` with every chip and sits at ``target`` (at
    ``seat``, else the seat held for them or the first free); False when ``source`` refused."""
    out = await _ask(room, source, user, MoveOut(type="move_out", to=target))
    if out is None:
        return False
    seq = int(out["version"])  # the ``stand`` entry that took the chips off (the answer follows it at once)
    if await _ask(room, target, user, MoveIn(type="move_in", source=source, seq=seq, slot=seat)) is None \
            and (seat is None or await _ask(room, target, user, MoveIn(type="move_in", source=source, seq=seq)) is None):
        log.warning("C14: %s left broken table %s for %s but could not sit there: the chips are on their balance",
                    user.id, source, target)
    return True


async def leave_every_list(room: Any, user_id: int) -> list[str]:
    """C13: "leaving the list or the room drops the place": the account logged out (or its last
    session expired), so it leaves every waiting list it is on — a table's own, "first
    available", a private table's — and any seat offered to it passes to the next in line.
    Returns the tables it left."""
    left: list[str] = []
    after: str | None = None
    while True:
        page, after = room.listing(None, limit=200, after=after, format="cash", private=True)
        for table in page:
            player = _listed(table, user_id) if "waitlist" in table else None
            if player is not None and await _ask(room, table["id"], _player(user_id, player["name"]),
                                                 WaitlistLeave(type="waitlist_leave")) is not None:
                left.append(table["id"])
        if after is None:
            return left


async def leave_lists(room: Any, user_id: int) -> None:
    """:func:`leave_every_list` for a log-out or an expired session: a table that cannot be
    asked now is logged, never the log-out's failure (the offer lapses by itself, C13)."""
    try:
        await leave_every_list(room, user_id)
    except Exception:
        log.warning("C13: could not take account %s off its waiting lists", user_id, exc_info=True)
