"""A table's chat (issue #37): who may say what in which room, and the table's own lines.

Two rooms, as lichess keeps them apart: the **players' room** is read and written by the
accounts that hold a place at the table, the **spectators' room** by everyone else who
follows it.  Neither reads the other while the table runs — spectators cannot whisper the
cards they see to a player, and the players' talk stays theirs.  Afterwards the replay shows
the spectators' room to anyone and the players' room only to those who held a place
(transport/apichat.py).  **System lines** (a join, a leave, a bust, a rematch offer) go to
both rooms.  Bots never chat.

A line is not an entry of the table's log: it is stored beside the table
(storage/chat.py), so no record or export ever holds one.  The actor (table/actor.py)
asks :meth:`TableChat.say` and sends the line to the audience of its room
(:func:`audience`); a worker of a cluster publishes it with that audience
(cluster/workertable.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.rules.events import Eliminated
from freezeout.server.chattext import ChatRefused, clean_chat
from freezeout.server.entries import LogEntry, RematchEntry, SitEntry, StandEntry
from freezeout.server.settings import Settings
from freezeout.server.storage.chat import Chat as ChatStore
from freezeout.server.storage.users import UserRow
from freezeout.server.table.state import Refused, TableState

__all__ = ["TableChat", "audience", "players_of", "room_of", "system_news"]

log = logging.getLogger(__name__)


def players_of(state: TableState) -> frozenset[int]:
    """The accounts (not bots) that hold a place at the table: the players' room."""
    return frozenset(s.user_id for s in state.slots if s.taken and s.kind != "bot" and s.user_id is not None)


def room_of(state: TableState, user: UserRow) -> str:
    return "players" if user.id in players_of(state) else "spectators"


def audience(room: str, players: frozenset[int], user_id: int | None, muted: frozenset[int] = frozenset()) -> bool:
    """Whether a follower (``user_id``, None before log-in) reads a line of ``room``; ``muted``:
    the accounts that muted the line's author, who are not sent it (mutes are per account,
    stored: the server filters, whatever client reads the socket)."""
    if user_id is not None and user_id in muted:
        return False
    if room == "system":
        return True
    is_player = user_id is not None and user_id in players
    return is_player if room == "players" else not is_player


def system_news(old: TableState, new: TableState, entry: LogEntry, events: Sequence[Any]) -> list[tuple[str, int | None, str]]:
    """The system lines an entry makes: (what, account, shown name) — a place taken (join),
    a place left (leave), a player out of the game (bust), a rematch offer (rematch)."""
    body = entry.body
    news: list[tuple[str, int | None, str]] = []
    if isinstance(body, SitEntry) and body.player.name is not None:
        news.append(("join", body.player.user_id, body.player.name))
    elif isinstance(body, StandEntry) and body.slot < len(old.slots) and old.slots[body.slot].name is not None:
        slot = old.slots[body.slot]
        news.append(("leave", slot.user_id, str(slot.name)))
    elif isinstance(body, RematchEntry) and body.seat < len(new.seat_slots):
        slot = new.seat_slot(body.seat)
        news.append(("rematch", slot.user_id, str(slot.name)))
    for event in events:
        if isinstance(event, Eliminated) and event.seat < len(new.seat_slots):
            slot = new.seat_slot(event.seat)
            news.append(("bust", slot.user_id, str(slot.name)))
    return news


class TableChat:
    """The chat of one table: its store is opened on the table log's engine when first used."""

    def __init__(self, engine: AsyncEngine | None, settings: Settings) -> None:
        self.store = ChatStore(engine) if engine is not None else None
        self.settings = settings

    async def say(self, state: TableState, user: UserRow | None, text: str, now: float) -> dict[str, Any]:
        """Store ``user``'s line in its room and return it as sent; :class:`Refused` with a
        clear code (a guestless connection, a bot, bad text, a ban, the rate)."""
        if user is None:
            raise Refused("unauthorized", "log in or play as a guest to chat")
        if user.kind == "bot":
            raise Refused("forbidden", "bots do not chat")
        if self.store is None:
            raise Refused("storage", "this table keeps no chat")
        try:
            clean = clean_chat(text)
            settings = self.settings
            return await self.store.post(state.id, room_of(state, user), user, clean, now,
                                         limit=settings.chat_messages_per_window, window=settings.chat_window_seconds)
        except ChatRefused as refusal:
            raise Refused(refusal.code, refusal.message) from None

    async def muted_by(self, author: UserRow | None) -> frozenset[int]:
        """The accounts that muted ``author`` (read at each line: a mute made a moment ago, on any
        server, counts at once); a database that refuses leaves the filter to the page."""
        if self.store is None or author is None:
            return frozenset()
        try:
            return await self.store.muters(author.id)
        except Exception:
            log.warning("could not read who muted account %s", author.id, exc_info=True)
            return frozenset()

    async def system(self, state: TableState, news: list[tuple[str, int | None, str]], now: float) -> list[dict[str, Any]]:
        """Store the system lines; a database that refuses loses the line, never the table's step."""
        if self.store is None or not news:
            return []
        lines = []
        for what, user_id, name in news:
            try:
                lines.append(await self.store.system(state.id, what, user_id, name, now))
            except Exception:
                log.warning("table %s: could not store a system chat line", state.id, exc_info=True)
        return lines
