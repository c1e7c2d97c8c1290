"""``hard-v1``: ``hard`` as it was before opponent models (issue #12), frozen.

A bench opponent only: progress of ``hard`` is measured against it, not
assumed.  Do not change its play.  It reads (:mod:`.reads`) only whether a
heads-up opponent ignores its cards; otherwise it plays the preflop plan of
:mod:`.hard_preflop` and, after the flop, equity against ranges narrowed by
fixed rules — the same against every opponent.  ``hard`` still delegates to
it when nothing has been seen of the table, so both play the charts alike.
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.base import Situation, legal_action, situation
from freezeout.bots.classes import combo_cards
from freezeout.bots.hard_preflop import Intent, estimated_class_range, preflop_plan
from freezeout.bots.montecarlo import equity, live_combos, numpy_rng
from freezeout.bots.ranges import class_to_combos
from freezeout.bots.reads import wild_seats
from freezeout.bots.versus_wild import versus_wild
from freezeout.evaluate import evaluate_batch
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import ActionTaken, BetReturned, BlindPosted, StreetDealt
from freezeout.rules.views import TableView

__all__ = ["SAMPLES_PER_MS", "HardV1Bot", "choose", "opponent_range"]

#: Monte Carlo deals per millisecond of budget (conservative for this machine).
SAMPLES_PER_MS: Final = 100
DEFAULT_BUDGET_MS: Final = 10.0
#: A bet or raise adding more than this many pots reads as wild rather than strong.
OVERBET: Final = 1.5


class HardV1Bot:
    name = "hard-v1"

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS) -> None:
        self.budget_ms = budget_ms
        self.samples = max(100, int(budget_ms * SAMPLES_PER_MS))

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if len(s.opponents) == 1 and wild_seats(view, s.opponents):
            # Heads-up against a card-independent player (reads.py): exploit it.
            eq = None if s.street == 0 else equity(s.hole, s.board, [None], self.samples, numpy_rng(rng))
            return choose(view, versus_wild(s, view, eq), rng)
        plan = preflop_plan(s, view) if s.street == 0 else self._postflop(s, view, rng)
        return choose(view, plan, rng)

    def allin_probability(self, view: TableView) -> float:
        """Exact probability that :meth:`act` goes all-in (or calls an all-in) preflop."""
        s = situation(view)
        facing_allin = s.to_call > 0 and any(view.seats[o].stack == 0 for o in s.opponents)
        total = 0.0
        for probability, kind, to in preflop_plan(s, view):
            action = legal_action(view, kind, to)
            if action.kind is ActionKind.ALLIN or (facing_allin and action.kind is ActionKind.CALL):
                total += probability
        return min(1.0, max(0.0, total))

    # -- after the flop ---------------------------------------------------
    def _postflop(self, s: Situation, view: TableView, rng: random.Random) -> list[Intent]:
        ranges = [opponent_range(view, s, o) for o in s.opponents]
        eq = equity(s.hole, s.board, ranges, self.samples, numpy_rng(rng))
        opponents = len(s.opponents)
        fair = 1.0 / (opponents + 1)
        value_line = fair + (1.0 - fair) * 0.05  # 0.525 heads-up, 0.37 three-way
        behind = min([s.stack] + [view.seats[o].stack for o in s.active_opponents] or [0])
        committed = s.stack <= 0.6 * (s.pot + s.to_call) or (s.active_opponents and behind <= 0.5 * s.pot)
        if s.can_check:
            if eq >= value_line and s.can_raise:
                if committed:
                    return [(1.0, "allin", None)]
                strong = eq >= 0.85
                sizes = (0.75, 1.0, 1.25) if strong else (0.5, 0.75, 1.0)
                slowplay = 0.12 if strong and s.street < 3 else 0.0
                return [(slowplay, "passive", None)] + [
                    ((1.0 - slowplay) / 3, "raise", s.to_match + max(int(s.pot * f), s.big_blind))
                    for f in sizes
                ]
            if opponents == 1 and s.can_raise and s.street < 3 and 0.3 <= eq < 0.5:
                bluff = 0.1  # a few semi-bluffs with some equity, sized small
                return [
                    (bluff, "raise", s.to_match + max(int(s.pot * 0.5), s.big_blind)),
                    (1 - bluff, "passive", None),
                ]
            return [(1.0, "passive", None)]
        price = s.to_call / (s.pot + s.to_call)
        implied = 0.0
        if s.street < 3 and not committed:
            implied = {1: 0.3, 2: 0.15}.get(s.street, 0.0) * min(behind, s.pot)
        needed = s.to_call / (s.pot + s.to_call + implied)
        raise_line = max(value_line + 0.1, price + 0.3)
        if eq >= raise_line and s.can_raise:
            if committed or (eq >= 0.9 and s.street == 3):
                return [(1.0, "allin", None)]
            return [(0.5, "raise", s.to_match * 2 + s.pot // 2), (0.5, "raise", s.to_match * 2 + s.pot)]
        if eq >= needed or (committed and eq >= price):
            return [(1.0, "passive", None)]
        return [(1.0, "fold", None)]


def choose(view: TableView, plan: list[Intent], rng: random.Random) -> Action:
    """Sample one intention (always draws once, so the rng stream is stable)."""
    draw = rng.random()
    cumulative = 0.0
    for probability, kind, to in plan:
        cumulative += probability
        if draw < cumulative and probability > 0:
            return legal_action(view, kind, to)
    last = [intent for intent in plan if intent[0] > 0] or [(1.0, "fold", None)]
    return legal_action(view, last[-1][1], last[-1][2])


def opponent_range(view: TableView, s: Situation, seat: int) -> npt.NDArray[np.float64]:
    """Combo weights for ``seat``: its preflop range, narrowed by what it did
    after the flop, judged by each combo's strength on the current board."""
    weights = class_to_combos(estimated_class_range(view, seat)) * live_combos([*s.hole, *s.board])
    moves = _postflop_moves(view, seat)
    if not moves or weights.sum() <= 0:
        return weights
    strength = _board_strength(s.board, weights > 0)
    for kind, ratio in moves:
        if kind in ("bet", "raise") and ratio > OVERBET:
            weights *= 0.3 + 0.7 * strength  # huge overbets here are mostly wild, not strong
        elif kind in ("bet", "raise"):
            weights *= 0.05 + 0.95 * strength**3
        elif kind == "call":
            weights *= 0.5 + 0.5 * strength
        elif kind == "check":
            weights *= 1.0 - 0.35 * strength
    return weights


def _postflop_moves(view: TableView, seat: int) -> list[tuple[str, float]]:
    """``seat``'s moves after the flop with each one's size relative to the pot before it."""
    moves: list[tuple[str, float]] = []
    flop_seen = False
    pot = 0
    for event in view.history:
        if isinstance(event, BlindPosted):
            pot += event.amount
        elif isinstance(event, BetReturned):
            pot -= event.amount
        elif isinstance(event, StreetDealt):
            flop_seen = True
        elif isinstance(event, ActionTaken):
            if flop_seen and event.seat == seat:
                moves.append((event.kind, event.added / max(pot, 1)))
            pot += event.added
    return moves


def _board_strength(board: tuple[int, ...], live: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """Each live combo's made-hand percentile on the board (1 = the nuts)."""
    cards = combo_cards()
    index = np.flatnonzero(live)
    rows = np.concatenate([np.tile(np.asarray(board, dtype=np.int64), (len(index), 1)), cards[index]], axis=1)
    ranks = evaluate_batch(rows)
    order = ranks.argsort(kind="stable").argsort(kind="stable")
    strength = np.zeros(len(live))
    strength[index] = (order + 1) / len(index)
    return strength
