"""A private table's creator at work (issue #37): renew the invite link, hold places for named
accounts, turn approval of seats on or off and answer the requests, remove a player before a
freezeout starts.  Each runs in the table's turn (``TableActor.in_turn``), so it sees the table
as the next command would; each answers what the creator is shown (``guests``, and the new
link after a renewal).  Only the creator may: the room checks who asks (table/room.py)."""

from __future__ import annotations

from typing import Any

from freezeout.server.entries import GuestEntry, InviteEntry, StandEntry
from freezeout.server.storage.store import UserRow
from freezeout.server.table import guestlist
from freezeout.server.table.actor import TableActor
from freezeout.server.table.intents import entry_for
from freezeout.server.table.notices import error_text
from freezeout.server.table.privacy import new_secret
from freezeout.server.table.state import Refused

__all__ = ["OPS", "answer", "remove", "renew", "reserve", "run", "set_approval", "unreserve"]

OPS = ("guests", "renew", "reserve", "unreserve", "approval", "answer", "remove")


async def run(actor: TableActor, user: UserRow, op: str, args: dict[str, Any]) -> dict[str, Any]:
    """The creator's request ``op`` (one of :data:`OPS`) with its ``args``, in the table's turn;
    only the creator of a private table may (anyone else: as if there were no such table, or
    ``forbidden`` for one who may see it).  The room runs it here, a cluster's worker for a
    gateway (cluster/worker.py)."""
    state = actor.state
    if not state.private:
        raise Refused("not_found", f"no table {state.id!r}")
    if state.created_by != user.id:
        raise Refused("forbidden", "only the table's creator shares its link and chooses who sits")

    async def job() -> dict[str, Any]:
        if op == "guests":  # read only: what the creator is shown
            return {"guests": actor.state.guests.view(actor.clock.now())}
        if op == "renew":
            return await renew(actor)
        if op == "reserve":
            return await reserve(actor, args["guest"], args.get("slot"), args.get("seconds"))
        if op == "unreserve":
            return await unreserve(actor, int(args["slot"]))
        if op == "approval":
            return await set_approval(actor, bool(args["on"]))
        if op == "answer":
            return await answer(actor, int(args["user_id"]), bool(args["approve"]))
        if op == "remove":
            return await remove(actor, int(args["slot"]))
        raise Refused("bad_message", f"unknown request {op!r}")

    return await actor.in_turn(job)


def _shown(actor: TableActor, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    actor.tell_guests()
    return {"guests": actor.state.guests.view(actor.clock.now()), **(extra or {})}


async def renew(actor: TableActor) -> dict[str, Any]:
    """A new secret (an ``invite`` entry): every older link stops at once, and whoever only
    watched by it follows the table no more."""
    secret = new_secret()
    await actor.write(InviteEntry(secret), actor.clock.now())
    actor.evict_guests()
    return _shown(actor, {"secret": secret})


async def reserve(actor: TableActor, user: UserRow, slot: int | None, seconds: float | None) -> dict[str, Any]:
    now = actor.clock.now()
    await actor.write(guestlist.reserve(actor.state, user, slot, seconds, now), now)
    return _shown(actor)


async def unreserve(actor: TableActor, slot: int) -> dict[str, Any]:
    now = actor.clock.now()
    await actor.write(guestlist.release(actor.state, slot, now), now)
    return _shown(actor)


async def set_approval(actor: TableActor, on: bool) -> dict[str, Any]:
    if actor.state.guests.approval != on:
        await actor.write(GuestEntry("approval", on=on), actor.clock.now())
    return _shown(actor)


async def answer(actor: TableActor, user_id: int, approve: bool) -> dict[str, Any]:
    """A waiting seat request approved (the place is taken as the player asked it, if it can
    still be) or refused (the player is told)."""
    user, intent = guestlist.requester(guestlist.waiting(actor.state, user_id))
    now = actor.clock.now()
    if approve:  # the ``sit`` answers the request (server/guestbook.py)
        admitted = guestlist.admit(actor.state, user, intent, now, approved=True)
        assert not isinstance(admitted, GuestEntry)
        await actor.write(entry_for(actor.state, user, admitted, now, actor.settings, actor.online), now)
    else:
        await actor.write(GuestEntry("refuse", user_id), now)
        text = error_text("refused", "the table's creator did not give you a place", None, actor.state.version)
        for conn in list(actor.conns):
            if conn.user is not None and conn.user.id == user_id:
                conn.send(text)
    return _shown(actor)


async def remove(actor: TableActor, slot: int) -> dict[str, Any]:
    """A player taken off a freezeout's place before it starts (its place is free again)."""
    state = actor.state
    if state.table_game is not None:  # a cash table's game runs from its opening: its players leave themselves
        raise Refused("illegal", "the game has started: nobody is removed from it")
    if not 0 <= slot < state.size or not state.slots[slot].taken or state.slots[slot].kind == "bot":
        raise Refused("illegal", f"place {slot} has no player to remove")
    removed = state.slots[slot].user_id
    await actor.write(StandEntry(slot), actor.clock.now())
    if removed is not None:  # they see the table again only by the link (a new one, if the creator renews it)
        actor.members.discard(removed)
    return _shown(actor)
