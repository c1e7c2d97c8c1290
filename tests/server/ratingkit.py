"""A rating made established in a test (elo.established, issue #32 item 6): counted games
against ``ESTABLISHING_OPPONENTS`` distinct opponents who vouched, as history rows."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select

from freezeout.server import elo
from freezeout.server.storage.db import rating_history, users


async def establish(engine: Any, name: str, at: float, family: str = elo.HOUSE_FAMILY) -> None:
    """Give ``name``'s rating in ``family`` the vouching opponents it needs (its count of games
    is the test's to set); the rows are dated ``at`` (the leaderboard lists ratings active lately)."""
    async with engine.begin() as conn:
        user_id = (await conn.execute(select(users.c.id).where(users.c.name == name))).scalar_one()
        await conn.execute(insert(rating_history), [
            {"user_id": user_id, "game_id": f"vouch-{name}-{i}", "before": 1500.0, "after": 1500.0, "at": at,
             "family": family, "opponent": -1 - i, "vouched": True} for i in range(elo.ESTABLISHING_OPPONENTS)])
