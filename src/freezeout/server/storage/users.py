"""Accounts in the database: who exists, under which names (issues #21-8, #23-7).

A :class:`UserRow` is an account as the rest of the server sees it; its
``rating`` is the house game's (the other families' ratings live in
storage/ratings.py).  :class:`Accounts` creates and finds accounts and keeps the
names each has gone by, so that nobody takes a name another account reads
like, and a profile still finds the games played under an old name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, case, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server import elo
from freezeout.server.accounts import bot_display, confusable_key, name_key
from freezeout.server.storage.db import user_names, users

__all__ = ["Accounts", "NameTaken", "UserRow", "shown_name", "user_row"]


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
        return shown_name(self.name, self.kind, self.display)

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "display": self.shown, "kind": self.kind,
                "rating": round(self.rating, 1), "provisional": elo.provisional(self.ranked_games)}


def user_row(row: Any) -> UserRow:
    """A :class:`UserRow` from a row that has the ``users`` columns."""
    return UserRow(row.id, row.name, row.kind, row.password_hash, float(row.rating), int(row.ranked_games), row.display)


def shown_name(name: str, kind: str, display: str | None) -> str:
    """:attr:`UserRow.shown` for a row that is not a UserRow (the leaderboard's)."""
    return display or (bot_display(name) if kind == "bot" else None) or name


class Accounts:
    """The ``users`` and ``user_names`` tables."""

    def __init__(self, engine: AsyncEngine, on_create: Callable[[Connection, int, float], None] | None = None) -> None:
        self.engine = engine
        self._on_create = on_create  # the ledger's (Ledger.open_in): balance and grant, in the same transaction (C9)

    async def create(self, name: str, kind: str, password_hash: str | None, at: float) -> UserRow:
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
                if self._on_create is not None:
                    await conn.run_sync(self._on_create, user_id, at)
        except IntegrityError:
            raise NameTaken(name) from None
        return UserRow(user_id, name, kind, password_hash, elo.INITIAL_RATING, 0)

    async def ensure(self, name: str, kind: str, at: float) -> UserRow:
        """The account called ``name``, created if there is none (a bot's)."""
        existing = await self.by_name(name)
        if existing is not None:
            return existing
        try:
            return await self.create(name, kind, None, at)
        except NameTaken:
            found = await self.by_name(name)
            assert found is not None
            return found

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
        return user_row(row)

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

    async def by_any_name(self, name: str) -> UserRow | None:
        """The account called ``name`` (:meth:`by_name`), else the one that shows, or
        showed, as ``name`` (a profile link from a table or a hand history)."""
        found = await self.by_name(name)
        if found is not None:
            return found
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users).join(user_names, user_names.c.user_id == users.c.id)
                                      .where(user_names.c.name == name).order_by(user_names.c.id.desc()).limit(1))).first()
        return user_row(row) if row is not None else None

    async def by_name(self, name: str) -> UserRow | None:
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
        return user_row(row) if row is not None else None

    async def by_id(self, user_id: int) -> UserRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users).where(users.c.id == user_id))).first()
        return user_row(row) if row is not None else None

    async def count(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(users))).scalar_one())
