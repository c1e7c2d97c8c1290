"""Ratings in the database: Elo per family (elo.py), their history and leaderboards.

The house game's rating is the account's own (``users.rating`` and
``ranked_games``, where it has always been); every other family's is a row
of ``ratings``, made with the account's first counted game in the family.
:func:`rate_game` runs inside the transaction that ends the game (R25: the
end, its record and the ratings commit together, storage/tablelog.py): it reads
the facts, the pure policy (elo.decide) decides, and it writes the verdict; the
rest answers the leaderboard and the profile.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, distinct, func, insert, select, true, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server import elo
from freezeout.server.entries import GameEnd
from freezeout.server.storage.db import games, rating_history, ratings, users
from freezeout.server.storage.sightings import shared
from freezeout.server.storage.users import shown_name

__all__ = ["Ratings", "established_ids", "pair_key", "rate_game"]


def pair_key(a: int, b: int) -> str:
    """A ranked game's two accounts, ``"low id:high id"`` (``games.pair``)."""
    return f"{min(a, b)}:{max(a, b)}"


def _pair_games(conn: Connection, pair: str, family: str, since: float) -> int:
    """The pair's rated games in ``family`` finished after ``since``."""
    return int(conn.execute(
        select(func.count()).select_from(games).where(
            games.c.pair == pair, games.c.family == family, games.c.unrated.is_(None), games.c.finished_at > since)
    ).scalar_one())


def rate_game(conn: Connection, op: GameEnd, family: str) -> elo.Verdict:
    """Rate the ranked game ``op`` in ``family`` inside the transaction that ends it: read the
    facts, let the policy decide (elo.decide), write what it decided.  Storage decides nothing."""
    verdict = elo.decide(_facts(conn, op, family))
    for row in verdict.rows:
        _save(conn, row.account, family, row.after)
        conn.execute(insert(rating_history).values(user_id=row.account, game_id=op.game_id, before=row.before,
                                                   after=row.after, at=op.at, family=family, opponent=row.opponent,
                                                   vouched=row.vouched))
    return verdict


def _facts(conn: Connection, op: GameEnd, family: str) -> elo.GameFacts:
    """What elo.decide needs of the ranked game ``op``, as the family stands before it."""
    assert op.ranked is not None
    winner_id, loser_id = op.ranked
    pair = pair_key(winner_id, loser_id)
    standing = _standing(conn, [winner_id, loser_id], family)
    settled = established_ids(conn, family)
    vouched_by = _vouched_by(conn, [winner_id, loser_id], family)

    def player(user_id: int) -> elo.Standing:
        account, rating, games_played, kind = standing[user_id]
        return elo.Standing(user_id, op.names.get(user_id, account), rating, games_played, kind, user_id in settled,
                            vouched_by.get(user_id, frozenset()))

    return elo.GameFacts(
        player(winner_id), player(loser_id), len(settled), aborted=op.aborted,
        shared=not op.aborted and shared(conn, winner_id, loser_id, op.at), left_after=op.left_after,
        pair_limit=op.pair_limit,
        pair_games_today=_pair_games(conn, pair, family, op.at - 86400) if op.pair_limit is not None else 0,
        pair_games_recent=_pair_games(conn, pair, family, op.at - elo.PAIR_WINDOW_DAYS * 86400))


def _vouched_by(conn: Connection, user_ids: list[int], family: str) -> dict[int, frozenset[int]]:
    """Each account's distinct opponents in ``family`` that vouched for it (elo.established)."""
    found: dict[int, set[int]] = {}
    for user_id, opponent in conn.execute(
            select(rating_history.c.user_id, rating_history.c.opponent).distinct()
            .where(rating_history.c.user_id.in_(user_ids), rating_history.c.family == family,
                   rating_history.c.vouched == true())).all():
        found.setdefault(int(user_id), set()).add(int(opponent))
    return {user_id: frozenset(opponents) for user_id, opponents in found.items()}


def _standing(conn: Connection, user_ids: list[int], family: str) -> dict[int, tuple[str, float, int, str]]:
    """Each account's name, rating, counted games in ``family`` (a family it has not
    played yet: the initial rating, no games) and kind."""
    names = {r.id: r for r in conn.execute(select(users.c.id, users.c.name, users.c.rating, users.c.ranked_games,
                                                  users.c.kind).where(users.c.id.in_(user_ids))).all()}
    if family == elo.HOUSE_FAMILY:
        return {i: (names[i].name, float(names[i].rating), int(names[i].ranked_games), names[i].kind) for i in user_ids}
    rows = {r.user_id: r for r in conn.execute(select(ratings).where(ratings.c.user_id.in_(user_ids),
                                                                     ratings.c.family == family)).all()}
    return {i: (names[i].name, float(rows[i].rating) if i in rows else elo.INITIAL_RATING,
                int(rows[i].ranked_games) if i in rows else 0, names[i].kind) for i in user_ids}


def established_ids(conn: Connection, family: str) -> set[int]:
    """The accounts whose rating in ``family`` is established (elo.established): enough counted
    games, and counted games against ``ESTABLISHING_OPPONENTS`` distinct opponents who vouched."""
    vouched = set(conn.execute(
        select(rating_history.c.user_id).where(rating_history.c.family == family, rating_history.c.vouched == true())
        .group_by(rating_history.c.user_id)
        .having(func.count(distinct(rating_history.c.opponent)) >= elo.ESTABLISHING_OPPONENTS)).scalars())
    if not vouched:
        return set()
    if family == elo.HOUSE_FAMILY:
        query = select(users.c.id).where(users.c.id.in_(vouched), users.c.ranked_games >= elo.PROVISIONAL_GAMES)
    else:
        query = select(ratings.c.user_id).where(ratings.c.user_id.in_(vouched), ratings.c.family == family,
                                                ratings.c.ranked_games >= elo.PROVISIONAL_GAMES)
    return {int(i) for i in conn.execute(query).scalars()}


def _save(conn: Connection, user_id: int, family: str, rating: float) -> None:
    """One more counted game at ``rating`` for the account in ``family``."""
    if family == elo.HOUSE_FAMILY:
        conn.execute(update(users).where(users.c.id == user_id).values(rating=rating, ranked_games=users.c.ranked_games + 1))
        return
    # The row may be new; made idempotently, so two workers ending games at once cannot collide.
    first = pg_insert(ratings) if conn.dialect.name == "postgresql" else sqlite_insert(ratings)
    conn.execute(first.values(user_id=user_id, family=family, rating=elo.INITIAL_RATING, ranked_games=0)
                 .on_conflict_do_nothing())
    conn.execute(update(ratings).where(ratings.c.user_id == user_id, ratings.c.family == family)
                 .values(rating=rating, ranked_games=ratings.c.ranked_games + 1))


class Ratings:
    """Reads of the ratings: leaderboards, an account's ratings and their history."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def leaderboard(self, limit: int, family: str = elo.HOUSE_FAMILY, now: float | None = None,
                          ) -> list[dict[str, Any]]:
        """Rated accounts of ``family``: the established ratings with a counted game in the last
        ``ACTIVE_DAYS`` days (elo.listed; every established one when ``now`` is None) by rating,
        each with its ``place``, then the provisional ones with ``place`` None.  Only a rating
        earned against eight established players (elo.py "Standing earned outside the ring")
        takes a place: a ring's puppets, or its farmer, rank nobody."""
        if family == elo.HOUSE_FAMILY:
            rating, count = users.c.rating, users.c.ranked_games
            source: Any = users
        else:
            rating, count = ratings.c.rating, ratings.c.ranked_games
            source = users.join(ratings, (ratings.c.user_id == users.c.id) & (ratings.c.family == family))
        query = (select(users.c.id, users.c.name, users.c.kind, users.c.display, rating.label("rating"),
                        count.label("games"))
                 .select_from(source).where(users.c.kind != "guest", count > 0).order_by(rating.desc(), users.c.name))
        last = (select(rating_history.c.user_id, func.max(rating_history.c.at))
                .where(rating_history.c.family == family).group_by(rating_history.c.user_id))
        async with self.engine.connect() as conn:
            settled = await conn.run_sync(established_ids, family)
            active = {int(i): float(at) for i, at in (await conn.execute(last)).all()}
            rows = (await conn.execute(query)).all()
        ranked = [r for r in rows if elo.listed(r.id in settled, active.get(r.id), active.get(r.id, 0.0) if now is None else now)]
        unsure = [r for r in rows if r.id not in settled]  # an established rating gone quiet is left out
        board = []
        for place, r in enumerate([*ranked, *unsure][:limit], start=1):
            provisional = r.id not in settled
            board.append({"name": r.name, "display": shown_name(r.name, r.kind, r.display), "kind": r.kind,
                          "rating": round(float(r.rating), 1), "games": int(r.games), "provisional": provisional,
                          "place": None if provisional else place})
        return board

    async def established(self, user_id: int) -> set[str]:
        """The families in which the account's rating is established (elo.established)."""
        async with self.engine.connect() as conn:
            families = {str(f) for f in (await conn.execute(select(rating_history.c.family).distinct()
                                                            .where(rating_history.c.user_id == user_id))).scalars()}
            return {f for f in families if user_id in await conn.run_sync(established_ids, f)}

    async def of_user(self, user_id: int) -> dict[str, dict[str, Any]]:
        """The account's rating in every family it has played a counted game in, but the
        house game's (that one is the account's own, :class:`UserRow`); ``provisional`` until
        established (elo.established)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(ratings).where(ratings.c.user_id == user_id))).all()
        settled = await self.established(user_id)
        return {r.family: {"rating": round(float(r.rating), 1), "games": int(r.ranked_games),
                           "provisional": r.family not in settled}
                for r in sorted(rows, key=lambda r: elo.FAMILIES.index(r.family) if r.family in elo.FAMILIES else 99)}

    async def history(self, user_id: int, family: str = elo.HOUSE_FAMILY) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(select(rating_history).where(rating_history.c.user_id == user_id,
                                                                rating_history.c.family == family)
                                   .order_by(rating_history.c.id))
            ).all()
        return [{"game": r.game_id, "before": round(r.before, 1), "after": round(r.after, 1), "at": r.at} for r in rows]
