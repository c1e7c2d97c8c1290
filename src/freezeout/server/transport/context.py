"""Everything a request handler needs, built once by ``app.create_app``
(design principle 8: injected, never created at import time)."""

from __future__ import annotations

from dataclasses import dataclass

from freezeout.server.accounts import Passwords, RateLimiter
from freezeout.server.clock import Clock
from freezeout.server.oddsdesk import OddsDesk
from freezeout.server.settings import Settings
from freezeout.server.storage.store import Store
from freezeout.server.table.room import Room
from freezeout.server.transport.links import Links

__all__ = ["Context"]


@dataclass
class Context:
    settings: Settings
    clock: Clock
    store: Store
    room: Room
    passwords: Passwords
    limiter: RateLimiter  # failed log-ins per (name, address)
    address_limiter: RateLimiter  # failed log-ins per address
    signups: RateLimiter  # new accounts per address
    links: Links  # open WebSocket connections
    odds: OddsDesk  # the odds calculator's queue, thread and rate limit (GET /api/odds)
