"""The room's open WebSocket connections, as accounts and addresses see them.

The WebSocket endpoint registers each connection here.  This is what lets
log-out and API-token revocation close the sockets opened with that session
or token (docs/protocol.md "Authentication"), what caps the connections one
account or one client address may hold open at once, and where the message
rate of an account (or, before log-in, of an address) is kept: one bucket for
all its connections, which outlives them, so that a flood closed for its rate
gains nothing by reconnecting.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Link", "Links", "RateBucket"]

BUCKETS_BEFORE_SWEEP = 4096  # buckets kept before the refilled ones are forgotten


class RateBucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once.  A message
    taken without a token leaves the balance negative (down to ``-2 * burst``: a flood digs a
    hole that takes a few seconds to refill); the caller drops it, and closes the connection
    once the balance reaches ``-burst`` (a client that keeps flooding)."""

    __slots__ = ("balance", "burst", "rate", "stamp")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst, self.balance, self.stamp = rate, burst, float(burst), now

    def take(self, now: float) -> float:
        self.balance = max(-2.0 * self.burst, self.refilled(now) - 1.0)
        self.stamp = now
        return self.balance

    def refilled(self, now: float) -> float:
        """The balance at ``now`` before any further message."""
        return min(float(self.burst), self.balance + max(0.0, now - self.stamp) * self.rate)


@dataclass(eq=False)
class Link:
    """One open WebSocket: who it speaks for and how to end it.

    ``credential`` is the hash of the session or API token it authenticated
    with; ``expires_at`` that credential's expiry (the connection ends with it);
    ``end(code, message)`` sends an ``error`` and closes the connection;
    ``abort()`` cuts it off at once.  ``blocked_since`` is the event-loop time
    since which a send has been waiting for the peer to read (None: not blocked)."""

    address: str
    end: Callable[[str, str], None]
    abort: Callable[[], None]
    user_id: int | None = None
    credential: str | None = None
    expires_at: float | None = None
    blocked_since: float | None = None


class Links:
    def __init__(self, *, per_user: int, per_address: int, rate: float = 10.0, burst: int = 30) -> None:
        self.per_user, self.per_address = per_user, per_address
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, RateBucket] = {}
        self._users: Counter[int] = Counter()
        self._addresses: Counter[str] = Counter()
        self._credentials: dict[str, set[Link]] = {}
        self._all: set[Link] = set()

    def __len__(self) -> int:
        return len(self._all)

    def refusal(self, address: str, user_id: int | None) -> str | None:
        """Why one more connection from ``address`` (as ``user_id``) is refused, or None."""
        if self._addresses[address] >= self.per_address:
            return f"too many connections from this address (at most {self.per_address})"
        if user_id is not None and self._users[user_id] >= self.per_user:
            return f"too many connections for this account (at most {self.per_user})"
        return None

    def bucket(self, link: Link, now: float) -> RateBucket:
        """The message bucket of the link's account (before log-in: its address), shared by its
        connections and kept after they close.  A refilled bucket is the same as a new one, so
        those are forgotten once there are many: what is kept is bounded by recent floods."""
        key = f"user:{link.user_id}" if link.user_id is not None else f"address:{link.address}"
        found = self._buckets.get(key)
        if found is None:
            if len(self._buckets) >= BUCKETS_BEFORE_SWEEP:
                self._buckets = {k: b for k, b in self._buckets.items() if b.refilled(now) < b.burst}
            found = self._buckets[key] = RateBucket(self.rate, self.burst, now)
        return found

    def add(self, link: Link) -> None:
        self._all.add(link)
        self._addresses[link.address] += 1
        self._enter(link)

    def remove(self, link: Link) -> None:
        self._all.discard(link)
        self._leave(link)
        self._addresses[link.address] -= 1
        if self._addresses[link.address] <= 0:
            del self._addresses[link.address]

    def identify(self, link: Link, user_id: int | None, credential: str | None, expires_at: float | None) -> None:
        """The connection now speaks for another account (a ``join`` with a token)."""
        self._leave(link)
        link.user_id, link.credential, link.expires_at = user_id, credential, expires_at
        self._enter(link)

    def end_all(self, credential: str, code: str, message: str) -> int:
        """End every connection opened with ``credential`` (log-out, a revoked token)."""
        ended = list(self._credentials.get(credential, ()))
        for link in ended:
            link.end(code, message)
        return len(ended)

    def abort_stalled(self, now: float, timeout: float) -> int:
        """Cut off every connection whose send has been blocked for ``timeout`` seconds."""
        stalled = [link for link in self._all if link.blocked_since is not None and now - link.blocked_since >= timeout]
        for link in stalled:
            link.abort()
        return len(stalled)

    async def watch(self, timeout: float) -> None:
        """Forever: check for stalled connections a few times per ``timeout`` (one pass over
        the connections, no timer per send)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(max(0.01, timeout / 4))
            self.abort_stalled(loop.time(), timeout)

    def _enter(self, link: Link) -> None:
        if link.user_id is not None:
            self._users[link.user_id] += 1
        if link.credential is not None:
            self._credentials.setdefault(link.credential, set()).add(link)

    def _leave(self, link: Link) -> None:
        if link.user_id is not None:
            self._users[link.user_id] -= 1
            if self._users[link.user_id] <= 0:
                del self._users[link.user_id]
        if link.credential is not None:
            same = self._credentials.get(link.credential)
            if same is not None:
                same.discard(link)
                if not same:
                    del self._credentials[link.credential]
