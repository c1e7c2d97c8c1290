"""The TOML pieces every PHH export writes: strings (names and events are
players' text, so every control character is escaped), integer lists, and
the hand's closing keys.  One place, so that the house game's export and
every other game's write them alike."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["hand_tail", "toml_ints", "toml_string"]


def toml_string(text: str) -> str:
    """A TOML basic string (double quotes, escapes for ``"``, ``\\`` and controls)."""
    out = ['"']
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def toml_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"


def hand_tail(hand_number: int | None, event: str | None, names: Sequence[str], finishing: Sequence[int]) -> list[str]:
    """The keys after the actions: ``hand``, ``event``, ``players``, ``finishing_stacks``."""
    lines = [] if hand_number is None else [f"hand = {hand_number}"]
    if event is not None:
        lines.append(f"event = {toml_string(event)}")
    lines.append(f"players = [{', '.join(toml_string(name) for name in names)}]")
    lines.append(f"finishing_stacks = {toml_ints(finishing)}")
    return lines
