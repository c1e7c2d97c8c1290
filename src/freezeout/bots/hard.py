"""``hard``: the strongest bot we have — it reads the table and exploits it.

With nothing seen yet (the first hand of a tournament, and every range
chart) it plays exactly as ``hard-v1`` (:mod:`.hard_v1`): the stored
push/fold equilibria when short, equity against fixed ranges deeper.
From the second hand on it models each opponent from the table's public
history (:func:`~.reads.read_opponent`: frequencies shrunk towards a
population prior) and plays against the model:

* heads-up against a player whose moves ignore their cards (:mod:`.reads`'
  free folds and wild sizes, or :mod:`.aggression_read`'s raising back at
  nearly every chance) it switches to
  :mod:`.versus_wild`, as ``hard-v1`` does, but with the edge
  :mod:`.wild_value` solves for against that player's rates when it is
  smaller, and with the solution itself before the flop against one who
  only pushes or folds (:mod:`.versus_solved`);
* before the flop it takes the option worth the most chips against the
  opponents' model ranges and folding habits (:mod:`.exploit_preflop`);
* after the flop it narrows every range by this hand's moves read through
  the model (:mod:`.narrowing`) and values checks, calls, folds, bets and
  raises over one Monte Carlo sample of those ranges (:mod:`.exploit`).

The time budget is a fixed number of Monte Carlo deals (``SAMPLES_PER_MS``),
not a stopwatch, so the same view and seed always give the same action
however loaded the machine is.
"""

from __future__ import annotations

import random
from typing import Final

from freezeout.bots.aggression_read import aggressor_seats
from freezeout.bots.base import Situation, chips_in_play, situation
from freezeout.bots.exploit import postflop_plan
from freezeout.bots.exploit_preflop import preflop_plan_vs
from freezeout.bots.hard_preflop import Intent
from freezeout.bots.hard_v1 import DEFAULT_BUDGET_MS, SAMPLES_PER_MS, HardV1Bot, choose
from freezeout.bots.montecarlo import equity, numpy_rng
from freezeout.bots.narrowing import postflop_range
from freezeout.bots.reads import OpponentModel, read_opponent, wild_seats
from freezeout.bots.versus_solved import solution_is_exact, versus_solved
from freezeout.bots.versus_wild import versus_wild
from freezeout.bots.wild_value import profile_of, solved_edge
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView

__all__ = ["WILD_EDGE", "HardBot"]

#: The most edge assumed over a card-independent player (``hard-v1`` assumed
#: 1.5 over every one): the bigger it is, the more coin flips for the stack
#: are passed up.  Against one who moves all-in more often, the smaller edge
#: :mod:`.wild_value` solves for is used: with every pot an all-in there are
#: no better spots to wait for.  Never a bigger one: the solution settles
#: limped pots at their equity, kinder than a wild player's bets after the
#: flop leave them.
WILD_EDGE: Final = 1.5


class HardBot:
    name = "hard"

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS) -> None:
        self.budget_ms = budget_ms
        self.samples = max(100, int(budget_ms * SAMPLES_PER_MS))
        self.without_history = HardV1Bot(budget_ms)

    def act(self, view: TableView, rng: random.Random) -> Action:
        if not view.past:
            return self.without_history.act(view, rng)
        s = situation(view)
        if len(s.opponents) == 1 and (wild_seats(view, s.opponents) or aggressor_seats(view, s.opponents)):
            eq = None if s.street == 0 else equity(s.hole, s.board, [None], self.samples, numpy_rng(rng))
            edge = WILD_EDGE
            if s.dealt == 2:  # a heads-up freezeout, the game the solution is of
                profile = profile_of(view, s.opponents[0])
                if s.street == 0 and solution_is_exact(profile):
                    return choose(view, versus_solved(s, view, profile), rng)
                edge = min(edge, solved_edge(profile, chips_in_play(view)))
            return choose(view, versus_wild(s, view, eq, edge), rng)
        return choose(view, self.plan(s, view, rng), rng)

    def plan(self, s: Situation, view: TableView, rng: random.Random) -> list[Intent]:
        """The decision against the modelled opponents, as a distribution over intentions."""
        models: dict[int, OpponentModel] = {o: read_opponent(view, o) for o in s.opponents}
        if s.street == 0:
            return preflop_plan_vs(s, view, models)
        dead = (*s.hole, *s.board)
        ranges = [postflop_range(view, o, models[o], dead) for o in s.opponents]
        return postflop_plan(s, view, ranges, [models[o] for o in s.opponents], self.samples, rng)

    def allin_probability(self, view: TableView) -> float:
        """Exact probability of going all-in (or calling one) preflop: the
        charts' views carry no history, so this is ``hard-v1``'s equilibrium."""
        return self.without_history.allin_probability(view)
