"""What a chat line and a note on a player may hold (issue #37): short plain text.

Pure: no I/O.  A line is at most :data:`MAX_CHAT` characters once its ends are trimmed,
a note at most :data:`MAX_NOTE`; neither may hold a control character (U+0000-U+001F, U+007F-U+009F),
a format character that reorders or hides text (bidi overrides, zero-width spaces; the
zero-width joiner of emoji sequences is kept), a surrogate or an unassigned code point.
Markup is not refused but never read as markup: the page shows every line and note as
text (``textContent``), so ``<script>`` is shown, not run.  A note's colour label is one
of :data:`LABELS`.
"""

from __future__ import annotations

import unicodedata

__all__ = ["LABELS", "MAX_CHAT", "MAX_NOTE", "ChatRefused", "clean_chat", "clean_label", "clean_note"]

MAX_CHAT = 200
MAX_NOTE = 500
# The colour labels a note may carry (PokerStars' player notes have a fixed palette too).
LABELS = ("red", "orange", "yellow", "green", "blue", "purple")

_KEPT_FORMAT = {"\u200d"}  # the zero-width joiner holds emoji sequences together


class ChatRefused(Exception):
    """A chat line, mute, report or note refused: ``code`` and a message for people;
    ``status`` is the HTTP status an HTTP route answers with."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def _bad_character(text: str) -> str | None:
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and char not in _KEPT_FORMAT):
            return f"U+{ord(char):04X}"
    return None


def _clean(text: str, limit: int, what: str, *, empty: bool) -> str:
    trimmed = text.strip()
    if not trimmed and not empty:
        raise ChatRefused("bad_message", f"{what} is empty")
    if len(trimmed) > limit:
        raise ChatRefused("too_long", f"{what} is at most {limit} characters (this one has {len(trimmed)})")
    bad = _bad_character(trimmed)
    if bad is not None:
        raise ChatRefused("bad_message", f"{what} may not hold control or invisible characters ({bad})")
    return trimmed


def clean_chat(text: str) -> str:
    """The line as stored and shown, or :class:`ChatRefused` (empty, too long, a control character)."""
    return _clean(text, MAX_CHAT, "a chat message", empty=False)


def clean_note(text: str) -> str:
    """A note's text as stored (it may be empty when the note is only a label)."""
    return _clean(text, MAX_NOTE, "a note", empty=True)


def clean_label(label: str | None) -> str | None:
    if label is None or label in LABELS:
        return label
    raise ChatRefused("bad_message", f"a label is one of {', '.join(LABELS)}")
