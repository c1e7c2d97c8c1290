"""Monte Carlo equity of a hand against opponents' estimated ranges.

Ranges are weights over the 1,326 combos (``None`` = any two cards).  One
call samples every opponent's hand and the rest of the board for
``samples`` deals at once and ranks all of them in one batch-evaluator call,
so a thousand deals cost about a millisecond.  The numpy generator is seeded
from the bot's injected ``random.Random``, keeping decisions reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import combo_cards
from freezeout.evaluate import evaluate_batch

__all__ = ["Range", "combo_masks", "deal_showdowns", "equity", "live_combos", "numpy_rng"]

Range = npt.NDArray[np.float64] | None


def numpy_rng(rng: random.Random) -> np.random.Generator:
    """A numpy generator drawn from the injected random source."""
    return np.random.default_rng(rng.getrandbits(64))


def combo_masks() -> npt.NDArray[np.int64]:
    cards = combo_cards()
    masks: npt.NDArray[np.int64] = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    return masks


def live_combos(dead: Sequence[int]) -> npt.NDArray[np.bool_]:
    """Combos that share no card with ``dead``."""
    dead_mask = 0
    for card in dead:
        dead_mask |= 1 << int(card)
    result: npt.NDArray[np.bool_] = (combo_masks() & np.int64(dead_mask)) == 0
    return result


def deal_showdowns(
    hole: Sequence[int],
    board: Sequence[int],
    ranges: Sequence[Range],
    samples: int,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """Sample every opponent's hand from its range and the rest of the board.

    Returns ``(ranks, picks)``: ``ranks[0]`` is our final hand's rank in each
    kept deal and ``ranks[1 + j]`` opponent ``j``'s; ``picks[j]`` is the
    combo opponent ``j`` was dealt.  Deals where two sampled hands collide
    are dropped, so there may be fewer than ``samples`` (or none)."""
    known = [int(c) for c in hole] + [int(c) for c in board]
    live = live_combos(known)
    cards = combo_cards()
    used = np.zeros(samples, dtype=np.int64)
    for card in known:
        used |= np.int64(1) << card
    ok = np.ones(samples, dtype=bool)
    opponents = []
    for weights in ranges:
        p = live.astype(np.float64) if weights is None else np.where(live, weights, 0.0)
        total = p.sum()
        if total <= 0:
            p, total = live.astype(np.float64), float(live.sum())
        picks = rng.choice(len(p), size=samples, p=p / total)
        masks = (np.int64(1) << cards[picks, 0]) | (np.int64(1) << cards[picks, 1])
        ok &= (used & masks) == 0
        used |= masks
        opponents.append(picks)
    if not ok.any():
        return np.zeros((len(ranges) + 1, 0), dtype=np.int32), np.zeros((len(ranges), 0), dtype=np.int64)
    rows = int(ok.sum())
    used = used[ok]
    missing = 5 - len(board)
    keys = rng.random((rows, 52))
    keys[((used[:, None] >> np.arange(52)) & 1).astype(bool)] = 2.0
    fill = np.argsort(keys, axis=1)[:, :missing]
    full_board = np.concatenate([np.tile(np.asarray(board, dtype=np.int64), (rows, 1)), fill], axis=1)
    hands = [np.tile(np.asarray(hole, dtype=np.int64), (rows, 1))] + [cards[o[ok]] for o in opponents]
    stacked = np.concatenate([np.concatenate([h, full_board], axis=1) for h in hands], axis=0)
    ranks = evaluate_batch(stacked).reshape(len(hands), rows)
    picked: npt.NDArray[np.int64] = np.array([o[ok] for o in opponents], dtype=np.int64).reshape(
        len(ranges), rows
    )
    return ranks, picked


def equity(
    hole: Sequence[int],
    board: Sequence[int],
    ranges: Sequence[Range],
    samples: int,
    rng: np.random.Generator,
) -> float:
    """Expected share of the pot ``hole`` wins at showdown against one hand
    from each range (ties split), over random completions of the board."""
    if not ranges:
        return 1.0
    ranks, _ = deal_showdowns(hole, board, ranges, samples, rng)
    if ranks.shape[1] == 0:
        return 0.5
    best = ranks.max(axis=0)
    winners = (ranks == best).sum(axis=0)
    share = np.where(ranks[0] == best, 1.0 / winners, 0.0)
    return float(share.mean())
