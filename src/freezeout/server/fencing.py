"""A fencing refusal: the database would not take a write from a table's former owner.

The refusal belongs below everyone who meets it: the storage that recognises
it in a driver's error, the table's writer that stops acting on it, and the
cluster's ownership leases that stamp the epochs (cluster/ownership.py, where
the fencing itself is explained).  Keeping it here lets the table and the
storage know it without importing the cluster.
"""

from __future__ import annotations

__all__ = ["STALE_OWNER", "StaleOwner", "is_stale_owner_error"]

# The words every refusal of the fencing triggers starts with (migration 0003).
STALE_OWNER = "stale table owner"


class StaleOwner(Exception):
    """The database refused a write: its epoch is not the table's owner's.  The writer has
    lost the table and must stop acting for it (its state may be behind the log)."""


def is_stale_owner_error(error: BaseException) -> bool:
    """Whether ``error`` (a driver error, possibly wrapped by SQLAlchemy) is a fencing refusal."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, StaleOwner) or STALE_OWNER in str(seen):
            return True
        seen = getattr(seen, "orig", None) or seen.__cause__
    return False
