"""The WebSocket protocol's messages as pydantic models (docs/protocol.md).

Client messages are parsed strictly (unknown fields and wrong types are a
``bad_message`` error) into frozen models, once, at the socket (transport/wsdecode.py):
an intent (:data:`Intent`, the table's own commands: table/commands.py) travels as that typed value to the table's actor,
over the bus too (cluster/routing.py), and is never a dict again.  Server messages are
documented as models and built as plain dicts on the hot path, then checked
against these models in tests; the small ones are written by one serializer
each (:func:`pong_text` here; a table's own in table/notices.py), the table's updates by its
fan-out (table/fanout.py), its events by table/eventtext.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from freezeout.server.table.commands import (
    INTENT,
    INTENTS,
    KEY_PATTERN,
    VERSIONED_INTENTS,
    Act,
    AutoTopUp,
    BuyIn,
    CashChips,
    CashIntent,
    Chat,
    ClientModel,
    DontWait,
    Draw,
    Intent,
    MsgId,
    Rematch,
    Resign,
    RunTwice,
    Sit,
    SitIn,
    SitOut,
    Stand,
    Straddle,
    TopUp,
    TransferId,
    WaitlistJoin,
)
from freezeout.server.table.eventtext import HAND_NAME_LANGS, event_to_json, events_json
from freezeout.server.table.notices import applied_text, error_text, presence_text
from freezeout.server.wire import dumps

# The table's commands (table/commands.py) are part of the protocol: re-exported with it.
__all__ = [
    "CLIENT_MESSAGE",
    "HAND_NAME_LANGS",
    "INTENT",
    "INTENTS",
    "KEY_PATTERN",
    "SERVER_MESSAGE",
    "VERSIONED_INTENTS",
    "Act",
    "AutoTopUp",
    "BuyIn",
    "CashChips",
    "CashIntent",
    "Chat",
    "ClientMessage",
    "ClientModel",
    "DontWait",
    "Draw",
    "Intent",
    "Join",
    "MsgId",
    "Ping",
    "Rematch",
    "Resign",
    "RunTwice",
    "ServerMessage",
    "Sit",
    "SitIn",
    "SitOut",
    "SnapshotMessage",
    "Stand",
    "Straddle",
    "TopUp",
    "TransferId",
    "UpdateMessage",
    "WaitlistJoin",
    "WatchLobby",
    "applied_text",
    "error_text",
    "event_to_json",
    "events_json",
    "pong_text",
    "presence_text",
]


class Join(ClientModel):
    type: Literal["join"]
    table: Annotated[str, Field(min_length=1, max_length=64)]
    since: Annotated[int, Field(ge=0)] | None = None
    token: Annotated[str, Field(max_length=256)] | None = None
    invite: Annotated[str, Field(max_length=128)] | None = None  # a private table's secret (transport/tablegate.py)


class Ping(ClientModel):
    type: Literal["ping"]


class WatchLobby(ClientModel):
    """Follow the lobby (instead of a table): a ``lobby`` message, then ``lobby_update``s."""

    type: Literal["lobby"]


# Every message a client sends: the table's commands (table/commands.py) and the connection's own.
_Clients = Join | Act | Draw | DontWait | Resign | Rematch | Sit | Stand | Ping | WatchLobby | CashIntent | Chat
ClientMessage = Annotated[_Clients, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[_Clients] = TypeAdapter(ClientMessage)


# -- the small server messages: one serializer each ------------------------------
def pong_text(now: float) -> str:
    return dumps({"type": "pong", "now": now})


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


class ChatMessage(_Server):
    """A line of a table's chat (issue #37, table/chat.py): ``room`` is ``players``,
    ``spectators`` or ``system`` (then ``system`` says what happened to ``author``)."""

    type: Literal["chat"]
    id: int
    room: Literal["players", "spectators", "system"]
    author: str
    author_id: int | None
    text: str
    at: float
    system: Literal["join", "leave", "bust", "rematch"] | None = None


class LobbyUpdateMessage(_Server):
    type: Literal["lobby_update"]
    tables: list[dict[str, Any]]
    removed: list[str]


class GuestsMessage(_Server):
    """A private table's held places and seat requests, told to its creator (issue #37)."""

    type: Literal["guests"]
    approval: bool
    holds: list[dict[str, Any]]
    requests: list[dict[str, Any]]


_Servers = (SnapshotMessage | UpdateMessage | PresenceMessage | ErrorMessage | AppliedMessage | PongMessage | LobbyMessage
            | LobbyUpdateMessage | GuestsMessage | ChatMessage)
ServerMessage = Annotated[_Servers, Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[_Servers] = TypeAdapter(ServerMessage)


