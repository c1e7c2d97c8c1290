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

__all__ = ["Fragment", "dumps", "join_arrays", "pack"]

Fragment = orjson.Fragment

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as a JSON text (a ``str``: WebSocket text frames carry text)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def pack(value: list[Any]) -> bytes:
    """``value`` serialised now, to keep and later embed as is (``Fragment(packed)`` in :func:`dumps`).

    For data a server keeps for a long time (each table's recent events, for
    catch-ups): one untracked bytes object instead of many dicts and lists
    that every garbage collection would have to scan.  Copied to its exact
    size: the object ``orjson.dumps`` returns keeps the 4 KB buffer it was
    written into (a catch-up buffer of such objects was most of a busy
    server's memory growth, issue #10)."""
    return bytes(memoryview(orjson.dumps(value, option=_OPTIONS)))


def join_arrays(arrays: list[bytes]) -> Fragment:
    """The concatenation of serialised JSON arrays, as one array."""
    items = [a[1:-1] for a in arrays if len(a) > 2]
    return orjson.Fragment(b"[" + b",".join(items) + b"]")
