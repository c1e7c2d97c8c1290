"""How big an edge a card-independent player leaves, solved rather than assumed.

:mod:`.versus_wild` values a gamble for the stack with a concave curve
whose bend is the edge the bot expects to keep over its opponent: the
bigger the edge, the more fair flips for the stack it passes up, waiting
for better spots.  That edge is not a constant.  Against a player who
moves all-in every hand every future pot is another all-in, so there are
no better spots to wait for; ``hard``, assuming the edge it keeps over
``random``, folded hands worth calling against such a player and won 45 %
of freezeouts where 60 % was there to take.

So the edge is computed.  Heads-up, a card-independent player is
described well enough by a few rates the table has shown
(:func:`profile_of`): how often it moves all-in when it acts first or
after a limp, raises less, or gives up there, and how often it calls an
all-in.  Against that player a dynamic programme over the rest of the
freezeout (every stack, every hand of R6's schedule, both seats) plays
the best push, limp or fold with each of the 169 starting hands
(equities against a random hand, as such a player's range is), which
gives the chance of winning from any share of the chips at any hand
(:class:`WildValue`) and, from even stacks, the edge (:func:`solved_edge`).
The one simplification: a limped pot is settled at the hand's equity.
Against a player who always moves all-in, push or fold is the whole game
and the solution is its exact best response: 60.5 % from even stacks.

The solution depends only on the rates, rounded to :data:`GRAIN`, and the
chips in play, and is cached, so the work is done once per read.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import class_weights
from freezeout.bots.history import read_hand
from freezeout.bots.ranges import equity_vs_random
from freezeout.rules.tournament import HANDS_PER_LEVEL, HOUSE_LEVELS
from freezeout.rules.views import TableView

__all__ = [
    "GRAIN",
    "PRIOR_WEIGHT",
    "Lines",
    "WildProfile",
    "WildValue",
    "lines",
    "profile_of",
    "solved_edge",
    "wild_value",
]

#: Rates are rounded to this before solving, so a read that barely moves reuses its solution.
GRAIN: Final = 0.05
#: Weight, in chances, of the prior a card-independent player's rates are shrunk towards.
PRIOR_WEIGHT: Final = 2.0
#: Stack resolution of the solution, as a share of the chips in play.
_CELLS: Final = 100
#: Hands solved; R6's last level starts at hand 37, and by hand 60 at 500/1,000
#: the chips are a few blinds and every hand is a flip (later hands use the last row).
_LAST_HAND: Final = 60


class WildProfile(NamedTuple):
    """A card-independent heads-up opponent in four rates."""

    shove: float  # moves all-in when it acts first or after a limp
    big: float  # raises short of all-in there (valued as a fight for half the stacks)
    fold: float  # gives up there instead (folds, even when checking is free)
    call: float  # calls an all-in

    @property
    def passive(self) -> float:
        """Calls or checks there."""
        return max(0.0, 1.0 - self.shove - self.big - self.fold)


class Lines(NamedTuple):
    """The chance of winning along each line open before anyone has raised,
    with chips valued by ``worth`` (:func:`lines`): floats for one decision,
    arrays over stacks and starting hands inside the solve."""

    flip: Any  # all the chips at stake in at this equity
    won: Any  # a big blind won
    lost: Any  # a big blind lost
    settled: Any  # a limped pot settled at this equity
    pushed: Any  # all-in: it folds, or calls and it is a flip
    facing: Any  # its share of shoves and smaller raises, each called or folded to at best
    limp: Any  # the button completes: it shoves, raises, gives up or lets the pot be settled


def lines(
    profile: WildProfile, equity: Any, chips: Any, at_risk: Any, big_blind: int, worth: Callable[[Any], Any]
) -> Lines:
    """:class:`Lines` for ``chips`` at stake against ``profile`` — one
    formula for the solve and for the decision that follows it."""
    won, lost = worth(chips + big_blind), worth(chips - big_blind)
    flip = equity * worth(chips + at_risk) + (1.0 - equity) * worth(chips - at_risk)
    half = equity * worth(chips + at_risk / 2) + (1.0 - equity) * worth(chips - at_risk / 2)
    settled = equity * won + (1.0 - equity) * lost
    pushed = (1.0 - profile.call) * won + profile.call * flip
    facing = profile.shove * np.maximum(flip, lost) + profile.big * np.maximum(half, lost)
    limp = facing + profile.fold * won + profile.passive * settled
    return Lines(flip, won, lost, settled, pushed, facing, limp)


def _grain(rate: float) -> float:
    return round(min(max(rate, 0.0), 1.0) / GRAIN) * GRAIN


def profile_of(view: TableView, seat: int) -> WildProfile:
    """``seat``'s four rates as the table's earlier hands have shown them,
    rounded.  Its first move before the flop when nobody has raised (facing
    the blinds or a limp) is counted as all-in, a smaller raise, a fold (a
    fold when checking was free included) or a call or check; a call of a
    committing bet (three tenths of its chips or more) as calling an
    all-in.  A player read as card-independent is anchored, lightly
    (:data:`PRIOR_WEIGHT` chances), not to the population of sound players
    but to the one who picks every legal move alike."""
    first = dict.fromkeys(("shove", "big", "fold", "passive"), 0.0)
    calls = chances = 0.0
    for events in view.past:
        opened = False
        for move in read_hand(events).moves:
            if move.seat != seat or move.street != 0 or move.forced:
                continue
            if move.raises_before == 0 and not opened:
                opened = True
                kind = "shove" if move.all_in and move.aggressive else "big" if move.aggressive else move.kind
                first[kind if kind in first else "passive"] += 1.0
            elif move.raises_before > 0 and move.facing >= 0.3 * move.chips:
                chances += 1.0
                calls += move.kind != "fold"
    seen = sum(first.values()) + PRIOR_WEIGHT
    shove, big, fold = ((first[kind] + 0.25 * PRIOR_WEIGHT) / seen for kind in ("shove", "big", "fold"))
    call = (calls + 0.5 * PRIOR_WEIGHT) / (chances + PRIOR_WEIGHT)
    return WildProfile(_grain(shove), _grain(big), _grain(fold), _grain(call))


def _blinds(hand: int) -> tuple[int, int]:
    level = min((hand - 1) // HANDS_PER_LEVEL, len(HOUSE_LEVELS) - 1)
    return HOUSE_LEVELS[level]


@dataclass(frozen=True)
class WildValue:
    """The chance of winning the freezeout, ``table[hand - 1, seat, cell]``:
    ``seat`` 0 when the bot has the button (posts the small blind), 1 when it
    posts the big blind; ``cell`` its share of the ``total`` chips in
    :data:`_CELLS` steps."""

    table: npt.NDArray[np.float64]
    total: int

    def at(self, chips: float, hand: int, button: bool) -> float:
        """Chance of winning with ``chips`` when hand ``hand`` is dealt."""
        row = min(max(hand - 1, 0), self.table.shape[0] - 1)
        curve = self.table[row, 0 if button else 1]
        cell = min(max(chips / self.total, 0.0), 1.0) * _CELLS
        return float(np.interp(cell, np.arange(_CELLS + 1), curve))


def solved_edge(profile: WildProfile, total: int) -> float:
    """The edge over ``profile`` the solution finds: its chance ``w`` of winning
    from even stacks read as the drift of :func:`~.versus_wild.skill_utility`,
    whose value of half the chips is ``1 / (1 + e^(-k/2))``, so ``k = 2 ln(w / (1 - w))``."""
    solved = wild_value(profile, total)
    even = (solved.at(total / 2, 1, True) + solved.at(total / 2, 1, False)) / 2
    even = min(max(even, 0.51), 0.99)
    return 2.0 * math.log(even / (1.0 - even))


@lru_cache(maxsize=1)
def _equities() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Starting hands' equities against a random hand, pooled to hundredths with
    their weights: only the equity matters here, and pooling makes the solve cheap."""
    pooled = np.round(np.asarray(equity_vs_random(), dtype=np.float64), 2)
    weights = np.asarray(class_weights(), dtype=np.float64)
    levels, where = np.unique(pooled, return_inverse=True)
    mass = np.bincount(where, weights=weights)
    return np.asarray(levels, dtype=np.float64)[None, :], mass / mass.sum()


@lru_cache(maxsize=64)  # 100 KB each
def wild_value(profile: WildProfile, total: int) -> WildValue:
    """The solved value of every stack against ``profile``, for every hand."""
    equity, weights = _equities()
    chips = np.linspace(0.0, float(total), _CELLS + 1)
    cells = np.arange(_CELLS + 1, dtype=np.float64)
    at_risk = np.minimum(chips, total - chips)
    later = {0: chips / total, 1: chips / total}
    rows: list[npt.NDArray[np.float64]] = []
    for hand in range(_LAST_HAND, 0, -1):
        small, big = _blinds(hand)
        now = {}
        for seat in (0, 1):
            after = later[1 - seat]  # the button moves: next hand the other seat

            def worth(
                stack: npt.NDArray[np.float64], after: npt.NDArray[np.float64] = after
            ) -> npt.NDArray[np.float64]:
                return np.interp(stack / total * _CELLS, cells, after)[:, None]

            line = lines(profile, equity, chips, at_risk, big, worth)
            if seat == 0:  # the button acts first: fold, limp or move in
                best = np.maximum(np.maximum(worth(chips - small), line.pushed), line.limp)
            else:  # the opponent acts first; after its limp, check or move in
                gave_up = profile.fold * worth(chips + small)
                best = line.facing + gave_up + profile.passive * np.maximum(line.settled, line.pushed)
            value = best @ weights
            value[0], value[-1] = 0.0, 1.0
            now[seat] = value
        later = now
        rows.append(np.stack([now[0], now[1]]))
    rows.reverse()
    return WildValue(np.stack(rows), total)
