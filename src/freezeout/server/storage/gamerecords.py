"""Games in the database: each game's row from its start to its end, with its places,
its full record (every card: for audits, never sent as is) and, for a ranked game,
whether it was rated (storage/ratings.py rates it in the same transaction)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server import elo
from freezeout.server.entries import GameEnd, GameStart
from freezeout.server.storage.db import games
from freezeout.server.storage.ratings import pair_key, rate_game

__all__ = ["Games", "write_game"]


def write_game(conn: Connection, op: GameStart | GameEnd) -> dict[str, Any] | None:
    """A game's start or end, inside the log writer's transaction (storage/tablelog.py).  An end
    rates a ranked game in its family (R25) in the same transaction and returns the ``end``
    entry's data as it is committed: with the ratings, or why the game is not rated."""
    if isinstance(op, GameStart):
        conn.execute(insert(games).values(
            id=op.game_id, table_id=op.table_id, number=op.number, players=json.dumps(op.players), ranked=op.ranked,
            started_at=op.at, game=op.game, family=elo.family(op.game),
        ))
        return None
    pair = unrated = None
    data = dict(op.entry.data)
    if op.ranked is not None:
        pair = pair_key(*op.ranked)
        family = conn.execute(select(games.c.family).where(games.c.id == op.game_id)).scalar()
        verdict = rate_game(conn, op, str(family or elo.HOUSE_FAMILY))
        unrated = verdict.unrated
        if unrated is not None:
            data["unrated"] = unrated
        else:
            assert verdict.ratings is not None
            data["ratings"] = {name: list(pair_) for name, pair_ in verdict.ratings.items()}
            data["provisional"] = list(verdict.provisional)
    conn.execute(update(games).where(games.c.id == op.game_id).values(
        finished_at=op.at, places=json.dumps(op.places), record=json.dumps(op.record), pair=pair, unrated=unrated,
    ))
    return data


class Games:
    """Reads of the games: one, a table's, a player's."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, game_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(games).where(games.c.id == game_id))).first()
        return _game(row) if row is not None else None

    async def of_table(self, table_id: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(games).where(games.c.table_id == table_id).order_by(games.c.number))).all()
        return [_game(r) for r in rows]

    async def of_player(self, names: str | Sequence[str], limit: int) -> list[dict[str, Any]]:
        """Finished games played under any of ``names`` (an account's names, Accounts.names_of),
        newest first (ranked or not), without records; ``as`` is the name the player had in it.

        ``players`` is stored as JSON text; matching the quoted name (escaped
        for LIKE) works on SQLite and PostgreSQL alike, and the exact check
        below drops any accidental substring match."""
        wanted = [names] if isinstance(names, str) else list(names)
        query = (
            select(games.c.id, games.c.table_id, games.c.number, games.c.players, games.c.ranked,
                   games.c.started_at, games.c.finished_at, games.c.places, games.c.unrated, games.c.family, games.c.game)
            .where(games.c.finished_at.is_not(None),
                   or_(*(games.c.players.contains(json.dumps(name), autoescape=True) for name in wanted)))
            .order_by(games.c.finished_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        found = []
        for r in rows:
            players = json.loads(r.players)
            played_as = next((name for name in wanted if name in players), None)
            if played_as is not None:
                found.append({
                    "id": r.id, "table": r.table_id, "number": r.number, "players": players, "as": played_as,
                    "ranked": bool(r.ranked), "rated": bool(r.ranked) and r.unrated is None, "finished_at": r.finished_at,
                    "places": json.loads(r.places) if r.places else None, "family": r.family,
                    "game": r.game,  # the table's game code; null: the house game (the profile names it)
                })
        return found


def _game(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "table": row.table_id,
        "number": row.number,
        "players": json.loads(row.players),
        "ranked": bool(row.ranked),
        "finished": row.finished_at is not None,
        "places": json.loads(row.places) if row.places else None,
        "rated": bool(row.ranked) and row.finished_at is not None and row.unrated is None,
        "record": json.loads(row.record) if row.record else None,
        "family": row.family,
    }
