"""The WebSocket protocol's messages as pydantic models (docs/protocol.md).

Client messages are parsed strictly (unknown fields and wrong types are a
``bad_message`` error); server messages are documented as models and built
as plain dicts on the hot path, then checked against these models in tests.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from freezeout.cards import Card, format_cards
from freezeout.evaluate.describe import describe_rank
from freezeout.rules.events import CardsDealt, CardsShown, Event, PotAwarded, StreetDealt

__all__ = ["CLIENT_MESSAGE", "HAND_NAME_LANGS", "ClientMessage", "event_to_json", "events_json"]

# The languages a hand's name is sent in (the web page's catalogs; evaluate.words).
HAND_NAME_LANGS = ("en", "cs")

MsgId = StrictStr | StrictInt | None


class _Client(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: MsgId = None


class Join(_Client):
    type: Literal["join"]
    table: Annotated[str, Field(min_length=1, max_length=64)]
    since: Annotated[int, Field(ge=0)] | None = None
    token: Annotated[str, Field(max_length=256)] | None = None


class Act(_Client):
    type: Literal["act"]
    version: Annotated[int, Field(ge=0)]
    move: Literal["fold", "check", "call", "bet", "raise", "allin"]
    amount: Annotated[int, Field(ge=0, le=10**9)] | None = None


class DontWait(_Client):
    type: Literal["dont_wait"]
    version: Annotated[int, Field(ge=0)]


class Resign(_Client):
    type: Literal["resign"]


class Rematch(_Client):
    type: Literal["rematch"]


class Sit(_Client):
    type: Literal["sit"]
    slot: Annotated[int, Field(ge=0, le=3)] | None = None


class Stand(_Client):
    type: Literal["stand"]


class Ping(_Client):
    type: Literal["ping"]


ClientMessage = Annotated[Join | Act | DontWait | Resign | Rematch | Sit | Stand | Ping, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Join | Act | DontWait | Resign | Rematch | Sit | Stand | Ping] = TypeAdapter(ClientMessage)


# -- server -> client (schemas; see docs/protocol.md) -----------------------
class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClockModel(_Server):
    now: float
    to_act: int
    turn_started: float | None
    turn_deadline: float | None
    expired: bool
    inactivity_deadline: float | None
    next_hand_at: float | None
    grace_until: float | None = None
    result_until: float | None = None


class FairnessModel(_Server):
    next: dict[str, Any] | None
    current: dict[str, Any] | None = None
    revealed: list[dict[str, Any]]


class YouModel(_Server):
    user: dict[str, Any] | None
    seat: int | None
    slot: int | None


class SnapshotMessage(_Server):
    type: Literal["snapshot"]
    version: int
    you: YouModel
    table: dict[str, Any]
    view: dict[str, Any] | None
    events: list[dict[str, Any]]
    clock: ClockModel
    presence: list[bool]
    fairness: FairnessModel


class UpdateMessage(_Server):
    type: Literal["update"]
    version: int
    events: list[dict[str, Any]]
    table: dict[str, Any]
    view: dict[str, Any] | None
    clock: ClockModel
    fairness: FairnessModel


class PresenceMessage(_Server):
    type: Literal["presence"]
    online: list[bool]


class ErrorMessage(_Server):
    type: Literal["error"]
    code: str
    message: str
    ref: str | int | None = None
    version: int | None = None


class PongMessage(_Server):
    type: Literal["pong"]
    now: float


ServerMessage = Annotated[
    SnapshotMessage | UpdateMessage | PresenceMessage | ErrorMessage | PongMessage, Field(discriminator="type")
]
SERVER_MESSAGE: TypeAdapter[SnapshotMessage | UpdateMessage | PresenceMessage | ErrorMessage | PongMessage] = TypeAdapter(
    ServerMessage
)


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


_EVENT_NAMES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _value(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, Card) for v in value):
            return format_cards(value)
        return [_value(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """A rules event as a JSON object: ``{"type": "action_taken", ...fields}``.

    The private deal (``CardsDealt``: every hole card) is refused outright, so
    no code path can ever put it on the wire."""
    if isinstance(event, CardsDealt):
        raise ValueError("CardsDealt is private: it never leaves the server")
    cls = type(event)
    known = _EVENT_NAMES.get(cls)
    if known is None:
        known = _EVENT_NAMES[cls] = (_snake(cls.__name__), tuple(f.name for f in dataclasses.fields(event)))
    name, names = known
    data: dict[str, Any] = {"type": name}
    for field_name in names:
        data[field_name] = _value(getattr(event, field_name))
    return data


def _names(rank: int) -> dict[str, str]:
    return {lang: describe_rank(rank, lang) for lang in HAND_NAME_LANGS}


def events_json(events: Iterable[Event], board: Sequence[Card] | None = None) -> list[dict[str, Any]]:
    """The public events as JSON, with what a client shows at a showdown said by the server:
    ``names`` (the hand's name per language) on ``cards_shown`` and on a ``pot_awarded`` won
    with a hand, and ``best`` (the five cards that make the hand) on ``cards_shown``.  ``board``
    is the hand's board when the events do not deal it themselves (an update after the river);
    ``None``: the board is read from the events' ``street_dealt``.  The private deal is left out."""
    from freezeout.evaluate import evaluate

    out: list[dict[str, Any]] = []
    dealt: list[Card] = []
    for event in events:
        if isinstance(event, CardsDealt):
            continue
        data = event_to_json(event)
        if isinstance(event, StreetDealt):
            dealt.extend(event.cards)
        elif isinstance(event, CardsShown):
            cards = (*event.cards, *(dealt if board is None else board))
            data["names"] = _names(event.rank)
            if len(cards) >= 5:
                data["best"] = format_cards(evaluate(cards).best_five)
        elif isinstance(event, PotAwarded) and event.rank:
            data["names"] = _names(event.rank)
        out.append(data)
    return out
