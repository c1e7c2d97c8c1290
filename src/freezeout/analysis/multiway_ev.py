"""EV of shoving and folding at a 3–4 handed push/fold spot, against the stored equilibrium.

The stored strategies (:mod:`freezeout.bots.multiway`) give every later
player's probability of going all-in with each hand class.  For one spot —
the earlier moves, the player's two cards, the depth — :data:`DEALS` deals
are drawn with the player's cards fixed (the others' cards and the board
from the rest of the deck, seeded by the spot, so a review is
reproducible).  Each deal is weighted by how likely the earlier players'
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

#: Deals drawn per spot.
DEALS: Final = 40_000

Floats = npt.NDArray[np.float64]


@cache
def _class_table() -> npt.NDArray[np.int64]:
    from freezeout.bots.classes import class_of_cards

    return np.array([[class_of_cards(a, b) if a != b else 0 for b in range(52)] for a in range(52)], dtype=np.int64)


def multiway_ev(
    players: int, history: tuple[bool, ...], cards: tuple[int, int], depth: float, strategy: Floats
) -> tuple[dict[str, float], float]:
    """``({"push"|"call": ev, "fold": ev}, 95 % error of their difference)`` in big blinds.

    ``strategy[node, class]`` is the stored all-in probability at ``depth``.
    """
    from freezeout.bots.equity_table import load_equity
    from freezeout.bots.multiway import _leaf, node_index
    from freezeout.evaluate import evaluate_batch

    table = load_equity()
    actor = len(history)
    seed = [players, int(depth * 4), actor, *map(int, history), *cards]
    rng = np.random.default_rng(seed)
    rest = np.array([card for card in range(52) if card not in cards], dtype=np.int64)
    others = players - 1
    picked = rest[np.argsort(rng.random((DEALS, rest.size)), axis=1)[:, : 2 * others + 5]]
    holes = np.empty((DEALS, players, 2), dtype=np.int64)
    holes[:, actor] = cards
    seats = [seat for seat in range(players) if seat != actor]
    for position, seat in enumerate(seats):
        holes[:, seat] = picked[:, 2 * position : 2 * position + 2]
    board = picked[:, 2 * others :]
    classes = _class_table()[holes[:, :, 0], holes[:, :, 1]]
    rows = np.concatenate([np.repeat(board, players, axis=0), holes.reshape(-1, 2)], axis=1)
    ranks = evaluate_batch(rows.astype(np.uint8)).reshape(DEALS, players)
    weight = np.ones(DEALS)
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

    difference = value((*history, True)) - value((*history, False))
    total = weight.sum()
    if total <= 0:
        raise ValueError("the earlier moves never happen at the equilibrium")
    shove_ev = float((weight * value((*history, True))).sum() / total)
    fold_ev = float((weight * value((*history, False))).sum() / total)
    mean = float((weight * difference).sum() / total)
    variance = float((weight * (difference - mean) ** 2).sum() / total)
    effective = total**2 / float((weight**2).sum())
    move = "call" if any(history) else "push"
    return {move: shove_ev, "fold": fold_ev}, 1.96 * (variance / effective) ** 0.5
