"""A table's bot seats: when each bot moves, and what it plays; at a cash table
also when bots sit down, top up and leave (issue #25).

One job: a bot's thinking time (drawn once per turn, so the table's clock
can wait for it) and its move, as the entry that plays it.  The bot itself
(table.botseat.choose) runs off the event loop: a strong bot may think for tens of
milliseconds.  With a ``deck_seed`` (test mode) a bot decides the same at the
same point of the game, however many entries (a restart's ``resume``) the log
has besides.

At a cash table (docs/ledger.md "Bots at cash tables") bots are regulars with
play chips of their own: :func:`cash_bot_due` (pure) says which seat change
is due — a bot leaves when no human is seated, makes room at a full table, tops
up below half the maximum buy-in (a rebuy when bust), or sits down so a
human has opponents — and :meth:`BotSeats.cash_entry` writes it through the
same entries as a player's (``sit`` with its buy-in, ``top_up``, ``stand``
with its cash-out).  A bot short of chips is staked by the house with a
``grant`` row in the same transaction, so every chip is in the ledger.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Final

from freezeout.server.entries import ActEntry, CashSeatEntry, SitEntry, Slot, StandEntry, TopUpEntry
from freezeout.server.settings import Settings
from freezeout.server.table import botseat
from freezeout.server.table.cashbots import CashBotMove, fill_target
from freezeout.server.table.freezeout import FREEZEOUT_BOTS
from freezeout.server.table.state import Refused, TableState

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from freezeout.server.storage.ledger import Transfer
    from freezeout.server.storage.store import UserRow

__all__ = ["CASH_BOT_RETRY_SECONDS", "CASH_BOT_WAIT_SECONDS", "BotSeats", "CashBotMove", "cash_bot_due",
           "check_add_bot", "fill_target"]

#: The default ``cash_bot_fill_seconds`` (settings.py): how long a human sits alone before
#: bots come to play (another human may be on the way).  Bots wait for a human who sits out
#: for as long as that human stays seated (C3).
CASH_BOT_WAIT_SECONDS: Final = 20.0
#: After a bot's seat change was refused (the ledger, a race with a player): try again then.
CASH_BOT_RETRY_SECONDS: Final = 5.0


def cash_bot_due(state: TableState, now: float, *, asked: str | None = None,
                 fill_after: float | None = None, level: str | None = None) -> CashBotMove | None:
    """The bots' next seat change at the table, as its game says (``TableGame.bot_seat_change``:
    a cash table's, table/cashbots.py); None when nothing is due (a freezeout's bots never
    change seats)."""
    game = state.table_game
    return None if game is None else game.bot_seat_change(state, now, asked, fill_after, level)


def cash_bot_deadline(state: TableState, fill_after: float | None = None) -> float | None:
    """When a wait for bots runs out by itself (``TableGame.bots_wake_at``: a lone human's at a
    cash table); the actor sleeps until then.  None: nothing ahead."""
    game = state.table_game
    return None if game is None else game.bots_wake_at(state, fill_after)


def check_add_bot(state: TableState, user: UserRow, level: str, offered: tuple[str, ...], now: float = 0.0) -> None:
    """Whether ``user`` may ask for a bot of ``level`` now (``TableGame.check_add_bot``;
    :class:`Refused` says why not): a cash table's rules are table/cashbots.py's."""
    game = state.table_game
    if game is None:
        raise Refused("illegal", FREEZEOUT_BOTS)
    game.check_add_bot(state, user, level, offered, now)


class BotSeats:
    def __init__(self, settings: Settings, rng: random.Random) -> None:
        self.settings, self.rng = settings, rng
        self._delay: tuple[tuple[int, float, int], float] | None = None
        self.asked: str | None = None  # a cash table: the bot level a player asked for (Room.add_cash_bot)
        self.cash_retry_at = 0.0

    def due(self, state: TableState, seat: int) -> float:
        """When the bot at ``seat`` moves in the running turn."""
        assert state.table_game is not None
        key = (state.table_game.hand_number, state.turn_started, seat)
        if self._delay is None or self._delay[0] != key:
            low = self.settings.bot_delay_min
            self._delay = (key, self.rng.uniform(low, max(low, self.settings.bot_delay_max)))
        return state.turn_started + self._delay[1]

    async def move(self, state: TableState, seat: int) -> ActEntry:
        """The bot's move at ``seat`` (possibly illegal: then :meth:`safe_move`)."""
        game = state.table_game
        assert game is not None
        level = state.seat_slot(seat).bot or "random"
        seed = self.settings.deck_seed
        point = f"{seed}:{state.game}:{game.hand_number}:{game.events_in_hand}"
        rng = random.Random(point) if seed is not None else random.Random(self.rng.random())
        action = await asyncio.to_thread(botseat.choose, level, game.bot_view(seat), rng)
        return ActEntry(action._replace(seat=seat))

    # -- a cash table's bots: sit down, top up, leave (issue #25) ---------------------------
    def cash_due(self, state: TableState, now: float) -> CashBotMove | None:
        """The bots' seat change due now at a cash table (:func:`cash_bot_due`), unless one was
        refused a moment ago; the strongest bot that plays the game fills (``hard``'s deep game)."""
        if now < self.cash_retry_at:  # (not a cash table: cash_bot_due says nothing is due)
            return None
        return cash_bot_due(state, now, asked=self.asked, fill_after=self.settings.cash_bot_fill_seconds,
                            level=self._default_level(state))

    def cash_deadline(self, state: TableState, now: float) -> float | None:
        """When the bots' next seat change may come by itself (a lone human's wait, a retry);
        None when nothing is ahead (a time already past was acted on, or is not acted on)."""
        if now < self.cash_retry_at:  # set only by a cash table's refused seat change
            return self.cash_retry_at
        wait = cash_bot_deadline(state, fill_after=self.settings.cash_bot_fill_seconds)
        return wait if wait is not None and wait > now else None

    @staticmethod
    def _default_level(state: TableState) -> str | None:
        try:
            levels = botseat.bots_for(state.spec.game.code)
        except Exception:
            return None
        return levels[-1] if levels else None

    async def cash_entry(self, state: TableState, move: CashBotMove, now: float, engine: AsyncEngine,
                         ) -> tuple[SitEntry | TopUpEntry | StandEntry | CashSeatEntry, list[Transfer]]:
        """The entry that makes ``move`` (the game's: ``TableGame.bot_entry``), and the house's
        ``grant`` that stakes the bot when its balance cannot pay the buy-in or top-up (written
        in the same transaction, before it)."""
        game = state.table_game
        assert game is not None
        bot: Slot | None = None
        if move.kind == "sit":
            assert move.level is not None
            account, base = await _bot_account(engine, move.level)
            names = {slot.name for slot in state.slots if slot.taken}
            name, n = base, 2
            while name in names:
                name, n = f"{base}-{n}", n + 1
            bot = Slot(account, name, "bot", move.level)
        entry = game.bot_entry(state, move, now, bot)
        if isinstance(entry, SitEntry) and entry.chips is not None and entry.player.user_id is not None:
            return entry, await self._stake(state, entry.player.user_id, entry.chips, now, engine)
        topped = state.slots[entry.seat].user_id if isinstance(entry, TopUpEntry) else None
        if isinstance(entry, TopUpEntry) and topped is not None:
            return entry, await self._stake(state, topped, entry.chips, now, engine)
        return entry, []

    async def _stake(self, state: TableState, account: int, chips: int, now: float, engine: AsyncEngine) -> list[Transfer]:
        from freezeout.server.storage.ledger import Transfer, balance_row

        async with engine.connect() as conn:
            found = await conn.run_sync(lambda c: balance_row(c, account))
        have = found[0] if found is not None else self.settings.ledger_grant  # opened with its grant first
        if have >= chips:
            return []
        return [Transfer(f"bot-grant:{state.id}.{state.version + 1}", account, "grant", chips - have, now)]

    def cash_refused(self, now: float) -> None:
        """A seat change was refused (a race for the seat or the chips): wait a moment."""
        self.cash_retry_at = now + CASH_BOT_RETRY_SECONDS

    def cash_done(self, move: CashBotMove) -> None:
        if move.kind == "sit":
            self.asked = None
            self.cash_retry_at = 0.0

    @staticmethod
    def safe_move(state: TableState, seat: int) -> ActEntry:
        """The safest legal move (table.botseat.safe_move), for a bot whose move was refused."""
        game = state.table_game
        assert game is not None
        return ActEntry(botseat.safe_move(seat, game.legal_actions()))


async def _bot_account(engine: AsyncEngine, level: str) -> tuple[int, str]:
    """The account of the ``level`` bot (created by the room: ``bot-<level>``) and its name."""
    from sqlalchemy import select

    from freezeout.server.storage.db import users

    async with engine.connect() as conn:
        row = (await conn.execute(select(users.c.id, users.c.name).where(users.c.name == f"bot-{level}"))).first()
    if row is None:
        raise Refused("not_found", f"no account for the {level} bot")
    return int(row.id), str(row.name)
