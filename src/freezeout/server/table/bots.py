"""A table's bot seats: when each bot moves, and what it plays.

One job: a bot's thinking time (drawn once per turn, so the table's clock
can wait for it) and its move, as the entry that plays it.  The bot itself
(table.botseat.choose) runs off the event loop: a strong bot may think for tens of
milliseconds.  With a ``deck_seed`` (test mode) a bot decides the same at the
same point of the game, however many entries (a restart's ``resume``) the log
has besides.
"""

from __future__ import annotations

import asyncio
import random

from freezeout.server.settings import Settings
from freezeout.server.table import botseat
from freezeout.server.table.entries import ActEntry
from freezeout.server.table.state import TableState

__all__ = ["BotSeats"]


class BotSeats:
    def __init__(self, settings: Settings, rng: random.Random) -> None:
        self.settings, self.rng = settings, rng
        self._delay: tuple[tuple[int, float, int], float] | None = None

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
        action = await asyncio.to_thread(botseat.choose, level, game.seat_view(seat), rng)
        return ActEntry(action._replace(seat=seat))

    @staticmethod
    def safe_move(state: TableState, seat: int) -> ActEntry:
        """The safest legal move (table.botseat.safe_move), for a bot whose move was refused."""
        game = state.table_game
        assert game is not None
        return ActEntry(botseat.safe_move(seat, game.legal_actions()))
