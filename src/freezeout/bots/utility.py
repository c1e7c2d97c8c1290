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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.base import Situation, chips_in_play
from freezeout.bots.reads import OpponentModel
from freezeout.rules.views import TableView

__all__ = ["MODELLED_EDGE", "Worth", "edge_at", "style_distance", "style_edge", "worth_for"]

#: The edge (random-walk drift) ``hard`` assumes over a player whose style reads
#: as sound — as aggressive and as loose as the population (:mod:`.reads`).
MODELLED_EDGE: Final = 1.0
#: How much the edge grows per unit of style distance beyond :data:`SOUND_STYLE`
#: (log-odds, :func:`style_distance`), and the most it reaches.  A drift ``k``
#: wins a freezeout from equal stacks ``1 / (1 + e^(-k/2))`` of the time: 1 is
#: about 62 % (``hard`` against ``hard-v1``), 3 about 82 % (against passive
#: or one-sided styles), so the edge assumed follows the edge there is.
EDGE_PER_STYLE: Final = 2.0
SOUND_STYLE: Final = 0.5
MOST_EDGE: Final = 3.0
AGGRESSION_COST: Final = 2.0
#: Effective depths (big blinds) from which the edge is full, and at which it is gone.
FULL_EDGE_BB: Final = 20.0
NO_EDGE_BB: Final = 5.0


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


def style_distance(model: OpponentModel) -> float:
    """How far (log-odds) a player's style sits from sound play in the
    directions ``hard`` outplays with little risk: passivity and looseness
    (or tightness), the aggression and looseness shifts of :mod:`.reads` as
    one length.  Aggression takes it back (:data:`AGGRESSION_COST` per unit):
    a player who bets and raises most of the time makes the pots big whoever
    plays better, so the edge over a maniac is small however far off it is."""
    passive = math.hypot(min(model.aggression, 0.0), model.looseness)
    return max(0.0, passive - AGGRESSION_COST * max(model.aggression, 0.0))


def style_edge(models: Sequence[OpponentModel]) -> float:
    """The edge over these players: :data:`MODELLED_EDGE` over sound ones,
    more the further their style is from sound play (:func:`style_distance`,
    averaged over the table).  Against a player far off — one who never
    bets, one who calls everything — the edge wins the chips anyway, so a
    coin flip for the stack is worth less than against one who plays about right."""
    if not models:
        return MODELLED_EDGE
    beyond = sum(max(0.0, style_distance(m) - SOUND_STYLE) for m in models) / len(models)
    return min(MOST_EDGE, MODELLED_EDGE + EDGE_PER_STYLE * beyond)


def edge_at(s: Situation, view: TableView, models: Sequence[OpponentModel] = ()) -> float:
    """The edge to assume over ``models`` (:func:`style_edge`) at this depth:
    full from 20 big blinds on, fading to nothing at 5, where push/fold
    leaves little room to outplay anyone."""
    others = [view.seats[o].stack + view.seats[o].bet for o in s.opponents] or [0]
    depth = min(s.stack + s.my_bet, max(others)) / max(s.big_blind, 1)
    fade = min(1.0, max(0.0, (depth - NO_EDGE_BB) / (FULL_EDGE_BB - NO_EDGE_BB)))
    return style_edge(models) * fade


def worth_for(s: Situation, view: TableView, k: float = MODELLED_EDGE) -> Worth:
    """The :class:`Worth` of the acting seat: its chips behind against every chip in play."""
    total = chips_in_play(view)
    return Worth(chips=float(s.stack), total=float(total), k=k)
