"""The batch evaluator: engines agree with each other and with hand_rank; bad arrays fail."""

from __future__ import annotations

import numpy as np
import pytest

from freezeout.cards import CardError
from freezeout.evaluate import EvaluationError, evaluate_batch, hand_rank
from freezeout.evaluate import batch as batch_module


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_engines_agree(size: int) -> None:
    cards = random_hands(20_000, size, seed=100 + size)
    numpy_ranks = batch_module.evaluate_batch(cards, engine="numpy")
    assert numpy_ranks.dtype == np.int32
    if batch_module.numba_available():
        assert (batch_module.evaluate_batch(cards, engine="numba") == numpy_ranks).all()
    sample = range(0, 20_000, 7)
    assert [hand_rank(cards[row].tolist()) for row in sample] == numpy_ranks[list(sample)].tolist()


def test_flush_heavy_rows_agree() -> None:  # R19: flush and straight flush rows take the other branch
    rng = np.random.default_rng(5)
    rows = []
    for _ in range(3_000):
        suit = int(rng.integers(4))
        suited = rng.choice(13, size=5, replace=False) * 4 + suit
        rest = rng.choice(np.setdiff1d(np.arange(52), suited), size=2, replace=False)
        rows.append(np.concatenate([suited, rest]))
    cards = np.array(rows)
    expected = [hand_rank(row.tolist()) for row in cards]
    for engine in ("numpy", "numba", "auto"):
        assert batch_module.evaluate_batch(cards, engine=engine).tolist() == expected  # type: ignore[arg-type]


def test_empty_and_lists() -> None:
    assert evaluate_batch(np.empty((0, 7), dtype=np.int8)).shape == (0,)
    assert evaluate_batch([[48, 44, 40, 36, 32]]).tolist() == [7462]  # royal flush, as a list of lists


@pytest.mark.parametrize(
    ("cards", "error", "match"),
    [
        (np.zeros((3, 4), dtype=np.int8), EvaluationError, "shape"),
        (np.zeros((3, 8), dtype=np.int8), EvaluationError, "shape"),
        (np.zeros(7, dtype=np.int8), EvaluationError, "shape"),
        (np.full((2, 5), 0.5), CardError, "integers"),
        (np.array([[0, 1, 2, 3, 52]]), CardError, "row 0: card index 52"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, -1]], dtype=np.int8), CardError, "row 1: card index -1"),
        (np.array([[0, 1, 2, 3, 4], [0, 4, 8, 12, 255]], dtype=np.uint8), CardError, "row 1: card index 255"),
        (np.array([[0, 4, 8, 12, 2**40]]), CardError, "0..51"),
        (np.array([[0, 4, 8, 12, -(2**40)]]), CardError, "0..51"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]), CardError, "row 1"),
    ],
)
@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_bad_arrays(cards: np.ndarray, error: type[ValueError], match: str, engine: str) -> None:
    with pytest.raises(error, match=match):
        batch_module.evaluate_batch(cards, engine=engine)  # type: ignore[arg-type]
