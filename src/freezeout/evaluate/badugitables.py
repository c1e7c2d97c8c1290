"""Generate the badugi table (V15).  Generation only: the look-up is :mod:`.badugi`.

A badugi hand is the best subset of the four cards with no two cards of
one suit and no two of one rank.  More cards beat fewer; among hands of
the same size the highest card decides, then the next, ace low.  Such a
subset has different ranks, so its value is its 13-bit mask of ace-low
ranks alone, and comparing two masks of the same size from the top card
down is comparing them as integers (smaller is better).  One list of
8,192 entries therefore ranks every subset: 1,092 values (715 four-card,
286 three-card, 78 two-card, 13 one-card hands), 1 for a lone king up to
1,092 for 4-3-2-A.
"""

from __future__ import annotations

from array import array
from typing import Final

from freezeout.evaluate.cache import Tables, load_or_build

__all__ = ["BADUGI_TABLE_VERSION", "badugi_masks", "build_badugi_tables", "load_badugi_tables"]

BADUGI_TABLE_VERSION: Final = 1


def badugi_masks() -> list[int]:
    """Masks of 1..4 ace-low ranks, weakest hand first."""
    masks = [mask for mask in range(1, 1 << 13) if mask.bit_count() <= 4]
    return sorted(masks, key=lambda mask: (mask.bit_count(), -mask))


def build_badugi_tables() -> Tables:
    """The badugi rank of every mask (0 for masks that are no badugi hand)."""
    ranks = [0] * (1 << 13)
    for position, mask in enumerate(badugi_masks(), start=1):
        ranks[mask] = position
    return {"ranks": array("H", ranks)}


def load_badugi_tables() -> Tables:
    """The badugi table from the disk cache, generated and saved on first use."""
    return load_or_build("badugi", BADUGI_TABLE_VERSION, build_badugi_tables)
