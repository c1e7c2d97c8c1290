"""The room: every table actor of this server, the lobby and the bot accounts.

It creates tables (writing their first log entry), rebuilds every open table
from its log after a restart and resumes its clock, and lists tables for the
lobby, a page at a time (of one format or game if asked).  A cash table
(issue #25) is opened empty: players take its seats with a buy-in, and it
closes itself once nobody has sat there for ``cash_idle_seconds``
(table/cashlobby.py).  Every table has a place for a human (a table of
bots alone would play and rematch for ever, and could move ratings with
nobody playing); one account and one client address may keep only so many
tables open, and open only so many an hour.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from freezeout.rules.errors import RulesError
from freezeout.rules.games import parse_game
from freezeout.server.accounts import RateLimiter
from freezeout.server.clock import Clock
from freezeout.server.entries import InviteEntry, SitEntry
from freezeout.server.gamespec import FORMATS, GameRefused, GameSpec
from freezeout.server.guestbook import GuestBook, GuestEntry
from freezeout.server.settings import Settings
from freezeout.server.storage.store import LogEntry, Store, UserRow
from freezeout.server.table.actor import TableActor
from freezeout.server.table.botseat import BOT_LEVELS, bots_for
from freezeout.server.table.cashconfig import MAX_CASH_CHIPS
from freezeout.server.table.cashmove import TEND_SECONDS, tend
from freezeout.server.table.commands import Sit
from freezeout.server.table.formats import GAMES, check_game
from freezeout.server.table.handle import TableHandle
from freezeout.server.table.hosting import run as run_host
from freezeout.server.table.lobbyfeed import LobbyFeed
from freezeout.server.table.privacy import Privacy, members_of, new_secret
from freezeout.server.table.state import Refused, initial_state

__all__ = ["MAX_CASH_CHIPS", "Room", "idle_tables", "listing_filter", "paginate"]

log = logging.getLogger(__name__)


class Room:
    def __init__(self, *, settings: Settings, store: Store, clock: Clock) -> None:
        self.settings, self.store, self.clock = settings, store, clock
        self.tables: dict[str, TableActor] = {}
        self.bots: dict[str, UserRow] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._tender: asyncio.Task[None] | None = None
        self._created: dict[str, str] = {}  # table id -> the client address that opened it (not kept across restarts)
        self._creations = RateLimiter(settings.tables_per_hour_per_address, 3600.0, clock)
        # Answers "no such table" per client address (a private table's guessed secret among them):
        # past ``table_misses_per_address`` in ``table_miss_window_seconds`` it is refused (transport/tablegate.py).
        self.misses = RateLimiter(settings.table_misses_per_address, settings.table_miss_window_seconds, clock)
        self._public: set[str] = set()  # tables read from the database and found public (that never changes)
        self.on_handled: Callable[[float], None] | None = None  # given to every table (metrics)
        # The lobby pushed to the connections that watch it: one process looks at its own tables.
        self.lobby = LobbyFeed(lambda status, limit, format: self.listing(status, limit=limit, format=format)[0],
                               period=settings.lobby_push_seconds, polled=True)

    async def open(self) -> None:
        """Create the bot accounts, then rebuild and start every open table.  A table whose game
        was running resumes with a ``resume`` entry: its turn starts again in full and nobody
        is forfeited for being offline during ``restore_grace_seconds`` (the outage was ours)."""
        for level in BOT_LEVELS:
            self.bots[level] = await self.store.accounts.ensure(f"bot-{level}", "bot", self.clock.now())
        for table_id, entries in (await self.store.log.open_table_logs()).items():
            if not entries:
                continue
            actor = TableActor.restore(entries, store=self.store.log, clock=self.clock, settings=self.settings)
            if all(slot.kind == "bot" for slot in actor.state.slots) and not self.settings.bot_only_tables:
                # Opened by an older server: bots alone would play and rematch for ever.
                log.warning("retiring table %s: it has no place for a human", table_id)
                await self.store.log.close_table(table_id)
                continue
            self.tables[table_id] = actor
            actor.on_handled = self.on_handled
            await actor.resume()
            actor.start()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="room-sweeper")
        self._tender = asyncio.create_task(self._tend_forever(), name="room-waitlists")
        self.lobby.start()

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._tender is not None:
            self._tender.cancel()
        await self.lobby.stop()
        for actor in self.tables.values():
            await actor.stop()

    async def _sweep_forever(self, period: float = 60.0) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping idle tables failed")

    async def _tend_forever(self) -> None:
        """C13's "first available" lists and C14's broken tables, across tables (table/cashmove.py)."""
        while True:
            await asyncio.sleep(TEND_SECONDS)
            try:
                await tend(self, self.clock.now())
            except Exception:
                log.exception("tending the waiting lists and broken tables failed")

    async def sweep(self) -> list[str]:
        """Retire tables whose game is over (or never started), that nobody
        follows and that have been idle for ``idle_close_seconds``; playing
        tables are never retired (absent players forfeit until the game ends)."""
        idle = idle_tables(self.tables, self.clock.now(), self.settings)
        for table_id in idle:
            actor = self.tables.pop(table_id)
            self._created.pop(table_id, None)
            await actor.stop()
            await self.store.log.close_table(table_id)
        return idle

    def get(self, table_id: str) -> TableHandle:
        """The table ``table_id`` for the transport (transport/ws.py, transport/api.py): this process's actor."""
        actor = self.tables.get(table_id)
        if actor is None:
            raise Refused("not_found", f"no table {table_id!r}")
        return actor

    def listing(self, status: str | None = None, *, limit: int = 50, after: str | None = None,
                format: str | None = None, game: str | None = None, private: bool = False,
                ) -> tuple[list[dict[str, Any]], str | None]:
        """A page of tables, newest first, and the cursor of the next page (None: the last page),
        of one ``format`` and ``game`` if asked (:func:`listing_filter` reads them); ``private``:
        private tables too (the room's own reads, never a client's: table/cashmove.py).
        The cursor is the last table's ``created_at`` and id, so tables opened meanwhile do not
        shift the pages."""
        actors = [a for a in self.tables.values() if (private or not a.state.private) and (status is None or a.state.status == status)
                  and (format is None or a.state.spec.format == format) and (game is None or a.state.spec.code == game)]
        return paginate([(a.state.created_at, a.state.id, a.summary) for a in actors], limit=limit, after=after)

    def _open_tables(self, creator: UserRow, address: str | None) -> tuple[int, int]:
        """Tables waiting or playing that this account, and this address, opened."""
        mine = here = 0
        for table_id, actor in self.tables.items():
            if actor.state.status in ("finished", "closed"):
                continue
            mine += actor.state.created_by == creator.id
            here += address is not None and self._created.get(table_id) == address
        return mine, here

    async def create(self, creator: UserRow, slots: list[str | None], *, ranked: bool, sit: bool,
                     address: str | None = None, game: str | None = None, format: str | None = None,
                     cash: dict[str, Any] | None = None, private: bool = False, approval: bool = False,
                     ) -> TableActor:
        """Open a table of ``game`` (None: the house game); bot levels fill their places at once,
        ``None`` places wait for humans.  A ``format="cash"`` table (``cash``: its options) opens
        empty: players take its seats with a buy-in.  A ``private`` one is listed nowhere and
        reached by its invite link (table/privacy.py)."""
        entry = self.new_table(creator, slots, ranked=ranked, sit=sit, address=address, game=game, format=format,
                               cash=cash, private=private, approval=approval)
        table_id = entry.table_id
        await self.store.log.create_table(table_id, entry)
        actor = TableActor(initial_state(entry), store=self.store.log, clock=self.clock, settings=self.settings)
        actor.on_handled = self.on_handled
        self.tables[table_id] = actor
        if address is not None:
            self._created[table_id] = address
        actor.start()
        if sit:
            await actor.request(creator, Sit(type="sit"))
        return actor

    def quickplay_bot(self, game: str | None) -> str:
        """Quick play's opponent: ``medium``, or the strongest bot that plays ``game``."""
        try:
            levels = self.bot_levels(GameSpec.parse(game))
        except GameRefused as error:
            raise Refused("bad_message", str(error)) from None
        return "medium" if "medium" in levels else levels[-1]

    async def add_cash_bot(self, table_id: str, user: UserRow, level: str) -> dict[str, Any]:
        """A cash table's "add a bot" (issue #25, table/bots.py): a bot of ``level`` that plays
        the table's game buys in with its own play chips at the next free seat; the table's
        summary, or :class:`Refused` saying why not.  (Kept apart from the freezeout's bots,
        which are seated when the table is opened.)"""
        actor = self.tables.get(table_id)
        if actor is None:
            raise Refused("not_found", f"no table {table_id!r}")
        if level not in self.bots:
            raise Refused("bad_message", f"unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}")
        return await seat_cash_bot(actor, user, level)

    @staticmethod
    def bot_levels(spec: GameSpec) -> tuple[str, ...]:
        """The bots offered at a table of ``spec`` (table.botseat.bots_for): a mix's bots play each of its games."""
        return bots_for(spec.game.code)

    def new_table(self, creator: UserRow, slots: list[str | None], *, ranked: bool, sit: bool,
                  address: str | None, game: str | None = None, format: str | None = None,
                  cash: dict[str, Any] | None = None, private: bool = False, approval: bool = False) -> LogEntry:
        """Check a new table against the rules and the caps (:class:`Refused`), count it against
        its address's hourly rate, and return its first log entry (``create``, naming the game
        unless it is the house game).  A gateway of a cluster opens tables with it too (cluster/gateway.py)."""
        if format not in (None, *FORMATS):
            raise Refused("bad_message", f"unknown format {format!r} (formats: {', '.join(FORMATS)})")
        if private and ranked:
            raise Refused("bad_message", "ranked games are always public (a private ranked game would hide rating "
                                         "rings): open an unranked private table, or a public ranked one")
        opening = GAMES[format or FORMATS[0]]  # the format's own rules for a new table (table/formats.py)
        spec = opening.new_spec(creator, slots, game, cash, ranked, sit)
        try:
            check_game(spec, len(slots))
        except GameRefused as error:
            raise Refused("illegal", str(error)) from None
        opening.check_new(spec, len(slots))
        if all(level is not None for level in slots) and not self.settings.bot_only_tables:
            raise Refused("illegal", "a table needs a place for a human: bots alone do not play")
        offered = self.bot_levels(spec)
        for level in slots:
            if level is not None and level not in self.bots:
                raise Refused("bad_message", f"unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}")
            if level is not None and level not in offered:
                raise Refused("illegal", f"the {level} bot does not play {spec.game.name}; choose from {', '.join(offered)}")
        if ranked:  # R25: ranked games are heads-up between two accounts
            if len(slots) != 2:
                raise Refused("illegal", "ranked games are heads-up: two places")
            if creator.kind == "guest":
                raise Refused("forbidden", "guests cannot play ranked games")
        if sit and all(level is not None for level in slots):
            raise Refused("illegal", "no place is left for you")
        mine, here = self._open_tables(creator, address)
        if mine >= self.settings.max_open_tables_per_user:
            raise Refused("rate_limited", f"you already have {mine} open tables (at most "
                                          f"{self.settings.max_open_tables_per_user}): finish or leave one first")
        if here >= self.settings.max_open_tables_per_address:
            raise Refused("rate_limited", f"{here} tables are open from your address (at most "
                                          f"{self.settings.max_open_tables_per_address})")
        if address is not None:
            if self._creations.retry_after(address) is not None:
                raise Refused("rate_limited", "too many new tables from your address this hour")
            self._creations.fail(address)
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
        data: dict[str, Any] = {"slots": slot_data, "ranked": ranked, "created_by": creator.id}
        if not spec.is_house:
            data["game"] = spec.to_json()
        if approval and not private:
            raise Refused("bad_message", "only a private table asks its creator to approve each seat")
        if private:
            data["private"], data["invite"] = True, new_secret()
            if approval:
                data["approval"] = True  # the creator approves each seat (table/guestlist.py)
        return LogEntry(table_id, 1, self.clock.now(), "create", data)

    # -- private tables (issue #37, table/privacy.py) --------------------------------------------
    def known_privacy(self, table_id: str) -> Privacy | None:
        """:meth:`privacy_of` from memory alone: a table this process drives, or one found public
        before; None when only the database can tell."""
        actor = self.tables.get(table_id)
        if actor is not None:
            state = actor.state
            held = [hold.user_id for hold in state.guests.live(self.clock.now())] if state.private else []
            return Privacy(state.invite, state.created_by,
                           members_of([*(slot.user_id for slot in state.slots), *held, *actor.members]))
        return Privacy(None) if table_id in self._public else None

    async def privacy_of(self, table_id: str) -> Privacy | None:
        """Who may see the table ``table_id``, or None: there is no such table.  A table this
        process drives answers from memory; any other (retired, or a cluster's: a gateway drives
        none) from its log in the database, read whole only when its ``create`` says private."""
        known = self.known_privacy(table_id)
        if known is not None:
            return known
        first = await self.store.log.table_entries(table_id, limit=1)
        if not first or first[0].kind != "create":
            return None
        if not first[0].data.get("private"):
            if len(self._public) > 100_000:
                self._public.clear()
            self._public.add(table_id)
            return Privacy(None)
        entries = await self.store.log.table_entries(table_id)
        invite, members, book = str(first[0].data.get("invite")), set(), GuestBook()
        for entry in entries:
            body = entry.body
            if isinstance(body, InviteEntry):
                invite = body.secret
            elif isinstance(body, GuestEntry):  # a place held for an account shows it the table
                book = book.after(body, entry.at)
            elif isinstance(body, SitEntry) and body.player.user_id is not None:
                members.add(body.player.user_id)
                book = book.seated(body.player.user_id)
        members |= {hold.user_id for hold in book.live(self.clock.now())}
        created_by = first[0].data.get("created_by")
        members |= members_of((slot or {}).get("user_id") for slot in first[0].data.get("slots", ()))
        return Privacy(invite, int(created_by) if created_by is not None else None, frozenset(members))

    async def host(self, table_id: str, user: UserRow, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """A private table's creator's request (table/hosting.py), in the table's turn."""
        actor = self.tables.get(table_id)
        if actor is None:
            raise Refused("not_found", f"no table {table_id!r}")
        return await run_host(actor, user, op, args)

    async def summary(self, table_id: str) -> dict[str, Any]:
        """The table's summary (a gateway asks the table's owner for it)."""
        return self.get(table_id).summary()


def paginate(tables: list[tuple[float, str, Callable[[], dict[str, Any]]]], *, limit: int, after: str | None,
             ) -> tuple[list[dict[str, Any]], str | None]:
    """A page of ``tables`` (created_at, id, its summary) newest first, and the next cursor
    (None: the last page).  Only the page's summaries are built."""
    order = sorted(((-at, table_id, describe) for at, table_id, describe in tables), key=lambda x: (x[0], x[1]))
    if after:
        at_text, _, after_id = after.partition("/")
        try:
            mark = (-float(at_text), after_id)
        except ValueError:
            raise Refused("bad_message", f"bad page cursor {after!r}") from None
        order = [x for x in order if (x[0], x[1]) > mark]
    page = [x[2]() for x in order[:limit]]
    cursor = f"{page[-1]['created_at']!r}/{page[-1]['id']}" if len(order) > limit else None
    return page, cursor


def idle_tables(tables: dict[str, TableActor], now: float, settings: Settings) -> list[str]:
    """Tables to retire: a closed cash table at once (its lobby entry is gone already); a game
    over (or never started) that nobody follows and idle for ``idle_close_seconds``; playing
    tables never (absent players forfeit until the game ends)."""
    return [
        table_id for table_id, actor in tables.items()
        if actor.state.closed or (actor.state.status in ("finished", "waiting") and not actor.conns
                                  and now - actor.state.last_at >= settings.idle_close_seconds)
    ]


def listing_filter(format: str | None, game: str | None) -> tuple[str | None, str | None]:
    """``GET /api/tables``'s ``format`` and ``game`` (either may be None: any), the game as its
    canonical code; :class:`Refused` (``bad_message``) names an unknown one."""
    if format is not None and format not in FORMATS:
        raise Refused("bad_message", f"unknown format {format!r} (formats: {', '.join(FORMATS)})")
    if game is None:
        return format, None
    try:
        return format, parse_game(game).code
    except RulesError as error:
        raise Refused("bad_message", str(error)) from None


async def seat_cash_bot(actor: TableActor, user: UserRow, level: str) -> dict[str, Any]:
    """A bot of ``level`` asked by ``user`` sits at the cash table ``actor`` runs (its next step:
    the bot's ``sit``), the table's summary after; :class:`Refused` says why not.  The table's
    owner does it: a room's table here, a cluster worker's for a gateway (cluster/worker.py)."""
    from freezeout.server.table.bots import check_add_bot

    check_add_bot(actor.state, user, level, bots_for(actor.state.spec.game.code), actor.clock.now())
    actor.bots.asked = level
    await actor.sync()  # the bot's ``sit`` is the table's next step
    if actor.bots.asked is not None:
        actor.bots.asked = None
        raise Refused("busy", "the bot could not sit down just now: try again")
    return actor.summary()
