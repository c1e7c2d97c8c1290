"""How a player's folds to post-flop bets depend on the size of the bet.

Players differ most in this.  An equity caller folds the same hands to a
probe and to a shove; a pot-odds caller folds half its range to a shove and
almost nothing to a probe; a station folds nothing.  Size buckets learned
separately need many decisions each, and whichever bucket happens to have
seen a few unlucky folds looks like the size that wins every pot.  So the
threshold (the strength below which the player folds, :mod:`.thresholds`)
is taken to be a line in the *price* the bet offers — the share of the final
pot a call must win, ``f / (1 + 2 f)`` for a bet of ``f`` pots:

    threshold(f) = level + slope * (price(f) - price(1/2))

A slope of 0 is the equity caller, 1 the pot-odds caller.  Both are learned
together from every fold and call seen, whatever its size, each with the
range the player had then: the likelihood of a fold is the share of that
range below the threshold the line gives for that bet's price.  The level
is shrunk towards the population's like any threshold, the slope towards the
population's with a spread; the posterior is computed on a grid and its
mean is the read, so a player seen facing one size only keeps the
population's slope while their level is already their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["PRICE_REF", "FoldLine", "fit_line", "price"]

Vector = npt.NDArray[np.float64]

#: The price of the bet the level is read at: half the pot.
PRICE_REF: Final = 0.25
#: Slopes and levels the posterior is computed over.
SLOPES: Final = np.linspace(-0.5, 2.0, 11)
LEVELS: Final = np.linspace(0.0, 0.95, 39)
#: Share of decisions taken as if by a coin rather than by the threshold:
#: players misclick, and a model must never call one fold impossible.
LAPSE: Final = 0.06
#: Nobody folds more than this share of hands to any bet.
MOST: Final = 0.95


def price(pot_fraction: float) -> float:
    """The share of the final pot a call of a bet of ``pot_fraction`` pots must win."""
    pot_fraction = max(0.0, pot_fraction)
    return pot_fraction / (1.0 + 2.0 * pot_fraction)


@dataclass(frozen=True, slots=True)
class FoldLine:
    """A player's fold threshold as a line in the price a bet offers."""

    level: float  # the threshold against a bet of half the pot
    slope: float  # its rise per unit of price
    slope_doubt: float = 0.0  # the slope's posterior standard deviation

    def at(self, pot_fraction: float) -> float:
        """The strength below which this player folds to a bet of ``pot_fraction`` pots."""
        return min(MOST, max(0.0, self.level + self.slope * (price(pot_fraction) - PRICE_REF)))

    def doubt(self, pot_fraction: float) -> float:
        """How unsure :meth:`at` is for a bet of ``pot_fraction`` pots beyond
        half a pot: a standard deviation of the slope times the distance in
        price (folds to the sizes a player has been seen facing are known,
        folds to bigger ones are an extrapolation)."""
        return max(0.0, price(pot_fraction) - PRICE_REF) * self.slope_doubt

    @classmethod
    def through(cls, small: float, big: float) -> FoldLine:
        """The line through ``small`` against a bet of 0.4 pots and ``big`` against a pot."""
        slope = (big - small) / (price(1.0) - price(0.4))
        return cls(small + slope * (PRICE_REF - price(0.4)), slope)


def _at(below: Vector, thresholds: Vector) -> Vector:
    """``below[i]`` (a cumulative share on the 41-point grid of :mod:`.thresholds`)
    read at ``thresholds[..., i]`` by linear interpolation."""
    points = below.shape[-1] - 1
    scaled = np.clip(thresholds, 0.0, 1.0) * points
    low = np.minimum(np.floor(scaled).astype(np.int64), points - 1)
    frac = scaled - low
    rows = np.arange(below.shape[0])
    result: Vector = below[rows, low] * (1.0 - frac) + below[rows, low + 1] * frac
    return result


def fit_line(
    folded: Vector,
    below: Vector,
    prices: Vector,
    prior: tuple[float, float],
    slope_prior: tuple[float, float],
) -> FoldLine:
    """The posterior mean line given decisions ``folded`` (1 or 0), each with
    ``below`` (the share of the player's range then below each grid
    threshold) and the price the bet offered; ``prior`` is the population's
    level and its weight in decisions, ``slope_prior`` the population's slope
    and its spread."""
    level0, weight = prior
    slope0, spread = slope_prior
    # The level's prior: a Beta worth ``weight`` decisions with the population's mean.
    t = np.clip(LEVELS, 1e-3, 1.0 - 1e-3)
    a, b = max(weight * level0, 1.0), max(weight * (1.0 - level0), 1.0)
    log_post = ((a - 1.0) * np.log(t) + (b - 1.0) * np.log(1.0 - t))[:, None]
    log_post = log_post - ((SLOPES - slope0) ** 2 / (2.0 * spread**2))[None, :]
    if len(folded):
        shift = (prices - PRICE_REF)[None, None, :]
        thresholds = np.clip(LEVELS[:, None, None] + SLOPES[None, :, None] * shift, 0.0, MOST)
        chance = LAPSE / 2.0 + (1.0 - LAPSE) * _at(below, thresholds)
        log_post = log_post + (folded * np.log(chance) + (1.0 - folded) * np.log(1.0 - chance)).sum(axis=-1)
    weights = np.exp(log_post - log_post.max())
    weights /= weights.sum()
    level = float((weights.sum(axis=1) * LEVELS).sum())
    slopes = weights.sum(axis=0)
    slope = float((slopes * SLOPES).sum())
    doubt = float(np.sqrt((slopes * (SLOPES - slope) ** 2).sum()))
    return FoldLine(level, slope, doubt)
