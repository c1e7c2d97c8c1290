"""The room: every table actor of this server, the lobby and the bot accounts.

It creates tables (writing their first log entry), rebuilds every open table
from its log after a restart and resumes its clock, and lists tables for the
lobby.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from freezeout.server.botseat import BOT_LEVELS
from freezeout.server.clock import Clock
from freezeout.server.settings import Settings
from freezeout.server.store import LogEntry, Store, UserRow
from freezeout.server.table import TableActor
from freezeout.server.tablestate import Refused, initial_state

__all__ = ["Room"]

log = logging.getLogger(__name__)


class Room:
    def __init__(self, *, settings: Settings, store: Store, clock: Clock) -> None:
        self.settings, self.store, self.clock = settings, store, clock
        self.tables: dict[str, TableActor] = {}
        self.bots: dict[str, UserRow] = {}
        self._sweeper: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Create the bot accounts, then rebuild and start every open table."""
        for level in BOT_LEVELS:
            self.bots[level] = await self.store.ensure_user(f"bot-{level}", "bot", self.clock.now())
        for table_id, entries in (await self.store.open_table_logs()).items():
            if entries:
                actor = TableActor.restore(entries, store=self.store, clock=self.clock, settings=self.settings)
                self.tables[table_id] = actor
                actor.start()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="room-sweeper")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for actor in self.tables.values():
            await actor.stop()

    async def _sweep_forever(self, period: float = 60.0) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping idle tables failed")

    async def sweep(self) -> list[str]:
        """Retire tables whose game is over (or never started), that nobody
        follows and that have been idle for ``idle_close_seconds``; playing
        tables are never retired (absent players forfeit until the game ends)."""
        now = self.clock.now()
        idle = [
            table_id for table_id, actor in self.tables.items()
            if actor.state.status in ("finished", "waiting") and not actor.conns
            and now - actor.state.last_at >= self.settings.idle_close_seconds
        ]
        for table_id in idle:
            actor = self.tables.pop(table_id)
            await actor.stop()
            await self.store.close_table(table_id)
        return idle

    def get(self, table_id: str) -> TableActor:
        actor = self.tables.get(table_id)
        if actor is None:
            raise Refused("not_found", f"no table {table_id!r}")
        return actor

    def listing(self, status: str | None = None) -> list[dict[str, Any]]:
        summaries = [actor.summary() for actor in self.tables.values()]
        if status is not None:
            summaries = [s for s in summaries if s["status"] == status]
        return sorted(summaries, key=lambda s: -s["created_at"])

    async def create(self, creator: UserRow, slots: list[str | None], *, ranked: bool, sit: bool) -> TableActor:
        """Open a table; bot levels fill their places at once, ``None`` places wait for humans."""
        if not 2 <= len(slots) <= 4:
            raise Refused("bad_message", "a table has 2 to 4 places")
        for level in slots:
            if level is not None and level not in self.bots:
                raise Refused("bad_message", f"unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}")
        if ranked:  # R25: ranked games are heads-up between two accounts
            if len(slots) != 2:
                raise Refused("illegal", "ranked games are heads-up: two places")
            if creator.kind == "guest":
                raise Refused("forbidden", "guests cannot play ranked games")
        if sit and all(level is not None for level in slots):
            raise Refused("illegal", "no place is left for you")
        names: set[str] = set()
        slot_data: list[dict[str, Any] | None] = []
        for level in slots:
            if level is None:
                slot_data.append(None)
                continue
            bot = self.bots[level]
            name, n = bot.name, 2
            while name in names:
                name, n = f"{bot.name}-{n}", n + 1
            names.add(name)
            slot_data.append({"user_id": bot.id, "name": name, "kind": "bot", "bot": level})
        table_id = "t" + secrets.token_hex(6)
        entry = LogEntry(table_id, 1, self.clock.now(), "create",
                         {"slots": slot_data, "ranked": ranked, "created_by": creator.id})
        await self.store.create_table(table_id, entry)
        actor = TableActor(initial_state(entry), store=self.store, clock=self.clock, settings=self.settings)
        self.tables[table_id] = actor
        actor.start()
        if sit:
            await actor.request(creator, {"type": "sit"})
        return actor
