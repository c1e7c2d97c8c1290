"""Preflop hand strength and "top x %" ranges built on the equity table.

Classes are ordered by all-in equity against one random hand (card removal
included).  That order is not perfect for multiway pots, but it is the
order shoving and calling ranges follow, which is where ranges matter most
in a fast freezeout.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import CLASS_COUNT, class_weights, combo_classes
from freezeout.bots.equity_table import load_equity

__all__ = ["class_to_combos", "equity_vs_random", "strength_order", "top_range"]


@cache
def equity_vs_random() -> npt.NDArray[np.float64]:
    """All-in equity of each class against a random hand."""
    table = load_equity()
    weighted: npt.NDArray[np.float64] = (table.equity * table.pairs).sum(axis=1) / table.pairs.sum(axis=1)
    return weighted


@cache
def strength_order() -> npt.NDArray[np.int64]:
    """Class ids from strongest to weakest."""
    order: npt.NDArray[np.int64] = np.argsort(-equity_vs_random(), kind="stable")
    return order


@cache
def _cumulative() -> npt.NDArray[np.float64]:
    weights = class_weights()[strength_order()]
    cumulative: npt.NDArray[np.float64] = np.cumsum(weights) / weights.sum()
    return cumulative


def top_range(fraction: float) -> npt.NDArray[np.float64]:
    """Class weights (0..1) of the strongest ``fraction`` of all combos; the
    boundary class is taken partly so the share is exact."""
    fraction = min(max(fraction, 0.0), 1.0)
    weights = np.zeros(CLASS_COUNT)
    order = strength_order()
    cumulative = _cumulative()
    share = class_weights()[order] / class_weights().sum()
    start = cumulative - share
    take = np.clip((fraction - start) / share, 0.0, 1.0)
    weights[order] = take
    return weights


def percentile(hand_class: int) -> float:
    """Share of all combos at least as strong as ``hand_class`` (0 = best)."""
    position = int(np.flatnonzero(strength_order() == hand_class)[0])
    return float(_cumulative()[position])


def class_to_combos(weights: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Spread class weights onto the 1,326 combos."""
    result: npt.NDArray[np.float64] = weights[combo_classes()]
    return result
