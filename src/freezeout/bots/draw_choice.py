"""The last draw chosen by its exact value (V11, V14, V15).

At the last draw a hand's future is one replacement: for every way to
throw cards away, every set of cards we could draw is enumerated from the
cards we have not seen (all of them for one, two or three cards; a fixed
sample of 2,000 for four or five, which are never close) and ranked with
the game's batch evaluator.  The value of a discard is our chance of
beating the opponents' final hands, ties counted half,

    value = mean over our draws of  prod_j  P(opponent j's hand < ours),

each opponent given as a weighted sample of final ranks: in play the
simulation of :mod:`.game_equity` (their whole draw history and bets
weigh it); in the tests and the docs one of the stated ranges below.
The opponent's cards and ours come from the same unseen cards; the
enumeration ignores that their hand removes cards from our draws (a
difference well under a percent of value).

Stated ranges (``pat_hands``):

* deuce-to-seven (``low-27``): a pat hand is any made nine-low or better;
* badugi: any four-card badugi jack-high or better;
* five-card draw (``high``): any straight or better.

``random_hands`` is a random hand from the unseen cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from freezeout.evaluate.rankings import get_ranking

__all__ = ["best_discard", "discard_values", "pat_hands", "random_hands", "win_table"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

_EXACT_UP_TO = 3  # cards drawn: enumerate every draw; more than this, sample
_SAMPLED_DRAWS = 2000
_TOP_RANK = 7463  # every ranking used by a draw game ranks 1..7462 or fewer


@lru_cache(maxsize=64)
def _combos(n: int, k: int) -> Ints:
    """Every ``k``-subset of ``range(n)``, one a row."""
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


@lru_cache(maxsize=64)
def _sampled(n: int, k: int) -> Ints:
    """A fixed sample of :data:`_SAMPLED_DRAWS` ``k``-subsets of ``range(n)``."""
    keys = np.random.default_rng(n * 31 + k).random((_SAMPLED_DRAWS, n))
    result: Ints = np.argpartition(keys, k - 1, axis=1)[:, :k]
    return result


def win_table(ranks: Ints, weights: Floats | None = None) -> Floats:
    """``table[v]``: the weighted share of ``ranks`` a hand of rank ``v``
    beats, ties counted half."""
    counts = np.bincount(ranks, weights=weights, minlength=_TOP_RANK).astype(np.float64)
    total = counts.sum()
    if total <= 0:
        return np.full(_TOP_RANK, 0.5)
    below = np.concatenate(([0.0], np.cumsum(counts)[:-1]))
    table: Floats = (below + 0.5 * counts) / total
    return table


def _our_ranks(ranking: str, kept: Sequence[int], unseen: Sequence[int], k: int) -> Ints:
    """The ranks of every hand ``kept`` plus ``k`` drawn cards can become."""
    if k == 0:
        return np.array([get_ranking(ranking).rank(list(kept))], dtype=np.int64)
    pool = np.array(unseen, dtype=np.uint8)
    drawn = pool[_combos(len(pool), k) if k <= _EXACT_UP_TO else _sampled(len(pool), k)]
    hands = np.empty((len(drawn), len(kept) + k), dtype=np.uint8)
    hands[:, : len(kept)] = np.array(kept, dtype=np.uint8)
    hands[:, len(kept) :] = drawn
    result: Ints = get_ranking(ranking).rank_batch(hands).astype(np.int64)
    return result


def discard_values(
    ranking: str, mine: Sequence[int], unseen: Sequence[int], tables: Sequence[Floats]
) -> dict[tuple[int, ...], float]:
    """Every sensible discard (as the cards thrown) and its value against
    opponents given by their :func:`win_table` (in a low game or badugi
    only the keeps that can be best, :func:`_sensible`)."""
    size = len(mine)
    values: dict[tuple[int, ...], float] = {}
    for k in range(size + 1):
        for thrown in combinations(mine, k):
            kept = [c for c in mine if c not in thrown]
            if not _sensible(ranking, mine, kept):
                continue
            ours = _our_ranks(ranking, kept, unseen, k)
            beat = np.ones(len(ours))
            for table in tables:
                beat = beat * table[ours]
            values[thrown] = float(beat.mean())
    return values


def _height(ranking: str, card: int) -> int:
    rank = card >> 2
    return (0 if rank == 12 else rank + 1) if ranking == "badugi" else rank


def _sensible(ranking: str, mine: Sequence[int], kept: Sequence[int]) -> bool:
    """Whether a keep can be best in a low game: no two cards of a rank
    (badugi: of a suit), and keeping two cards or fewer only from the three
    lowest ranks held (badugi: one card, from the two lowest) — a higher
    card kept over a lower one thrown helps no low hand that short."""
    if ranking == "high":
        return True
    if len({c >> 2 for c in kept}) < len(kept):
        return False
    if ranking == "badugi" and len({c & 3 for c in kept}) < len(kept):
        return False
    short = 1 if ranking == "badugi" else 2
    if len(kept) > short:
        return True
    lowest = sorted({_height(ranking, c) for c in mine})[: short + 1]
    return all(_height(ranking, c) in lowest for c in kept)


def best_discard(ranking: str, mine: Sequence[int], unseen: Sequence[int], tables: Sequence[Floats]) -> tuple[int, ...]:
    """The cards to throw at the last draw: the discard of the highest value
    (the fewest cards on a tie, standing pat first)."""
    values = discard_values(ranking, mine, unseen, tables)
    return max(values, key=lambda thrown: (round(values[thrown], 9), -len(thrown)))


def random_hands(ranking: str, unseen: Sequence[int], size: int, samples: int, rng: np.random.Generator) -> Ints:
    """The ranks of ``samples`` random hands of ``size`` cards from ``unseen``."""
    pool = np.array(unseen, dtype=np.int64)
    keys = rng.random((samples, len(pool)))
    hands = pool[np.argpartition(keys, size - 1, axis=1)[:, :size]]
    result: Ints = get_ranking(ranking).rank_batch(np.ascontiguousarray(hands.astype(np.uint8))).astype(np.int64)
    return result


# the stated pat ranges: the cards a pat hand is made of, and its worst hand
_PAT: dict[str, tuple[int, tuple[int, ...]]] = {
    "low-27": (7, (28, 25, 22, 19, 8)),  # ranks up to a nine; the worst: 9-8-7-6-4 offsuit
    "badugi": (9, (36, 33, 30, 27)),  # the ace to a jack; the worst: J-T-9-8 rainbow
}


def pat_hands(ranking: str, unseen: Sequence[int], size: int, samples: int, rng: np.random.Generator) -> Ints:
    """The ranks of about ``samples`` hands from the stated pat range
    (module docstring), uniform over the range's hands left in ``unseen``."""
    evaluator = get_ranking(ranking)
    if ranking in _PAT:
        top, worst = _PAT[ranking]
        pool = [c for c in unseen if c >> 2 <= top or (ranking == "badugi" and c >> 2 == 12)]
        floor = evaluator.rank(list(worst))
    else:  # five-card draw: a straight or better, the worst 5-4-3-2-A
        pool, floor = list(unseen), evaluator.rank([12 * 4, 0, 5, 10, 15])
    found: list[Ints] = []
    total = 0
    for _ in range(40):
        ranks = random_hands(ranking, pool, size, 4 * samples, rng)
        ranks = ranks[ranks >= floor]
        found.append(ranks)
        total += len(ranks)
        if total >= samples:
            break
    return np.concatenate(found)[:samples]

