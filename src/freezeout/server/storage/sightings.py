"""Where accounts were seen (issue #23 item 6): a client address or a device cookie,
kept only as a digest, so that two accounts seen at one address or device lately
are not rated against each other (elo.py "Rings")."""

from __future__ import annotations

import hashlib
import ipaddress

from sqlalchemy import Connection, and_, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server import elo
from freezeout.server.storage.db import sightings

__all__ = ["Sightings", "identifies", "shared"]


def _digest(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode("utf-8", "surrogatepass")).hexdigest()


def identifies(address: str) -> bool:
    """Whether a client address says who is there: a loopback address does not (behind a
    reverse proxy that sends no ``X-Forwarded-For`` every client is 127.0.0.1)."""
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address not in ("", "?", "localhost", "testclient")


def shared(conn: Connection, a: int, b: int, at: float) -> bool:
    """Whether accounts ``a`` and ``b`` were both seen at one address or with one device
    cookie in the last ``SHARED_WINDOW_DAYS`` days (elo.py "Rings"); inside the game's
    end transaction (storage/ratings.py)."""
    mine, theirs = sightings.alias("mine"), sightings.alias("theirs")
    since = at - elo.SHARED_WINDOW_DAYS * 86400
    found = conn.execute(
        select(mine.c.kind).select_from(mine.join(theirs, and_(mine.c.digest == theirs.c.digest,
                                                               mine.c.kind == theirs.c.kind)))
        .where(mine.c.user_id == a, theirs.c.user_id == b, mine.c.last_at > since, theirs.c.last_at > since)
        .limit(1)
    ).first()
    return found is not None


class Sightings:
    """The ``sightings`` table's writer."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def seen(self, user_id: int, at: float, *, address: str | None = None, device: str | None = None) -> None:
        """Note that an account was just seen at a client ``address`` and/or with a device
        cookie (only digests are kept; a loopback address is not kept, see :func:`identifies`)."""
        found = [(kind, _digest(kind, value)) for kind, value in (("address", address), ("device", device))
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
