"""What a client may ask of a table: its commands, as frozen, strictly validated values.

The table's own vocabulary (issue #33: arrows point inward).  The socket
parses a frame straight into one of these (transport/protocol.py's
``ClientMessage`` holds them beside the transport's own messages: join, ping,
the lobby), the HTTP API builds them, the bus carries them
(cluster/routing.py), and the table's actor decides each
(table/intents.py).  Unknown fields and wrong types are refused where they are
parsed, so a command that reaches the table is well formed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

__all__ = [
    "INTENT",
    "INTENTS",
    "KEY_PATTERN",
    "VERSIONED_INTENTS",
    "Act",
    "AutoTopUp",
    "BuyIn",
    "CashChips",
    "CashIntent",
    "Chat",
    "ClientModel",
    "DeclineSeat",
    "DontWait",
    "Draw",
    "Intent",
    "MoveIn",
    "MoveOut",
    "MsgId",
    "Refused",
    "Rematch",
    "Resign",
    "RunTwice",
    "Sit",
    "SitIn",
    "SitOut",
    "Stand",
    "Straddle",
    "TableId",
    "TopUp",
    "TransferId",
    "WaitIntent",
    "WaitlistJoin",
    "WaitlistLeave",
]

# An intent's key (table/idempotency.py): 8-64 characters of the URL-safe alphabet, so a random key
# (the page sends 16) does not repeat.
KEY_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"

class Refused(Exception):
    """A command the table does not accept; ``code`` is the protocol's error code.

    Here, beside the commands, so that the games (table/cash*.py) refuse a request without
    importing the fold (table/state.py) that imports them."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


MsgId = StrictStr | StrictInt | None


class ClientModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: MsgId = None


# An intent's idempotency key (table/idempotency.py): a resend with the same key is applied at most once.
IntentKey = Annotated[str, Field(pattern=KEY_PATTERN)] | None


class _Intent(ClientModel):
    key: IntentKey = None


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
    slot: Annotated[int, Field(ge=0, le=9)] | None = None  # the most places any table has (gamespec.LAYOUT_MAX_SEATS); a table's own size: table/intents.py


class Stand(_Intent):
    type: Literal["stand"]


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
    slot: Annotated[int, Field(ge=0, le=9)] | None = None
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


class Chat(_Intent):
    """A line in the table's chat (issue #37): not an entry of the log; table/chat.py decides
    which room it goes to and stores it beside the table (storage/chat.py).  The text's own
    limits (200 characters, no control characters) are table/chat.py's, with a clear refusal."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=2000)]



# -- a full cash table's waiting list (C13) and a broken table's moves (C14): docs/protocol.md "Waiting list" --
TableId = Annotated[str, Field(pattern=r"^t[0-9a-f]{12}$")]


class WaitlistJoin(_Intent):
    """C13: wait for a seat at this full table; ``anywhere``: joined with "first available" (the
    room joins every public table of the game and stakes, ``POST /api/cash/first_available``)."""

    type: Literal["waitlist_join"]
    anywhere: bool = False
    # C14: the room's join for a player of broken table ``moved_from`` for whom no seat is free
    # (ahead of those who joined by choice); a client's join never names it (transport/wsdecode.py)
    moved_from: TableId | None = None


class WaitlistLeave(_Intent):
    """C13: leave the waiting list (a seat offered passes to the next in line)."""

    type: Literal["waitlist_leave"]


class DeclineSeat(_Intent):
    """C13: turn the seat offered down: as leaving the list.  (Taking it is a ``buy_in``.)"""

    type: Literal["decline_seat"]


class MoveOut(_Intent):
    """C14: this table broke: leave it with every chip, for table ``to`` (the room sends it)."""

    type: Literal["move_out"]
    to: TableId


class MoveIn(_Intent):
    """C14: sit here with the chips the ``move_out`` entry ``seq`` of the broken table ``source``
    took off it for this table, even below the minimum buy-in (the room sends it)."""

    type: Literal["move_in"]
    source: TableId
    seq: Annotated[int, Field(ge=1)]
    slot: Annotated[int, Field(ge=0, le=9)] | None = None


WaitIntent = WaitlistJoin | WaitlistLeave | DeclineSeat | MoveOut | MoveIn
CashIntent = BuyIn | TopUp | SitOut | SitIn | Straddle | RunTwice | AutoTopUp | WaitIntent
Intent = Act | Draw | DontWait | Resign | Rematch | Sit | Stand | CashIntent | Chat
INTENTS = (Act, Draw, DontWait, Resign, Rematch, Sit, Stand, BuyIn, TopUp, SitOut, SitIn, Straddle, RunTwice, AutoTopUp,
           WaitlistJoin, WaitlistLeave, DeclineSeat, MoveOut, MoveIn, Chat)
VERSIONED_INTENTS = (Act, Draw, DontWait)  # decided on a version of the table: stale once it moved on
INTENT: TypeAdapter[Intent] = TypeAdapter(Annotated[Intent, Field(discriminator="type")])
