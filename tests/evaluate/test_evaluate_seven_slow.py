"""All 133,784,560 seven-card hands, counted by category (R19).  Slow: FREEZEOUT_SLOW=1."""

from __future__ import annotations

import os

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
    from freezeout.evaluate.batch import all_seven_card_category_counts

    counts, distinct = all_seven_card_category_counts()
    assert counts == SEVEN_CARD_COUNTS
    assert distinct == 4_824  # distinct seven-card values
