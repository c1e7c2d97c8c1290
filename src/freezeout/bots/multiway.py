"""Push/fold equilibrium for 3–4 players: first-in shoves, calls and overcalls.

The game: everyone has ``S`` big blinds; in preflop order each player goes
all-in or folds (a shove when nobody is in yet, a call or overcall
otherwise).  If everyone folds, the big blind takes the small blind.  The
tree is tiny (6 decision points for 3 players, 14 for 4) but multiway
all-ins need multiway equities, so the game is solved over a large fixed
sample of real deals (hole cards for everyone plus a board, card removal
included) with vectorised CFR+.  Two-way showdowns use the exact 169×169
table instead of the sampled board, which removes most of the sampling
noise; three- and four-way pots use the sampled board.

A node is the tuple of earlier actions (``True`` = all-in) and its actor is
the next player in order; ``multiway_nodes(n)`` fixes their order in the
stored arrays.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import CLASS_COUNT, class_of_cards
from freezeout.bots.equity_table import EquityTable, load_equity
from freezeout.evaluate import evaluate_batch

__all__ = ["MULTIWAY_GRID", "multiway_nodes", "node_index", "solve_multiway"]

#: Stack depths (big blinds) with a stored 3- and 4-player solution.
MULTIWAY_GRID: Final = np.array([1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0])
DEALS: Final = 160_000
ITERATIONS: Final = 200
_CLASS_OF: Final = np.array([[class_of_cards(a, b) if a != b else -1 for b in range(52)] for a in range(52)])

History = tuple[bool, ...]


@cache
def multiway_nodes(players: int) -> tuple[History, ...]:
    """Decision points in a fixed order: every history of earlier actions,
    except everyone folding to the big blind (who then has nothing to decide)."""
    nodes: list[History] = [()]
    frontier: list[History] = [()]
    for _ in range(players - 1):
        frontier = [(*h, a) for h in frontier for a in (False, True)]
        nodes.extend(h for h in frontier if len(h) < players - 1 or any(h))
    return tuple(nodes)


def node_index(players: int, history: History) -> int:
    return multiway_nodes(players).index(history)


def _blinds(players: int) -> npt.NDArray[np.float64]:
    posted = np.zeros(players)
    posted[-2], posted[-1] = 0.5, 1.0
    return posted


@cache
def _deals(players: int, seed: int = 20261129) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """A fixed sample of deals: each player's class and 7-card rank."""
    rng = np.random.default_rng(seed + players)
    cards = np.argsort(rng.random((DEALS, 52)), axis=1)[:, : 2 * players + 5].astype(np.int64)
    holes = cards[:, : 2 * players].reshape(DEALS, players, 2)
    board = cards[:, 2 * players :]
    classes = _CLASS_OF[holes[:, :, 0], holes[:, :, 1]]
    rows = np.concatenate([np.repeat(board, players, axis=0), holes.reshape(-1, 2)], axis=1)
    ranks = evaluate_batch(rows).reshape(DEALS, players)
    return classes, ranks


def _leaf(
    history: History,
    stack: float,
    classes: npt.NDArray[np.int64],
    ranks: npt.NDArray[np.int32],
    table: EquityTable,
) -> npt.NDArray[np.float64]:
    """Each player's result (big blinds) per deal at a finished history."""
    players = len(history)
    posted = _blinds(players)
    values = np.tile(-posted[:, None], (1, len(classes)))
    allin = [k for k in range(players) if history[k]]
    if not allin:
        values[-1] += posted.sum() - posted[-1] + posted[-1]  # the big blind keeps the pot
        return values
    pot = stack * len(allin) + sum(posted[k] for k in range(players) if not history[k])
    if len(allin) == 1:
        values[allin[0]] = pot - stack
        return values
    if len(allin) == 2:
        a, b = allin
        share = table.equity[classes[:, a], classes[:, b]]
        values[a] = share * pot - stack
        values[b] = (1.0 - share) * pot - stack
        return values
    sub = ranks[:, allin]
    best = sub == sub.max(axis=1, keepdims=True)
    shares = best / best.sum(axis=1, keepdims=True)
    for position, k in enumerate(allin):
        values[k] = shares[:, position] * pot - stack
    return values


def solve_multiway(
    players: int, stack: float, table: EquityTable | None = None, iterations: int = ITERATIONS
) -> npt.NDArray[np.float64]:
    """Average CFR+ strategy: probability of all-in per (node, class)."""
    table = table or load_equity()
    classes, ranks = _deals(players)
    nodes = multiway_nodes(players)
    index = {h: i for i, h in enumerate(nodes)}
    leaves = {h: _leaf(h, stack, classes, ranks, table) for h in _histories(players)}
    regret = np.zeros((len(nodes), CLASS_COUNT, 2))
    average = np.zeros((len(nodes), CLASS_COUNT, 2))
    deals = len(classes)

    def strategy(node: int) -> npt.NDArray[np.float64]:
        positive = np.maximum(regret[node], 0.0)
        sums = positive.sum(axis=1, keepdims=True)
        return np.where(sums > 0, positive / np.where(sums > 0, sums, 1.0), 0.5)

    def walk(history: History, reach: npt.NDArray[np.float64], weight: float) -> npt.NDArray[np.float64]:
        actor = len(history)
        if actor == players or (actor == players - 1 and not any(history)):
            full = history + (False,) * (players - actor)
            return leaves[full]
        node = index[history]
        mine = classes[:, actor]
        sigma = strategy(node)[mine]  # (deals, 2): fold, all-in
        child_values = []
        for action in (0, 1):
            child_reach = reach.copy()
            child_reach[actor] = reach[actor] * sigma[:, action]
            child_values.append(walk((*history, bool(action)), child_reach, weight))
        value = sigma[:, 0] * child_values[0] + sigma[:, 1] * child_values[1]
        others = np.prod(np.delete(reach, actor, axis=0), axis=0)
        for action in (0, 1):
            gain = others * (child_values[action][actor] - value[actor])
            regret[node, :, action] += np.bincount(mine, weights=gain, minlength=CLASS_COUNT)
            average[node, :, action] += weight * np.bincount(
                mine, weights=reach[actor] * sigma[:, action], minlength=CLASS_COUNT
            )
        np.maximum(regret[node], 0.0, out=regret[node])
        return value

    for iteration in range(1, iterations + 1):
        walk((), np.ones((players, deals)), float(iteration))
    totals = average.sum(axis=2)
    result = np.where(totals > 0, average[:, :, 1] / np.where(totals > 0, totals, 1.0), 0.0)
    return _purify(result)


def _purify(strategy: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Snap near-pure averages (CFR's slow tails) to 0 or 1."""
    clean = strategy.copy()
    clean[clean < 0.02] = 0.0
    clean[clean > 0.98] = 1.0
    return clean


def _histories(players: int) -> list[History]:
    result: list[History] = [()]
    for _ in range(players):
        result = [(*h, a) for h in result for a in (False, True)]
    return result
