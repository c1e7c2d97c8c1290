"""The WebSocket protocol's messages as pydantic models (docs/protocol.md).

Client messages are parsed strictly (unknown fields and wrong types are a
``bad_message`` error) into frozen models, once, at the socket (transport/wsdecode.py):
an intent (:data:`Intent`) travels as that typed value to the table's actor,
over the bus too (cluster/routing.py), and is never a dict again.  Server messages are
documented as models and built as plain dicts on the hot path, then checked
against these models in tests; the small ones are written by one serializer
each here (:func:`error_text` …), the table's by its fan-out (table/fanout.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from freezeout.cards import Card, format_cards
from freezeout.evaluate.describe import describe_rank
from freezeout.rules.events import CardsDealt, CardsShown, Event, PotAwarded, StreetDealt, public_event
from freezeout.server.wire import dumps

__all__ = [
    "CLIENT_MESSAGE", "HAND_NAME_LANGS", "INTENT", "KEY_PATTERN", "VERSIONED_INTENTS", "ClientMessage", "Intent",
    "applied_text", "error_text", "event_to_json", "events_json", "pong_text", "presence_text",
]

# An intent's key (table/idempotency.py): 8-64 characters of the URL-safe alphabet, so a random key
# (the page sends 16) does not repeat.
KEY_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"

# The languages a hand's name is sent in (the web page's catalogs; evaluate.words).
HAND_NAME_LANGS = ("en", "cs")

MsgId = StrictStr | StrictInt | None


class _Client(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: MsgId = None


# An intent's idempotency key (table/idempotency.py): a resend with the same key is applied at most once.
IntentKey = Annotated[str, Field(pattern=KEY_PATTERN)] | None


class _Intent(_Client):
    key: IntentKey = None


class Join(_Client):
    type: Literal["join"]
    table: Annotated[str, Field(min_length=1, max_length=64)]
    since: Annotated[int, Field(ge=0)] | None = None
    token: Annotated[str, Field(max_length=256)] | None = None


class Act(_Intent):
    type: Literal["act"]
    version: Annotated[int, Field(ge=0)]
    move: Literal["fold", "check", "call", "bet", "raise", "allin", "bringin", "complete"]
    amount: Annotated[int, Field(ge=0, le=10**9)] | None = None


class Draw(_Intent):
    """V11: throw away ``cards`` (held cards, e.g. ``"7d2c"``) and draw as many; none or
    ``""``: stand pat."""

    type: Literal["draw"]
    version: Annotated[int, Field(ge=0)]
    cards: Annotated[str, Field(max_length=20)] | None = None


class DontWait(_Intent):
    type: Literal["dont_wait"]
    version: Annotated[int, Field(ge=0)]


class Resign(_Intent):
    type: Literal["resign"]


class Rematch(_Intent):
    type: Literal["rematch"]


class Sit(_Intent):
    type: Literal["sit"]
    slot: Annotated[int, Field(ge=0, le=3)] | None = None  # the most places a table has (table.game.LAYOUT_MAX_SEATS)


class Stand(_Intent):
    type: Literal["stand"]


class Ping(_Client):
    type: Literal["ping"]


class WatchLobby(_Client):
    """Follow the lobby (instead of a table): a ``lobby`` message, then ``lobby_update``s."""

    type: Literal["lobby"]


# -- a cash table's requests (C1–C7; docs/protocol.md "Cash tables"): a leave is ``stand`` --
# Chips are whole numbers (strict: no 2.0, "5", true or NaN) and positive; what the table and
# the balance allow is the table's to say (table/intents.py, the fold, the ledger).
CashChips = Annotated[int, Field(ge=1, le=10**12)]
# A client names its buy-in or top-up; the server files it under the account (storage/ledger.py
# client_transfer), so it is letters, digits, _ and - only.
TransferId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")] | None


class BuyIn(_Intent):
    """C1: take ``slot`` (None: the first free one) with ``chips`` from the balance; ``post``: post
    a big blind to be dealt in at once (C4; None: the game's default), else wait for it."""

    type: Literal["buy_in"]
    chips: CashChips
    slot: Annotated[int, Field(ge=0, le=3)] | None = None
    transfer: TransferId = None
    post: bool | None = None


class TopUp(_Intent):
    """C2: add ``chips`` from the balance, between hands."""

    type: Literal["top_up"]
    chips: CashChips
    transfer: TransferId = None


class SitOut(_Intent):
    """C3: from the next hand on, be dealt nothing and post nothing."""

    type: Literal["sit_out"]


class SitIn(_Intent):
    """C4, C10: come back; ``post``: post what is owed at the next hand, else wait for the big blind."""

    type: Literal["sit_in"]
    post: bool | None = None


class Straddle(_Intent):
    """C6: post a straddle before the next deal (under the gun)."""

    type: Literal["straddle"]


class RunTwice(_Intent):
    """C7: agree (or no longer agree) to run the rest of the board twice, in the pot."""

    type: Literal["run_twice"]
    agree: bool = True


class AutoTopUp(_Intent):
    """C2: between hands, top the seat up from the balance to ``to`` chips whenever it has
    fewer (null: stop); docs/protocol.md "Cash tables"."""

    type: Literal["auto_top_up"]
    to: CashChips | None


CashIntent = BuyIn | TopUp | SitOut | SitIn | Straddle | RunTwice | AutoTopUp
_Clients = Join | Act | Draw | DontWait | Resign | Rematch | Sit | Stand | Ping | WatchLobby | CashIntent
ClientMessage = Annotated[_Clients, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[_Clients] = TypeAdapter(ClientMessage)

# What a client asks of a table (the rest of the client's messages are the connection's own).
Intent = Act | Draw | DontWait | Resign | Rematch | Sit | Stand | CashIntent
INTENTS = (Act, Draw, DontWait, Resign, Rematch, Sit, Stand, BuyIn, TopUp, SitOut, SitIn, Straddle, RunTwice, AutoTopUp)
VERSIONED_INTENTS = (Act, Draw, DontWait)  # decided on a version of the table: stale once it moved on
INTENT: TypeAdapter[Intent] = TypeAdapter(Annotated[Intent, Field(discriminator="type")])


# -- the small server messages: one serializer each ------------------------------
def error_text(code: str, message: str, ref: str | int | None = None, version: int | None = None) -> str:
    """``error``: the intent (or frame) ``ref`` was refused and nothing changed."""
    return dumps({"type": "error", "code": code, "message": message, "ref": ref, "version": version})


def applied_text(key: str, version: int, ref: str | int | None) -> str:
    """``applied``: a keyed intent is applied (now, or by an earlier copy of it)."""
    return dumps({"type": "applied", "key": key, "version": version, "ref": ref})


def pong_text(now: float) -> str:
    return dumps({"type": "pong", "now": now})


def presence_text(online: list[bool]) -> str:
    return dumps({"type": "presence", "online": online})


# -- server -> client (schemas; see docs/protocol.md) -----------------------
class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClockModel(_Server):
    now: float
    to_act: int
    turn_started: float | None
    turn_deadline: float | None
    bank_deadline: float | None = None  # C11: a cash table's time bank of the player to act runs out
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


class AppliedMessage(_Server):
    """A keyed intent is applied: by the entry that brought the table to ``version`` (now, or
    by an earlier copy of it, which a resend is not applied again after)."""

    type: Literal["applied"]
    key: str
    version: int
    ref: str | int | None = None


class PongMessage(_Server):
    type: Literal["pong"]
    now: float


class LobbyMessage(_Server):
    type: Literal["lobby"]
    tables: list[dict[str, Any]]


class LobbyUpdateMessage(_Server):
    type: Literal["lobby_update"]
    tables: list[dict[str, Any]]
    removed: list[str]


_Servers = (SnapshotMessage | UpdateMessage | PresenceMessage | ErrorMessage | AppliedMessage | PongMessage | LobbyMessage
            | LobbyUpdateMessage)
ServerMessage = Annotated[_Servers, Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[_Servers] = TypeAdapter(ServerMessage)


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


_EVENT_NAMES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _value(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, Card) for v in value):
            return format_cards(value)
        if value and all(v is None or isinstance(v, Card) for v in value):
            return "".join("??" if v is None else str(v) for v in value)  # cards hidden from this reader
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
        known = _EVENT_NAMES[cls] = (_snake(cls.__name__), event._fields)
    name, names = known
    data: dict[str, Any] = {"type": name}
    for field_name in names:
        data[field_name] = _value(getattr(event, field_name))
    return data


def _names(ranking: str, rank: int) -> dict[str, str]:
    """The hand's name in every language the page speaks, in the game's ranking."""
    if ranking in ("", "high"):
        return {lang: describe_rank(rank, lang) for lang in HAND_NAME_LANGS}
    from freezeout.evaluate.rankings import get_ranking

    named = get_ranking(ranking)
    return {lang: named.describe(rank, lang) for lang in HAND_NAME_LANGS}


def events_json(events: Iterable[Event], board: Sequence[Card | None] | None = None) -> list[dict[str, Any]]:
    """The public events as JSON, with what a client shows at a showdown said by the server:
    ``names`` (the hand's name per language) on ``cards_shown`` (and ``low_names`` for a
    split game's low) and on a ``pot_awarded`` won with a hand, and ``best`` (the cards that
    make the hand) on ``cards_shown``.  ``board`` is the hand's board when the events do not
    deal it themselves (an update after the river); ``None``: the board is read from the
    events' ``street_dealt``.  Every event passes the rules' :func:`public_event` first: the
    private deal is left out and down cards dealt or drawn are hidden."""
    from freezeout.rules.showdown import best_cards

    out: list[dict[str, Any]] = []
    dealt: list[Card] = []
    for raw in events:
        event = public_event(raw)
        if event is None:
            continue
        data = event_to_json(event)
        if isinstance(event, StreetDealt):
            dealt.extend(card for card in event.cards if card is not None)
        elif isinstance(event, CardsShown):
            shared = dealt if board is None else [card for card in board if card is not None]
            data["names"] = _names(event.ranking, event.rank)
            if event.low_ranking and event.low:
                data["low_names"] = _names(event.low_ranking, event.low)
            enough = len(event.cards) + len(shared) >= (4 if event.ranking == "badugi" else 5)
            best = best_cards(event.ranking, event.cards, shared) if enough else ()
            if best:
                data["best"] = format_cards(best)
        elif isinstance(event, PotAwarded) and event.rank:
            data["names"] = _names(event.ranking, event.rank)
        out.append(data)
    return out
