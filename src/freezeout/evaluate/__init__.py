"""The hand evaluator: rank 5-7 card poker hands (R19), one at a time or in batches.

Public API::

    evaluate(cards) -> HandValue          # friendly: strings or Cards, validated
    hand_rank(indices) -> int             # the showdown fast path, pure Python
    evaluate_batch(array) -> ndarray      # (N, k) card indices -> ranks
    best_rank_indices(ranks) -> tuple     # who wins (ties included)

A rank is an int in 1..7462; higher is stronger and equal ranks split the
pot.  Every path returns the same numbers.

Other games have rankings of their own (short-deck, 8-or-better,
ace-to-five and deuce-to-seven lows, badugi, Omaha high and Omaha
8-or-better), all behind one interface::

    get_ranking("omaha-low8").rank(hole, board) -> int   # higher is better; 0 = no low

>>> from freezeout.cards import parse_cards
>>> razz = get_ranking("low-a5")
>>> razz.describe(razz.rank(parse_cards("KsKh5d3cAs9h9d")))
'K-9-5-3-A low'

:mod:`.rankings` lists the names, scales and conventions.

Layout (generation apart from lookup):

* :mod:`.tables` generates the high tables from the rules (and
  :mod:`.lowtables`, :mod:`.shorttables`, :mod:`.badugitables`,
  :mod:`.omahatables` those of the other rankings, with the helpers
  :mod:`.multisets` and :mod:`.highlike`); :mod:`.cache` keeps them on
  disk (built on first use, loaded in milliseconds).
* :mod:`.high` is the pure-Python high lookup and :class:`HandValue`;
  :mod:`.batch` and :mod:`.kernels` its numpy/numba twin; :mod:`.describe`
  and :mod:`.words` name hands (English and Czech).
* :mod:`.low`, :mod:`.shortdeck`, :mod:`.badugi`, :mod:`.omaha` look the
  other rankings up; :mod:`.variant_batch` and :mod:`.variant_kernels` are
  their batch paths; :mod:`.rankings` is the registry.
* :mod:`.reference` and :mod:`.reference_variants` are slow,
  obviously-correct oracles for the tests.

The package itself is callable: ``freezeout.evaluate(cards)`` is
:func:`evaluate`.  Python binds the name ``evaluate`` in ``freezeout`` to
this subpackage as soon as it is imported, so without this the documented
``from freezeout import evaluate`` would hand back a module in some import
orders and the function in others.

Importing this package loads the high tables; ``import freezeout`` does
not.  Every other ranking loads its tables when :func:`get_ranking` first
returns it; generating them (first use ever, then cached on disk) takes
about half a second for the three lows together, a tenth for short-deck,
a few hundredths for badugi and half a second for Omaha.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from freezeout.evaluate.errors import EvaluationError
from freezeout.evaluate.high import HandValue, category_of, evaluate, hand_rank
from freezeout.evaluate.rankings import Ranking, get_ranking
from freezeout.evaluate.tables import CATEGORIES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from freezeout.evaluate.batch import Engine

__all__ = [
    "CATEGORIES",
    "EvaluationError",
    "HandValue",
    "Ranking",
    "best_rank_indices",
    "category_of",
    "evaluate",
    "evaluate_batch",
    "get_ranking",
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


class _CallableModule(ModuleType):
    """This package's module type: calling it is calling :func:`evaluate` (see the docstring)."""

    def __call__(self, cards: str | Iterable[str | int]) -> HandValue:
        return evaluate(cards)


sys.modules[__name__].__class__ = _CallableModule
