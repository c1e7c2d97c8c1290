"""Ratings in the database: Elo per family (elo.py), their history and leaderboards.

The house game's rating is the account's own (``users.rating`` and
``ranked_games``, where it has always been); every other family's is a row
of ``ratings``, made with the account's first counted game in the family.
:func:`rate_game` runs inside the transaction that ends the game (R25: the
end, its record and the ratings commit together, storage/tablelog.py); the rest
answers the leaderboard and the profile.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, distinct, func, insert, select, true, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server import elo
from freezeout.server.storage.db import games, rating_history, ratings, users
from freezeout.server.storage.sightings import shared
from freezeout.server.storage.users import shown_name
from freezeout.server.table.entries import GameEnd

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


def rate_game(conn: Connection, op: GameEnd, family: str) -> str | None:
    """Rate the ranked game ``op`` in ``family`` (elo.rate with the rings' rules, each counted
    within the family); None when rated (``entry.data`` then has the ratings), else why not:
    ``aborted``, ``shared`` or ``pair_limit``."""
    assert op.ranked is not None
    winner_id, loser_id = op.ranked
    pair = pair_key(winner_id, loser_id)
    if op.aborted:
        return "aborted"
    if shared(conn, winner_id, loser_id, op.at):
        return "shared"
    if op.pair_limit is not None and _pair_games(conn, pair, family, op.at - 86400) >= op.pair_limit:
        return "pair_limit"
    recent = _pair_games(conn, pair, family, op.at - elo.PAIR_WINDOW_DAYS * 86400)
    op.entry.data["ratings"], op.entry.data["provisional"] = _rate(conn, op, family, recent)
    return None


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


def _rate(conn: Connection, op: GameEnd, family: str, pair_games: int) -> tuple[dict[str, list[float]], list[str]]:
    """Both players' new Elo (R25, elo.rate) and history rows, for each player the game
    counts for; the ratings [before, after] of both by player name, and the names whose
    ratings are not established after the game (elo.established).  ``pair_games``: the pair's rated games in the
    family in the last ``PAIR_WINDOW_DAYS`` days (they shrink this one's changes)."""
    assert op.ranked is not None
    winner_id, loser_id = op.ranked
    standing = _standing(conn, [winner_id, loser_id], family)
    (_, rw, gw, _), (_, rl, gl, _) = standing[winner_id], standing[loser_id]
    settled = established_ids(conn, family)

    def vouches(user_id: int, *, for_win: bool = False) -> bool:
        _, _, games_played, kind = standing[user_id]
        return elo.vouches(kind, games=games_played, established_now=user_id in settled,
                           family_established=len(settled), for_win=for_win)

    changes = elo.rate((rw, gw), (rl, gl), short=elo.short_game(op.left_after), pair_games=pair_games,
                       loser_vouches=vouches(loser_id, for_win=True))
    board: dict[str, list[float]] = {}
    still: list[str] = []
    for user_id, change in zip((winner_id, loser_id), changes, strict=True):
        account = standing[user_id][0]
        other = loser_id if user_id == winner_id else winner_id
        name = op.names.get(user_id, account)
        board[name] = [round(change.before, 1), round(change.after, 1)]
        if not change.counted:
            continue
        _save(conn, user_id, family, change.after)
        conn.execute(insert(rating_history).values(user_id=user_id, game_id=op.game_id, before=change.before,
                                                   after=change.after, at=op.at, family=family, opponent=other,
                                                   vouched=vouches(other)))
    settled_after = established_ids(conn, family)  # with this game's rows
    for user_id in (winner_id, loser_id):
        if user_id not in settled_after:
            still.append(op.names.get(user_id, standing[user_id][0]))
    return board, still


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
