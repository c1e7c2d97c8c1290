"""JSON text for the wire: every server message is serialised here.

orjson is several times faster than the standard library's encoder, and a
busy server serialises one message per seat per change of every table, so
this is on the hottest path.  ``OPT_NON_STR_KEYS`` keeps the standard
library's behaviour for integer keys (they become strings).  The output is
compact JSON (no spaces after separators); clients parse it, they never
compare text.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps"]

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as a JSON text (a ``str``: WebSocket text frames carry text)."""
    return orjson.dumps(value, option=_OPTIONS).decode()
