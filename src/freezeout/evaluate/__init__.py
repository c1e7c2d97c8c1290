"""The hand evaluator: rank 5-7 card poker hands (R19), one at a time or in batches.

Public API::

    evaluate(cards) -> HandValue          # friendly: strings or Cards, validated
    hand_rank(indices) -> int             # the showdown fast path, pure Python
    evaluate_batch(array) -> ndarray      # (N, k) card indices -> ranks
    best_rank_indices(ranks) -> tuple     # who wins (ties included)

A rank is an int in 1..7462; higher is stronger and equal ranks split the
pot.  Every path returns the same numbers.

Layout (generation apart from lookup):

* :mod:`.tables` generates every table from the rules; :mod:`.cache` keeps
  them on disk (built on first use, about a second; loaded in milliseconds).
* :mod:`.high` is the pure-Python lookup and :class:`HandValue`;
  :mod:`.batch` the numpy/numba twin; :mod:`.describe` names hands.
* :mod:`.reference` is a slow, obviously-correct oracle for the tests.
* :mod:`.rankings` is the seam for later variants: a ``Ranking`` protocol
  and registry holding ``high`` today.

Plan for the variants still to come (nothing here needs rewriting):

* ace-to-five low and 8-or-better low become two more rankings, each a
  generator in the style of :mod:`.tables` (suits and straights do not count
  for lows, so a dict keyed by the same base-5 rank key is the whole table;
  8-or-better maps non-qualifying hands to 0, "no low") plus a lookup that
  keeps the convention *higher is better*;
* Omaha is a selection rule, not a ranking: ``best_of(ranking, hole, board)``
  maximises ``ranking.rank`` over the 60 two-hole-plus-three-board subsets,
  with a batch twin in :mod:`.kernels` over the same tables, so Omaha high
  and Omaha Hi-Lo reuse every table above;
* :class:`HandValue` would gain the name of its ranking, and descriptions
  move to each ranking (``Ranking.describe``).

Importing this package loads the tables; ``import freezeout`` does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from freezeout.evaluate.errors import EvaluationError
from freezeout.evaluate.high import HandValue, category_of, evaluate, hand_rank
from freezeout.evaluate.tables import CATEGORIES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from freezeout.evaluate.batch import Engine

__all__ = [
    "CATEGORIES",
    "EvaluationError",
    "HandValue",
    "best_rank_indices",
    "category_of",
    "evaluate",
    "evaluate_batch",
    "hand_rank",
]


def evaluate_batch(cards: npt.ArrayLike, *, engine: Engine = "auto") -> npt.NDArray[np.int32]:
    """Ranks (same numbers as :func:`hand_rank`) of each row of an ``(N, k)`` array, k in 5..7.

    numpy (and numba, when installed) are imported on the first call only;
    ``engine`` forces ``"numba"`` or ``"numpy"``.  Pass ``uint8`` rows for
    the best speed.
    """
    from freezeout.evaluate.batch import evaluate_batch as run

    return run(cards, engine=engine)


def best_rank_indices(values: Sequence[int | HandValue]) -> tuple[int, ...]:
    """Positions of the best hands in ``values`` (ranks or HandValues); several on a split.

    >>> best_rank_indices([1200, 5000, 5000, 7])
    (1, 2)
    """
    ranks = [value.rank if isinstance(value, HandValue) else int(value) for value in values]
    if not ranks:
        return ()
    best = max(ranks)
    return tuple(position for position, rank in enumerate(ranks) if rank == best)


def __getattr__(name: str) -> Any:
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
