"""A table's log entries as typed values, and the one serializer of each (design principle 7).

A table's log is a list of :class:`LogEntry` rows: the envelope (table, version,
time, kind, the writer's fencing epoch) and ``data``, the entry's body as the
database stores it (JSON).  The table never reads ``data`` itself: it reads
``entry.body``, one of the frozen body types below, decoded from ``data`` once,
and it writes an entry with :meth:`LogEntry.of`, which serializes a body once.

Each body's ``to_json`` writes exactly the keys, in the order, that servers
have always written (a database written before these types loads unchanged,
and an entry written now reads the same to an older server); ``from_json``
reads every form ever stored (an entry without ``game``, a ``create`` without
``created_by``, a deck committed as a whole: fairness.LegacyDeal).

An entry is frozen.  The store commits an ``end`` entry with the ratings its
transaction decided (storage/gamerecords.py, R25) and answers with the entries as
committed: the table reads those, never a copy it changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from freezeout.rules.actions import Action
from freezeout.rules.games import HOUSE_GAME
from freezeout.server.fairness import AnyDeal, Deal
from freezeout.server.gamespec import GameSpec, action_data, action_from_data
from freezeout.server.guestbook import GuestEntry

__all__ = [
    "ActEntry",
    "CashSeatEntry",
    "CloseEntry",
    "CommitEntry",
    "CreateEntry",
    "DealEntry",
    "EndEntry",
    "EntryBody",
    "GameEnd",
    "GameStart",
    "GuestEntry",
    "InviteEntry",
    "LogEntry",
    "RematchEntry",
    "ResumeEntry",
    "SitEntry",
    "Slot",
    "Stamp",
    "Stamped",
    "StandEntry",
    "StartEntry",
    "TopUpEntry",
    "UnknownEntry",
    "WaitlistEntry",
    "decode_body",
]


class UnknownEntry(ValueError):
    """An entry of a kind no table writes (table.state.reduce refuses it as ``bad_message``)."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """The keyed intent an entry applies (table/idempotency.py): its account and key."""

    user: int
    key: str

    def to_json(self) -> dict[str, Any]:
        return {"user": self.user, "key": self.key}

    @classmethod
    def from_json(cls, data: object) -> Stamp | None:
        if not isinstance(data, dict):
            return None
        user, key = data.get("user"), data.get("key")
        return cls(user, key) if isinstance(user, int) and isinstance(key, str) else None


def _stamped(data: dict[str, Any], intent: Stamp | None) -> dict[str, Any]:
    if intent is not None:
        data["intent"] = intent.to_json()  # last: as servers have always written it
    return data


@dataclass(frozen=True, slots=True)
class Slot:
    """A place at the table: empty, or who sits there (a bot has its ``bot`` level)."""

    user_id: int | None = None
    name: str | None = None
    kind: str | None = None  # user | guest | bot
    bot: str | None = None  # the bot level when kind == "bot"

    @property
    def taken(self) -> bool:
        return self.name is not None

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "kind": self.kind, "bot": self.bot}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Slot:
        if not data:
            return cls()
        return cls(data.get("user_id"), data.get("name"), data.get("kind"), data.get("bot"))


@dataclass(frozen=True, slots=True)
class CreateEntry:
    """The table's first entry: its places (bots seated already), rating and game."""

    kind: ClassVar[str] = "create"
    slots: tuple[Slot, ...]
    ranked: bool
    created_by: int | None = None
    game: GameSpec | None = None  # None: the house game (and nothing written)
    # A private table (issue #37, table/privacy.py): its invite link's first secret; None: a public table
    # (and nothing written, so a public table's entry reads as it always did).
    invite: str | None = None
    approval: bool = False  # a private table whose creator approves each seat (server/guestbook.py)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"slots": [s.to_json() if s.taken else None for s in self.slots], "ranked": self.ranked,
                                "created_by": self.created_by}
        if self.game is not None:
            data["game"] = self.game.to_json()
        if self.invite is not None:
            data["private"] = True
            data["invite"] = self.invite
            if self.approval:
                data["approval"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CreateEntry:
        created_by = data.get("created_by")
        game = data.get("game")
        invite = data.get("invite")
        return cls(tuple(Slot.from_json(s) for s in data["slots"]), bool(data["ranked"]),
                   int(created_by) if created_by is not None else None, GameSpec.from_json(game) if game else None,
                   str(invite) if data.get("private") and invite is not None else None, bool(data.get("approval")))


@dataclass(frozen=True, slots=True)
class SitEntry:
    """A place taken.  At a cash table (C1) the buy-in: ``chips`` from the account's balance
    (the ledger's ``buy_in`` row rides with this entry, its id ``transfer`` or the entry's
    own), and ``post``: post a big blind to be dealt in at once (C4) or wait for it."""

    kind: ClassVar[str] = "sit"
    slot: int
    player: Slot
    intent: Stamp | None = None
    chips: int | None = None
    transfer: str | None = None
    post: bool | None = None
    moved_from: str | None = None  # C14: the broken table the player was moved from, with its chips (any amount)

    def to_json(self) -> dict[str, Any]:
        p = self.player
        data: dict[str, Any] = {"slot": self.slot, "user_id": p.user_id, "name": p.name, "kind": p.kind}
        if p.bot is not None:
            data["bot"] = p.bot
        if self.chips is not None:
            data["chips"] = self.chips
        if self.transfer is not None:
            data["transfer"] = self.transfer
        if self.post is not None:
            data["post"] = self.post
        if self.moved_from is not None:
            data["moved_from"] = self.moved_from
        return _stamped(data, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SitEntry:
        chips, transfer, post, moved = data.get("chips"), data.get("transfer"), data.get("post"), data.get("moved_from")
        return cls(int(data["slot"]), Slot.from_json(data), Stamp.from_json(data.get("intent")),
                   int(chips) if chips is not None else None, str(transfer) if transfer is not None else None,
                   bool(post) if post is not None else None, str(moved) if moved is not None else None)


@dataclass(frozen=True, slots=True)
class StandEntry:
    """A place left.  At a cash table (C3) ``chips`` is the cash-out written with it (the
    ledger's ``cash_out`` row rides with it); None when the player is in a hand: they leave,
    and cash out, with the entry that ends the hand (table/cash.py)."""

    kind: ClassVar[str] = "stand"
    slot: int
    intent: Stamp | None = None
    chips: int | None = None
    moved_to: str | None = None  # C14: the table broke; the player moves to this one with ``chips``
    user: int | None = None  # C14: the account moved (written with ``moved_to``: the other table reads it)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"slot": self.slot}
        if self.chips is not None:
            data["chips"] = self.chips
        if self.moved_to is not None:
            data["moved_to"] = self.moved_to
            data["user"] = self.user
        return _stamped(data, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandEntry:
        chips, moved, user = data.get("chips"), data.get("moved_to"), data.get("user")
        return cls(int(data["slot"]), Stamp.from_json(data.get("intent")), int(chips) if chips is not None else None,
                   str(moved) if moved is not None else None, int(user) if user is not None else None)


@dataclass(frozen=True, slots=True)
class TopUpEntry:
    """C2: chips added between hands (the ledger's ``top_up`` row rides with it); ``auto``:
    the table's own top-up to the seat's auto top-up amount (table/cash.py)."""

    kind: ClassVar[str] = "top_up"
    seat: int
    chips: int
    transfer: str | None = None
    intent: Stamp | None = None
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "chips": self.chips}
        if self.transfer is not None:
            data["transfer"] = self.transfer
        if self.auto:
            data["auto"] = True
        return _stamped(data, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TopUpEntry:
        transfer = data.get("transfer")
        return cls(int(data["seat"]), int(data["chips"]), str(transfer) if transfer is not None else None,
                   Stamp.from_json(data.get("intent")), bool(data.get("auto", False)))


@dataclass(frozen=True, slots=True)
class CashSeatEntry:
    """A cash request of one seat that moves no chips: ``sit_out``, ``sit_in`` (``post``: post
    what is owed, C4, C10), ``straddle`` (C6), ``run_twice`` (``agree``, C7), ``auto_top_up``
    (``to``: the chips to top up to between hands, None: stop, C2) and the table's own
    ``auto_top_up_skipped`` (the balance could not pay the auto top-up due).  One body, six kinds."""

    kind: ClassVar[str] = "cash_seat"  # the stored kind is ``request``'s
    request: str
    seat: int
    flag: bool | None = None  # sit_in: post; run_twice: agree
    intent: Stamp | None = None
    to: int | None = None  # auto_top_up

    REQUESTS: ClassVar[tuple[str, ...]] = ("sit_out", "sit_in", "straddle", "run_twice", "auto_top_up",
                                           "auto_top_up_skipped")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"request": self.request, "seat": self.seat}
        if self.flag is not None:
            data["flag"] = self.flag
        if self.request == "auto_top_up":
            data["to"] = self.to
        return _stamped(data, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CashSeatEntry:
        request = str(data["request"])
        if request not in cls.REQUESTS:
            raise UnknownEntry(f"unknown cash request {request!r}")
        flag, to = data.get("flag"), data.get("to")
        return cls(request, int(data["seat"]), bool(flag) if flag is not None else None, Stamp.from_json(data.get("intent")),
                   int(to) if to is not None else None)


@dataclass(frozen=True, slots=True)
class WaitlistEntry:
    """C13: a cash table's waiting list changes (table/cashwait.py): ``join`` (``user`` and the
    ``name`` shown; ``anywhere``: joined with "first available", one join for every public table
    of the game and stakes; ``moved``: a player whose table broke, C14, waits ahead of those who
    chose to), ``leave``, ``decline`` (the seat offered to ``user``), or the table's own ``lapse``
    (the offers whose time ran out pass to the next in line).  A freed seat is offered by the
    entry that frees it (the fold: ``stand``, a hand's end), and taken by a ``sit``."""

    kind: ClassVar[str] = "waitlist"
    request: str
    user: int | None = None
    name: str | None = None
    anywhere: bool = False
    moved: bool = False
    intent: Stamp | None = None

    REQUESTS: ClassVar[tuple[str, ...]] = ("join", "leave", "decline", "lapse")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"request": self.request}
        if self.user is not None:
            data["user"] = self.user
        if self.name is not None:
            data["name"] = self.name
        if self.anywhere:
            data["anywhere"] = True
        if self.moved:
            data["moved"] = True
        return _stamped(data, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WaitlistEntry:
        request = str(data["request"])
        if request not in cls.REQUESTS:
            raise UnknownEntry(f"unknown waiting-list request {request!r}")
        user, name = data.get("user"), data.get("name")
        return cls(request, int(user) if user is not None else None, str(name) if name is not None else None,
                   bool(data.get("anywhere", False)), bool(data.get("moved", False)), Stamp.from_json(data.get("intent")))


@dataclass(frozen=True, slots=True)
class StartEntry:
    """A game starts (R3): its number and id, the seating, the button and the first hand's deck."""

    kind: ClassVar[str] = "start"
    game: int
    game_id: str
    players: tuple[str, ...]
    seat_slots: tuple[int, ...]
    button: int
    deal: AnyDeal

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "game_id": self.game_id, "players": list(self.players),
                "seat_slots": list(self.seat_slots), "button": self.button, "deal": self.deal.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StartEntry:
        return cls(int(data["game"]), str(data["game_id"]), tuple(str(p) for p in data["players"]),
                   tuple(int(s) for s in data["seat_slots"]), int(data["button"]), Deal.from_json(data["deal"]))


@dataclass(frozen=True, slots=True)
class CommitEntry:
    """The next hand's deck, committed before it is dealt (R2)."""

    kind: ClassVar[str] = "commit"
    deal: AnyDeal

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CommitEntry:
        return cls(Deal.from_json(data["deal"]))


@dataclass(frozen=True, slots=True)
class DealEntry:
    kind: ClassVar[str] = "deal"

    def to_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealEntry:
        return _DEAL


_DEAL = DealEntry()


@dataclass(frozen=True, slots=True)
class ActEntry:
    """A move: a player's, a bot's, or a timeout (R26) with its ``reason`` (and for a
    ``dont_wait`` the seat that asked, ``by``).  At a cash table ``bank``: the seconds of
    the player's time bank the move used (C11), measured by the table when it wrote the
    entry, so the fold never reads a clock and a replay spends the same bank."""

    kind: ClassVar[str] = "act"
    action: Action
    reason: str | None = None
    by: int | None = None
    intent: Stamp | None = None
    bank: float | None = None

    @property
    def seat(self) -> int:
        return self.action.seat

    def to_json(self) -> dict[str, Any]:
        data = action_data(self.action)
        if self.reason is not None:
            data["reason"] = self.reason
        if self.by is not None:
            data["by"] = self.by
        if self.bank is not None:
            data["bank"] = self.bank
        return _stamped(data, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActEntry:
        """InvalidInput (a RulesError) when the move cannot be read."""
        by = data.get("by")
        reason = data.get("reason")
        bank = data.get("bank")
        return cls(action_from_data(data), str(reason) if reason is not None else None,
                   int(by) if by is not None else None, Stamp.from_json(data.get("intent")),
                   float(bank) if bank is not None else None)


@dataclass(frozen=True, slots=True)
class EndEntry:
    """A game's end: its places and, once the store has committed it, the ratings (R25)."""

    kind: ClassVar[str] = "end"
    game_id: str | None
    places: dict[str, int] | None
    ratings: dict[str, list[float]] | None = None
    unrated: str | None = None  # a ranked game that changed no rating: "aborted", "shared" or "pair_limit"
    provisional: list[str] | None = None  # the rated players whose ratings are still provisional

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game_id": self.game_id, "places": self.places, "ratings": self.ratings}
        if self.unrated is not None:
            data["unrated"] = self.unrated
        if self.provisional is not None:
            data["provisional"] = self.provisional
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EndEntry:
        return cls(data.get("game_id"), data.get("places"), data.get("ratings"), data.get("unrated") or None,
                   data.get("provisional"))


@dataclass(frozen=True, slots=True)
class RematchEntry:
    kind: ClassVar[str] = "rematch"
    seat: int
    intent: Stamp | None = None

    def to_json(self) -> dict[str, Any]:
        return _stamped({"seat": self.seat}, self.intent)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RematchEntry:
        return cls(int(data["seat"]), Stamp.from_json(data.get("intent")))


@dataclass(frozen=True, slots=True)
class ResumeEntry:
    """The table was rebuilt (a restart, a new owner): the restart grace, and how long it had no owner."""

    kind: ClassVar[str] = "resume"
    grace_until: float
    outage: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"grace_until": self.grace_until}
        if self.outage is not None:
            data["outage"] = self.outage
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResumeEntry:
        outage = data.get("outage")
        return cls(float(data["grace_until"]), float(outage) if outage is not None else None)


@dataclass(frozen=True, slots=True)
class CloseEntry:
    """An empty cash table closed itself (table/cashlobby.py): the table's last entry."""

    kind: ClassVar[str] = "close"

    def to_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CloseEntry:
        return cls()


@dataclass(frozen=True, slots=True)
class InviteEntry:
    """A private table's invite link was renewed by its creator (issue #37): ``secret`` is the
    link's secret from now on, and every older link stops working at once."""

    kind: ClassVar[str] = "invite"
    secret: str

    def to_json(self) -> dict[str, Any]:
        return {"secret": self.secret}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> InviteEntry:
        return cls(str(data["secret"]))


EntryBody = (CreateEntry | SitEntry | StandEntry | StartEntry | CommitEntry | DealEntry | ActEntry | EndEntry
             | RematchEntry | ResumeEntry | TopUpEntry | CashSeatEntry | CloseEntry | WaitlistEntry | InviteEntry
             | GuestEntry)  # a private table's guest list (server/guestbook.py)
# the entries that can apply a client's intent
Stamped = SitEntry | StandEntry | ActEntry | RematchEntry | TopUpEntry | CashSeatEntry | WaitlistEntry

_BODIES: dict[str, type[EntryBody]] = {body.kind: body for body in (
    CreateEntry, SitEntry, StandEntry, StartEntry, CommitEntry, DealEntry, ActEntry, EndEntry, RematchEntry, ResumeEntry,
    TopUpEntry, CashSeatEntry, CloseEntry, WaitlistEntry, InviteEntry, GuestEntry)}


def decode_body(kind: str, data: Mapping[str, Any]) -> EntryBody:
    """The typed body of an entry of ``kind``; :class:`UnknownEntry` for a kind no table writes."""
    body = _BODIES.get(kind)
    if body is None:
        raise UnknownEntry(f"unknown log entry {kind!r}")
    return body.from_json(data)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a table's log.  ``epoch`` is the fencing epoch of the owner that wrote it
    (cluster/ownership.py); None for a table without an owner (one process, no leases).  ``data`` is
    the body as stored; read it as ``body``."""

    table_id: str
    seq: int
    at: float
    kind: str
    data: dict[str, Any]
    epoch: int | None = None
    decoded: EntryBody | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, table_id: str, seq: int, at: float, body: EntryBody) -> LogEntry:
        """An entry of ``body``, serialized once (the body is kept: nobody decodes it again)."""
        return cls(table_id, seq, at, body.kind, body.to_json(), None, body)

    @property
    def body(self) -> EntryBody:
        """The typed body (decoded once); :class:`UnknownEntry`, or the rules' InvalidInput for a
        move that cannot be read."""
        body = self.decoded
        if body is None:
            body = decode_body(self.kind, self.data)
            object.__setattr__(self, "decoded", body)  # a cache of what ``data`` already says
        return body

    @property
    def stamp(self) -> Stamp | None:
        """The keyed intent this entry applies, if any (table/idempotency.py)."""
        body = self.decoded
        if body is not None:
            return body.intent if isinstance(body, Stamped) else None
        return Stamp.from_json(self.data.get("intent"))  # as stored (the fold reads it of every entry)

    def stamped(self, epoch: int | None) -> LogEntry:
        """This entry as written by the owner of fencing ``epoch``."""
        return self if epoch == self.epoch else replace(self, epoch=epoch)

    def committed_as(self, data: dict[str, Any]) -> LogEntry:
        """This entry with the body the store committed (an ``end`` with its ratings)."""
        return replace(self, data=data, decoded=None)


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game's row; ``game`` is the table's game code (a variant or a mix), which decides
    the rating family a ranked game counts in (elo.family)."""

    game_id: str
    table_id: str
    number: int
    players: tuple[str, ...]
    ranked: bool
    at: float
    game: str = HOUSE_GAME


@dataclass(slots=True)
class GameEnd:
    """Finish a game; for a ranked game ``ranked`` is (winner user id, loser user id)
    and the ``end`` entry is committed with the ratings by player name (with the names
    still provisional in ``provisional``, storage/gamerecords.py), unless the game is not rated:
    ``aborted`` (a player left before the first hand was complete), ``shared`` (the two
    accounts were seen at one address or device lately, elo.py "Rings"), or the pair's
    games already counted ``pair_limit`` times in the last 24 hours; then
    its ``unrated`` says why.  ``left_after``: the hands complete when the
    loser left (resigned or forfeited out), None if they ran out of chips (elo.py)."""

    game_id: str
    places: dict[str, int]
    record: dict[str, Any]
    at: float
    entry: LogEntry
    ranked: tuple[int, int] | None = None
    names: dict[int, str] = field(default_factory=dict)
    aborted: bool = False
    pair_limit: int | None = None
    left_after: int | None = None
