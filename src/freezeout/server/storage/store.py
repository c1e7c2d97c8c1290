"""Storage: one database, a small class for each job, and a facade that opens them.

Each part owns its tables and answers its own questions:

* ``log`` (:class:`~freezeout.server.storage.tablelog.TableLog`): the tables and
  their logs, with the group-committing writer; a game's start and end
  ride in its transactions (``storage.gamerecords.write_game``, R25);
* ``accounts`` (:class:`~freezeout.server.storage.users.Accounts`): accounts and
  the names they have gone by;
* ``sessions`` and ``tokens`` (storage/credentials.py): log-in sessions and API
  tokens;
* ``sightings`` (storage/sightings.py): where accounts were seen (elo.py "Rings");
* ``games`` (storage/gamerecords.py): finished and running games, their records;
* ``ratings`` (storage/ratings.py): Elo per family, leaderboards and history;
* ``ledger`` (storage/ledger.py): play-chip balances and their ledger (C9); a new
  account's grant rides in its creation, a table's transfer in its log entry's transaction;
* ``chat`` (storage/chat.py): tables' chat, mutes, reports, chat bans and notes on players.

:class:`Store` only creates the parts on one engine, starts and stops the
log's writer and answers the health check; callers talk to the part
(``store.accounts.by_name(...)``, ``store.log.append(...)``).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.entries import GameEnd, GameStart, LogEntry
from freezeout.server.storage.chat import Chat
from freezeout.server.storage.credentials import TOKEN_ID_LENGTH, ApiTokens, Sessions
from freezeout.server.storage.gamerecords import Games, write_game
from freezeout.server.storage.ledger import Amounts, Ledger
from freezeout.server.storage.ledgercheck import TableHoldings
from freezeout.server.storage.ratings import Ratings
from freezeout.server.storage.sightings import Sightings
from freezeout.server.storage.tablelog import TableLog
from freezeout.server.storage.users import Accounts, NameTaken, UserRow, shown_name

# The types are re-exported from here for the modules that import them from storage.
__all__ = ["TOKEN_ID_LENGTH", "GameEnd", "GameStart", "LogEntry", "NameTaken", "Store", "UserRow",
           "shown_name"]


class Store:
    """The storage parts on one engine (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, *, batch_limit: int = 256, amounts: Amounts | None = None,
                 holdings: TableHoldings | None = None) -> None:
        self.engine = engine
        self.ledger = Ledger(engine, amounts, holdings)
        self.log = TableLog(engine, write_game, batch_limit=batch_limit, move=self.ledger.move_in)
        self.accounts = Accounts(engine, on_create=self.ledger.open_in)
        self.sessions = Sessions(engine)
        self.tokens = ApiTokens(engine)
        self.sightings = Sightings(engine)
        self.games = Games(engine)
        self.ratings = Ratings(engine)
        self.chat = Chat(engine)  # table chat, mutes, reports, bans, notes (issue #37)

    async def start(self) -> None:
        await self.log.start()

    async def close(self) -> None:
        await self.log.close()
        await self.engine.dispose()

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(select(1))
