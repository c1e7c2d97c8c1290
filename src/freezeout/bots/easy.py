"""``easy``: a loose-passive beginner.

It plays far too many hands, calls bets with any pair or any draw-looking
hope, almost never raises, never bluffs and slow-plays its monsters.  It
looks only at its own made hand (the evaluator's category), never at the
size of the pot — the mistakes a beginner can be punished for: value-bet it
relentlessly and never bluff it.
"""

from __future__ import annotations

import random

from freezeout.bots.base import legal_action, situation
from freezeout.bots.ranges import percentile
from freezeout.evaluate import category_of, hand_rank
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView

__all__ = ["EasyBot"]

_STRENGTH = {
    "high card": 0,
    "one pair": 1,
    "two pair": 2,
    "three of a kind": 3,
    "straight": 3,
    "flush": 3,
    "full house": 4,
    "four of a kind": 4,
    "straight flush": 4,
}


class EasyBot:
    name = "easy"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if s.street == 0:
            return self._preflop(view, s.hand_class, s.to_call, s.stack + s.my_bet, s.big_blind, rng)
        made = _STRENGTH[category_of(hand_rank([*s.hole, *s.board]))]
        big_bet = s.to_call > s.pot * 0.75
        if s.can_check:
            if made >= 2 and rng.random() < 0.3 and s.can_raise:
                return legal_action(view, "raise", s.to_match + max(s.pot // 3, s.big_blind))
            return legal_action(view, "passive")
        if made >= 4 and rng.random() < 0.2:
            return legal_action(view, "raise", s.to_match * 2)
        if made >= 1 and not (big_bet and made == 1 and rng.random() < 0.5):
            return legal_action(view, "passive")
        if rng.random() < 0.2:  # "maybe he's bluffing"
            return legal_action(view, "passive")
        return legal_action(view, "fold")

    @staticmethod
    def _preflop(
        view: TableView, hand_class: int, to_call: int, chips: int, big_blind: int, rng: random.Random
    ) -> Action:
        strength = percentile(hand_class)  # 0 = aces, 1 = the worst hand
        if strength < 0.03 and rng.random() < 0.5:
            return legal_action(view, "raise", 3 * big_blind + to_call)
        if to_call <= 2 * big_blind:
            return legal_action(view, "passive") if strength < 0.75 else legal_action(view, "fold")
        if to_call >= chips * 0.5:
            return legal_action(view, "passive") if strength < 0.12 else legal_action(view, "fold")
        return legal_action(view, "passive") if strength < 0.4 else legal_action(view, "fold")
