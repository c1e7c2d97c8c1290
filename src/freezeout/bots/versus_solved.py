"""``hard`` heads-up against a card-independent player who pushes or folds.

:mod:`.wild_value` solves the freezeout against a card-independent player
with one simplification: a pot that stays limped is settled at the hand's
equity.  Against a player whose first moves are almost all all-ins and
folds (:data:`EXACT_SHARE`), no pot stays limped and the solution is the
best response itself, so ``hard`` plays it outright before the flop: every
decision is the move whose solved chance of winning the freezeout is the
highest, with the hand's equity against a random hand.  Against the rest (``random`` limps
and raises small as often as it shoves) only the edge is taken from the
solution (:data:`~.hard.WILD_EDGE`), and :mod:`.versus_wild` decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from freezeout.bots.base import Situation, chips_in_play
from freezeout.bots.hard_preflop import Intent
from freezeout.bots.ranges import equity_vs_random
from freezeout.bots.wild_value import Lines, WildProfile, lines, wild_value
from freezeout.rules.views import TableView

__all__ = ["EXACT_SHARE", "solution_is_exact", "versus_solved"]

#: Share of first moves (all-ins and folds) from which the solution is trusted outright.
EXACT_SHARE: Final = 0.8


def solution_is_exact(profile: WildProfile) -> bool:
    """Whether ``profile``'s first moves leave (almost) no limped pots."""
    return profile.shove + profile.fold >= EXACT_SHARE


def versus_solved(s: Situation, view: TableView, profile: WildProfile) -> list[Intent]:
    """The preflop move with the best solved chance of winning against ``profile``
    (before the flop every chip a seat has put in is this round's bet, so the
    chips at stake are known exactly)."""
    eq = float(equity_vs_random()[s.hand_class])
    solved = wild_value(profile, chips_in_play(view))
    button = view.button == s.seat

    def value(chips: float) -> float:
        return solved.at(chips, view.hand_number + 1, not button)

    mine = s.stack + s.my_bet
    at_risk = min(mine, max(s.total_chips(o, view) for o in s.opponents))
    line = lines(profile, eq, mine, at_risk, view.big_blind, value)
    if not any(a.kind in ("bet", "raise", "allin") for a in s.hand_actions):
        return [(1.0, _first_move(s, line, value), None)]
    fold = value(s.stack)
    if not s.can_raise:  # an all-in to call (or a raise we may only call)
        return [(1.0, "passive" if line.flip > fold else "fold", None)]
    pushed = (1.0 - profile.call) * value(s.stack + s.pot) + profile.call * line.flip  # it folds or calls
    return [(1.0, "allin" if pushed > fold else "fold", None)]


def _first_move(s: Situation, line: Lines, value: Callable[[float], float]) -> str:
    """The solution's move before anyone has raised: the button folds, limps
    or moves in; the big blind, after a limp, checks or moves in."""
    if s.can_check:
        return "allin" if s.can_raise and line.pushed > line.settled else "passive"
    options = {
        "fold": value(s.stack),
        "passive": line.limp,
        "allin": line.pushed if s.can_raise else line.flip,
    }
    return max(options, key=lambda kind: options[kind])
