"""How strong every two-card hand is on a board, for reading ranges.

Ranges are narrowed by asking which of an opponent's possible hands would
bet, call or fold here, so every combo needs a strength on the board that
a player would act on: its share of the other hands it beats by the river.
On the river that is the made hand's percentile; on the turn it is
averaged over every river, on the flop over a fixed sample of turns and
rivers — so a flush draw counts for its chances, not as the ace high it is
now.  The flop sample is seeded by the board itself: strength is a pure
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

__all__ = ["FLOP_RUNOUTS", "board_strength", "combo_index", "combo_strength", "made_strength"]

#: Turn-and-river samples that stand for the flop's future.
FLOP_RUNOUTS: Final = 40

Strengths = npt.NDArray[np.float64]


def _percentiles(ranks: npt.NDArray[np.int64], live: npt.NDArray[np.bool_]) -> Strengths:
    """Per row, the share of the row's other live hands each live hand beats
    (ties count half), 0..1; dead entries get 0.  One sort for all rows."""
    rows, width = ranks.shape
    keys = np.where(live, ranks + 1, 0) + np.arange(rows)[:, None] * (int(ranks.max(initial=0)) + 2)
    ordered = np.sort(keys, axis=None)
    below = np.searchsorted(ordered, keys, side="left") - np.arange(rows)[:, None] * width
    ties = np.searchsorted(ordered, keys, side="right") - np.searchsorted(ordered, keys, side="left")
    dead = (~live).sum(axis=1, keepdims=True)
    result: Strengths = np.where(live, (below - dead + 0.5 * (ties - 1)) / np.maximum(width - dead - 1, 1), 0.0)
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
    ranks = np.zeros((count, len(index)), dtype=np.int64)
    ranks[alive] = evaluate_batch(rows)
    percent = _percentiles(ranks, alive)
    seen = alive.sum(axis=0)
    result = np.zeros(len(live))
    result[index] = np.where(seen > 0, percent.sum(axis=0) / np.maximum(seen, 1), 0.0)
    return result


@lru_cache(maxsize=4096)
def made_strength(board: tuple[int, ...]) -> Strengths:
    """Every combo's made-hand percentile on ``board`` as it is (0 for dead combos)."""
    return _strengths(board, [()])


def _runouts(board: tuple[int, ...]) -> list[tuple[int, ...]]:
    rest = [card for card in range(52) if card not in board]
    if len(board) == 4:
        return [(card,) for card in rest]
    seed = sum(card << (6 * i) for i, card in enumerate(board))
    rng = np.random.default_rng(seed)
    pairs = [tuple(int(c) for c in rng.choice(rest, size=2, replace=False)) for _ in range(FLOP_RUNOUTS)]
    return pairs


@lru_cache(maxsize=4096)
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
