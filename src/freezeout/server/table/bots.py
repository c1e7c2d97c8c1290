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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from freezeout.rules.cash import Status
from freezeout.server.settings import Settings
from freezeout.server.table import botseat
from freezeout.server.table.cash import CashGame
from freezeout.server.table.cashbots import add_bot_refusal, bots_welcome, fill_target
from freezeout.server.table.entries import ActEntry, CashSeatEntry, SitEntry, Slot, StandEntry, TopUpEntry
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


@dataclass(frozen=True, slots=True)
class CashBotMove:
    """A bot's seat change at a cash table: ``sit`` (a new bot of ``level`` at ``seat``),
    ``top_up`` (``chips`` more), ``sit_out``, ``sit_in`` or ``leave`` (cash out; at the end
    of the hand when the bot is dealt in)."""

    kind: str
    seat: int
    chips: int = 0
    level: str | None = None


def _bots(state: TableState) -> list[int]:
    return [index for index, slot in enumerate(state.slots) if slot.taken and slot.kind == "bot"]


def cash_bot_due(state: TableState, now: float, *, asked: str | None = None,
                 fill_after: float | None = None, level: str | None = None) -> CashBotMove | None:
    """The bots' next seat change at a cash table, in this order (who may stay and play:
    :func:`~.cashbots.bots_welcome`, the one place that decides it):

    1. no human is seated (or every one leaves): every bot leaves — bots never play each
       other for ever;
    2. humans are seated but none plays (sitting out, C3, or out of chips): the bots stay
       seated and wait — no hand is dealt among bots alone (``cashbots.can_deal``) — and play
       again as soon as a human does; a bot sitting out (an older table's) sits in then;
    3. the table is full and has more players than :func:`fill_target`: a bot not in the hand
       leaves to make room for the human who may come;
    4. a bot below half the maximum buy-in and not in the hand tops up to the maximum (C2: a
       rebuy when it lost everything);
    5. a human plays, a seat is free, the table has fewer than :func:`fill_target` players and
       either bots sit here already, a bot was ``asked`` for, or the human has been alone for
       ``fill_after`` seconds since the table last changed (None: never by itself): a bot of
       ``asked`` (else the level of the bots here, else ``level``) buys in for the maximum
       (C3: at least what it left with).

    None when nothing is due (or the table is not a cash table)."""
    game = state.table_game
    if not isinstance(game, CashGame):
        return None
    table = game.table
    bots = [seat for seat in _bots(state) if not game.is_leaving(seat)]
    dealt = set(table.hand_seats) if game.in_hand else set()
    welcome = bots_welcome(game)
    if welcome == "leave":
        return CashBotMove("leave", bots[0]) if bots else None
    if welcome == "wait":
        return None
    for seat in bots:
        held = table.seats[seat]
        if held is not None and held.status in (Status.SITTING_OUT, Status.AWAY):
            return CashBotMove("sit_in", seat)
    taken = sum(1 for slot in state.slots if slot.taken)
    if taken == state.size and taken > fill_target(state.size):
        for seat in bots:
            if seat not in dealt:
                return CashBotMove("leave", seat)
    high = table.config.max_buy_in
    for seat in bots:
        held = table.seats[seat]
        if held is None or seat in dealt:
            continue
        if held.stack * 2 < high:
            return CashBotMove("top_up", seat, high - held.stack)
    offered = set(game.waitlist.line.offered_seats)  # C13: a seat offered from the waiting list is its player's
    if game.waitlist.line.queue and not offered:
        return None  # C13: players wait for this table's seats: a bot takes none
    free = _bot_places(state, game, now)
    if not free or taken >= fill_target(state.size) or len(_bots(state)) >= state.size - 1:
        return None
    alone = fill_after is not None and taken == 1 and now >= state.last_at + fill_after
    if not (bots or asked or alone):
        return None
    chosen = asked or next((state.slots[seat].bot for seat in bots if state.slots[seat].bot), None) or level
    if chosen is None:
        return None
    return CashBotMove("sit", free[0], 0, chosen)


def cash_bot_deadline(state: TableState, fill_after: float | None = None) -> float | None:
    """When a wait runs out by itself: a lone human's for bots (``fill_after``); the actor
    sleeps until then.  (Bots wait for a human who sits out for as long as they are seated.)"""
    game = state.table_game
    if fill_after is None or not isinstance(game, CashGame) or _bots(state):
        return None
    taken = sum(1 for slot in state.slots if slot.taken)
    if taken == 1 and bots_welcome(game) == "play":
        return state.last_at + fill_after
    return None


def _bot_places(state: TableState, game: CashGame, now: float) -> list[int]:
    """The free places a bot may take at a cash table: not one offered from the waiting list
    (C13), nor one a private table's creator holds for a named account (issue #37, table/guestbook.py)."""
    kept = set(game.waitlist.line.offered_seats)
    if state.private:
        kept |= state.guests.held_slots(now)
    return [index for index, slot in enumerate(state.slots) if not slot.taken and index not in kept]


def check_add_bot(state: TableState, user: UserRow, level: str, offered: tuple[str, ...], now: float = 0.0) -> None:
    """Whether ``user`` may ask for a bot of ``level`` at this cash table now (:class:`Refused`
    says why not): a bot that plays the table's game, for a human seated here (or the table's
    creator while a human plays), with a free seat and the table below
    :func:`~.cashbots.fill_target` (:func:`~.cashbots.add_bot_refusal`, as the view says it)."""
    game = state.table_game
    if not isinstance(game, CashGame):
        raise Refused("illegal", "bots are added to a freezeout when it is opened; this is not a cash table")
    if level not in offered:
        raise Refused("illegal", f"the {level} bot does not play this table's game; choose from {', '.join(offered)}")
    refusal = add_bot_refusal(game, offered)  # what the view's ``add_bot`` says (table/cashbots.py)
    if refusal is not None and refusal[0] != "no_seat":
        raise Refused("illegal", refusal[1])
    if state.slot_of_user(user.id) is None and state.created_by != user.id:
        raise Refused("forbidden", "only a player at this table or its creator adds bots")
    if refusal is not None:
        raise Refused("illegal", refusal[1])
    if not _bot_places(state, game, now):
        raise Refused("illegal", "no seat for a bot: every free seat is held for a player")


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
        """The entry that makes ``move``, and the house's ``grant`` that stakes the bot when its
        balance cannot pay the buy-in or top-up (written in the same transaction, before it)."""
        game = state.table_game
        assert isinstance(game, CashGame)
        if move.kind == "leave":
            dealt = game.in_hand and move.seat in game.table.hand_seats
            return StandEntry(move.seat, chips=None if dealt else game.table.current_stacks()[move.seat]), []
        if move.kind in ("sit_out", "sit_in"):
            return CashSeatEntry(move.kind, move.seat), []
        if move.kind == "top_up":
            account = state.slots[move.seat].user_id
            assert account is not None
            return TopUpEntry(move.seat, move.chips), await self._stake(state, account, move.chips, now, engine)
        assert move.level is not None
        account, base = await _bot_account(engine, move.level)
        names = {slot.name for slot in state.slots if slot.taken}
        name, n = base, 2
        while name in names:
            name, n = f"{base}-{n}", n + 1
        chips = game.table.buy_in_range(name, now)[1]  # the maximum (C3: at least what it left with; a bot by name)
        entry = SitEntry(move.seat, Slot(account, name, "bot", move.level), chips=chips, post=True)
        return entry, await self._stake(state, account, chips, now, engine)

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
