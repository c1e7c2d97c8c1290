"""The table's own events: what an entry says beside the rules' events, as frozen values.

The fold (table/state.py, a game's own step: table/cash.py, table/cashwait.py)
returns these beside the rules' events (``freezeout.rules.events``): a place
taken or left, a game started or over, a cash request, a waiting list's news.
They stay values inside the table and become JSON text only at the edge, with
the rules' events (table/eventtext.py ``pack_events``): each writes exactly the
keys, in the order, that tables have always sent (docs/protocol.md "Events"), an
optional key (a field with a default) only when it says something (is not its default).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Literal, TypeAlias

__all__ = [
    "AutoTopUpNews",
    "CashSeatChanged",
    "Closed",
    "DontWaited",
    "GameOver",
    "GameStarted",
    "Leaving",
    "Resumed",
    "SeatNews",
    "Seated",
    "Stood",
    "TableEvent",
    "ToppedUp",
    "WaitlistNews",
    "told_json",
]

# Per kind: each field after ``type`` with the default it is left out at (MISSING: always sent).
_PLANS: dict[type, tuple[tuple[str, Any], ...]] = {}


class _Told:
    """What every table event shares: its one serializer."""

    __slots__ = ()
    type: ClassVar[str]  # the name it is sent under
    named_by_first: ClassVar[bool] = False  # a family of events: sent under its first field's value

    def to_json(self) -> dict[str, Any]:
        """``{"type": ..., field: value, ...}`` in the fields' order, tuples as lists, a field
        at its default (None, False) left out."""
        cls = type(self)
        plan = _PLANS.get(cls)
        if plan is None:
            plan = _PLANS[cls] = tuple((f.name, f.default) for f in fields(self))  # type: ignore[arg-type]
        if self.named_by_first:
            data: dict[str, Any] = {"type": getattr(self, plan[0][0])}
            plan = plan[1:]
        else:
            data = {"type": self.type}
        for name, default in plan:
            value = getattr(self, name)
            if value is default and default is not MISSING:
                continue
            data[name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class _Place(_Told):
    """A place taken or left: at a cash table with its chips (None at a freezeout: not sent)."""

    slot: int
    name: str | None
    chips: int | None = None


@dataclass(frozen=True, slots=True)
class Seated(_Place):
    """A place taken; at a cash table with its buy-in (C1), or moved from a broken table (C14)."""

    type: ClassVar[str] = "seated"
    moved_from: str | None = None


@dataclass(frozen=True, slots=True)
class Stood(_Place):
    """A place left; at a cash table with the chips cashed out (C3), or moved to another table (C14)."""

    type: ClassVar[str] = "stood"
    moved_to: str | None = None


@dataclass(frozen=True, slots=True)
class GameStarted(_Told):
    """R3: a game starts, its players in seat order."""

    type: ClassVar[str] = "game_started"
    game: int
    game_id: str | None
    players: tuple[str, ...]
    button: int
    ranked: bool


@dataclass(frozen=True, slots=True)
class DontWaited(_Told):
    """R27: ``by`` did not wait for the offline ``seat``, who acted by timeout."""

    type: ClassVar[str] = "dont_wait"
    by: int | None
    seat: int


@dataclass(frozen=True, slots=True)
class Resumed(_Told):
    """The table was rebuilt; nobody is forfeited for being offline before ``grace_until``."""

    type: ClassVar[str] = "resumed"
    grace_until: float


@dataclass(frozen=True, slots=True)
class GameOver(_Told):
    """R25: a game's places and ratings; ``unrated`` why a ranked game changed none."""

    type: ClassVar[str] = "game_over"
    game_id: str | None
    places: dict[str, int] | None
    ratings: dict[str, list[float]] | None
    unrated: str | None = None
    provisional: list[str] | None = None


@dataclass(frozen=True, slots=True)
class ToppedUp(_Told):
    """C2: chips added between hands; ``auto``: by the seat's auto top-up."""

    type: ClassVar[str] = "topped_up"
    seat: int
    chips: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class AutoTopUpNews(_Told):
    """C2: a seat's auto top-up: ``auto_top_up``, set to ``to`` chips (None: off), or
    ``auto_top_up_skipped``, one that the balance could not pay (``reason``)."""

    type: ClassVar[str] = "auto_top_up"
    named_by_first: ClassVar[bool] = True
    news: Literal["auto_top_up", "auto_top_up_skipped"]
    seat: int
    to: int | None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class SeatNews(_Told):
    """A seat's news that says nothing more: ``inactivity`` (R26: its time ran out),
    ``rematch_accepted`` (R3), ``mucked`` (V17: a losing hand mucked at the showdown, its
    cards not said)."""

    type: ClassVar[str] = "seat"
    named_by_first: ClassVar[bool] = True
    news: Literal["inactivity", "rematch_accepted", "mucked"]
    seat: int


@dataclass(frozen=True, slots=True)
class CashSeatChanged(_Told):
    """A cash request that moves no chips, sent under its own name: ``sit_out`` (C4), ``sit_in``
    (C4, C10: ``flag`` posts what is owed), ``straddle`` (C6), ``run_twice`` (C7: ``flag`` agrees)."""

    type: ClassVar[str] = "cash_seat"  # as the entry's kind
    named_by_first: ClassVar[bool] = True
    request: str
    seat: int
    flag: bool | None = None


@dataclass(frozen=True, slots=True)
class WaitlistNews(_Told):
    """C13: the waiting list's news: ``joined`` (at ``place``), ``left``, ``offered`` (``seat``
    until ``until``), ``lapsed`` (``seat``), ``seated`` (``seat``)."""

    type: ClassVar[str] = "waitlist"
    user: int
    name: str
    event: Literal["joined", "left", "offered", "lapsed", "seated"]
    place: int | None = None
    seat: int | None = None
    until: float | None = None


@dataclass(frozen=True, slots=True)
class Closed(_Told):
    """An empty cash table closed itself."""

    type: ClassVar[str] = "closed"


@dataclass(frozen=True, slots=True)
class Leaving(_Place):
    """C3: a player dealt in leaves with the entry that ends the hand (its chips: none yet)."""

    type: ClassVar[str] = "leaving"


TableEvent: TypeAlias = (Seated | Stood | Leaving | GameStarted | DontWaited | SeatNews | Resumed | GameOver
                         | Closed | ToppedUp | AutoTopUpNews | CashSeatChanged | WaitlistNews)


def told_json(told: Iterable[TableEvent]) -> list[dict[str, Any]]:
    """The table's events as the JSON objects a client reads (tests and the replayer's steps)."""
    return [event.to_json() for event in told]
