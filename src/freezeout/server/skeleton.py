"""Unicode confusables by their UTS #39 skeleton (issue #32-5), for names that read alike.

Unicode's ``confusables.txt`` maps each character that can pass for another to its
*prototype* (``ı`` DOTLESS I and ``ɩ`` IOTA to ``i``, ``ɑ`` ALPHA to ``a``, ``ł`` to
``l`` and a stroke); the skeleton of a text is NFD, each character replaced by its
prototype, NFD again.  The data is the well-kept ``confusable_homoglyphs`` package's
copy of that file, which lists every pair both ways; the direction is recovered here:
a prototype is never itself mapped (the mapping is idempotent), so the character of a
pair that others map to, or whose partner is a sequence, is the prototype (a pair of
two lone characters: the ASCII one, else the lower code point).  Loaded once, on first
use (about 30 ms).  Pure: no I/O after the package's data file is read.
"""

from __future__ import annotations

import functools
import importlib.resources
import unicodedata

import orjson

__all__ = ["prototypes", "skeleton"]


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character and its prototype (one character or more)."""
    raw = importlib.resources.files("confusable_homoglyphs").joinpath("confusables.json").read_bytes()
    data: dict[str, list[dict[str, str]]] = orjson.loads(raw)
    table: dict[str, str] = {}
    for char, entries in data.items():
        if len(char) != 1 or len(entries) != 1:
            continue  # a sequence, or a prototype of several characters
        target = entries[0]["c"]
        partners = [entry["c"] for entry in data.get(target, [])]
        if char not in partners:
            continue
        if len(target) == 1 and len(partners) == 1 and not _first_is_prototype(target, char):
            continue  # a lone pair, and this one is its prototype
        table[char] = target
    return table


def _first_is_prototype(one: str, other: str) -> bool:
    if one.isascii() != other.isascii():
        return one.isascii()
    return ord(one) < ord(other)


def skeleton(text: str) -> str:
    """UTS #39 skeleton of ``text``: NFD, each character to its prototype, NFD."""
    table = prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))
