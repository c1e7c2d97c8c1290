"""EV of shoving and folding at a 3–4 handed push/fold spot, against the stored equilibrium.

The stored strategies (:mod:`freezeout.bots.multiway`) give every later
player's probability of going all-in with each hand class.  :data:`DEALS`
deals of the other players' cards and a board are drawn once per table
size from a fixed seed (so a review is reproducible); for one spot — the
earlier moves, the player's two cards, the depth — the deals that do not
hold the player's cards are kept, with the player's cards added.  Each deal is weighted by how likely the earlier players'
observed moves were with the cards it gave them (their equilibrium
strategies), and the tree after the decision is walked with the later
players' strategies; the payoffs are those the solver used
(``multiway._leaf``: two-way all-ins at the exact class-pair equity, three-
and four-way at the sampled board).  The EV's 95 % error comes with it.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["DEALS", "multiway_ev"]

#: Deals drawn once per table size; a spot keeps those that do not hold the player's cards (about 62 %).
DEALS: Final = 64_000

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@cache
def _class_table() -> Ints:
    from freezeout.bots.classes import class_of_cards

    return np.array([[class_of_cards(a, b) if a != b else 0 for b in range(52)] for a in range(52)], dtype=np.int64)


@cache
def _base(players: int) -> tuple[Ints, Ints, npt.NDArray[np.int32], npt.NDArray[np.uint64]]:
    """Seeded deals for the other players and a board: (board, their classes, their ranks, used-card bits)."""
    from freezeout.evaluate import evaluate_batch

    others = players - 1
    rng = np.random.default_rng(20261207 + players)
    picked = np.argsort(rng.random((DEALS, 52)), axis=1)[:, : 2 * others + 5].astype(np.int64)
    holes = picked[:, : 2 * others].reshape(DEALS, others, 2)
    board = picked[:, 2 * others :]
    classes = _class_table()[holes[:, :, 0], holes[:, :, 1]]
    rows = np.concatenate([np.repeat(board, others, axis=0), holes.reshape(-1, 2)], axis=1)
    ranks = evaluate_batch(rows.astype(np.uint8)).reshape(DEALS, others)
    bits = np.bitwise_or.reduce(np.left_shift(np.uint64(1), picked.astype(np.uint64)), axis=1)
    return board, classes, ranks, bits


def multiway_ev(
    players: int, history: tuple[bool, ...], cards: tuple[int, int], depth: float, strategy: Floats
) -> tuple[dict[str, float], float]:
    """``({"push"|"call": ev, "fold": ev}, 95 % error of their difference)`` in big blinds.

    ``strategy[node, class]`` is the stored all-in probability at ``depth``.
    """
    from freezeout.bots.classes import class_of_cards
    from freezeout.bots.equity_table import load_equity
    from freezeout.bots.multiway import _leaf, node_index
    from freezeout.evaluate import evaluate_batch

    table = load_equity()
    actor = len(history)
    board, their_classes, their_ranks, bits = _base(players)
    mine = np.uint64((1 << cards[0]) | (1 << cards[1]))
    keep = (bits & mine) == 0
    board = board[keep]
    count = board.shape[0]
    own = np.concatenate([board, np.broadcast_to(np.array(cards, dtype=np.int64), (count, 2))], axis=1)
    classes = np.insert(their_classes[keep], actor, class_of_cards(*cards), axis=1)
    ranks = np.insert(their_ranks[keep], actor, evaluate_batch(own.astype(np.uint8)), axis=1)
    weight = np.ones(count)
    for earlier, moved in enumerate(history):
        shove = strategy[node_index(players, history[:earlier]), classes[:, earlier]]
        weight *= shove if moved else 1.0 - shove

    def value(node: tuple[bool, ...]) -> Floats:
        turn = len(node)
        if turn == players or (turn == players - 1 and not any(node)):
            leaf: Floats = _leaf(node + (False,) * (players - turn), depth, classes, ranks, table)[actor]
            return leaf
        shove = strategy[node_index(players, node), classes[:, turn]]
        mixed: Floats = shove * value((*node, True)) + (1.0 - shove) * value((*node, False))
        return mixed

    shoved, folded = value((*history, True)), value((*history, False))
    difference = shoved - folded
    total = weight.sum()
    if total <= 0:
        raise ValueError("the earlier moves never happen at the equilibrium")
    shove_ev = float((weight * shoved).sum() / total)
    fold_ev = float((weight * folded).sum() / total)
    mean = float((weight * difference).sum() / total)
    variance = float((weight * (difference - mean) ** 2).sum() / total)
    effective = total**2 / float((weight**2).sum())
    move = "call" if any(history) else "push"
    return {move: shove_ev, "fold": fold_ev}, 1.96 * (variance / effective) ** 0.5
