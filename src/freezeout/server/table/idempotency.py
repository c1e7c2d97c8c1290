"""Idempotent intents: a move resent after a failover is applied once, never lost (issue #23).

A client names each intent it sends with a **key** of its own choosing (a
random string, docs/protocol.md "Resending").  The entry that applies a keyed
intent carries the key and its account (``"intent": {"user": 7, "key":
"…"}``), written in the same transaction as the move: so the log itself says
which keys were applied, and a new owner rebuilding the table from the log
(a restart, a takeover) knows them as well as the old one did.

The table folds the last :data:`WINDOW` versions' keys into ``Applied`` (the
state's ``intents``), and answers a keyed intent by :func:`decide`:

- **already applied** (its key is remembered for its account): the answer is
  ``applied`` with the version whose entry applied it, and nothing changes;
- **decided on an older version, but only ``resume`` entries came since**
  (the table changed owner or the server restarted while the intent was on
  its way: the same turn, the same choices): it is judged at the current
  version, as if it had arrived in time;
- **decided on an older version that moved on**: refused as ``stale``, and
  for a keyed intent that always means *not applied*.

Why the memory may be bounded: an intent decided on version ``V`` can be
applied only by the first entry after ``V`` that is not a ``resume`` (the
actor checks the version, and ``resume`` is the only entry this rule lets
an intent skip).  So when ``V`` is within the last ``WINDOW`` versions, a key
missing from memory was not applied; for an older ``V`` (a client that came
back much later) that one entry is read from the log (:func:`decide`'s
``read_log``), which the database keeps for ever.  Intents without a version
(resign, rematch, sit, stand) are remembered the same way; one resent after
the window is handled again, and the rules refuse it (resigning or accepting
twice is illegal), so nothing is applied twice either.  Memory: at most
``WINDOW`` small tuples a table, and only while its humans send keys.

Intents without a key (older clients) are handled as before: strictly at the
version they were decided on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from freezeout.server.entries import LogEntry, Stamp
from freezeout.server.table.commands import KEY_PATTERN, VERSIONED_INTENTS, Intent

__all__ = ["KEY_PATTERN", "RESUME", "STAMP", "WINDOW", "Applied", "Decision", "decide"]

WINDOW = 256  # versions whose keys a table keeps in memory (older ones are read from the log)
RESUME = "resume"  # the one entry that changes nothing an intent was decided on
STAMP = "intent"  # the entry's field that names the keyed intent it applies


@dataclass(frozen=True, slots=True)
class Applied:
    """What a table remembers of keyed intents: the (version, account, key) of each applied by
    one of its last :data:`WINDOW` entries, oldest first, and ``settled``: the version of its last
    entry that changed the game (any but ``resume``)."""

    settled: int = 0
    recent: tuple[tuple[int, int, str], ...] = ()

    def after(self, entry: LogEntry) -> Applied:
        """The memory once ``entry`` is applied (the fold: table.state.reduce)."""
        settled = self.settled if entry.kind == RESUME else entry.seq
        recent = self.recent
        stamp = entry.stamp
        if stamp is not None:
            recent = (*recent, (entry.seq, stamp.user, stamp.key))
        floor = entry.seq - WINDOW
        if recent and recent[0][0] <= floor:
            recent = tuple(r for r in recent if r[0] > floor)
        if settled == self.settled and recent is self.recent:
            return self
        return Applied(settled, recent)

    def version_of(self, user_id: int, key: str) -> int | None:
        """The version whose entry applied ``key`` of ``user_id``, if remembered."""
        for version, user, known in reversed(self.recent):
            if known == key and user == user_id:
                return version
        return None


@dataclass(frozen=True, slots=True)
class Decision:
    """How to answer an intent: ``applied`` (the version that applied it already: answer that,
    change nothing), or ``refusal`` (code, message), or handle ``msg`` and write ``stamp`` (the
    ``"intent"`` field) into the entry that applies it."""

    msg: Intent
    stamp: Stamp | None = None
    applied: int | None = None
    refusal: tuple[str, str] | None = None

    @property
    def key(self) -> str | None:
        return self.msg.key


ReadLog = Callable[[int], Awaitable[list["LogEntry"]]]


async def decide(memory: Applied, version: int, user_id: int | None, msg: Intent, read_log: ReadLog) -> Decision:
    """Decide a client's intent ``msg`` at a table at ``version`` whose memory is ``memory``.

    ``read_log(after)`` reads the table's log entries after version ``after`` (a page of them,
    in order; empty at the end): only for an intent decided before the memory's window."""
    key = msg.key
    if key is None or user_id is None:
        return Decision(msg)  # no key (an older client), or nobody logged in (refused later)
    done = memory.version_of(user_id, key)
    if done is not None:
        return Decision(msg, applied=done)
    decided = msg.version if isinstance(msg, VERSIONED_INTENTS) else None
    if decided is not None and decided != version:
        if memory.settled <= decided < version:  # only resume entries since: the same turn
            msg = msg.model_copy(update={"version": version})
        else:
            if decided < version - WINDOW:  # before the window: the log says whether it was applied
                first = await _first_move_after(decided, read_log)
                if first is not None and first.stamp == Stamp(user_id, key):
                    return Decision(msg, applied=first.seq)
            return Decision(msg, refusal=("stale", f"decided on version {decided}, the table is at {version}: "
                                                   "it was not applied"))
    return Decision(msg, stamp=Stamp(user_id, key))


async def _first_move_after(version: int, read_log: ReadLog) -> LogEntry | None:
    """The first entry after ``version`` that is not a ``resume``: the only one that could have
    applied an intent decided on ``version``."""
    after = version
    while True:
        page = await read_log(after)
        if not page:
            return None
        for entry in page:
            if entry.kind != RESUME:
                return entry
        after = page[-1].seq
