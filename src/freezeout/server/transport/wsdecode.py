"""The one decoder at the socket: a WebSocket frame becomes a typed client message or a clear error.

Malformed or forged input gets a specific ``bad_message`` and changes nothing:
a binary frame, a text longer than :data:`MAX_MESSAGE`, text that is not JSON
(nested thousands deep, say) or a message of the wrong shape
(protocol.CLIENT_MESSAGE: unknown fields, wrong types).  The error echoes the
message's ``id`` when it has a readable one (docs/protocol.md).  What comes
out is a frozen protocol model — an intent travels as that to the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from freezeout.server.transport.protocol import (
    CLIENT_MESSAGE,
    Act,
    CashIntent,
    Chat,
    DontWait,
    Draw,
    Join,
    Ping,
    Rematch,
    Resign,
    Sit,
    Stand,
    WaitlistJoin,
    WatchLobby,
)

__all__ = ["MAX_MESSAGE", "BadFrame", "ClientMessage", "decode_frame"]

MAX_MESSAGE = 8192

ClientMessage = Join | Act | Draw | DontWait | Resign | Rematch | Sit | Stand | Ping | WatchLobby | CashIntent | Chat


@dataclass(frozen=True, slots=True)
class BadFrame:
    """Why a frame was refused (always ``bad_message``), and the ``id`` it carried if readable."""

    message: str
    ref: str | int | None = None
    code: str = "bad_message"


def decode_frame(frame: Mapping[str, Any]) -> ClientMessage | BadFrame:
    """The client's message in an ASGI ``websocket.receive`` frame, or why it is refused."""
    text = frame.get("text")
    if text is None:
        return BadFrame("binary frames are not accepted: send JSON text")
    if len(text) > MAX_MESSAGE:
        return BadFrame(f"messages are at most {MAX_MESSAGE} characters")
    try:
        raw = orjson.loads(text)  # nesting deeper than 1,024 is a JSONDecodeError, not a RecursionError
    except (orjson.JSONDecodeError, RecursionError):
        return BadFrame("not JSON")
    ref = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), (str, int)) else None
    try:
        msg = CLIENT_MESSAGE.validate_python(raw)
    except (ValidationError, RecursionError) as error:
        return BadFrame(_reason(error), ref)
    if isinstance(msg, WaitlistJoin) and msg.moved_from is not None:  # C14: the room's, for a broken table's player
        return BadFrame("moved_from: a player is put ahead in line by the room when their table breaks, "
                        "not by asking", ref)
    return msg


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return "the message is nested too deeply"
