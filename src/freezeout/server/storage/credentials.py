"""Log-in sessions and API tokens in the database: each kept only as the sha256 of
the secret the client holds (accounts.token_hash), with its expiry."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.storage.db import api_tokens, sessions, users
from freezeout.server.storage.users import UserRow, user_row

__all__ = ["TOKEN_ID_LENGTH", "ApiTokens", "Sessions"]

TOKEN_ID_LENGTH = 16  # an API token is named by the first hex digits of its hash


class Sessions:
    """The page's log-in sessions (a cookie and its CSRF token)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, token_hash: str, user_id: int, csrf: str, at: float, expires_at: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(token_hash=token_hash, user_id=user_id, csrf=csrf, created_at=at, expires_at=expires_at)
            )

    async def find(self, token_hash: str, now: float) -> tuple[UserRow, str, float] | None:
        """The session's user, CSRF token and expiry, while it has not expired."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users, sessions.c.csrf, sessions.c.expires_at).join(sessions, sessions.c.user_id == users.c.id)
                    .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > now)
                )
            ).first()
        return (user_row(row), str(row.csrf), float(row.expires_at)) if row is not None else None

    async def delete(self, token_hash: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    async def expiring(self, now: float) -> frozenset[int]:
        """The accounts whose sessions have all expired, some not yet deleted: they have left the
        room (C13: their waiting lists are dropped before :meth:`delete_expired` forgets them)."""
        live = select(sessions.c.user_id).where(sessions.c.expires_at > now)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(sessions.c.user_id).where(
                sessions.c.expires_at <= now, sessions.c.user_id.not_in(live)).distinct())).all()
        return frozenset(int(row.user_id) for row in rows)

    async def delete_expired(self, now: float) -> int:
        """Forget sessions past their expiry (they no longer log anyone in); returns how many."""
        async with self.engine.begin() as conn:
            result = await conn.execute(sessions.delete().where(sessions.c.expires_at <= now))
        return int(result.rowcount or 0)


class ApiTokens:
    """Bots' and scripts' bearer tokens."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, token_hash: str, user_id: int, at: float, *, expires_at: float, label: str = "",
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

    async def find(self, token_hash: str, now: float) -> tuple[UserRow, float] | None:
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
        return user_row(row), float(row.expires_at)

    async def of(self, user_id: int, now: float) -> list[dict[str, Any]]:
        """A user's live tokens, newest first; a token's ``id`` is the start of its hash (never the token)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(api_tokens).where(api_tokens.c.user_id == user_id, api_tokens.c.expires_at > now)
                .order_by(api_tokens.c.created_at.desc())
            )).all()
        return [{"id": r.token_hash[:TOKEN_ID_LENGTH], "label": r.label, "created_at": r.created_at,
                 "expires_at": r.expires_at, "last_used_at": r.last_used_at} for r in rows]

    async def revoke(self, user_id: int, token_id: str) -> str | None:
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

    async def delete_expired(self, now: float) -> int:
        async with self.engine.begin() as conn:
            result = await conn.execute(api_tokens.delete().where(api_tokens.c.expires_at <= now))
        return int(result.rowcount or 0)
