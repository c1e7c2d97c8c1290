"""``hard`` heads-up against a player read as card-independent (:mod:`.reads`).

Such a player's bets carry no information, so every equity is against two
random cards, and the whole game becomes choosing *which* confrontations to
accept.  Two ideas decide it:

* **Skill-adjusted chip value.**  A player who expects to outplay the
  opponent values chips concavely: doubling up is worth less than twice the
  stack, because the edge would have won those chips anyway, while busting
  ends the edge.  A biased random walk's chance of ruin gives the shape,
  ``u(x) = (1 - e^(-k x)) / (1 - e^(-k))`` for a share ``x`` of the chips in
  play; an all-in is accepted only when its expected ``u`` beats folding, so
  marginal coin flips are passed up for the better spots that come along.
* **Small pots with the rest.**  Premium hands (equity ``PREMIUM`` or more
  against any two) get all the chips in at once, which such a player calls
  half the time; everything else limps or checks and lets the opponent's
  folds and wild bets come to it.

Only the heads-up game uses this; the stored push/fold equilibrium stays
the default play against everyone else (and in the charts, whose views
carry no history).
"""

from __future__ import annotations

import math
from typing import Final

from freezeout.bots.base import Situation, chips_in_play
from freezeout.bots.hard_preflop import Intent
from freezeout.bots.ranges import equity_vs_random
from freezeout.rules.views import TableView

__all__ = ["PREMIUM", "SKILL_K", "call_pays", "skill_utility", "versus_wild"]

#: How much better than the opponent the bot expects to play (the walk's drift).
SKILL_K: Final = 1.5
#: Equity against a random hand from which the bot wants all the chips in.
PREMIUM: Final = 0.7


def skill_utility(share: float, k: float = SKILL_K) -> float:
    """Value of holding ``share`` of the chips in play to a player with an edge ``k``."""
    share = min(max(share, 0.0), 1.0)
    return (1.0 - math.exp(-k * share)) / (1.0 - math.exp(-k))


def call_pays(s: Situation, view: TableView, equity: float, k: float = SKILL_K) -> bool:
    """Whether calling, valued as an all-in at ``equity``, beats folding in skill-adjusted chips."""
    total = chips_in_play(view)
    if total <= 0:
        return True
    call = min(s.to_call, s.stack)
    mine_after = s.my_bet + call
    theirs = max((view.seats[o].bet for o in s.opponents), default=0)
    returned = max(0, theirs - mine_after)  # the part of their bet we cannot match comes back (R21)
    win = s.stack - call + s.pot + call - returned
    lose = s.stack - call
    called = equity * skill_utility(win / total, k) + (1.0 - equity) * skill_utility(lose / total, k)
    return called > skill_utility(s.stack / total, k)


def versus_wild(
    s: Situation, view: TableView, equity: float | None = None, k: float = SKILL_K
) -> list[Intent]:
    """The decision against one card-independent opponent.  ``equity`` is the
    hand's equity against a random hand (computed here before the flop);
    ``k`` the edge assumed over such a player (``hard-v1`` keeps the default)."""
    eq = float(equity_vs_random()[s.hand_class]) if equity is None else equity
    if eq >= PREMIUM and (s.can_raise or s.to_call > 0):
        return [(1.0, "allin", None)]
    if s.can_check:
        return [(1.0, "passive", None)]
    if call_pays(s, view, eq, k):
        return [(1.0, "passive", None)]
    return [(1.0, "fold", None)]
