"""What chips are worth to a player who expects to outplay the table.

In a winner-take-all freezeout with equal skill, the chance to win is the
share of the chips, so chips are the currency.  A player with an edge is
different: doubling up is worth less than twice the stack (the edge would
have won those chips anyway) while going broke ends the edge.  A biased
random walk's chance of ruin gives the shape (:func:`~.versus_wild.skill_utility`),
and :class:`Worth` turns a gamble's chip outcomes into its *certainty
equivalent*: the sure number of chips worth as much.  Marginal coin flips
for the stack come out below zero, so they are passed up for the better
spots the edge will bring; small pots are valued at almost exactly their
chips.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.base import Situation
from freezeout.rules.views import TableView

__all__ = ["MODELLED_EDGE", "Worth", "edge_at", "worth_for"]

#: The edge (random-walk drift) ``hard`` assumes over players it has a model of.
MODELLED_EDGE: Final = 1.0


@dataclass(frozen=True, slots=True)
class Worth:
    """Certainty equivalents (chips) of outcomes, for ``chips`` of ``total`` and an edge ``k``."""

    chips: float  # ours now, behind
    total: float  # every chip in play
    k: float = MODELLED_EDGE

    def _utility(self, share: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        clipped = np.clip(share, 0.0, 1.0)
        result: npt.NDArray[np.float64] = (1.0 - np.exp(-self.k * clipped)) / (1.0 - math.exp(-self.k))
        return result

    def of(self, outcomes: npt.NDArray[np.float64], weights: npt.NDArray[np.float64] | None = None) -> float:
        """The sure chips worth as much as ending with ``chips + outcome`` (weighted)."""
        if self.total <= 0 or self.k <= 0:
            return float(np.average(outcomes, weights=weights))
        expected = float(np.average(self._utility((self.chips + outcomes) / self.total), weights=weights))
        expected = min(expected, 1.0 - 1e-12)
        share = -math.log(1.0 - expected * (1.0 - math.exp(-self.k))) / self.k
        return share * self.total - self.chips

    def of_gamble(self, branches: list[tuple[float, float]]) -> float:
        """Certainty equivalent of ``(probability, chips)`` branches."""
        probabilities = np.array([max(p, 0.0) for p, _ in branches])
        if probabilities.sum() <= 0:
            return 0.0
        return self.of(np.array([c for _, c in branches], dtype=np.float64), probabilities)


def edge_at(s: Situation, view: TableView) -> float:
    """The edge to assume at this depth: full from 30 big blinds on, fading
    to nothing at 5, where push/fold leaves little room to outplay anyone."""
    others = [view.seats[o].stack + view.seats[o].bet for o in s.opponents] or [0]
    depth = min(s.stack + s.my_bet, max(others)) / max(s.big_blind, 1)
    return MODELLED_EDGE * min(1.0, max(0.0, (depth - 5.0) / 25.0))


def worth_for(s: Situation, view: TableView, k: float = MODELLED_EDGE) -> Worth:
    """The :class:`Worth` of the acting seat: its chips behind against every chip in play."""
    total = sum(seat.stack + seat.bet for seat in view.seats) + sum(amount for amount, _ in view.pots)
    return Worth(chips=float(s.stack), total=float(total), k=k)
