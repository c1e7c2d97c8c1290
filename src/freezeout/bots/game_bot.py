"""``medium`` and ``hard`` in every game but the house game (V1–V19).

One bot for all the registry's games, parameterised by level.  Every
decision is a pot share (:mod:`.game_equity`: Monte Carlo with the game's
own evaluators, split pots counted as the showdown counts them) against
the price, with the structure's sizes:

* **Ranges.**  ``medium`` plays against any hand.  ``hard`` narrows each
  opponent's range by their bets and raises this hand, discounted by how
  often they have bet at this table (a player who raises half their moves
  says little by raising), and in draw games by how few cards they drew.
* **Betting.**  Bet or raise for value above a threshold over the fair
  share (one in the number of players), call when the share beats the pot
  odds, fold otherwise.  Fixed limit (V3) bets and raises one size and,
  out of position with a strong hand against a player who bets when
  checked to, checks to raise; pot limit (V2) sizes from two thirds of the
  pot to the pot; no limit (V1) the same, all-in when what is left behind
  is small against the pot.  A stud bring-in (V7) completes strong hands.
* **Draws.**  How many to draw and when to stand pat is
  :mod:`.game_draws`'s policy; ``hard`` snows (stands pat on nothing, then
  bets) in deuce-to-seven when the opponent folds often enough to pay for it.
* **Reads** (``hard``).  The opponents' aggression and folds so far
  (:func:`.game_spot.table_styles`): bluffs only against folders, thinner
  value against players who call everything, and raises discounted by the
  raiser's habits — the same idea as the house game's ``hard``, kept to
  what carries over to every game.

No state, no clock: the numpy generator is drawn from the injected ``rng``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from freezeout.bots.base import Bot, draw_action, legal_action
from freezeout.bots.draw_choice import best_discard, win_table
from freezeout.bots.draw_ranges import DRAW_CHOICE_HISTORY, HISTORY_RANKINGS
from freezeout.bots.game_draws import discard, snow_worthy
from freezeout.bots.game_equity import Seen, opponent_finals, pot_share, pot_shares, shares_by_callers
from freezeout.bots.game_spot import Spot, Style, read_spot, table_styles
from freezeout.bots.game_wild import knowing_action, plays_wild, wild_pot, wild_settings
from freezeout.bots.montecarlo import numpy_rng
from freezeout.bots.reads import wild_seats
from freezeout.bots.wild_multiway import multiway_action
from freezeout.cards import Card
from freezeout.rules.actions import Action
from freezeout.rules.events import ActionTaken, Drew, HandStarted, HoleDealt
from freezeout.rules.games import HOUSE_GAME
from freezeout.rules.variant import BettingStructure
from freezeout.rules.views import TableView

__all__ = ["HARD", "MEDIUM", "ByGame", "GameBot", "Level"]


@dataclass(frozen=True, slots=True)
class Level:
    samples: int
    reads: bool  # narrow ranges, bluff, check-raise, snow


MEDIUM = Level(samples=300, reads=False)
HARD = Level(samples=500, reads=True)


_MAX_READ_BETS = 8
BET_POWER = 2.0  # range exponent per bet or raise this hand, times the raiser's meaning (1 - 2 x aggression)
WAR_POWER = 0.6  # range exponent per re-raise of this betting round (V3: heads-up fixed limit has no cap)
WAR_FROM = 3  # bets this round from which a heads-up re-raise is a war (ours would be the fourth)
WAR_EDGE = 0.6  # the share a war's re-raise needs against the range that raises once more …
WAR_AGAIN = 4.0  # … a range narrowed by this much more per bet of the round: the top of what raised
OPEN_MARGIN = 0.07  # over the fair share: raise first in before the flop
POSITION_STEP = 0.01  # multiway: more over the fair share per player still to act after us beyond two
LATE_WIDEN = 0.02  # multiway, two or fewer still to act (the button, the cutoff's steal): less
_DRAW_POWER = {0: 2.0, 1: 0.8, 2: 0.3}


def draw_history_power(drew: tuple[int, ...]) -> float:
    """The range exponent a hand's draws add (V11): the last draw's count
    (standing pat 2, one card 0.8, two 0.3) and half as much for each
    earlier draw, so a player who stood pat twice holds a stronger range
    than one who stood pat once, and one who drew three and then stood pat
    a weaker one than a pat hand from the start."""
    power = 0.0
    for age, count in enumerate(reversed(drew)):
        power += _DRAW_POWER.get(count, 0.0) * (1.0 if age == 0 else 0.5)
    return power


class GameBot:
    """A competent player of any game of the registry (module docstring)."""

    def __init__(self, name: str, level: Level) -> None:
        self.name = name
        self.level = level

    def act(self, view: TableView, rng: random.Random) -> Action:
        spot = read_spot(view)
        styles = table_styles(view) if self.level.reads else {}
        if spot.drawing:
            return self._draw(view, spot, styles, self._prior(view), rng)
        if self.level.reads and not spot.legal.bring_in and plays_wild(spot, view) and wild_seats(view, [spot.opponents[0].seat]):
            # any hand is their range: the knowing player's strategy (game_wild), equity against any hand
            return knowing_action(view, spot, self._share(spot, {}, rng, reads=False))
        if self.level.reads and not spot.legal.bring_in and wild_pot(spot, view):
            # a bigger table, every opponent in the hand card-independent: the same rule over who may call (wild_multiway)
            _, k = wild_settings(spot.variant.code)
            shares = shares_by_callers(spot.variant, self._seen(spot), self.level.samples, numpy_rng(rng))
            return multiway_action(view, spot, shares, k=k)
        prior = self._prior(view)
        if self._war(spot):
            narrowing = self._narrowing(spot, prior)
            top = [power + WAR_AGAIN * spot.street_bets for power in narrowing]
            now = self._seen_now(spot)
            generator = numpy_rng(rng)
            ranking = spot.variant.rankings[0]
            if spot.variant.has_draws and ranking in DRAW_CHOICE_HISTORY and ranking not in HISTORY_RANKINGS:
                # badugi: the top of a range that stood pat is a badugi, dealt from their draws
                # (deuce-to-seven's every share is dealt so already)
                share = pot_share(
                    spot.variant, self._seen(spot), narrowing, self.level.samples, generator, draws_left=spot.draws_left
                )
                (again,) = pot_shares(
                    spot.variant,
                    self._seen(spot),
                    [top],
                    self.level.samples,
                    generator,
                    draws_left=spot.draws_left,
                    history=True,
                )
            elif now is None:  # other draw games, and streets too early to rank a hand: their final hands
                share, again = pot_shares(
                    spot.variant, self._seen(spot), [narrowing, top], self.level.samples, generator, draws_left=spot.draws_left
                )
            else:
                share = pot_share(spot.variant, self._seen(spot), narrowing, self.level.samples, generator)
                again = pot_share(spot.variant, now, top, self.level.samples, generator)
            return self._bet(view, spot, styles, share, rng, again=again)
        share = self._share(spot, prior, rng)
        return self._bet(view, spot, styles, share, rng)

    def _war(self, spot: Spot) -> bool:
        """Heads-up fixed limit (V3: no cap), a re-raise open to us with
        :data:`WAR_FROM` bets or more in this round: a war, whose next
        raise is a value decision against the range that raises again."""
        return (
            self.level.reads
            and spot.structure is BettingStructure.FIXED_LIMIT
            and len(spot.opponents) == 1
            and spot.to_call > 0
            and spot.street_bets >= WAR_FROM
            and spot.legal.can_raise
            and spot.active > 0
        )

    # -- ranges and equity ----------------------------------------------
    def _prior(self, view: TableView) -> dict[int, Style]:
        """The opponents' habits from the earlier hands: what a raise of this
        hand means is read against them, not against a war this hand built."""
        return table_styles(view, this_hand=False) if self.level.reads else {}

    def _narrowing(self, spot: Spot, styles: dict[int, Style]) -> list[float]:
        """Per opponent, the range exponent: every bet and raise this hand
        (heads-up fixed limit has no cap, V3: each raise of a war narrows
        further) and, in draw games, every draw of the hand.

        A bet of a player of the population's habits (two moves in ten
        aggressive, meaning 0.6) weighs their range by :data:`BET_POWER`
        x 0.6 = 1.2 per bet: what the share against the range ``medium``
        really bets comes to (``FT``, a pair of nines facing one flop bet:
        0.51 against that range, 0.53 so read, 0.63 at the 0.42 of before;
        ``tests/bots/test_bots_honest_bets.py``)."""
        if not self.level.reads:
            return [0.0] * len(spot.opponents)
        result = []
        for opponent in spot.opponents:
            style = styles.get(opponent.seat)
            aggression = style.aggression if style else 0.2
            meaning = max(0.0, 1.0 - 2.0 * aggression)  # raises mean little from a player who raises half the time
            power = BET_POWER * meaning * min(opponent.aggression, _MAX_READ_BETS)
            # a war: every raise after their first of this round narrows in full, whatever their habits
            power += WAR_POWER * min(max(opponent.street_aggression - 1, 0), _MAX_READ_BETS)
            if opponent.all_in and opponent.street_aggression:
                power += WAR_POWER  # raised all-in: the strongest statement a bet makes
            if spot.variant.has_draws and spot.variant.rankings[0] not in HISTORY_RANKINGS:
                power += draw_history_power(opponent.drew)  # lowball and badugi deal by the history instead
            result.append(power)
        return result

    @staticmethod
    def _seen(spot: Spot) -> Seen:
        return Seen(
            spot.mine,
            spot.my_future,
            spot.board,
            spot.board_future,
            [(o.shown, o.hidden, o.future) for o in spot.opponents],
            spot.dead,
            [o.drew for o in spot.opponents],
        )

    @staticmethod
    def _seen_now(spot: Spot) -> Seen | None:
        """The cards as they stand, nothing more to come: the top of a range
        that keeps raising is the best hands *now* (a made flush), not the
        best final hands, which the cards to come share with us (our nut
        flush draw makes the same flush).  ``None`` in draw games, whose
        final hands are each player's own, and before a hand of five cards
        (stud's third and fourth streets, the flop games before the flop)."""
        if spot.variant.has_draws or len(spot.mine) + len(spot.board) < 5 or (spot.board_future and len(spot.board) < 3):
            return None
        opponents = [(o.shown, o.hidden, 0) for o in spot.opponents]
        return Seen(spot.mine, 0, spot.board, 0, opponents, spot.dead, [o.drew for o in spot.opponents])

    def _share(self, spot: Spot, styles: dict[int, Style], rng: random.Random, *, reads: bool = True) -> float:
        return pot_share(
            spot.variant,
            self._seen(spot),
            self._narrowing(spot, styles) if reads else [0.0] * len(spot.opponents),
            self.level.samples,
            numpy_rng(rng),
            draws_left=spot.draws_left,
        )

    # -- draws ------------------------------------------------------------
    def _draw(
        self, view: TableView, spot: Spot, styles: dict[int, Style], prior: dict[int, Style], rng: random.Random
    ) -> Action:
        ranking = spot.variant.rankings[0]
        thrown = discard(ranking, spot.mine, spot.draws_left)
        if (
            self.level.reads
            and spot.draws_left == 1
            and len(thrown) >= 3
            and len(spot.opponents) == 1
            and snow_worthy(ranking, spot.mine)
        ):
            style = styles.get(spot.opponents[0].seat)
            if style is not None and style.folds > 0.4 and rng.random() < 0.5:
                return draw_action(view, [])  # a snow: stand pat on nothing and bet
        if self.level.reads and spot.draws_left == 1:
            thrown = self._exact_draw(spot, prior, rng)
        return draw_action(view, [Card(card) for card in spot.mine if card in thrown])

    def _exact_draw(self, spot: Spot, prior: dict[int, Style], rng: random.Random) -> tuple[int, ...]:
        """The last draw by its exact value (:mod:`.draw_choice`) against each
        opponent's final hand as the simulation deals it: from their whole
        draw history (:mod:`.draw_ranges`), weighted by the hand's bets."""
        seen = self._seen(spot)
        finals = opponent_finals(
            spot.variant, seen, self._narrowing(spot, prior), self.level.samples, numpy_rng(rng), spot.draws_left
        )
        tables = [win_table(ranks, weights) for ranks, weights in finals]
        return best_discard(spot.variant.rankings[0], spot.mine, seen.unseen(spot.variant), tables)

    def _snowing(self, spot: Spot) -> bool:
        """We stood pat at the last draw on a hand that cannot win: bet it."""
        ranking = spot.variant.rankings[0]
        return (
            self.level.reads
            and spot.variant.has_draws
            and spot.draws_left == 0
            and bool(spot.my_drew)
            and spot.my_drew[-1] == 0
            and snow_worthy(ranking, spot.mine)
        )

    # -- betting ------------------------------------------------------------
    def _bet(
        self,
        view: TableView,
        spot: Spot,
        styles: dict[int, Style],
        share: float,
        rng: random.Random,
        *,
        again: float | None = None,
    ) -> Action:
        """``again``, in a war (:meth:`_war`): our share against the range
        that would raise once more; we re-raise only if we beat it by
        :data:`WAR_EDGE`, and call (or fold) otherwise."""
        legal = spot.legal
        players = len(spot.opponents) + 1
        fair = 1.0 / players
        folds = [styles[o.seat].folds for o in spot.opponents if o.seat in styles] if self.level.reads else []
        fold_rate = min(folds) if folds else 0.2  # the stickiest opponent decides a bluff
        position = self._position(spot)
        value_margin = 0.06 + 0.12 * fold_rate + position  # thin value against callers
        raise_margin = 0.18 + 0.1 * fold_rate + position
        if legal.bring_in:  # V7: complete the strong, bring in the rest
            return legal_action(view, "raise" if share >= fair + 0.12 else "passive")
        can_raise = legal.can_raise and spot.active > 0
        if self.level.reads and can_raise and self._opens(spot, share, fair + position):
            return legal_action(view, "raise", self._size(spot, share, fair))
        if spot.to_call == 0:
            if can_raise and (share >= fair + value_margin or self._snowing(spot)):
                if self._check_raise(spot, styles, share, fair, rng):
                    return legal_action(view, "passive")
                return legal_action(view, "raise", self._size(spot, share, fair))
            if can_raise and self._bluff(spot, share, fold_rate, rng):
                return legal_action(view, "raise", self._size(spot, share, fair))
            return legal_action(view, "passive")
        odds = spot.pot_odds
        war_ok = again is None or again >= WAR_EDGE
        if can_raise and war_ok and (share >= fair + raise_margin and share >= odds + 0.15):
            return legal_action(view, "raise", self._size(spot, share, fair))
        if self._snowing(spot) and can_raise and fold_rate > 0.4 and again is None:
            return legal_action(view, "raise", self._size(spot, share, fair))
        margin = 0.0
        if spot.structure is not BettingStructure.FIXED_LIMIT and not spot.last_street:
            # bets to come cost a hand that is behind more than they pay it
            margin = 0.04 * min(1.0, spot.to_call / max(spot.pot - spot.to_call, 1))
        if share >= odds + margin:
            return legal_action(view, "passive")
        if (
            spot.structure is not BettingStructure.FIXED_LIMIT
            and not spot.last_street
            and share >= fair + max(position, 0.0)
            and spot.to_call <= 0.04 * spot.stack
        ):
            return legal_action(view, "passive")  # implied odds: a cheap look with a better-than-average hand
        return legal_action(view, "fold")

    def _position(self, spot: Spot) -> float:
        """``hard`` at a table of three or more still in: what position adds
        to every margin over the fair share — more for each player still to
        act after us beyond two (under the gun six-handed: +0.03), less
        with two or fewer behind (the button's and cutoff's opens, -0.02);
        nothing heads-up or once everyone has acted."""
        if not self.level.reads or len(spot.opponents) < 2 or not spot.behind:
            return 0.0
        if spot.behind <= 2:
            return -LATE_WIDEN if spot.street == 0 and not spot.street_bets else 0.0
        return POSITION_STEP * (spot.behind - 2)

    @staticmethod
    def _opens(spot: Spot, share: float, fair: float) -> bool:
        """The first betting round with nothing but forced bets in (the
        small blind's first move, the big blind's option after a limp, the
        first player to face a stud bring-in, the blinds of a draw game):
        raise a hand clearly above the fair share instead of limping it —
        about the best third of hold'em hands heads-up (88, QQ), the best
        sixth of Omaha's, whose shares lie closer together.  Every game
        alike: razz's six up facing a king's bring-in completes (Q-8-6),
        as a deuce-to-seven one-card draw raises the blinds."""
        if spot.street != 0 or any(o.aggression for o in spot.opponents):
            return False
        return share >= fair + OPEN_MARGIN

    def _size(self, spot: Spot, share: float, fair: float) -> int:
        """The total to bet or raise to: fixed limit takes its one size;
        otherwise two thirds of the pot to the pot, all-in when the stack
        left is small against the pot."""
        legal = spot.legal
        if spot.structure is BettingStructure.FIXED_LIMIT:
            return legal.max_to
        after_call = spot.pot + spot.to_call
        fraction = 1.0 if share >= fair + 0.3 else 0.67
        target = spot.to_match + int(fraction * after_call)
        if spot.structure is BettingStructure.NO_LIMIT and spot.stack - (target - spot.my_bet) < 0.6 * (
            after_call + 2 * (target - spot.to_match)
        ):
            return legal.all_in_to
        return target

    def _check_raise(self, spot: Spot, styles: dict[int, Style], share: float, fair: float, rng: random.Random) -> bool:
        """Out of position with a strong hand against a player who bets when
        checked to: check, to raise their bet."""
        if not self.level.reads or spot.structure is not BettingStructure.FIXED_LIMIT or spot.last_street:
            return False
        if share < fair + 0.3 or any(o.street_aggression for o in spot.opponents):
            return False
        if spot.street_moves:  # someone acted before us: nobody to check to
            return False
        aggressive = min((styles[o.seat].aggression for o in spot.opponents if o.seat in styles), default=0.2)
        return aggressive > 0.35 and rng.random() < 0.5

    def _bluff(self, spot: Spot, share: float, fold_rate: float, rng: random.Random) -> bool:
        """Bet a weak hand into players who fold often enough to pay for it."""
        if not self.level.reads or len(spot.opponents) != 1 or fold_rate < 0.45 or share > 0.45:
            return False
        return rng.random() < fold_rate - 0.3



class ByGame:
    """A ladder level: the house-game bot at a house-game table, :class:`GameBot`
    in every other game — and in a mix's no-limit hold'em hands (V19), whose
    history holds other games' hands the house-game models were not built for.
    With ``deep``, a house-game hand whose effective stack started at
    :data:`~.deep.DEEP_BB` big blinds or more (a cash table) is ``deep``'s."""

    def __init__(self, house: Bot, other: Bot, deep: Bot | None = None) -> None:
        self.name = house.name
        self.house = house
        self.other = other
        self.deep = deep

    def act(self, view: TableView, rng: random.Random) -> Action:
        if not house_table(view):
            return self.other.act(view, rng)
        if self.deep is not None and view.legal is not None and not view.legal.draw:
            from freezeout.bots.deep import DEEP_BB, effective_start_bb

            if effective_start_bb(view) >= DEEP_BB:
                return self.deep.act(view, rng)
        return self.house.act(view, rng)

    def __getattr__(self, name: str) -> Any:
        """Everything else is the house-game bot's (``allin_probability`` for the range charts)."""
        if name.startswith("__") or name in ("house", "other", "deep"):
            raise AttributeError(name)  # no recursion while the object is being built or copied
        return getattr(self.house, name)


def house_table(view: TableView) -> bool:
    """The table deals the house game, and only it, so far: every earlier
    hand started with blinds alone (no ante, bring-in or fixed-limit bets)
    and dealt two cards a player."""
    if view.game != HOUSE_GAME:
        return False
    for log in view.past:
        for event in log:
            if isinstance(event, HandStarted):
                if event.ante or event.bring_in or event.small_bet:
                    return False
            elif isinstance(event, HoleDealt | Drew):
                return False
            elif isinstance(event, ActionTaken):
                break  # the deal is over: the rest of the hand cannot tell
    return True
