"""Five fixed playing styles, the opponents a room is full of.

They are bench opponents (``freezeout bot match --bots hard,nit``): a strong
bot must punish each style in its own way, and one that only beats our
ladder has merely learned our ladder.  Each is a few dozen lines of
well-known habits, no reads and no memory:

* ``tight-passive`` — the *equity caller*: calls whenever its Monte Carlo
  equity against one random hand per opponent is at least its fair share,
  otherwise folds; never bets or raises.  Hands half its range to any bet.
* ``loose-passive`` — a *station with folds*: plays most hands, calls bets
  with any pair, draw or decent equity, folds only trash to big bets,
  raises only monsters.
* ``tag`` — the *tight-aggressive regular*: opens a fifth of its hands,
  3-bets the top, c-bets, value-bets strength, folds the rest, shoves short.
* ``maniac`` — raises and bets most of the time with any two cards, big
  sizes, calls down light.
* ``nit`` — plays a tenth of its hands, bets only strong ones and folds to
  pressure without them.
* ``jammer`` — moves all-in at every turn with any two cards: the purest
  card-independent style, against which the whole game is which shoves to
  call or make (``bots/wild_value.py`` solves it exactly).

Equity is against random hands (one per opponent still in); only the
injected ``rng`` is drawn from, so every match replays exactly.
"""

from __future__ import annotations

import random
from typing import Final

from freezeout.bots.base import Situation, legal_action, situation
from freezeout.bots.montecarlo import equity, numpy_rng
from freezeout.bots.ranges import percentile
from freezeout.rules.actions import Action
from freezeout.rules.events import ActionTaken, StreetDealt
from freezeout.rules.views import TableView

__all__ = ["ARCHETYPES", "JammerBot", "LoosePassiveBot", "ManiacBot", "NitBot", "TagBot", "TightPassiveBot"]

SAMPLES: Final = 400


def _equity(s: Situation, rng: random.Random) -> float:
    """Monte Carlo equity against one random hand per opponent still in."""
    return equity(s.hole, s.board, [None] * max(1, len(s.opponents)), SAMPLES, numpy_rng(rng))


def _fair(s: Situation) -> float:
    return 1.0 / (len(s.opponents) + 1)


def _stack_bb(s: Situation) -> float:
    return (s.stack + s.my_bet) / s.big_blind


def _preflop_aggressor(view: TableView) -> int | None:
    """The seat that made the last preflop raise, if anyone did."""
    aggressor = None
    for event in view.history:
        if isinstance(event, StreetDealt):
            break
        if isinstance(event, ActionTaken) and event.kind in ("raise", "bet"):
            aggressor = event.seat
    return aggressor


def _raise_pot(s: Situation, fraction: float) -> int:
    """A bet or raise of ``fraction`` of the pot after calling."""
    return s.to_match + max(int((s.pot + s.to_call) * fraction), s.big_blind)


class TightPassiveBot:
    """Calls when equity against random hands reaches its fair share; never raises."""

    name = "tight-passive"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if s.can_check:
            return legal_action(view, "passive")
        return legal_action(view, "passive" if _equity(s, rng) >= _fair(s) else "fold")


class LoosePassiveBot:
    """Plays most hands and calls most bets; folds only its worst to big ones."""

    name = "loose-passive"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        eq = _equity(s, rng)
        edge = eq - _fair(s)
        if edge > 0.35 and s.can_raise and rng.random() < 0.5:  # the nuts, sometimes
            return legal_action(view, "raise", _raise_pot(s, 0.5))
        if s.can_check:
            return legal_action(view, "passive")
        big = s.to_call > 0.6 * s.pot
        if s.street == 0:
            keep = 0.8 if s.to_call <= 3 * s.big_blind else 0.45 if not big else 0.25
            return legal_action(view, "passive" if percentile(s.hand_class) < keep else "fold")
        needed = _fair(s) - (0.05 if big else 0.2)  # loose: a pair or a draw is enough
        return legal_action(view, "passive" if eq >= needed else "fold")


class TagBot:
    """Tight-aggressive: a fifth of the hands, raised; bets strength, c-bets, folds trash."""

    name = "tag"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if s.street == 0:
            return self._preflop(view, s, rng)
        eq = _equity(s, rng)
        edge = eq - _fair(s)
        raised_preflop = _preflop_aggressor(view) == s.seat
        if s.can_check:
            if edge > 0.2 and s.can_raise:
                return legal_action(view, "raise", _raise_pot(s, 0.75))
            if raised_preflop and s.street == 1 and s.can_raise and rng.random() < 0.6:
                return legal_action(view, "raise", _raise_pot(s, 0.5))  # the continuation bet
            return legal_action(view, "passive")
        if edge > 0.35 and s.can_raise:
            return legal_action(view, "raise", s.to_match * 3)
        return legal_action(view, "passive" if eq >= s.pot_odds + 0.12 else "fold")

    @staticmethod
    def _preflop(view: TableView, s: Situation, rng: random.Random) -> Action:
        strength = percentile(s.hand_class)
        raised = s.to_match > s.big_blind
        if _stack_bb(s) <= 12:  # short: shove or fold
            return legal_action(view, "allin" if strength < (0.3 if not raised else 0.12) else "fold")
        if not raised:
            if strength < (0.45 if s.dealt == 2 else 0.22):
                return legal_action(view, "raise", s.to_match + 2 * s.big_blind)
            return legal_action(view, "fold")
        if strength < 0.05:
            return legal_action(view, "raise", s.to_match * 3)
        limit = 0.15 if s.to_call <= 0.15 * (s.stack + s.my_bet) else 0.06
        return legal_action(view, "passive" if strength < limit else "fold")


class ManiacBot:
    """Raises and bets most of the time with anything, calls down light."""

    name = "maniac"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        eq = _equity(s, rng)
        aggressive = rng.random() < (0.65 if s.raises_this_street() < 2 else 0.25)
        if s.can_raise and (aggressive or eq > 0.75):
            if s.street == 0:
                return legal_action(view, "raise", s.to_match * rng.choice((3, 4)) + s.big_blind)
            if rng.random() < 0.15:
                return legal_action(view, "allin")
            return legal_action(view, "raise", _raise_pot(s, rng.choice((0.75, 1.0, 1.5))))
        if s.can_check:
            return legal_action(view, "passive")
        loose = 0.3 if s.street else 0.25
        return legal_action(view, "passive" if eq >= loose or s.pot_odds < 0.25 else "fold")


class NitBot:
    """A tenth of the hands; bets only strong ones; folds to pressure without them."""

    name = "nit"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if s.street == 0:
            strength = percentile(s.hand_class)
            if _stack_bb(s) <= 10:
                return legal_action(view, "allin" if strength < 0.15 else "fold")
            if s.to_match <= s.big_blind:
                if strength < 0.1:
                    return legal_action(view, "raise", s.to_match + 2 * s.big_blind)
                return legal_action(view, "fold")
            if strength < 0.03:
                return legal_action(view, "raise", s.to_match * 3)
            return legal_action(view, "passive" if strength < 0.07 else "fold")
        eq = _equity(s, rng)
        if eq >= 0.8 and s.can_raise:
            return legal_action(view, "raise", _raise_pot(s, 0.66))
        if s.can_check:
            return legal_action(view, "passive")
        return legal_action(view, "passive" if eq >= max(0.6, s.pot_odds + 0.2) else "fold")


class JammerBot:
    """All-in whenever it may (a call when that is all it may do), whatever it holds."""

    name = "jammer"

    def act(self, view: TableView, rng: random.Random) -> Action:
        return legal_action(view, "allin")


ARCHETYPES: Final = ("tight-passive", "loose-passive", "tag", "maniac", "nit", "jammer")
