"""How strong a hand a player needs to continue, learned from how often they fold.

A fold frequency alone is ambiguous: a player who folds a third of the time
to bets may fold anything below the median hand but usually arrive with
strong ranges, or fold weak hands from weak ranges.  What predicts the next
fold is the *threshold* — the strength (share of all hands beaten, see
:mod:`.strength`) below which they let go — because their next range may
be nothing like the average one.  So every fold or continue seen is kept
with the range the player had at that moment (read with population-prior
rules, so it can be cached per hand), as the probability ``F_i(t)`` that a
hand from it lies below each candidate threshold ``t``.  The threshold is
the ``t`` at which the expected folds match the folds seen:

    sum_i F_i(t) + w t = folds + w p

where ``w`` pseudo-decisions over a uniform range at the prior rate ``p``
are the shrinkage: with nothing seen, ``t = p``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import CLASS_COUNT, class_weights
from freezeout.bots.fold_line import price
from freezeout.bots.history import Move, read_hand
from freezeout.bots.montecarlo import live_combos
from freezeout.bots.ranges import class_to_combos, percentile, top_range
from freezeout.bots.strength import combo_strength
from freezeout.rules.events import Event

__all__ = [
    "BIG_BET",
    "BIG_RAISE",
    "GRID",
    "KINDS",
    "Observations",
    "PostflopSeen",
    "class_strength",
    "hand_observations",
    "observations",
    "raise_kind",
    "solve_sizes",
    "solve_threshold",
]

#: Candidate thresholds.
GRID: Final = np.linspace(0.0, 1.0, 41)
#: The folds a threshold is learned for: to small and big preflop raises, small and big post-flop bets.
KINDS: Final = ("fold_to_raise", "fold_to_big_raise")
#: A post-flop bet of more than this share of the pot is a big one.
BIG_BET: Final = 0.6
#: Share of the population's gap between folding to small and to big bets
#: assumed of a player before their own folds show it.
SIZE_EFFECT: Final = 0.5
#: Weight (decisions) of that level on each size's own threshold: a gap between
#: sizes needs more evidence than a level, or a few unlucky folds to one size
#: would make it look like the size that wins every pot.
SIZE_WEIGHT: Final = 15.0
#: A preflop raise of more than this share of the pot (an open to 3.5 big blinds or more) is a big one.
BIG_RAISE: Final = 0.9

Vector = npt.NDArray[np.float64]
#: Per kind: (folds seen, decisions seen, sum over decisions of F_i on GRID).
Observations = dict[str, tuple[float, float, Vector]]
#: Post-flop decisions one by one: folded (1 or 0), F_i on GRID, the price the bet offered.
PostflopSeen = tuple[Vector, Vector, Vector]


@cache
def class_strength() -> Vector:
    """Each class's preflop strength: the share of hands it beats (1 - percentile)."""
    return np.array([1.0 - percentile(c) for c in range(CLASS_COUNT)])


def _below(strength: Vector, weights: Vector) -> Vector:
    """``P(strength < t)`` for every ``t`` on :data:`GRID`, for a hand drawn from ``weights``."""
    total = float(weights.sum())
    if total <= 0:
        return GRID.copy()
    order = np.argsort(strength, kind="stable")
    cumulative = np.concatenate([[0.0], np.cumsum(weights[order])]) / total
    index = np.searchsorted(strength[order], GRID, side="left")
    result: Vector = cumulative[index]
    return result


def raise_kind(facing: int, middle: int) -> str:
    """``fold_to_raise`` or ``fold_to_big_raise`` for a preflop raise that
    leaves ``facing`` to call with ``middle`` in the pot (the raise included)."""
    faced = facing / max(middle - facing, 1)
    return "fold_to_big_raise" if faced > BIG_RAISE else "fold_to_raise"


def _preflop_share(move: Move, plays: float) -> float:
    """The share of hands a preflop move keeps, for a player who puts chips in
    voluntarily with a share ``plays`` of hands: a limp or a call keeps what
    they play (an equity caller limps and calls with the same half of its
    hands, a station with all of them), raises the population's tops."""
    committing = move.all_in or move.added >= 0.3 * move.chips
    if move.kind in ("raise", "bet") or move.aggressive:
        if committing:
            return 0.3 if move.raises_before == 0 else 0.15
        return 0.3 if move.raises_before == 0 else 0.1
    if move.kind == "call":
        return plays
    return 1.0


def _postflop_keep(move: Move, strength: Vector, calls_above: float, bets: float) -> Vector:
    """How much of each combo a post-flop move keeps: a call what lies above
    ``calls_above`` (the player's own threshold as far as it is known, with a
    soft edge and a floor for mistakes), a check most of what lies below the
    top ``bets`` of hands (the share the player bets when checked to), a bet
    the population's reading.  A call or a check read as the population
    plays leaves weak hands in the range of a player who has none (or strong
    ones in that of a player who never bets), and every later fold from that
    range then looks like a fold to the size of the bet rather than to the
    strength of the hand."""
    if move.aggressive:
        result: Vector = 0.05 + 0.95 * strength**3
        return result
    if move.kind == "call":
        kept: Vector = 0.1 + 0.9 * np.clip((strength - calls_above) / 0.15 + 0.5, 0.0, 1.0)
        return kept
    if move.kind == "check":
        checked: Vector = 1.0 - 0.7 * np.clip((strength - (1.0 - bets)) / 0.15 + 0.5, 0.0, 1.0)
        return checked
    return np.ones_like(strength)


@lru_cache(maxsize=65536)
def hand_observations(
    events: tuple[Event, ...], seat: int, plays: float = 1.0, calls_above: float = 0.4, bets: float = 0.35
) -> tuple[tuple[str, float, Vector, float], ...]:
    """``seat``'s folds and continues in one hand, each with ``F_i`` of its
    range then and the price the bet offered (:func:`~.fold_line.price`);
    post-flop decisions are of kind ``postflop``.  ``plays`` is the share of
    hands the player puts chips in with, ``calls_above`` the strength they
    call a bet with, ``bets`` how often they bet when checked to (all rounded
    by the caller, so hands stay cached as the read drifts)."""
    record = read_hand(events)
    seen: list[tuple[str, float, Vector, float]] = []
    share = 1.0
    combos: Vector | None = None
    for move in record.moves:
        if move.seat != seat or move.forced:
            continue
        folded = float(move.kind == "fold")
        if move.street == 0:
            committing = move.to_match >= 0.3 * move.chips or move.facing >= 0.3 * move.chips
            if move.raises_before > 0 and not committing:
                weights = top_range(share) * class_weights()
                below = _below(class_strength(), weights)
                seen.append((raise_kind(move.facing, move.middle), folded, below, 0.0))
            share = min(share, _preflop_share(move, plays))
            continue
        if combos is None:
            combos = class_to_combos(top_range(share)) * live_combos(record.board)
        strength = combo_strength(record.board_at(move.street))
        if move.facing > 0:
            faced = move.facing / max(move.middle - move.facing, move.big_blind)
            seen.append(("postflop", folded, _below(strength, combos), price(faced)))
        combos = combos * _postflop_keep(move, strength, calls_above, bets)
    return tuple(seen)


def observations(
    hands: list[tuple[Event, ...]],
    seat: int,
    plays: float = 1.0,
    calls_above: float = 0.4,
    bets: float = 0.35,
) -> tuple[Observations, PostflopSeen]:
    """``seat``'s observations over several finished hands: preflop ones
    summed per kind, post-flop ones one by one (for :func:`~.fold_line.fit_line`);
    ``plays``, ``calls_above`` and ``bets`` as for :func:`hand_observations`."""
    plays = round(min(1.0, max(0.05, plays)) * 20) / 20
    calls_above = round(min(0.9, max(0.0, calls_above)) * 20) / 20
    bets = round(min(1.0, max(0.0, bets)) * 20) / 20
    totals: Observations = {kind: (0.0, 0.0, np.zeros(len(GRID))) for kind in KINDS}
    folded: list[float] = []
    below: list[Vector] = []
    prices: list[float] = []
    for events in hands:
        for kind, fold, cumulative, offered in hand_observations(events, seat, plays, calls_above, bets):
            if kind == "postflop":
                folded.append(fold)
                below.append(cumulative)
                prices.append(offered)
                continue
            folds, decisions, sums = totals[kind]
            totals[kind] = (folds + fold, decisions + 1.0, sums + cumulative)
    matrix = np.array(below) if below else np.zeros((0, len(GRID)))
    return totals, (np.array(folded), matrix, np.array(prices))


def solve_threshold(seen: tuple[float, float, Vector], prior: float, weight: float) -> float:
    """The threshold at which expected folds match the folds seen (shrunk to ``prior``)."""
    folds, _, sums = seen
    gap = sums + weight * GRID - (folds + weight * prior)  # increasing in t
    above = int(np.searchsorted(gap, 0.0, side="left"))
    if above <= 0:
        return float(GRID[0])
    if above >= len(GRID):
        return float(GRID[-1])
    low, high = gap[above - 1], gap[above]
    step = (0.0 - low) / (high - low) if high > low else 0.0
    return float(GRID[above - 1] + step * (GRID[above] - GRID[above - 1]))


def solve_sizes(seen: list[tuple[float, float, Vector]], priors: list[float], weight: float) -> list[float]:
    """Thresholds for bets (or raises) of several sizes that share one level.

    Some players fold more to big bets, some (equity callers, stations) fold
    the same hands to any size.  Which one a player is takes many decisions to
    see, while their level shows within a few: so the level is learned from
    every fold and call, whatever the size, and each size's threshold is
    shrunk towards that level (plus part of the population's gaps between
    the sizes, :data:`SIZE_EFFECT`) rather than towards the population.  A
    player who called three small bets is then not assumed to fold to a big
    one just because the population does, nor one who folded to big bets to
    call a probe."""
    pooled = (
        float(sum(x[0] for x in seen)),
        float(sum(x[1] for x in seen)),
        np.sum([x[2] for x in seen], axis=0),
    )
    centre = sum(priors) / len(priors)
    level = solve_threshold(pooled, centre, weight)
    return [
        solve_threshold(x, level + SIZE_EFFECT * (prior - centre), SIZE_WEIGHT)
        for x, prior in zip(seen, priors, strict=True)
    ]
