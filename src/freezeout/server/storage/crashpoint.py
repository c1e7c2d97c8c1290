"""A test-only crash hook: ``os._exit(137)`` at a named step of a chip movement (issue #25 drills).

``FREEZEOUT_CRASH_AT=<phase>:<kind>[:<n>]``, read once when this module is
imported, makes the process die as ``kill -9`` would (no shutdown, no flush,
no rollback but the database's own) the ``n``-th time (default 1) a log
commit moving chips of ``kind`` (``buy_in``, ``top_up``, ``cash_out``,
``rake``) reaches ``phase``:

- ``received``: the entry is validated and its ledger rows are known; nothing
  is written (table/writer.py, before the append);
- ``written``: the entry and its ledger rows are written in the open
  transaction, not committed (storage/tablelog.py, at the end of the jobs);
- ``committed``: the transaction committed; the table has not applied the
  entry nor told anyone (table/writer.py, after the append);
- ``told``: the update went to the table's followers; the intent's
  ``applied`` reply did not (table/actor.py).

Unset (every real run), :data:`ARMED` is False and each call site is one
test of a module constant: no cost.  bench/cash_crash.py and
tests/server/test_server_cash_crash.py drive it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = ["ARMED", "PHASES", "parse", "reached"]

PHASES = ("received", "written", "committed", "told")


def parse(spec: str | None) -> tuple[str, str, int] | None:
    """``phase:kind[:n]`` as (phase, kind, n); None when unset; ValueError when malformed."""
    if not spec:
        return None
    parts = spec.split(":")
    if len(parts) not in (2, 3) or parts[0] not in PHASES or not parts[1]:
        raise ValueError(f"FREEZEOUT_CRASH_AT={spec!r}: expected <{'|'.join(PHASES)}>:<transfer kind>[:<n>]")
    n = int(parts[2]) if len(parts) == 3 else 1
    if n < 1:
        raise ValueError(f"FREEZEOUT_CRASH_AT={spec!r}: n counts from 1")
    return parts[0], parts[1], n


_AT = parse(os.environ.get("FREEZEOUT_CRASH_AT"))
ARMED = _AT is not None
_seen = 0
_committed: frozenset[str] = frozenset()  # the kinds of the last commit, for ``told``


def reached(phase: str, kinds: Iterable[str] = ()) -> None:
    """Die here if this is the armed step (call only when :data:`ARMED`).  ``told`` names no
    kinds: it is the last ``committed`` commit's."""
    global _seen, _committed
    if _AT is None:
        return
    moved = _committed if phase == "told" else frozenset(kinds)
    if phase == "committed":
        _committed = moved
    elif phase == "told":
        _committed = frozenset()
    if phase != _AT[0] or _AT[1] not in moved:
        return
    _seen += 1
    if _seen >= _AT[2]:
        os._exit(137)
