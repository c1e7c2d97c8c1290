"""All 133,784,560 seven-card hands, counted by category (R19).  Slow: FREEZEOUT_SLOW=1."""

from __future__ import annotations

import os

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("FREEZEOUT_SLOW") != "1", reason="set FREEZEOUT_SLOW=1 to run"),
]



def test_all_seven_card_hands() -> None:  # R19
    pytest.importorskip("numba")
    from freezeout.evaluate.batch import SEVEN_CARD_CATEGORY_COUNTS, all_seven_card_category_counts

    counts, distinct = all_seven_card_category_counts()
    assert counts == SEVEN_CARD_CATEGORY_COUNTS
    assert distinct == 4_824  # distinct seven-card values
