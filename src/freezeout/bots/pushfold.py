"""Heads-up push/fold equilibrium, solved exactly by linear programming.

The game: both players have ``S`` big blinds; the small blind (button) goes
all-in or folds, the big blind calls or folds.  Payoffs are chips (in big
blinds) — in a winner-take-all freezeout the chance to win equals the share
of the chips, so chip EV is the right currency.  Card removal is exact at
the class level: class pairs are weighted by their non-overlapping combo
pairs (:func:`freezeout.bots.equity_table.class_pair_counts`).

Each side's equilibrium strategy is one LP (scipy's HiGHS), so the solution
is exact up to solver tolerance — far below the 1 mbb/hand the bench asks.
Solutions for a grid of stack depths are committed in
``data/pushfold.npz`` and built by ``python -m freezeout.bots.build_data
pushfold``; between grid points the nearest depth is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import CLASS_COUNT
from freezeout.bots.equity_table import DATA_DIR, EquityTable, load_equity

__all__ = [
    "HU_GRID",
    "PUSHFOLD_FILE",
    "PushFold",
    "build_pushfold",
    "call_best_response",
    "hu_value",
    "load_pushfold",
    "push_best_response",
    "solve_heads_up",
]

PUSHFOLD_FILE: Final = DATA_DIR / "pushfold.npz"
#: Stack depths (big blinds) with a stored heads-up solution.
HU_GRID: Final = np.round(np.arange(1.0, 30.01, 0.25), 2)

Vector = npt.NDArray[np.float64]


def _call_gain(table: EquityTable, stack: float) -> npt.NDArray[np.float64]:
    """Weighted change of the pusher's result when the caller calls instead
    of folding: ``S (2E - 1) - 1`` per class pair, times the combo pairs."""
    return table.pairs * (stack * (2.0 * table.equity - 1.0) - 1.0)


def hu_value(push: Vector, call: Vector, stack: float, table: EquityTable | None = None) -> float:
    """The small blind's expected result (big blinds per hand) for the pair of strategies."""
    table = table or load_equity()
    total = table.pairs.sum()
    per_class = table.pairs.sum(axis=1)
    value = -0.5 * total + 1.5 * float(per_class @ push) + float(push @ _call_gain(table, stack) @ call)
    return float(value / total)


def push_best_response(call: Vector, stack: float, table: EquityTable | None = None) -> tuple[float, Vector]:
    """The small blind's best response to a calling strategy: (value, push)."""
    table = table or load_equity()
    total = table.pairs.sum()
    per_class = table.pairs.sum(axis=1)
    push_value = per_class + _call_gain(table, stack) @ call
    fold_value = -0.5 * per_class
    push = (push_value > fold_value).astype(np.float64)
    return float(np.maximum(push_value, fold_value).sum() / total), push


def call_best_response(push: Vector, stack: float, table: EquityTable | None = None) -> tuple[float, Vector]:
    """The big blind's best response to a pushing strategy: (SB value, call)."""
    table = table or load_equity()
    total = table.pairs.sum()
    per_class = table.pairs.sum(axis=1)
    gain = push @ _call_gain(table, stack)  # per BB class: SB's gain if BB calls
    call = (gain < 0).astype(np.float64)
    base = -0.5 * total + 1.5 * float(per_class @ push)
    return (base + float(np.minimum(gain, 0.0).sum())) / total, call


def solve_heads_up(stack: float, table: EquityTable | None = None) -> tuple[Vector, Vector, float]:
    """Exact equilibrium ``(push, call, value)`` at ``stack`` big blinds."""
    from scipy.optimize import linprog  # only here: every other game's first decision does not pay for scipy

    table = table or load_equity()
    n = CLASS_COUNT
    gain = _call_gain(table, stack)
    per_class = table.pairs.sum(axis=1)
    total = table.pairs.sum()
    # Pusher: max 1.5 m.p + sum t  s.t.  t_j <= sum_i gain_ij p_i,  t <= 0,  0 <= p <= 1.
    c = np.concatenate([-1.5 * per_class, -np.ones(n)])
    a_ub = np.hstack([-gain.T, np.eye(n)])
    bounds = [(0.0, 1.0)] * n + [(None, 0.0)] * n
    push_lp = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), bounds=bounds, method="highs")
    if not push_lp.success:
        raise RuntimeError(f"push LP failed at {stack} bb: {push_lp.message}")
    push = np.clip(push_lp.x[:n], 0.0, 1.0)
    # Caller: min sum u  s.t.  u_i >= -0.5 m_i,  u_i >= m_i + sum_j gain_ij q_j,  0 <= q <= 1.
    c2 = np.concatenate([np.zeros(n), np.ones(n)])
    a_ub2 = np.hstack([gain, -np.eye(n)])
    bounds2 = [(0.0, 1.0)] * n + [(-0.5 * m, None) for m in per_class]
    call_lp = linprog(c2, A_ub=a_ub2, b_ub=-per_class, bounds=bounds2, method="highs")
    if not call_lp.success:
        raise RuntimeError(f"call LP failed at {stack} bb: {call_lp.message}")
    call = np.clip(call_lp.x[:n], 0.0, 1.0)
    value = (-0.5 * total - push_lp.fun) / total
    return _snap(push), _snap(call), float(value)


def _snap(strategy: Vector) -> Vector:
    """Round solver noise (1e-10) to clean 0/1 so charts print pure actions."""
    snapped = strategy.copy()
    snapped[snapped < 1e-9] = 0.0
    snapped[snapped > 1 - 1e-9] = 1.0
    return snapped


@dataclass(frozen=True, slots=True)
class PushFold:
    """Stored equilibrium strategies: ``push[k]``/``call[k]`` at ``grid[k]`` bb."""

    grid: Vector
    push: npt.NDArray[np.float64]
    call: npt.NDArray[np.float64]
    multiway: dict[int, npt.NDArray[np.float64]]  # players -> (MULTIWAY_GRID, node, class)

    def index(self, stack_bb: float) -> int:
        return int(np.abs(self.grid - stack_bb).argmin())

    def push_probability(self, stack_bb: float, hand_class: int) -> float:
        return float(self.push[self.index(stack_bb), hand_class])

    def call_probability(self, stack_bb: float, hand_class: int) -> float:
        return float(self.call[self.index(stack_bb), hand_class])


@cache
def load_pushfold() -> PushFold:
    with np.load(PUSHFOLD_FILE) as data:
        multiway = {n: data[f"multiway_{n}"] for n in (3, 4) if f"multiway_{n}" in data}
        return PushFold(data["grid"], data["push"], data["call"], multiway)


def build_pushfold() -> PushFold:
    """Solve every grid depth heads-up and for 3-4 players; write the data file."""
    from freezeout.bots.multiway import MULTIWAY_GRID, solve_multiway

    table = load_equity()
    pushes, calls = [], []
    for stack in HU_GRID:
        push, call, _ = solve_heads_up(float(stack), table)
        pushes.append(push)
        calls.append(call)
    arrays: dict[str, npt.NDArray[np.float64]] = {
        "grid": HU_GRID,
        "push": np.array(pushes),
        "call": np.array(calls),
    }
    arrays["multiway_grid"] = MULTIWAY_GRID
    for players in (3, 4):
        solved = []
        for stack in MULTIWAY_GRID:
            solved.append(solve_multiway(players, float(stack), table))
            print(f"solved {players} players at {stack:g} bb", flush=True)
        arrays[f"multiway_{players}"] = np.array(solved)
    np.savez_compressed(PUSHFOLD_FILE, **arrays)  # type: ignore[arg-type]
    load_pushfold.cache_clear()
    return load_pushfold()
