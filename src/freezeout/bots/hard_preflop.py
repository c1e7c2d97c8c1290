"""``hard`` before the flop: solved push/fold when short, ranges when deep.

Every decision is returned as a small probability distribution over
intentions, so the chart can report exact all-in probabilities from the
same code that plays.  Three regimes:

* the exact push/fold game (heads-up first-in shove or the big blind facing
  that shove, or a 3–4 player fold/all-in sequence) at short stacks: the
  stored equilibrium strategies;
* facing an all-in (or a bet that commits us) anywhere else: call when the
  equity against the shover's estimated range beats the price;
* deeper, nothing big in front: position- and depth-dependent opening
  ranges with mixed sizes, 3-bets with the top of the range, calls with
  the next slice.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.base import Situation
from freezeout.bots.equity_table import load_equity
from freezeout.bots.multiway import MULTIWAY_GRID, multiway_nodes
from freezeout.bots.pushfold import load_pushfold
from freezeout.bots.ranges import percentile, top_range
from freezeout.rules.views import TableView

__all__ = ["PUSH_FOLD_BB", "Intent", "estimated_class_range", "preflop_plan"]

#: Up to this effective depth (big blinds) ``hard`` only shoves or folds first in.
PUSH_FOLD_BB: Final = 20.0
#: Shoves (or raises of a third of the stack) deeper than this are read as a
#: wide range: a population of weak bots makes them with almost anything.
DEEP_SHOVE_BB: Final = 30.0
DEEP_SHOVE_SHARE: Final = 0.3
Intent = tuple[float, str, int | None]  # (probability, kind, raise-to)

# First-in opening share of hands by how many players act after us (deep stacks).
_OPEN_SHARE: Final = {0: 1.0, 1: 0.5, 2: 0.5, 3: 0.32}
#: Heads-up, deep: the button raises the top half and completes down to this share.
HU_LIMP_SHARE: Final = 0.8


def _chips(view: TableView, seat: int) -> int:
    return view.seats[seat].stack + view.seats[seat].bet


def effective_bb(s: Situation, view: TableView) -> float:
    """My chips against the biggest opponent still in, in big blinds."""
    others = [_chips(view, o) for o in s.opponents] or [0]
    return min(s.stack + s.my_bet, max(others)) / s.big_blind


def shove_share(stack_bb: float, players: int) -> float:
    """Share of hands a sound player shoves first in at this depth (from the
    heads-up equilibrium, tightened for more players behind)."""
    pf = load_pushfold()
    k = pf.index(min(stack_bb, float(pf.grid[-1])))
    weights = load_equity().pairs.sum(axis=1)
    share = float(pf.push[k] @ weights / weights.sum())
    return max(0.06, share * (0.55 if players > 2 else 1.0))


def estimated_class_range(view: TableView, seat: int, preflop_only: bool = True) -> npt.NDArray[np.float64]:
    """Class weights for what ``seat`` holds, judged by its preflop moves."""
    from freezeout.rules.events import ActionTaken, StreetDealt

    bb = view.big_blind
    players = sum(1 for s in view.seats if s.in_hand or s.folded)
    share = 1.0
    raises_before = 0
    for event in view.history:
        if isinstance(event, StreetDealt):
            break
        if not isinstance(event, ActionTaken):
            continue
        if event.seat == seat:
            chips = event.total / bb
            huge = event.all_in or event.added >= 0.3 * (event.added + view.seats[seat].stack)
            if huge and event.kind in ("raise", "bet", "call") and chips > DEEP_SHOVE_BB:
                # Nobody sound shoves this deep; the bots who do shove wide.
                share = min(share, DEEP_SHOVE_SHARE)
            elif event.all_in and event.kind in ("raise", "bet", "call"):
                share = min(share, shove_share(chips, players) * (1.0 if raises_before == 0 else 0.6))
            elif event.kind == "raise":
                share = min(share, 0.3 if raises_before == 0 else 0.1)
            elif event.kind == "call":  # callers in this population are loose
                share = min(share, 1.0 if raises_before == 0 else 0.6 if raises_before == 1 else 0.3)
        if event.kind in ("raise", "bet"):
            raises_before += 1
    return top_range(share)


def equity_vs_classes(hand_class: int, weights: npt.NDArray[np.float64]) -> float:
    """All-in equity of ``hand_class`` against a class range (card removal by combos)."""
    table = load_equity()
    w = table.pairs[hand_class] * weights
    total = w.sum()
    return float(w @ table.equity[hand_class] / total) if total > 0 else 0.5


def _pushfold_history(s: Situation) -> tuple[bool, ...] | None:
    """The fold/all-in sequence before me, or None when someone limped,
    made a non-all-in raise, or a blind is already all-in."""
    history: list[bool] = []
    for action in s.hand_actions:
        if action.kind == "fold":
            history.append(False)
        elif action.all_in:
            history.append(True)
        else:
            return None
    if len(history) != s.position():
        return None
    return tuple(history)


def preflop_plan(s: Situation, view: TableView) -> list[Intent]:
    """The preflop decision as a distribution over intentions."""
    eff = effective_bb(s, view)
    history = _pushfold_history(s)
    if history is not None and eff <= PUSH_FOLD_BB + 10:
        plan = _solved(s, eff, history)
        if plan is not None:
            return plan
    if s.to_call > 0 and (view.seats[_aggressor(s)].stack == 0 or s.to_call >= 0.3 * (s.stack + s.my_bet)):
        return _versus_allin(s, view)
    return _ranges(s, view, eff)


def _aggressor(s: Situation) -> int:
    for action in reversed(s.hand_actions):
        if action.kind in ("raise", "bet") or action.all_in:
            return action.seat
    return s.seat


def _solved(s: Situation, eff: float, history: tuple[bool, ...]) -> list[Intent] | None:
    pf = load_pushfold()
    if s.dealt == 2:
        if not history and eff <= PUSH_FOLD_BB:  # small blind, first in
            p = pf.push_probability(eff, s.hand_class)
        elif history == (True,):  # big blind facing the shove
            p = pf.call_probability(eff, s.hand_class)
        else:
            return None
        return [(p, "allin", None), (1.0 - p, "fold", None)]
    if s.dealt not in pf.multiway or eff > PUSH_FOLD_BB or (not any(history) and eff > 15):
        return None
    nodes = multiway_nodes(s.dealt)
    if history not in nodes:
        return None
    grid = MULTIWAY_GRID
    k = int(np.abs(grid - eff).argmin())
    p = float(pf.multiway[s.dealt][k, nodes.index(history), s.hand_class])
    return [(p, "allin", None), (1.0 - p, "fold", None)]


def _versus_allin(s: Situation, view: TableView) -> list[Intent]:
    """Call (or re-shove) when equity against the estimated ranges pays."""
    ranges = [
        estimated_class_range(view, o)
        for o in s.opponents
        if view.seats[o].bet > 0 or view.seats[o].stack == 0
    ]
    if not ranges:
        ranges = [top_range(0.3)]
    eq = 1.0
    for weights in ranges:
        eq *= equity_vs_classes(s.hand_class, weights)
    if len(ranges) > 1:  # several opponents in: product of pairwise equities, slightly generous
        eq = eq**0.85
    price = s.to_call / (s.pot + s.to_call)
    go = "passive" if view.seats[_aggressor(s)].stack == 0 else "allin"
    return [(1.0, go, None)] if eq > price else [(1.0, "fold", None)]


def _ranges(s: Situation, view: TableView, eff: float) -> list[Intent]:
    """Deeper-stack play with nothing committing in front."""
    bb = s.big_blind
    strength = percentile(s.hand_class)  # 0 = aces
    raised = s.to_match > bb
    behind = len(s.order) - 1 - s.position()
    limpers = sum(1 for a in s.hand_actions if a.kind == "call")
    if not raised:
        share = _OPEN_SHARE.get(behind, 0.3) if s.to_call > 0 or s.dealt > 2 else 0.45
        share *= 0.75**limpers
        if s.can_check:  # big blind after limps: raise the top, check the rest
            share = 0.4 if s.dealt == 2 else 0.15  # a limper's range is capped: punish it
            if eff <= PUSH_FOLD_BB:  # short: shove over the limp, or check — never a small raise
                iso = 0.45 if s.dealt == 2 else 0.15
                return [(1.0, "allin", None)] if strength < iso else [(1.0, "passive", None)]
        if eff <= 12 and strength < share * 0.8:
            return [(1.0, "allin", None)]
        if strength < share:
            # Open to 2.2-3 bb (one more per limper), or to 4-5 bb: loose callers pay
            # the big sizes, so the top of the range uses them more often — but
            # every hand mixes both so the size alone never gives the hand away.
            base = s.to_match + bb * limpers
            big = 0.6 if strength < share * 0.35 else 0.25
            return [
                ((1 - big) * 0.6, "raise", int(base + 1.2 * bb)),
                ((1 - big) * 0.4, "raise", int(base + 2 * bb)),
                (big * 0.5, "raise", int(base + 3 * bb)),
                (big * 0.5, "raise", int(base + 4 * bb)),
            ]
        if s.dealt == 2 and not s.can_check and strength < HU_LIMP_SHARE:
            return [(1.0, "passive", None)]  # heads-up button: complete the middle of the range
        return [(1.0, "fold", None)] if not s.can_check else [(1.0, "passive", None)]
    # Facing a raise that does not commit us.
    raises = sum(1 for a in s.hand_actions if a.kind == "raise")
    top = 0.04 if raises >= 2 else 0.07
    call = 0.1 if raises >= 2 else (0.55 if s.dealt == 2 else 0.18)
    if strength < top:
        if eff <= 30:
            return [(1.0, "allin", None)]
        return [(0.6, "raise", s.to_match * 3), (0.4, "raise", int(s.to_match * 2.6))]
    if strength < call and s.to_call <= 0.2 * (s.stack + s.my_bet):
        return [(1.0, "passive", None)]
    return [(1.0, "fold", None)]
