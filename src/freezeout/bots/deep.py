"""``hard`` at deep stacks in the house game: a cash game, not a freezeout.

The house-game ``hard`` was built for a freezeout of 50 big blinds whose
blinds double every few hands: push/fold charts when short, coin flips for
the stack passed up in skill-adjusted chips.  At a cash table of 100 big
blinds (``freezeout bot match --cash``) none of that holds: every chip is
worth the same, nobody is short, and most of the money is won after the
flop.  When the effective stack at the start of the hand is
:data:`DEEP_BB` big blinds or more, ``hard`` plays this instead — built on
the every-game bot's pot share (:mod:`.game_equity`, ranges narrowed by
this hand's bets discounted by the bettor's habits, :mod:`.game_bot`):

* **Chip value.**  A call is worth making when the share of the final pot
  beats the price; no edge is kept for later, as a cash player can always
  buy in again.
* **Sizes by stack-to-pot ratio.**  A strong hand bets the *geometric*
  fraction of the pot that puts the stacks in by the river over the streets
  left (``((1 + 2·SPR)^(1/n) − 1) / 2``, kept between half a pot and a
  pot), all-in when the ratio is 1.5 or less — or when the geometric size
  is above a pot and a quarter against a player who never folds; a good
  hand bets half the pot, a thin one a third.  Against a player who calls
  most bets every size goes up a quarter pot (they pay the same hands
  more); before the flop a first raise is 2.5 big blinds (one more per
  extra player, one more with a strong hand against a caller), a re-raise
  three times the bet.
* **Stack-to-pot commitment.**  Raising more than the pot needs a share
  that grows with what the raise commits: one pair does not stack off a
  100 big blind stack against a player whose raises mean strength.
* **Implied odds.**  A drawing hand (four to a flush, four to a straight;
  before the flop a small pair to flop a set, suited connectors) calls when
  the chips it would win behind when it gets there pay for the price —
  bounded by the effective stack and scaled by how often that opponent
  pays off (their fold rate read off the table).  Hands that win only as
  they are get no such credit: they are paid by worse and pay better.

No push/fold charts, no skill-adjusted chips, no short-stack logic.  No
state, no clock: the numpy generator is drawn from the injected ``rng``.
"""

from __future__ import annotations

import random
from typing import Final

from freezeout.bots.base import legal_action
from freezeout.bots.game_bot import HARD, GameBot
from freezeout.bots.game_spot import Spot, Style, read_spot, table_styles
from freezeout.rules.actions import Action
from freezeout.rules.events import HandStarted
from freezeout.rules.views import TableView

__all__ = ["DEEP_BB", "DeepBot", "effective_start_bb", "geometric_fraction", "implied_call", "is_draw"]

#: Effective stacks (in big blinds, at the start of the hand) from which the
#: deep game is played.  A heads-up freezeout starts at 50 big blinds and
#: never gets deeper, so it is untouched.
DEEP_BB: Final = 60.0
#: How often a pocket pair flops a set or better, and a four-card flush or
#: straight draw gets there by the river (about one in five from the flop, fewer from the turn).
SET_ODDS: Final = 0.12
DRAW_ODDS: Final = 0.19


def effective_start_bb(view: TableView) -> float:
    """The viewer's effective stack at the start of this hand in big blinds:
    the smaller of its own chips and the most any opponent dealt in had."""
    if view.viewer is None or not view.big_blind:
        return 0.0
    for event in view.history:
        if isinstance(event, HandStarted):
            stacks = dict(zip(event.seats, event.stacks, strict=False))
            mine = stacks.get(view.viewer, 0)
            others = [chips for seat, chips in stacks.items() if seat != view.viewer]
            return min(mine, max(others, default=0)) / view.big_blind
    return 0.0


def geometric_fraction(pot: int, behind: int, streets: int) -> float:
    """The pot fraction that, bet and called on each of ``streets`` streets,
    puts ``behind`` chips in: ``pot·(1 + 2f)^n = pot + 2·behind``."""
    if pot <= 0 or streets <= 0:
        return 1.0
    return float(((1 + 2 * behind / pot) ** (1 / streets) - 1) / 2)


def is_draw(mine: tuple[int, ...], board: tuple[int, ...]) -> bool:
    """Four to a flush or four to a straight (ace low too) that uses one of our
    cards and is not yet made — a hand that wins big when it gets there."""
    if len(board) >= 5:
        return False
    cards = (*mine, *board)
    for suit in range(4):
        suited = [c for c in cards if c % 4 == suit]
        if len(suited) == 4 and any(c % 4 == suit for c in mine):
            return True
    ranks = {c // 4 for c in cards}
    ranks |= {-1} if 12 in ranks else set()  # the ace plays low in the wheel
    own = {c // 4 for c in mine} | ({-1} if any(c // 4 == 12 for c in mine) else set())
    for low in range(-1, 9):
        window = set(range(low, low + 5))
        if len(window & ranks) == 5:
            return False  # already a straight
    for low in range(-1, 9):
        window = set(range(low, low + 5))
        if len(window & ranks) == 4 and window & own:
            return True
    return False


class DeepBot(GameBot):
    """``hard``'s deep-stack game in the house game (module docstring)."""

    def __init__(self) -> None:
        super().__init__("hard", HARD)

    def act(self, view: TableView, rng: random.Random) -> Action:
        spot = read_spot(view)
        styles = table_styles(view)
        share = self._share(spot, styles, rng)
        return self._deep(view, spot, styles, share, rng)

    def _deep(self, view: TableView, spot: Spot, styles: dict[int, Style], share: float, rng: random.Random) -> Action:
        players = len(spot.opponents) + 1
        fair = 1.0 / players
        seen = [styles[o.seat] for o in spot.opponents if o.seat in styles]
        fold_rate = min((s.folds for s in seen), default=0.2)
        payoff = 1.0 - fold_rate  # how often what we bet later is paid
        can_raise = spot.legal.can_raise and spot.active > 0
        behind = min(spot.stack, max((o.stack + view.seats[o.seat].bet for o in spot.opponents), default=0))
        preflop = not spot.board
        value = fair + 0.04 + 0.1 * fold_rate  # thinner against callers
        strong = fair + 0.22
        if spot.to_call == 0:
            if can_raise and share >= value:
                return legal_action(view, "raise", self._deep_size(spot, share, value, strong, payoff, behind, preflop))
            if can_raise and self._bluff(spot, share, fold_rate, rng):
                return legal_action(view, "raise", spot.to_match + max(spot.unit, spot.pot // 2))
            return legal_action(view, "passive")
        odds = spot.pot_odds
        if can_raise and share >= strong and share >= odds + 0.12:
            target = self._deep_size(spot, share, value, strong, payoff, behind, preflop)
            committed = (target - spot.my_bet) / max(spot.stack, 1)
            # SPR commitment: a raise that puts most of the stack in needs more than a good hand
            if share >= strong + 0.15 * committed:
                return legal_action(view, "raise", target)
        if share >= odds:
            return legal_action(view, "passive")
        if not spot.last_street and self._implied(spot, share, payoff, behind, preflop):
            return legal_action(view, "passive")
        return legal_action(view, "fold")

    def _deep_size(
        self, spot: Spot, share: float, value: float, strong: float, payoff: float, behind: int, preflop: bool
    ) -> int:
        """The total to bet or raise to, by stack-to-pot ratio (module docstring)."""
        legal = spot.legal
        unit = spot.unit
        if preflop:
            if spot.to_match <= unit:  # first raise: 2.5 big blinds, one more per extra player, more against callers
                target = int(2.5 * unit) + unit * (len(spot.opponents) - 1) + (unit if share >= strong and payoff > 0.7 else 0)
            else:
                target = 3 * spot.to_match
            return max(legal.min_to, min(target, legal.all_in_to))
        after_call = spot.pot + spot.to_call
        streets = {3: 3, 4: 2}.get(len(spot.board), 1)  # bets left: flop, turn and river from the flop
        spr = behind / max(after_call, 1)
        if share >= strong:
            geometric = geometric_fraction(after_call, behind, streets)
            if spr <= 1.5 or (geometric > 1.25 and payoff >= 0.9):
                return legal.all_in_to  # little behind, or a player who pays any size
            fraction = min(1.0, max(0.5, geometric))
        elif share >= value + 0.08:
            fraction = 0.5
        else:
            fraction = 0.33
        if payoff > 0.7:  # a caller pays the same hands more
            fraction = min(1.25, fraction + 0.25)
        target = spot.to_match + int(fraction * after_call)
        if target >= legal.all_in_to or legal.all_in_to - target < 0.25 * (after_call + 2 * target):
            return legal.all_in_to
        return max(legal.min_to, target)

    def _implied(self, spot: Spot, share: float, payoff: float, behind: int, preflop: bool) -> bool:
        """A drawing hand's call paid by the chips behind it wins when it gets there."""
        if preflop:
            ranks = sorted(c // 4 for c in spot.mine)
            pair = ranks[0] == ranks[1]
            suited_connector = spot.mine[0] % 4 == spot.mine[1] % 4 and ranks[1] - ranks[0] <= 2
            hit = SET_ODDS if pair else 0.06 if suited_connector else 0.0
        else:
            hit = DRAW_ODDS if is_draw(spot.mine, spot.board) else 0.0
        return implied_call(hit, spot.pot, spot.to_call, behind, payoff, preflop=preflop)


def implied_call(hit: float, pot: int, call: int, behind: int, payoff: float, *, preflop: bool) -> bool:
    """Whether a hand that gets there ``hit`` of the time pays ``call`` into
    ``pot`` with ``behind`` effective chips: it wins the pot and what it is
    paid later — before the flop a set stacks a player who pays off half of
    what is behind, after it a made draw is paid up to a pot-sized bet —
    scaled by how often the opponent pays (``payoff``)."""
    if hit <= 0.0 or call <= 0:
        return hit > 0.0
    rest = max(0, behind - call)
    later = payoff * (0.5 * rest if preflop else min(rest, pot + call))
    return hit * (pot + call + later) >= call
