"""The 169×169 preflop all-in equity table: built exactly, loaded fast.

``equity[i, j]`` is the share of the pot class ``i`` wins all-in against
class ``j`` (ties count half), averaged over every pair of non-overlapping
combos and every board — an exact enumeration, not a sample.  ``pairs[i,
j]`` counts the non-overlapping combo pairs, which is what card removal
means to a push/fold solver.

Why it is cheap enough to be exact: the aggregate over all boards is
invariant under suit permutations (a permutation maps each class's combos
onto themselves), so it suffices to visit the 134,459 boards that are
distinct up to suits, weighted by the size of their orbit.  For each such
board the batch evaluator ranks all 1,081 live combos once, and a small
numba loop compares every live pair.  About two minutes on two cores:
``python -m freezeout.bots.build_data equity``.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path
from typing import Final

import numba
import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import CLASS_COUNT, combo_cards, combo_classes
from freezeout.evaluate import evaluate_batch

__all__ = [
    "EQUITY_FILE",
    "EquityTable",
    "build_equity",
    "canonical_boards",
    "class_pair_counts",
    "equity_over_boards",
    "load_equity",
]

DATA_DIR: Final = Path(__file__).resolve().parent.parent / "data"
EQUITY_FILE: Final = DATA_DIR / "preflop_equity.npz"
_SUIT_PERMUTATIONS: Final = tuple(itertools.permutations(range(4)))


class EquityTable:
    """Exact preflop all-in equities and combo-pair counts per class pair."""

    __slots__ = ("equity", "pairs")

    def __init__(self, equity: npt.NDArray[np.float64], pairs: npt.NDArray[np.float64]) -> None:
        self.equity = equity
        self.pairs = pairs


@cache
def load_equity() -> EquityTable:
    """The committed table (built by :func:`build_equity`)."""
    with np.load(EQUITY_FILE) as data:
        return EquityTable(data["equity"].astype(np.float64), data["pairs"].astype(np.float64))


def class_pair_counts() -> npt.NDArray[np.float64]:
    """Non-overlapping combo pairs for every class pair (card removal)."""
    cards = combo_cards()
    classes = combo_classes()
    masks = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    disjoint = (masks[:, None] & masks[None, :]) == 0
    onehot = np.zeros((len(classes), CLASS_COUNT))
    onehot[np.arange(len(classes)), classes] = 1.0
    counts: npt.NDArray[np.float64] = onehot.T @ disjoint.astype(np.float64) @ onehot
    return counts


def canonical_boards() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Five-card boards distinct up to suit permutation, and their orbit sizes."""
    boards = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    ranks, suits = boards >> 2, boards & 3
    best = np.full(len(boards), np.iinfo(np.int64).max, dtype=np.int64)
    for perm in _SUIT_PERMUTATIONS:
        mapped = ranks * 4 + np.asarray(perm, dtype=np.int64)[suits]
        masks = np.bitwise_or.reduce(np.int64(1) << mapped, axis=1)
        np.minimum(best, masks, out=best)
    unique, counts = np.unique(best, return_counts=True)
    bits = (unique[:, None] >> np.arange(52, dtype=np.int64)) & 1
    cards = np.nonzero(bits)[1].reshape(len(unique), 5).astype(np.int64)
    return cards, counts.astype(np.int64)


@numba.njit(cache=True)  # type: ignore[untyped-decorator,misc,unused-ignore]
def _accumulate(
    live: npt.NDArray[np.int64],
    ranks: npt.NDArray[np.int32],
    weights: npt.NDArray[np.int64],
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    classes: npt.NDArray[np.int64],
    wins: npt.NDArray[np.float64],
    counts: npt.NDArray[np.float64],
) -> None:
    boards, width = live.shape
    for board in range(boards):
        weight = weights[board]
        for x in range(width):
            a = live[board, x]
            ra = ranks[board, x]
            a1, a2, ca = first[a], second[a], classes[a]
            for y in range(x + 1, width):
                b = live[board, y]
                b1, b2 = first[b], second[b]
                if a1 == b1 or a1 == b2 or a2 == b1 or a2 == b2:  # noqa: SIM109 (numba loop)
                    continue
                rb = ranks[board, y]
                cb = classes[b]
                if ra > rb:
                    wins[ca, cb] += weight
                elif rb > ra:
                    wins[cb, ca] += weight
                else:
                    wins[ca, cb] += 0.5 * weight
                    wins[cb, ca] += 0.5 * weight
                counts[ca, cb] += weight
                counts[cb, ca] += weight


def equity_over_boards(
    boards: npt.NDArray[np.int64], weights: npt.NDArray[np.int64], chunk: int = 256
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Weighted win shares and counts per class pair over the given boards.

    Summing the results over all canonical boards and dividing gives the
    exact table; the tests run it on a handful of boards against a brute
    force over :func:`freezeout.evaluate.hand_rank`.
    """
    cards = combo_cards()
    classes = combo_classes()
    combo_masks = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    wins = np.zeros((CLASS_COUNT, CLASS_COUNT))
    counts = np.zeros((CLASS_COUNT, CLASS_COUNT))
    for start in range(0, len(boards), chunk):
        part = boards[start : start + chunk]
        board_masks = np.bitwise_or.reduce(np.int64(1) << part, axis=1)
        live_mask = (combo_masks[None, :] & board_masks[:, None]) == 0
        live = np.nonzero(live_mask)[1].reshape(len(part), -1)
        rows = np.concatenate([np.repeat(part, live.shape[1], axis=0), cards[live.ravel()]], axis=1)
        ranks = evaluate_batch(rows).reshape(live.shape).astype(np.int32)
        _accumulate(
            live, ranks, weights[start : start + chunk], cards[:, 0], cards[:, 1], classes, wins, counts
        )
    return wins, counts


def _build_part(args: tuple[int, int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    part, parts = args
    boards, weights = canonical_boards()
    return equity_over_boards(boards[part::parts], weights[part::parts])


def build_equity(jobs: int = 2, path: Path = EQUITY_FILE) -> EquityTable:
    """Enumerate every board (up to suits) and write the exact table to ``path``."""
    from multiprocessing import get_context

    with get_context("spawn").Pool(jobs) as pool:
        results = pool.map(_build_part, [(part, jobs) for part in range(jobs)])
    wins = sum(result[0] for result in results)
    counts = sum(result[1] for result in results)
    equity = np.divide(wins, counts, out=np.full_like(wins, 0.5), where=counts > 0)
    pairs = class_pair_counts()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, equity=equity, pairs=pairs)
    load_equity.cache_clear()
    return EquityTable(equity, pairs)
