"""A connection's message rate (docs/protocol.md "Limits"): a token bucket per account.

The bucket is the account's (or the address's before log-in), shared by its
connections and kept across reconnects (transport/links.py), so reconnecting refills
nothing.  A message over the rate is dropped, with one ``rate_limited`` error
until the client slows down; a client that keeps flooding is closed.
"""

from __future__ import annotations

from dataclasses import dataclass

from freezeout.server.transport.links import RateBucket

__all__ = ["Throttle", "Throttled"]


@dataclass(frozen=True, slots=True)
class Throttled:
    """A message over the rate: dropped, with ``warning`` to send (None: warned already), or
    ``close``: the connection ends with that message."""

    warning: str | None = None
    close: str | None = None


class Throttle:
    def __init__(self, bucket: RateBucket) -> None:
        self.bucket = bucket
        self._warned = False

    def admit(self, now: float) -> Throttled | None:
        """None: the message may be handled."""
        bucket = self.bucket
        balance = bucket.take(now)
        if balance >= 0:
            self._warned = False
            return None
        if balance <= -bucket.burst:
            return Throttled(close=f"too many messages (at most {bucket.rate:g} a second): the connection is closed")
        if self._warned:
            return Throttled()
        self._warned = True
        return Throttled(warning=f"too many messages (at most {bucket.rate:g} a second): "
                                 "messages are dropped until you slow down")
