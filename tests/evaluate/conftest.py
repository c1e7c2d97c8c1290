"""Shared fixtures of the evaluator tests: every hand of a size, as uint8 card arrays."""

from __future__ import annotations

from itertools import chain, combinations
from math import comb

import numpy as np
import pytest


def every_hand(deck: range, size: int) -> np.ndarray:
    """All ``C(len(deck), size)`` hands of ``size`` cards from ``deck``, one per row, in lexicographic order."""
    count = comb(len(deck), size)
    flat = np.fromiter(chain.from_iterable(combinations(deck, size)), dtype=np.uint8, count=count * size)
    return flat.reshape(count, size)


@pytest.fixture(scope="session")
def every_five() -> np.ndarray:
    """The 2,598,960 five-card hands."""
    return every_hand(range(52), 5)


@pytest.fixture(scope="session")
def every_short_five() -> np.ndarray:
    """The 376,992 five-card hands of the 36-card short deck (six to ace: indices 16..51)."""
    return every_hand(range(16, 52), 5)


@pytest.fixture(scope="session")
def every_four() -> np.ndarray:
    """The 270,725 four-card hands."""
    return every_hand(range(52), 4)
