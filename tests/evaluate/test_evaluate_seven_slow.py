"""All 133,784,560 seven-card hands, counted by category (R19).  Slow: FREEZEOUT_SLOW=1."""

from __future__ import annotations

import os
from collections import Counter

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("FREEZEOUT_SLOW") != "1", reason="set FREEZEOUT_SLOW=1 to run"),
]

SEVEN_CARD_COUNTS = {
    "straight flush": 41_584,
    "four of a kind": 224_848,
    "full house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three of a kind": 6_461_620,
    "two pair": 31_433_400,
    "one pair": 58_627_800,
    "high card": 23_294_460,
}


def test_all_seven_card_hands() -> None:  # R19
    pytest.importorskip("numba")
    from freezeout.evaluate import category_of
    from freezeout.evaluate.batch import all_seven_card_rank_counts

    histogram = all_seven_card_rank_counts()
    counts: Counter[str] = Counter()
    for rank, count in enumerate(histogram.tolist()):
        if count:
            counts[category_of(rank)] += count
    assert dict(counts) == SEVEN_CARD_COUNTS
    assert int((histogram > 0).sum()) == 4_824  # distinct seven-card values
