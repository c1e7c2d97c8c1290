"""The two reference bots at the bottom of the ladder; both play every game.

``random`` picks uniformly among the legal moves and sizes raises uniformly
between the minimum and the most allowed (fixed limit: the nearest allowed
size); at a bring-in (V7) it brings in or completes at random, at a draw
(V11) it throws away each card with even odds.  ``station`` checks or calls
(brings in, stands pat) and never does anything else.  Both are baselines:
any bot worth its name must beat them by a wide margin.
"""

from __future__ import annotations

import random

from freezeout.bots.base import draw_action, legal_action
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.views import TableView

__all__ = ["RandomBot", "StationBot"]


class RandomBot:
    name = "random"

    def act(self, view: TableView, rng: random.Random) -> Action:
        legal = view.legal
        assert legal is not None and view.viewer is not None
        if legal.draw:
            held = view.seats[view.viewer].cards or ()
            return draw_action(view, [card for card in held if card is not None and rng.random() < 0.5])
        if legal.bring_in:
            return legal_action(view, rng.choice(("passive", "raise")))
        raising = legal.can_raise
        choices = ["fold", "passive"] + (["raise", "allin"] if raising else [])
        choice = rng.choice(choices)
        if choice == "raise":
            return legal_action(view, "raise", rng.randint(legal.min_to, legal.max_to))
        if choice == "fold":  # folding is legal on any turn (D5), even when a check is free
            return Action(view.viewer, ActionKind.FOLD)
        return legal_action(view, choice)


class StationBot:
    name = "station"

    def act(self, view: TableView, rng: random.Random) -> Action:
        return legal_action(view, "passive")
