"""Accounts: argon2id passwords, opaque session and API tokens (stored only
as sha256 hashes), CSRF tokens and a log-in rate limiter."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import unicodedata
from collections import deque

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from freezeout.server.clock import Clock
from freezeout.server.settings import Settings

__all__ = ["NAME_RE", "Passwords", "RateLimiter", "display_name", "name_key", "new_token", "token_hash", "valid_name",
           "valid_password"]

NAME_RE = re.compile(r"[A-Za-z0-9_-]{2,24}")  # the whole name (fullmatch: ``$`` would let "ana\n" in)
RESERVED_PREFIXES = ("bot-", "guest-")


def valid_name(name: str) -> bool:
    return NAME_RE.fullmatch(name) is not None and not name_key(name).startswith(RESERVED_PREFIXES)


def display_name(name: str) -> str:
    """A name as it is kept and shown: Unicode NFKC of what was typed (full-width letters
    become plain ones), otherwise the spelling chosen."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The key under which a name is unique and looked up: NFKC, case-folded, NFKC again
    (``Victim``, ``victim`` and ``ＶＩＣＴＩＭ`` are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def valid_password(password: str) -> bool:
    return 8 <= len(password) <= 200


def new_token() -> tuple[str, str]:
    """A fresh opaque token and the hash under which it is stored."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Passwords:
    """argon2id hashing off the event loop (it is deliberately slow)."""

    def __init__(self, settings: Settings, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib,
                                                type=Type.ID)
        self._nobody: str | None = None  # a hash of a random password, with the same cost (verify_nobody)

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, hashed: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self._hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check)

    async def verify_nobody(self, password: str) -> bool:
        """Spend a verification's time on a log-in with no hash to check (an unknown name, a
        guest): a log-in answers as slowly for a name that does not exist as for one that
        does, so its timing does not tell which names are taken (#23).  Always False.  The
        first call makes the dummy hash, which costs what a verification costs."""
        if self._nobody is None:
            self._nobody = await self.hash(secrets.token_urlsafe(16))
            return False
        await self.verify(self._nobody, password)
        return False


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (a client address, a name):
    failed log-ins, or new accounts."""

    def __init__(self, limit: int, window: float, clock: Clock) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = {}

    def retry_after(self, *keys: str) -> float | None:
        now = self.clock.now()
        worst: float | None = None
        for key in keys:
            times = self._failures.get(key)
            if not times:
                continue
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                wait = times[0] + self.window - now
                worst = wait if worst is None else max(worst, wait)
        return worst

    def fail(self, *keys: str) -> None:
        """Count one event (a failure, a sign-up) against every key."""
        now = self.clock.now()
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)
        if len(self._failures) > 100_000:  # bound memory under a flood of names
            self._failures.clear()

    def reset(self, *keys: str) -> None:
        for key in keys:
            self._failures.pop(key, None)
