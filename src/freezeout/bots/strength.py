"""How strong every two-card hand is on a board, for reading ranges.

Ranges are narrowed by asking which of an opponent's possible hands would
bet, call or fold here, so every combo needs a strength on the board that
a player would act on: its share of the other hands it beats by the river.
On the river that is the made hand's percentile; on the flop and the turn
it is averaged over a fixed sample of the cards to come — so a flush draw
counts for its chances, not as the ace high it is now.  The sample is
seeded by the board itself: strength is a pure
function of the board, cached per board, and draws nothing from any
bot's random source.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import combo_cards
from freezeout.bots.montecarlo import live_combos
from freezeout.evaluate import evaluate_batch

__all__ = ["RUNOUTS", "board_strength", "combo_index", "combo_strength", "made_strength"]

#: Samples of the cards to come that stand for the future of a flop or a turn.
RUNOUTS: Final = 24

Strengths = npt.NDArray[np.float64]


def _percentiles(ranks: npt.NDArray[np.int32], live: npt.NDArray[np.bool_]) -> Strengths:
    """Per row, the share of the row's other live hands each live hand beats
    (ties count half), 0..1; dead entries get 0.  Ranks are small integers,
    so one histogram per row replaces sorting."""
    rows, _ = ranks.shape
    size = int(ranks.max(initial=0)) + 1
    keys = np.arange(rows)[:, None] * size + ranks
    counts = np.bincount(keys[live], minlength=rows * size).reshape(rows, size)
    before = np.cumsum(counts, axis=1) - counts
    below = before.ravel()[keys]
    ties = counts.ravel()[keys]
    others = np.maximum(live.sum(axis=1, keepdims=True) - 1, 1)
    result: Strengths = np.where(live, (below + 0.5 * (ties - 1)) / others, 0.0)
    return result


def _strengths(board: tuple[int, ...], runouts: list[tuple[int, ...]]) -> Strengths:
    """Every combo's river percentile averaged over ``runouts`` of ``board``."""
    live = live_combos(board)
    index = np.flatnonzero(live)
    combos = combo_cards()[index]
    fulls = np.array([(*board, *runout) for runout in runouts], dtype=np.int64)
    count, cards = len(runouts), fulls.shape[1]
    masks = np.zeros(count, dtype=np.int64)
    for column in range(len(board), cards):
        masks |= np.int64(1) << fulls[:, column]
    combo_masks = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    alive = (combo_masks[None, :] & masks[:, None]) == 0
    runout_of, combo_of = np.nonzero(alive)
    rows = np.concatenate([fulls[runout_of], combos[combo_of]], axis=1)
    ranks = np.zeros((count, len(index)), dtype=np.int32)
    ranks[alive] = evaluate_batch(rows)
    percent = _percentiles(ranks, alive)
    seen = alive.sum(axis=0)
    result = np.zeros(len(live))
    result[index] = np.where(seen > 0, percent.sum(axis=0) / np.maximum(seen, 1), 0.0)
    return result


@lru_cache(maxsize=1024)
def made_strength(board: tuple[int, ...]) -> Strengths:
    """Every combo's made-hand percentile on ``board`` as it is (0 for dead combos)."""
    return _strengths(board, [()])


def _runouts(board: tuple[int, ...]) -> list[tuple[int, ...]]:
    """A fixed sample of the cards to come, seeded by the board itself."""
    rest = [card for card in range(52) if card not in board]
    rng = np.random.default_rng(sum(card << (6 * i) for i, card in enumerate(board)))
    if len(board) == 4:
        return [(int(card),) for card in rng.choice(rest, size=RUNOUTS, replace=False)]
    return [tuple(int(c) for c in rng.choice(rest, size=2, replace=False)) for _ in range(RUNOUTS)]


@lru_cache(maxsize=1024)
def combo_strength(board: tuple[int, ...]) -> Strengths:
    """Every combo's expected river percentile given ``board`` (0 for dead combos)."""
    if len(board) >= 5:
        return made_strength(board)
    return _strengths(board, _runouts(board))


def combo_index(first: int, second: int) -> int:
    """Row of the two cards in :func:`~freezeout.bots.classes.combo_cards`."""
    low, high = min(first, second), max(first, second)
    return low * 51 - low * (low - 1) // 2 + (high - low - 1)


def board_strength(board: tuple[int, ...], cards: tuple[int, int]) -> float:
    """The made-hand percentile of ``cards`` on ``board`` among every other hand."""
    return float(made_strength(board)[combo_index(*cards)])
