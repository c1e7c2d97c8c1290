"""How well can anyone do against ``random``, ``maniac`` or ``jammer``?  Ceilings for issue #12.

Against ``jammer`` (all-in at every turn) push or fold is the whole game:
:class:`SolvedJammerBot` plays :mod:`freezeout.bots.wild_value`'s exact
solution, the best response itself (60.5 % from even stacks in
expectation), so its result on the bench's decks is the ceiling there.

Both play (almost) without regard to their cards: ``random`` picks a legal
move uniformly, ``maniac`` raises most of the time with anything and calls
down with all but the worst hands.  :class:`KnowingBot` is written with that
knowledge (it is not a bot for the room: it reads nothing from the table,
it simply *knows*): its hand's equity against a random hand is exactly its
equity against such a player's range, so it

* moves all-in with equity ``premium`` or more before the flop (``strong``
  after it), which these players call with anything;
* checks everything else, min-betting from ``probe`` equity up (a player who
  folds a quarter of the time even when checking is free folds to it as
  often as to a check);
* calls a bet when, valued as an all-in at that equity, it beats folding in
  skill-adjusted chips (:func:`~freezeout.bots.versus_wild.call_pays` with edge ``k``),
  and always when it costs at most a big blind and a tenth of the stack.

Its parameters are chosen on one seed and measured on another (the bench's)::

    python bench/ceiling.py maniac --tournaments 400 --seed 11 --premium 0.66   # choose
    python bench/ceiling.py maniac --tournaments 2000 --seed 2026 --premium 0.66  # measure
    python bench/ceiling.py maniac --premium 0.66 --first-hand-v1  # under hard's constraint

The best of this family is a lower bound on the true best response, and
the ceiling ``hard`` is compared with in docs/bots.md.
"""

from __future__ import annotations

import argparse
import random
import sys

import freezeout.bots.match as match
from freezeout.bots.base import Bot, legal_action, situation
from freezeout.bots.hard_v1 import choose
from freezeout.bots.montecarlo import equity, numpy_rng
from freezeout.bots.ranges import equity_vs_random
from freezeout.bots.registry import get_bot
from freezeout.bots.versus_solved import versus_solved
from freezeout.bots.versus_wild import call_pays
from freezeout.bots.wild_value import WildProfile
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView

SAMPLES = 800


class SolvedJammerBot:
    """Push or fold by the solved value of the freezeout against a jammer
    (:func:`~freezeout.bots.versus_solved.versus_solved`, from the first hand)."""

    name = "solved"

    def act(self, view: TableView, rng: random.Random) -> Action:
        return choose(view, versus_solved(situation(view), view, JAMMER), rng)


JAMMER = WildProfile(shove=1.0, big=0.0, fold=0.0, call=1.0)


class KnowingBot:
    name = "knowing"

    def __init__(self, premium: float, strong: float, probe: float, k: float) -> None:
        self.premium, self.strong, self.probe, self.k = premium, strong, probe, k

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if s.street == 0:
            eq = float(equity_vs_random()[s.hand_class])
        else:
            eq = equity(s.hole, s.board, [None], SAMPLES, numpy_rng(rng))
        if eq >= (self.premium if s.street == 0 else self.strong) and (s.can_raise or s.to_call > 0):
            return legal_action(view, "allin")
        if s.can_check:
            if s.can_raise and eq >= self.probe:
                return legal_action(view, "raise", s.to_match + s.big_blind)
            return legal_action(view, "passive")
        if s.to_call <= s.big_blind and s.to_call <= 0.1 * s.stack:
            return legal_action(view, "passive")
        return legal_action(view, "passive" if call_pays(s, view, eq, self.k) else "fold")


class FirstHandAsHardV1:
    """``player`` from the second hand on; the first hand, with no history,
    as ``hard-v1`` — the constraint issue #12 puts on ``hard``."""

    def __init__(self, player: Bot) -> None:
        self.player, self.name, self.v1 = player, player.name, get_bot("hard-v1")

    def act(self, view: TableView, rng: random.Random) -> Action:
        return (self.player if view.past else self.v1).act(view, rng)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("opponent", choices=["random", "maniac", "jammer"])
    parser.add_argument("--tournaments", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--premium", type=float, default=0.72)
    parser.add_argument("--strong", type=float, default=0.75)
    parser.add_argument("--probe", type=float, default=2.0, help="min-bet from this equity (2: never)")
    parser.add_argument("--k", type=float, default=1.5)
    parser.add_argument(
        "--first-hand-v1", action="store_true", help="play the first hand as hard-v1, as hard must"
    )
    args = parser.parse_args()
    knowing: Bot = KnowingBot(args.premium, args.strong, args.probe, args.k)
    if args.opponent == "jammer":
        knowing = SolvedJammerBot()
    if args.first_hand_v1:
        knowing = FirstHandAsHardV1(knowing)

    def bots(name: str) -> Bot:
        return knowing if name == knowing.name else get_bot(name)

    setattr(match, "get_bot", bots)  # noqa: B010  (the match module looks its bots up by name)
    result = match.run_match(
        [knowing.name, args.opponent], tournaments=args.tournaments, seed=args.seed, jobs=args.jobs
    )
    entry = result.entries[0]
    low, high = entry.confidence()
    print(
        f"{knowing.name} vs {args.opponent} (premium {args.premium}, strong {args.strong}, probe {args.probe},"
        f" k {args.k}{', first hand as hard-v1' if args.first_hand_v1 else ''}), seed {args.seed}: {entry.win_rate:.1%} [{low:.1%}, {high:.1%}]"
        f"  n={result.tournaments} ({result.deals} deck sequences), {result.hands / result.tournaments:.1f} hands/t"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
