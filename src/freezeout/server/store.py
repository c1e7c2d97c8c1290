"""Storage: accounts, the per-table event log, games and ratings.

Writes to the event log go through one writer task that commits whatever
has queued up in a single transaction (group commit) and only then resolves
each caller's future — so "write before you tell" (design principle 7)
holds while thousands of tables share one database.  A game's end, its
record and the Elo update of a ranked game are one transaction (R25).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, case, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import PoolProxiedConnection

from freezeout.server import elo
from freezeout.server.accounts import bot_display, confusable_key, name_key
from freezeout.server.db import (
    api_tokens,
    games,
    rating_history,
    sessions,
    sightings,
    sync_sqlite_engine,
    table_log,
    tables,
    user_names,
    users,
)
from freezeout.server.logentries import GameEnd, GameStart, LogEntry
from freezeout.server.ownership import StaleOwner, is_stale_owner_error
from freezeout.server.wire import dumps

__all__ = ["TOKEN_ID_LENGTH", "GameEnd", "GameStart", "LogEntry", "NameTaken", "Store", "UserRow", "shown_name"]

log = logging.getLogger(__name__)


TOKEN_ID_LENGTH = 16  # an API token is named by the first hex digits of its hash


class NameTaken(Exception):
    pass


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    name: str
    kind: str
    password_hash: str | None
    rating: float
    ranked_games: int
    display: str | None = None  # the name the player chose to be shown (None: ``name``)

    @property
    def shown(self) -> str:
        """The name shown for the account everywhere — at the table, in the lobby, on the
        leaderboard and in the hand histories of games it sits down to: the display name
        chosen, a bot's persona (``bot-medium`` is Max), else the account's name."""
        return self.display or (bot_display(self.name) if self.kind == "bot" else None) or self.name

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "display": self.shown, "kind": self.kind,
                "rating": round(self.rating, 1), "provisional": elo.provisional(self.ranked_games)}


_Job = tuple[list[LogEntry], list[GameStart | GameEnd]]

_LOG_INSERT = insert(table_log)
_SQLITE_LOG_INSERT = "INSERT INTO table_log (table_id, seq, at, kind, data, epoch) VALUES (?, ?, ?, ?, ?, ?)"


def _log_row(e: LogEntry) -> tuple[str, int, float, str, str, int | None]:
    return (e.table_id, e.seq, e.at, e.kind, dumps(e.data), e.epoch)


def _pair(a: int, b: int) -> str:
    return f"{min(a, b)}:{max(a, b)}"


def _sighting(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode("utf-8", "surrogatepass")).hexdigest()


def identifies(address: str) -> bool:
    """Whether a client address says who is there: a loopback address does not (behind a
    reverse proxy that sends no ``X-Forwarded-For`` every client is 127.0.0.1)."""
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address not in ("", "?", "localhost", "testclient")


def _user(row: Any) -> UserRow:
    return UserRow(row.id, row.name, row.kind, row.password_hash, float(row.rating), int(row.ranked_games), row.display)


def shown_name(name: str, kind: str, display: str | None) -> str:
    """:attr:`UserRow.shown` for a row that is not a UserRow (the leaderboard's)."""
    return display or (bot_display(name) if kind == "bot" else None) or name


class Store:
    def __init__(self, engine: AsyncEngine, *, batch_limit: int = 256) -> None:
        self.engine = engine
        self._queue: asyncio.Queue[tuple[_Job, asyncio.Future[None]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._batch_limit = batch_limit
        self._sync_engine = sync_sqlite_engine(engine) if engine.dialect.name == "sqlite" else None
        self._raw: PoolProxiedConnection | None = None  # the SQLite log writer's own connection

    async def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")
        if self.engine.dialect.name == "sqlite":
            self._checkpointer = asyncio.create_task(self._checkpoint_loop(), name="store-checkpoint")

    async def _checkpoint_loop(self, period: float = 2.0) -> None:
        """SQLite: copy the WAL into the database from another connection, so
        that the writer's commits never wait for a checkpoint's disk syncs."""
        while True:
            await asyncio.sleep(period)
            try:
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:
                log.exception("checkpoint failed")

    async def close(self) -> None:
        for task in (self._writer, self._checkpointer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.engine.dispose()
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        if self._sync_engine is not None:
            self._sync_engine.dispose()

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(select(1))

    # -- the event log ---------------------------------------------------
    async def append(self, entries: list[LogEntry], ops: Sequence[GameStart | GameEnd] = ()) -> None:
        """Commit ``entries`` (and game rows) durably; return only once committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put(((entries, list(ops)), future))
        await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self._batch_limit and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            started = time.perf_counter()
            try:
                await self._commit([job for job, _ in batch])
                took = time.perf_counter() - started
                if took > 0.1:
                    log.warning("slow log commit: %d jobs in %.0f ms", len(batch), took * 1000)
            except Exception as failure:
                if len(batch) == 1:
                    self._log_failure(failure)
                    self._settle(batch[0][1], error=failure)
                    continue
                for job, future in batch:  # one bad job must not fail the others
                    try:
                        await self._commit([job])
                    except Exception as exc:
                        self._log_failure(exc)
                        self._settle(future, error=exc)
                    else:
                        self._settle(future)
            else:
                for _, future in batch:
                    self._settle(future)

    async def _commit(self, jobs: list[_Job]) -> None:
        """One transaction for ``jobs``.  SQLite: the whole transaction runs in
        one call on a worker thread with a plain connection, so a busy event
        loop costs it one wake-up instead of one per statement."""
        if self._sync_engine is not None:
            engine = self._sync_engine

            def run() -> None:
                if any(ops for _, ops in jobs):
                    with engine.begin() as conn:
                        self._write_jobs(conn, jobs)
                    return
                # Only log entries (nearly every commit): one executemany on a connection this
                # store keeps, without SQLAlchemy's per-transaction connection checkout and events.
                if self._raw is None:
                    self._raw = engine.raw_connection()
                raw = self._raw
                try:
                    raw.cursor().executemany(_SQLITE_LOG_INSERT, [_log_row(e) for entries, _ in jobs for e in entries])
                    raw.commit()
                except BaseException:
                    raw.rollback()
                    raise

            await asyncio.to_thread(run)
        else:
            async with self.engine.begin() as conn:
                await conn.run_sync(self._write_jobs, jobs)

    @staticmethod
    def _log_failure(error: Exception) -> None:
        """A fenced refusal is the design working (an owner lost its table): one line, no trace."""
        if is_stale_owner_error(error):
            log.warning("log write refused: %s", error)
        else:
            log.error("log write failed", exc_info=error)

    @staticmethod
    def _settle(future: asyncio.Future[None], *, error: BaseException | None = None) -> None:
        """Resolve a caller's append; a fenced refusal is :class:`StaleOwner`, so that the
        owner that lost its table can tell it from a database that is down."""
        if future.done():
            return
        if error is None:
            future.set_result(None)
        elif is_stale_owner_error(error):
            future.set_exception(StaleOwner(str(error)))
        else:
            future.set_exception(RuntimeError("the database refused the write"))

    def _write_jobs(self, conn: Connection, jobs: list[_Job]) -> None:
        """Synchronous: the jobs' game rows, then every plain log entry in one statement."""
        plain: list[LogEntry] = []
        for entries, ops in jobs:
            if not ops:
                plain.extend(entries)
                continue
            for op in ops:
                if isinstance(op, GameStart):
                    conn.execute(
                        insert(games).values(
                            id=op.game_id, table_id=op.table_id, number=op.number, players=json.dumps(op.players),
                            ranked=op.ranked, started_at=op.at,
                        )
                    )
                else:
                    self._end_game(conn, op)
            plain.extend(entries)
        if not plain:
            return
        # In table order: each entry's fencing trigger takes its table's owner row FOR SHARE, and
        # a worker's lease renewal locks those rows in the same order (ownership.renew_many).
        plain.sort(key=lambda e: (e.table_id, e.seq))
        if conn.dialect.name == "sqlite":  # the hot path: the driver's executemany, no statement compilation
            conn.exec_driver_sql(_SQLITE_LOG_INSERT, [_log_row(e) for e in plain])
        else:
            conn.execute(
                _LOG_INSERT,
                [{"table_id": e.table_id, "seq": e.seq, "at": e.at, "kind": e.kind, "data": dumps(e.data), "epoch": e.epoch}
                 for e in plain],
            )

    @staticmethod
    def _end_game(conn: Connection, op: GameEnd) -> None:
        pair = unrated = None
        if op.ranked is not None:
            winner_id, loser_id = op.ranked
            pair = _pair(winner_id, loser_id)
            if op.aborted:
                unrated = "aborted"
            elif Store._shared(conn, winner_id, loser_id, op.at):
                unrated = "shared"
            elif op.pair_limit is not None:
                counted = conn.execute(
                    select(func.count()).select_from(games).where(
                        games.c.pair == pair, games.c.unrated.is_(None), games.c.finished_at > op.at - 86400)
                ).scalar_one()
                if counted >= op.pair_limit:
                    unrated = "pair_limit"
            if unrated is None:
                pair_games = conn.execute(
                    select(func.count()).select_from(games).where(
                        games.c.pair == pair, games.c.unrated.is_(None),
                        games.c.finished_at > op.at - elo.PAIR_WINDOW_DAYS * 86400)
                ).scalar_one()
                op.entry.data["ratings"], op.entry.data["provisional"] = Store._rate(conn, op, winner_id, loser_id,
                                                                                     int(pair_games))
            else:
                op.entry.data["unrated"] = unrated
        conn.execute(
            update(games).where(games.c.id == op.game_id).values(
                finished_at=op.at, places=json.dumps(op.places), record=json.dumps(op.record), pair=pair, unrated=unrated,
            )
        )

    @staticmethod
    def _shared(conn: Connection, a: int, b: int, at: float) -> bool:
        """Whether accounts ``a`` and ``b`` were both seen at one address or with one device
        cookie in the last ``SHARED_WINDOW_DAYS`` days (elo.py "Rings")."""
        mine, theirs = sightings.alias("mine"), sightings.alias("theirs")
        since = at - elo.SHARED_WINDOW_DAYS * 86400
        found = conn.execute(
            select(mine.c.kind).select_from(mine.join(theirs, and_(mine.c.digest == theirs.c.digest,
                                                                   mine.c.kind == theirs.c.kind)))
            .where(mine.c.user_id == a, theirs.c.user_id == b, mine.c.last_at > since, theirs.c.last_at > since)
            .limit(1)
        ).first()
        return found is not None

    @staticmethod
    def _rate(conn: Connection, op: GameEnd, winner_id: int, loser_id: int, pair_games: int = 0,
              ) -> tuple[dict[str, list[float]], list[str]]:
        """Both players' new Elo (R25, elo.rate) and history rows, for each player the game
        counts for; the ratings [before, after] of both by player name, and the names whose
        ratings are provisional after the game.  ``pair_games``: the pair's rated games in the
        last ``PAIR_WINDOW_DAYS`` days (they shrink this one's changes)."""
        rows = {r.id: r for r in conn.execute(select(users).where(users.c.id.in_([winner_id, loser_id]))).all()}
        w, lo = rows[winner_id], rows[loser_id]
        changes = elo.rate((w.rating, w.ranked_games), (lo.rating, lo.ranked_games), short=elo.short_game(op.left_after),
                           pair_games=pair_games)
        ratings: dict[str, list[float]] = {}
        still: list[str] = []
        for row, change in zip((w, lo), changes, strict=True):
            name = op.names.get(row.id, row.name)
            ratings[name] = [round(change.before, 1), round(change.after, 1)]
            if elo.provisional(row.ranked_games + change.counted):
                still.append(name)
            if not change.counted:
                continue
            conn.execute(update(users).where(users.c.id == row.id).values(rating=change.after,
                                                                          ranked_games=users.c.ranked_games + 1))
            conn.execute(insert(rating_history).values(user_id=row.id, game_id=op.game_id, before=change.before,
                                                       after=change.after, at=op.at))
        return ratings, still

    async def create_table(self, table_id: str, entry: LogEntry) -> None:
        """The table's row and its first entry in one transaction: a worker looking for tables
        without an owner must never see the row alone (it would take the table, and the first
        entry, written without an epoch, would then be refused)."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(tables).values(id=table_id, created_at=entry.at, closed=False))
            await conn.execute(_LOG_INSERT, [{"table_id": entry.table_id, "seq": entry.seq, "at": entry.at,
                                              "kind": entry.kind, "data": dumps(entry.data), "epoch": entry.epoch}])

    async def close_table(self, table_id: str) -> None:
        """Retire a table: it is no longer rebuilt on start (its games stay downloadable)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(closed=True))

    async def table_open(self, table_id: str) -> bool:
        """Whether ``table_id`` exists and is not retired (a gateway routing to it)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables.c.closed).where(tables.c.id == table_id))).first()
        return row is not None and not row.closed

    async def open_table_logs(self) -> dict[str, list[LogEntry]]:
        """The whole log of every table not closed, for rebuilding after a restart."""
        async with self.engine.connect() as conn:
            ids = [r.id for r in (await conn.execute(select(tables.c.id).where(tables.c.closed.is_(False)))).all()]
            result: dict[str, list[LogEntry]] = {table_id: [] for table_id in ids}
            rows = await conn.execute(
                select(table_log).join(tables, tables.c.id == table_log.c.table_id)
                .where(tables.c.closed.is_(False)).order_by(table_log.c.table_id, table_log.c.seq)
            )
            for r in rows:
                result[r.table_id].append(LogEntry(r.table_id, r.seq, r.at, r.kind, json.loads(r.data)))
        return result

    async def table_entries(self, table_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """One table's log after entry ``after`` (at most ``limit`` entries), with each entry's
        epoch: what a worker that has just taken the table over folds to rebuild it
        (ownership.py), or the page a table reads to answer an old resend (intents.py)."""
        async with self.engine.connect() as conn:
            query = select(table_log).where(table_log.c.table_id == table_id, table_log.c.seq > after).order_by(table_log.c.seq)
            rows = await conn.execute(query if limit is None else query.limit(limit))
            return [LogEntry(r.table_id, r.seq, r.at, r.kind, json.loads(r.data), r.epoch) for r in rows]

    # -- accounts ----------------------------------------------------------
    async def create_user(self, name: str, kind: str, password_hash: str | None, at: float) -> UserRow:
        """A new account; :class:`NameTaken` when the name, compared by :func:`name_key`, exists.
        A registered account's name joins the names look-alikes are checked against
        (:meth:`look_alike`); guests' and bots' names are reserved words already."""
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(
                    insert(users).values(name=name, name_key=name_key(name), kind=kind, password_hash=password_hash,
                                         rating=elo.INITIAL_RATING, ranked_games=0, created_at=at)
                )
                user_id = int(result.inserted_primary_key[0])  # type: ignore[index]
                if kind == "user":
                    await conn.execute(insert(user_names).values(user_id=user_id, name=name, fold=confusable_key(name), at=at))
        except IntegrityError:
            raise NameTaken(name) from None
        return UserRow(user_id, name, kind, password_hash, elo.INITIAL_RATING, 0)

    # -- names (issues #21-8, #23-7) -----------------------------------------
    async def look_alike(self, name: str, *, besides: int | None = None) -> str | None:
        """A name another account goes (or went) by that reads like ``name`` — the same
        :func:`confusable_key` (``Alice`` for ``AIice``) — or None.  ``besides``: the asking
        account, whose own names never count against it."""
        query = select(user_names.c.name).where(user_names.c.fold == confusable_key(name))
        if besides is not None:
            query = query.where(user_names.c.user_id != besides)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query.limit(1))).first()
        return str(row.name) if row is not None else None

    async def set_display(self, user_id: int, display: str, at: float) -> UserRow:
        """Show the account as ``display`` from now on (tables it sits down to, the lobby, the
        leaderboard, its profile).  The name stays the account's for good: nobody else may
        take it later, and the profile still finds the games played under it.
        :class:`NameTaken` when another account has it (``user_names.name`` is unique)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(update(users).where(users.c.id == user_id).values(display=display))
                known = (await conn.execute(select(user_names.c.id).where(
                    user_names.c.user_id == user_id, user_names.c.name == display))).first()
                if known is None:
                    await conn.execute(insert(user_names).values(user_id=user_id, name=display, fold=confusable_key(display),
                                                                 at=at))
                row = (await conn.execute(select(users).where(users.c.id == user_id))).one()
        except IntegrityError:
            raise NameTaken(display) from None
        return _user(row)

    async def renames_since(self, user_id: int, since: float) -> int:
        """Display names the account took since ``since`` (the daily limit)."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(user_names).where(
                user_names.c.user_id == user_id, user_names.c.at > since, user_names.c.name != select(users.c.name)
                .where(users.c.id == user_id).scalar_subquery()))).scalar_one())

    async def names_of(self, user: UserRow) -> list[str]:
        """Every name the account has played under: its shown name first, then its account
        name and earlier display names."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(user_names.c.name).where(user_names.c.user_id == user.id)
                                       .order_by(user_names.c.id))).all()
        found = [user.shown, user.name, *(str(r.name) for r in rows)]
        return list(dict.fromkeys(found))

    async def user_by_any_name(self, name: str) -> UserRow | None:
        """The account called ``name`` (:meth:`user_by_name`), else the one that shows, or
        showed, as ``name`` (a profile link from a table or a hand history)."""
        found = await self.user_by_name(name)
        if found is not None:
            return found
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users).join(user_names, user_names.c.user_id == users.c.id)
                                      .where(user_names.c.name == name).order_by(user_names.c.id.desc()).limit(1))).first()
        return _user(row) if row is not None else None

    async def user_by_name(self, name: str) -> UserRow | None:
        """The account called ``name`` in any case or Unicode form (the exact spelling first:
        accounts that differed only by case before migration 0002 keep theirs)."""
        exact = users.c.name == name
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users).where(or_(exact, users.c.name_key == name_key(name)))
                    .order_by(case((exact, 0), else_=1)).limit(1)
                )
            ).first()
        return _user(row) if row is not None else None

    async def user_by_id(self, user_id: int) -> UserRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users).where(users.c.id == user_id))).first()
        return _user(row) if row is not None else None

    async def ensure_user(self, name: str, kind: str, at: float) -> UserRow:
        existing = await self.user_by_name(name)
        if existing is not None:
            return existing
        try:
            return await self.create_user(name, kind, None, at)
        except NameTaken:
            found = await self.user_by_name(name)
            assert found is not None
            return found

    async def seen(self, user_id: int, at: float, *, address: str | None = None, device: str | None = None) -> None:
        """Note that an account was just seen at a client ``address`` and/or with a device
        cookie (only digests are kept; a loopback address is not kept, see :func:`identifies`)."""
        found = [(kind, _sighting(kind, value)) for kind, value in (("address", address), ("device", device))
                 if value and (kind != "address" or identifies(value))]
        for kind, digest in found:
            for attempt in range(2):  # a concurrent first sighting of the same pair may win the insert
                try:
                    async with self.engine.begin() as conn:
                        key = and_(sightings.c.user_id == user_id, sightings.c.kind == kind, sightings.c.digest == digest)
                        if (await conn.execute(update(sightings).where(key).values(last_at=at))).rowcount == 0:
                            await conn.execute(insert(sightings).values(user_id=user_id, kind=kind, digest=digest,
                                                                        last_at=at))
                    break
                except IntegrityError:
                    if attempt:
                        raise

    async def create_session(self, token_hash: str, user_id: int, csrf: str, at: float, expires_at: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(token_hash=token_hash, user_id=user_id, csrf=csrf, created_at=at, expires_at=expires_at)
            )

    async def session(self, token_hash: str, now: float) -> tuple[UserRow, str, float] | None:
        """The session's user, CSRF token and expiry, while it has not expired."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users, sessions.c.csrf, sessions.c.expires_at).join(sessions, sessions.c.user_id == users.c.id)
                    .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > now)
                )
            ).first()
        return (_user(row), str(row.csrf), float(row.expires_at)) if row is not None else None

    async def delete_session(self, token_hash: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    async def delete_expired_sessions(self, now: float) -> int:
        """Forget sessions past their expiry (they no longer log anyone in); returns how many."""
        async with self.engine.begin() as conn:
            result = await conn.execute(sessions.delete().where(sessions.c.expires_at <= now))
        return int(result.rowcount or 0)

    async def create_api_token(self, token_hash: str, user_id: int, at: float, *, expires_at: float, label: str = "",
                               limit: int | None = None) -> bool:
        """Store a new token; False (nothing stored) when the user already has ``limit`` live ones."""
        async with self.engine.begin() as conn:
            if limit is not None:
                live = (await conn.execute(select(func.count()).select_from(api_tokens).where(
                    api_tokens.c.user_id == user_id, api_tokens.c.expires_at > at))).scalar_one()
                if live >= limit:
                    return False
            await conn.execute(insert(api_tokens).values(token_hash=token_hash, user_id=user_id, created_at=at,
                                                         expires_at=expires_at, label=label))
        return True

    async def api_token_user(self, token_hash: str, now: float) -> tuple[UserRow, float] | None:
        """The user of a token that has not expired, and its expiry; notes when it was last used
        (at most once a minute: a bot's every request is not a write)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users, api_tokens.c.expires_at, api_tokens.c.last_used_at)
                    .join(api_tokens, api_tokens.c.user_id == users.c.id)
                    .where(api_tokens.c.token_hash == token_hash, api_tokens.c.expires_at > now)
                )
            ).first()
        if row is None:
            return None
        if row.last_used_at is None or row.last_used_at < now - 60:
            async with self.engine.begin() as conn:
                await conn.execute(update(api_tokens).where(api_tokens.c.token_hash == token_hash).values(last_used_at=now))
        return _user(row), float(row.expires_at)

    async def api_tokens_of(self, user_id: int, now: float) -> list[dict[str, Any]]:
        """A user's live tokens, newest first; a token's ``id`` is the start of its hash (never the token)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(api_tokens).where(api_tokens.c.user_id == user_id, api_tokens.c.expires_at > now)
                .order_by(api_tokens.c.created_at.desc())
            )).all()
        return [{"id": r.token_hash[:TOKEN_ID_LENGTH], "label": r.label, "created_at": r.created_at,
                 "expires_at": r.expires_at, "last_used_at": r.last_used_at} for r in rows]

    async def revoke_api_token(self, user_id: int, token_id: str) -> str | None:
        """Delete the user's token whose id is ``token_id``; returns its hash (to close its sockets)."""
        if len(token_id) != TOKEN_ID_LENGTH or not all(c in "0123456789abcdef" for c in token_id):
            return None
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(api_tokens.c.token_hash).where(
                api_tokens.c.user_id == user_id, api_tokens.c.token_hash.startswith(token_id)))).first()
            if row is None:
                return None
            await conn.execute(api_tokens.delete().where(api_tokens.c.token_hash == row.token_hash))
        return str(row.token_hash)

    async def delete_expired_tokens(self, now: float) -> int:
        async with self.engine.begin() as conn:
            result = await conn.execute(api_tokens.delete().where(api_tokens.c.expires_at <= now))
        return int(result.rowcount or 0)

    # -- games and ratings ---------------------------------------------------
    async def game(self, game_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(games).where(games.c.id == game_id))).first()
        return _game(row) if row is not None else None

    async def table_games(self, table_id: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(games).where(games.c.table_id == table_id).order_by(games.c.number))).all()
        return [_game(r) for r in rows]

    async def player_games(self, names: str | Sequence[str], limit: int) -> list[dict[str, Any]]:
        """Finished games played under any of ``names`` (an account's names, :meth:`names_of`),
        newest first (ranked or not), without records; ``as`` is the name the player had in it.

        ``players`` is stored as JSON text; matching the quoted name (escaped
        for LIKE) works on SQLite and PostgreSQL alike, and the exact check
        below drops any accidental substring match."""
        wanted = [names] if isinstance(names, str) else list(names)
        query = (
            select(games.c.id, games.c.table_id, games.c.number, games.c.players, games.c.ranked,
                   games.c.started_at, games.c.finished_at, games.c.places, games.c.unrated)
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
                    "places": json.loads(r.places) if r.places else None,
                })
        return found

    async def leaderboard(self, limit: int) -> list[dict[str, Any]]:
        """Rated accounts by rating: established ratings first, each with its ``place``, then
        provisional ones with ``place`` None: a provisional rating ranks nobody (elo.py), so
        a farmer's puppets (or a farmer still provisional) never stand above an established player."""
        established = case((users.c.ranked_games >= elo.PROVISIONAL_GAMES, 0), else_=1)
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(users).where(users.c.kind != "guest", users.c.ranked_games > 0)
                    .order_by(established, users.c.rating.desc(), users.c.name).limit(limit)
                )
            ).all()
        board = []
        for place, r in enumerate(rows, start=1):
            unsure = elo.provisional(int(r.ranked_games))
            board.append({"name": r.name, "display": shown_name(r.name, r.kind, r.display), "kind": r.kind, "rating": round(float(r.rating), 1), "games": int(r.ranked_games),
                          "provisional": unsure, "place": None if unsure else place})
        return board

    async def rating_history(self, user_id: int) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(select(rating_history).where(rating_history.c.user_id == user_id).order_by(rating_history.c.id))
            ).all()
        return [{"game": r.game_id, "before": round(r.before, 1), "after": round(r.after, 1), "at": r.at} for r in rows]

    async def count_users(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(users))).scalar_one())


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
    }
