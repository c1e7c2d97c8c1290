"""Rankings: how a set of cards becomes a comparable number, one per kind of game.

A variant (``freezeout.rules.variant``) names its rankings as data, e.g.
``("high",)`` for Hold'em or ``("omaha-high", "omaha-low8")`` for Omaha
Hi-Lo, and looks them up here with :func:`get_ranking`:

=============  ====================================================  ==========
name           what it ranks                                         ranks
=============  ====================================================  ==========
``high``       best five of 5-7 cards (R19)                          1..7462
``short-deck`` best five of 5-7 cards six to ace (V16)               1..1404
``low8``       8-or-better low, best of 5-7 cards (V6); 0 = no low   0..56
``low-a5``     ace-to-five low, best of 5-7 cards (V10, razz)        1..6175
``low-27``     deuce-to-seven low, 5 cards (best five of 6-7) (V14)  1..7462
``badugi``     best badugi subset of 4 cards (V15)                   1..1092
``omaha-high`` two of 4-6 hole cards + three of 3-5 board (V5)       1..7462
``omaha-low8`` the same selection, 8-or-better low (V6); 0 = no low  0..56
=============  ====================================================  ==========

Every ranking keeps one convention, so pot-splitting code treats them all
alike: **higher is better, equal ranks split**, and 0 means "no qualifying
hand" (the two 8-or-better lows only).  Ranks of different rankings are
different scales and are never compared with each other; ``omaha-high``
uses ``high``'s scale and ``omaha-low8`` that of ``low8``.

Non-Omaha rankings read ``hole`` and ``board`` together as one set of
cards; the Omaha ones take exactly two of the hole and three of the board.
A ranking's tables are loaded (from the disk cache, generated on first
use) when :func:`get_ranking` first returns it; :meth:`Ranking.rank` is then
pure Python look-ups, and :meth:`Ranking.rank_batch` runs a numba kernel.

>>> from freezeout.cards import parse_cards
>>> low = get_ranking("omaha-low8")
>>> low.describe(low.rank(parse_cards("Ad2d9sKc"), parse_cards("3h5c8c9hKd")))
'8-5-3-2-A low'
>>> low.describe(low.rank(parse_cards("Ad2d9sKc"), parse_cards("3h5c8c9hKd")), "cs")
'Nízká ruka 8-5-3-2-A'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final, Protocol, cast

from freezeout.cards import Card
from freezeout.evaluate import high
from freezeout.evaluate.checks import joined
from freezeout.evaluate.describe import describe_rank
from freezeout.evaluate.words import category_name, check_language

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["HIGH", "NAMES", "RANKINGS", "HighRanking", "Ranking", "get_ranking"]


class Ranking(Protocol):
    """A way of ranking cards; higher :meth:`rank` is better, equal ranks split, 0 = no qualifying hand."""

    @property
    def name(self) -> str: ...

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """The rank of the best hand in these cards (``Card`` values or plain indices)."""
        ...

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        """The rank and the cards that make it, most significant first."""
        ...

    def describe(self, rank: int, lang: str = "en") -> str:
        """The hand's name for players, in ``"en"`` or ``"cs"``."""
        ...

    def category(self, rank: int, lang: str = "en") -> str:
        """The hand's category, lower case (``"full house"``, ``"seven low"``, ``"badugi"``)."""
        ...

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        """Ranks of each row of an ``(N, k)`` card array (Omaha: the first ``hole_count`` columns are the hole)."""
        ...


class HighRanking:
    """Standard high hands (R19): :func:`.high.hand_rank` and its descriptions."""

    name: Final = "high"

    def rank(self, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        return high.hand_rank(joined(hole, board))

    def best(self, hole: Sequence[int], board: Sequence[int] = ()) -> tuple[int, tuple[Card, ...]]:
        value = high.evaluate([Card(card) for card in joined(hole, board)])
        return value.rank, value.best_five

    def category(self, rank: int, lang: str = "en") -> str:
        if check_language(lang) == "en":
            return high.category_of(rank)
        from freezeout.evaluate.tables import CATEGORIES

        return category_name(CATEGORIES.index(high.category_of(rank)), lang)

    def describe(self, rank: int, lang: str = "en") -> str:
        return describe_rank(rank, lang)

    def rank_batch(self, cards: npt.ArrayLike, hole_count: int | None = None) -> npt.NDArray[np.int32]:
        from freezeout.evaluate.batch import evaluate_batch

        return evaluate_batch(cards)


HIGH = HighRanking()


#: name -> (module, class) of each ranking, imported only when the ranking is first asked for.
_WHERE: Final = {
    "short-deck": ("freezeout.evaluate.shortdeck", "ShortDeckRanking"),
    "low8": ("freezeout.evaluate.low", "Low8Ranking"),
    "low-a5": ("freezeout.evaluate.low", "AceFiveRanking"),
    "low-27": ("freezeout.evaluate.low", "DeuceSevenRanking"),
    "badugi": ("freezeout.evaluate.badugi", "BadugiRanking"),
    "omaha-high": ("freezeout.evaluate.omaha", "OmahaHighRanking"),
    "omaha-low8": ("freezeout.evaluate.omaha", "OmahaLow8Ranking"),
}


def _factories() -> dict[str, Callable[[], Ranking]]:
    """Each ranking's constructor (``high`` is built already: :mod:`.high` is loaded with this package)."""

    def factory(module: str, name: str) -> Callable[[], Ranking]:
        return lambda: cast(Ranking, getattr(importlib.import_module(module), name)())

    made: dict[str, Callable[[], Ranking]] = {"high": lambda: HIGH}
    made.update((ranking, factory(*where)) for ranking, where in _WHERE.items())
    return made


class _Registry(Mapping[str, Ranking]):
    """Name -> ranking, each built (its tables loaded) on first access and kept."""

    def __init__(self, factories: dict[str, Callable[[], Ranking]]) -> None:
        self._factories = factories
        self._built: dict[str, Ranking] = {}

    def __getitem__(self, name: str) -> Ranking:
        ranking = self._built.get(name)
        if ranking is None:
            ranking = self._built[name] = self._factories[name]()
        return ranking

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __len__(self) -> int:
        return len(self._factories)


RANKINGS: Final[Mapping[str, Ranking]] = _Registry(_factories())
#: Every ranking name, in the order of the table above.
NAMES: Final = tuple(RANKINGS)


def get_ranking(name: str) -> Ranking:
    """The ranking registered as ``name`` (a KeyError names the known ones)."""
    if name not in NAMES:
        raise KeyError(f"unknown ranking {name!r}; known: {sorted(NAMES)}")
    return RANKINGS[name]
