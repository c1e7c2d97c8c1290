"""``medium``: equity against random hands and pot odds, nothing more.

It assumes every opponent holds two random cards — it never narrows a
range when someone raises — and compares that equity with the price of a
call.  Strong enough to punish a calling station, but it pays off big bets
far too lightly, which is exactly what a better bot exploits.
"""

from __future__ import annotations

import random

from freezeout.bots.base import legal_action, situation
from freezeout.bots.montecarlo import equity, numpy_rng
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView

__all__ = ["MediumBot"]


class MediumBot:
    name = "medium"

    def __init__(self, samples: int = 400) -> None:
        self.samples = samples

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        opponents = max(1, len(s.opponents))
        eq = equity(s.hole, s.board, [None] * opponents, self.samples, numpy_rng(rng))
        fair = 1.0 / (opponents + 1)
        edge = eq - fair  # how much better than an average hand at this table
        if s.can_check:
            if edge > 0.15 and s.can_raise:
                size = s.pot * rng.choice((0.5, 0.75, 1.0)) if s.street else 3 * s.big_blind
                return legal_action(view, "raise", s.to_match + max(int(size), s.big_blind))
            return legal_action(view, "passive")
        if edge > 0.25 and eq > s.pot_odds + 0.2 and s.can_raise:
            return legal_action(view, "raise", s.to_match * 3 if s.street == 0 else s.to_match + s.pot)
        if eq >= s.pot_odds:
            return legal_action(view, "passive")
        return legal_action(view, "fold")
