"""Idempotent intents: a move resent after a failover is applied once, never lost (issue #23).

A client names each intent it sends with a **key** of its own choosing (a
random string, docs/protocol.md "Resending").  The entry that applies a keyed
intent carries the key and its account (``"intent": {"user": 7, "key":
"…"}``), written in the same transaction as the move: so the log itself says
which keys were applied, and a new owner rebuilding the table from the log
(a restart, a takeover) knows them as well as the old one did.

The table folds the last :data:`WINDOW` versions' keys into ``Applied`` (the
state's ``intents``), with its **turn**: the version of the last entry that
changed what the player to act decides (every move, a deal; table/state.py's
``_moves_turn``).  Entries that leave the hand as it was — a ``resume``,
another seat's top-up, sit-out, leave, waiting-list request (issue #34: at a
full table they come while a player thinks) — do not move it.  A keyed intent
is answered by :func:`decide`:

- **already applied** (its key is remembered for its account): the answer is
  ``applied`` with the version whose entry applied it, and nothing changes;
- **decided on an older version, but the turn has not moved since** (the
  table changed owner, the server restarted, another seat topped up while
  the intent was on its way: the same hand, the same player to act, the
  same choices): it is judged at the current version, as if it had arrived
  in time;
- **decided on a version the turn moved on from**: refused as ``stale``, and
  for a keyed intent that always means *not applied*.

Why the memory may be bounded: an intent decided on version ``V`` is a move
(``act``, ``draw``, ``dont_wait``), applied by an ``act`` entry, and only
while the turn has not moved since ``V`` (the actor checks it:
table/intentparts.py ``check_version``); every ``act`` entry moves the turn.
So the only entry that can have applied it is **the first ``act`` entry
after ``V``**.  When ``V`` is within the last ``WINDOW`` versions, a key
missing from memory was therefore not applied; for an older ``V`` (a client
that came back much later) that one entry is read from the log
(:func:`decide`'s ``read_log``), which the database keeps for ever.  Intents
without a version (resign, rematch, sit, stand, a cash table's requests) are
remembered the same way; one resent after the window is handled again, and
the rules refuse it (resigning or accepting twice is illegal; a top-up names
its transfer, C9), so nothing is applied twice either.  Memory: at most
``WINDOW`` small tuples a table, and only while its humans send keys.

Intents without a key (older clients) are judged by the same turn
(``check_version``): applied while the turn has not moved since their
version, so one resent after it was applied is refused ``stale`` (its own
move moved the turn) — but a ``stale`` cannot say whether it was applied.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from freezeout.server.entries import LogEntry, Stamp
from freezeout.server.table.commands import KEY_PATTERN, VERSIONED_INTENTS, Intent

__all__ = ["KEY_PATTERN", "MOVE", "STAMP", "WINDOW", "Applied", "Decision", "decide"]

WINDOW = 256  # versions whose keys a table keeps in memory (older ones are read from the log)
MOVE = "act"  # the kind of entry that applies a versioned intent (and always moves the turn)
STAMP = "intent"  # the entry's field that names the keyed intent it applies


@dataclass(frozen=True, slots=True)
class Applied:
    """What a table remembers of keyed intents: the (version, account, key) of each applied by
    one of its last :data:`WINDOW` entries, oldest first, and ``turn``: the version of its last
    entry that changed what the player to act decides (a move, a deal: the module docstring)."""

    turn: int = 0
    recent: tuple[tuple[int, int, str], ...] = ()

    def after(self, entry: LogEntry, turned: bool) -> Applied:
        """The memory once ``entry`` is applied (the fold: table.state.reduce); ``turned``: whether
        it moved the turn (table/state.py ``_moves_turn``: always for an ``act`` entry)."""
        assert turned or entry.kind != MOVE, "every move moves the turn: the bounded memory rests on it"
        turn = entry.seq if turned else self.turn
        recent = self.recent
        stamp = entry.stamp
        if stamp is not None:
            recent = (*recent, (entry.seq, stamp.user, stamp.key))
        floor = entry.seq - WINDOW
        if recent and recent[0][0] <= floor:
            recent = tuple(r for r in recent if r[0] > floor)
        if turn == self.turn and recent is self.recent:
            return self
        return Applied(turn, recent)

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
        if memory.turn <= decided < version:  # the turn has not moved since: the same decision, not applied
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
    """The first ``act`` entry after ``version``: the only one that could have applied an
    intent decided on ``version`` (the module docstring says why)."""
    after = version
    while True:
        page = await read_log(after)
        if not page:
            return None
        for entry in page:
            if entry.kind == MOVE:
                return entry
        after = page[-1].seq
