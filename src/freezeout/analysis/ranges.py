"""Hold'em hands and ranges as lists of two-card combinations.

A range is comma-separated parts, each one of:

* a hand: ``AhKh``;
* a class: ``QQ`` (6 combos), ``AKs`` (4), ``AKo`` (12), ``AK`` (16);
* a class and everything above it: ``QQ+`` (QQ, KK, AA), ``ATs+``
  (ATs, AJs, AQs, AKs: the kicker rises, the top card stays);
* a span: ``22-55``, ``A2s-A5s``, ``K9o-KQo``;
* ``random`` (or ``*``): every combination.

>>> len(parse_range("QQ+,AKs"))
22
>>> parse_range("AhKh")
((49, 45),)
"""

from __future__ import annotations

import itertools
import re
from typing import Final

from freezeout.cards import RANKS, CardError, parse_cards

__all__ = ["RangeError", "is_range", "parse_range"]

_CLASS: Final = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)$")


class RangeError(ValueError):
    """A range that is not written as :mod:`this module <.ranges>` describes."""


def _combos(high: int, low: int, suited: str) -> list[tuple[int, int]]:
    if high == low:
        return [(high * 4 + a, low * 4 + b) for a, b in itertools.combinations(range(4), 2)]
    pairs = [(a, b) for a in range(4) for b in range(4)]
    if suited == "s":
        pairs = [(a, b) for a, b in pairs if a == b]
    elif suited == "o":
        pairs = [(a, b) for a, b in pairs if a != b]
    return [(high * 4 + a, low * 4 + b) for a, b in pairs]


def _class(text: str, part: str) -> tuple[int, int, str]:
    match = _CLASS.match(text)
    if match is None:
        raise RangeError(f"{part!r} is not a hand, a class (AKs, QQ) or a span of them")
    first, second, suited = RANKS.index(match[1]), RANKS.index(match[2]), match[3]
    high, low = max(first, second), min(first, second)
    if high == low and suited:
        raise RangeError(f"{part!r}: a pair is neither suited nor offsuit")
    return high, low, suited


def _part(part: str) -> list[tuple[int, int]]:
    if part in ("random", "*", "any"):
        return list(itertools.combinations(range(52), 2))
    if "-" in part:
        left, right = (_class(side, part) for side in part.split("-", 1))
        if left[0] == left[1] and right[0] == right[1]:
            low, high = sorted((left[0], right[0]))
            return [combo for rank in range(low, high + 1) for combo in _combos(rank, rank, "")]
        if left[0] != right[0] or left[2] != right[2] or left[0] == left[1] or right[0] == right[1]:
            raise RangeError(f"{part!r}: a span keeps its top card and suitedness (A2s-A5s) or joins pairs (22-55)")
        low, high = sorted((left[1], right[1]))
        return [combo for kicker in range(low, high + 1) for combo in _combos(left[0], kicker, left[2])]
    if part.endswith("+"):
        high, low, suited = _class(part[:-1], part)
        if high == low:
            return [combo for rank in range(high, 13) for combo in _combos(rank, rank, "")]
        return [combo for kicker in range(low, high) for combo in _combos(high, kicker, suited)]
    if len(part) == 4 and part[1].islower() and part[3].islower():
        try:
            first, second = parse_cards(part)
        except (CardError, ValueError) as error:
            raise RangeError(f"{part!r}: {error}") from None
        return [(max(first, second), min(first, second))]
    high, low, suited = _class(part, part)
    return _combos(high, low, suited)


def is_range(text: str) -> bool:
    """Whether ``text`` reads as a range rather than a list of exact cards."""
    try:
        parse_cards(text)
    except (CardError, ValueError):
        return True
    return False


def parse_range(text: str) -> tuple[tuple[int, int], ...]:
    """The distinct combinations of a range, each ``(higher card, lower card)`` as card indices."""
    seen: dict[tuple[int, int], None] = {}
    parts = [part.strip() for part in text.split(",")]
    if not any(parts):
        raise RangeError("an empty range")
    for part in parts:
        if not part:
            raise RangeError(f"an empty part in {text!r}")
        for first, second in _part(part):
            seen[(max(first, second), min(first, second))] = None
    return tuple(seen)
