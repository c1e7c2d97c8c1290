"""A table's chat, mutes, reports, chat bans and notes on players (issue #37; migration 0010).

Chat lives beside a table, never in its log: ``chat_messages`` holds each table's
lines — the players' room, the spectators' room and the table's own system lines
(joins, leaves, busts, rematch offers) — for :data:`KEEP_DAYS` days (:meth:`Chat.purge`).
A record, a hand history or an export reads only the log, so it never holds a chat line.

The limits are checked here, in the transaction that writes, so they hold across the
processes of a cluster: a banned account's line is refused, and an account may write at
most ``limit`` lines in ``window`` seconds at all its tables together.  A report keeps a
copy of the line it reports (the purge does not erase what a moderator must read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.chattext import ChatRefused
from freezeout.server.storage.db import metadata, table_log, users
from freezeout.server.storage.users import UserRow, shown_name

__all__ = ["KEEP_DAYS", "ROOMS", "Chat", "Report", "chat_bans", "chat_messages", "chat_mutes", "chat_reports",
           "player_notes"]

KEEP_DAYS = 30
ROOMS = ("players", "spectators", "system")
REPORTS_PER_HOUR = 10  # a report flood is refused past this many an hour

chat_messages = Table(
    "chat_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("room", String(12), nullable=False),  # players | spectators | system
    Column("author_id", Integer, nullable=True),  # a system line: the account it is about
    Column("author", String(64), nullable=False),  # the author's shown name when written
    Column("text", String(400), nullable=False),  # a system line: what happened (join, leave, bust, rematch)
    Column("at", Float, nullable=False),
)
chat_mutes = Table(
    "chat_mutes", metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("muted_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("at", Float, nullable=False),
)
chat_reports = Table(
    "chat_reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("message_id", Integer, nullable=False),
    Column("author_id", Integer, nullable=True),
    Column("author", String(64), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("text", String(400), nullable=False),
    Column("said_at", Float, nullable=False),
    Column("at", Float, nullable=False),
)
chat_bans = Table(
    "chat_bans", metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("at", Float, nullable=False),
)
player_notes = Table(
    "player_notes", metadata,
    Column("author_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("subject_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("text", String(1000), nullable=False),
    Column("label", String(12), nullable=True),
    Column("at", Float, nullable=False),
)


def line_json(row: Any) -> dict[str, Any]:
    """A stored line as the ``chat`` message a client gets (docs/protocol.md "Chat")."""
    line: dict[str, Any] = {"type": "chat", "id": row.id, "room": row.room, "author": row.author,
                            "author_id": row.author_id, "at": row.at}
    if row.room == "system":
        line["system"] = row.text
        line["text"] = ""
    else:
        line["text"] = row.text
    return line


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    reporter: str
    reporter_id: int
    author: str
    author_id: int | None
    table_id: str
    text: str
    said_at: float
    at: float
    banned: bool


class Chat:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # -- lines -------------------------------------------------------------------------
    async def post(self, table_id: str, room: str, author: UserRow, text: str, now: float, *,
                   limit: int, window: float) -> dict[str, Any]:
        """Write ``author``'s line (already clean: chattext.clean_chat) and return it as sent,
        or :class:`ChatRefused`: the account is banned, or wrote ``limit`` lines in ``window`` s."""
        async with self.engine.begin() as conn:
            if (await conn.execute(select(chat_bans.c.user_id).where(chat_bans.c.user_id == author.id))).first():
                raise ChatRefused("banned", "your account may not chat (a moderator banned it)", 403)
            recent = (await conn.execute(select(func.count()).select_from(chat_messages).where(
                chat_messages.c.author_id == author.id, chat_messages.c.room != "system",
                chat_messages.c.at > now - window))).scalar_one()
            if recent >= limit:
                raise ChatRefused("rate_limited", f"at most {limit} chat messages in {window:g} seconds: wait a moment", 429)
            return await self._insert(conn, table_id, room, author.id, author.shown, text, now)

    async def system(self, table_id: str, what: str, user_id: int | None, name: str, now: float) -> dict[str, Any]:
        """A system line: ``what`` (join, leave, bust, rematch) happened to ``name``."""
        async with self.engine.begin() as conn:
            return await self._insert(conn, table_id, "system", user_id, name, what, now)

    @staticmethod
    async def _insert(conn: Any, table_id: str, room: str, author_id: int | None, author: str, text: str,
                      now: float) -> dict[str, Any]:
        values = {"table_id": table_id, "room": room, "author_id": author_id, "author": author[:64], "text": text,
                  "at": now}
        result = await conn.execute(insert(chat_messages).values(**values))
        return line_json(SimpleNamespace(id=int(result.inserted_primary_key[0]), **values))

    async def history(self, table_id: str, rooms: tuple[str, ...], *, hide: set[int] | frozenset[int] = frozenset(),
                      limit: int = 500) -> list[dict[str, Any]]:
        """The table's last ``limit`` lines of ``rooms``, oldest first, without the lines of
        the accounts in ``hide`` (the asker's mutes)."""
        query = (select(chat_messages).where(chat_messages.c.table_id == table_id, chat_messages.c.room.in_(rooms))
                 .order_by(chat_messages.c.id.desc()).limit(limit))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [line_json(r) for r in reversed(rows) if r.room == "system" or r.author_id not in hide]

    async def sat_at(self, table_id: str, user_id: int) -> bool:
        """Whether ``user_id`` ever held a place at the table (its log's ``create`` and ``sit``
        entries): who may read its players' room afterwards."""
        query = select(table_log.c.data).where(table_log.c.table_id == table_id, table_log.c.kind.in_(("create", "sit")))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        for row in rows:
            data = json.loads(row.data)
            slots = data.get("slots") or [data]  # a create entry's places, or a sit entry itself
            if any(isinstance(s, dict) and s.get("user_id") == user_id for s in slots):
                return True
        return False

    async def purge(self, before: float) -> int:
        """Delete the lines written before ``before`` (KEEP_DAYS); how many."""
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(chat_messages).where(chat_messages.c.at < before))
        return int(result.rowcount or 0)

    # -- mutes ---------------------------------------------------------------------------
    async def mutes(self, user_id: int) -> list[int]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(chat_mutes.c.muted_id).where(chat_mutes.c.user_id == user_id)
                                       .order_by(chat_mutes.c.at))).all()
        return [int(r.muted_id) for r in rows]

    async def muters(self, user_id: int) -> frozenset[int]:
        """The accounts that muted ``user_id``: a line of theirs is not sent to them (table/chat.py)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(chat_mutes.c.user_id).where(chat_mutes.c.muted_id == user_id))).all()
        return frozenset(int(r.user_id) for r in rows)

    async def mute(self, user_id: int, other: int, now: float) -> None:
        if other == user_id:
            raise ChatRefused("self", "you cannot mute yourself")
        async with self.engine.begin() as conn:
            await self._account(conn, other)
            if not (await conn.execute(select(chat_mutes.c.at).where(chat_mutes.c.user_id == user_id,
                                                                      chat_mutes.c.muted_id == other))).first():
                await conn.execute(insert(chat_mutes).values(user_id=user_id, muted_id=other, at=now))

    async def unmute(self, user_id: int, other: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(chat_mutes).where(chat_mutes.c.user_id == user_id, chat_mutes.c.muted_id == other))

    @staticmethod
    async def _account(conn: Any, user_id: int) -> Any:
        row = (await conn.execute(select(users).where(users.c.id == user_id))).first()
        if row is None:
            raise ChatRefused("not_found", f"no account {user_id}", 404)
        return row

    # -- reports and bans ------------------------------------------------------------------
    async def report(self, reporter_id: int, message_id: int, now: float) -> None:
        """Report a line to the moderators: refused for a line that is not a person's, one's
        own line, a line reported already, and past REPORTS_PER_HOUR reports an hour."""
        async with self.engine.begin() as conn:
            line = (await conn.execute(select(chat_messages).where(chat_messages.c.id == message_id))).first()
            if line is None or line.room == "system":
                raise ChatRefused("not_found", f"no chat message {message_id}", 404)
            if line.author_id == reporter_id:
                raise ChatRefused("self", "you cannot report your own message")
            done = (await conn.execute(select(chat_reports.c.id).where(chat_reports.c.reporter_id == reporter_id,
                                                                       chat_reports.c.message_id == message_id))).first()
            if done is not None:
                raise ChatRefused("already_reported", "you have reported this message already", 409)
            recent = (await conn.execute(select(func.count()).select_from(chat_reports).where(
                chat_reports.c.reporter_id == reporter_id, chat_reports.c.at > now - 3600))).scalar_one()
            if recent >= REPORTS_PER_HOUR:
                raise ChatRefused("rate_limited", f"at most {REPORTS_PER_HOUR} reports an hour: wait a while", 429)
            try:
                await conn.execute(insert(chat_reports).values(
                    reporter_id=reporter_id, message_id=message_id, author_id=line.author_id, author=line.author,
                    table_id=line.table_id, text=line.text, said_at=line.at, at=now))
            except IntegrityError:  # the same report at the same moment from another request
                raise ChatRefused("already_reported", "you have reported this message already", 409) from None

    async def reports(self, limit: int = 200) -> list[Report]:
        reporter = users.alias("reporter")
        query = (select(chat_reports, reporter.c.name, reporter.c.kind, reporter.c.display, chat_bans.c.user_id.label("ban"))
                 .join(reporter, reporter.c.id == chat_reports.c.reporter_id)
                 .outerjoin(chat_bans, chat_bans.c.user_id == chat_reports.c.author_id)
                 .order_by(chat_reports.c.id.desc()).limit(limit))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Report(r.id, shown_name(r.name, r.kind, r.display), r.reporter_id, r.author, r.author_id, r.table_id,
                       r.text, r.said_at, r.at, r.ban is not None) for r in rows]

    async def banned(self, user_id: int) -> bool:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(chat_bans.c.user_id).where(chat_bans.c.user_id == user_id))).first() is not None

    async def ban(self, user_id: int, now: float) -> bool:
        """Ban the account from chat and from opening tables; False if it was banned already."""
        async with self.engine.begin() as conn:
            await self._account(conn, user_id)
            if (await conn.execute(select(chat_bans.c.user_id).where(chat_bans.c.user_id == user_id))).first():
                return False
            await conn.execute(insert(chat_bans).values(user_id=user_id, at=now))
            return True

    async def unban(self, user_id: int) -> bool:
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(chat_bans).where(chat_bans.c.user_id == user_id))
        return bool(result.rowcount)

    # -- notes on players ------------------------------------------------------------------
    async def notes(self, author_id: int, subject_id: int | None = None) -> dict[int, dict[str, Any]]:
        """The author's notes (by the noted account's id); only ever the author's own."""
        query = select(player_notes).where(player_notes.c.author_id == author_id)
        if subject_id is not None:
            query = query.where(player_notes.c.subject_id == subject_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {int(r.subject_id): {"text": r.text, "label": r.label, "at": r.at} for r in rows}

    async def put_note(self, author_id: int, subject_id: int, text: str, label: str | None, now: float) -> dict[str, Any]:
        if author_id == subject_id:
            raise ChatRefused("self", "you cannot keep a note on yourself")
        if not text and label is None:
            raise ChatRefused("bad_message", "a note needs a text or a label (delete it instead)")
        async with self.engine.begin() as conn:
            await self._account(conn, subject_id)
            await conn.execute(delete(player_notes).where(player_notes.c.author_id == author_id,
                                                          player_notes.c.subject_id == subject_id))
            await conn.execute(insert(player_notes).values(author_id=author_id, subject_id=subject_id, text=text,
                                                           label=label, at=now))
        return {"text": text, "label": label, "at": now}

    async def delete_note(self, author_id: int, subject_id: int) -> bool:
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(player_notes).where(player_notes.c.author_id == author_id,
                                                                   player_notes.c.subject_id == subject_id))
        return bool(result.rowcount)
