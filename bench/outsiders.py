"""``hard`` against simple bots of the kind written elsewhere (issue #12).

Issue #12 warns that independent checks seat opponents written outside
this project, so ``hard`` must beat styles, not our own archetypes.  These
four are deliberately naive and unlike ours; none of them is in the
product, they exist to find holes (this bench found that ``hard`` lost to
an always-all-in player, now the ``jammer`` archetype)::

    python bench/outsiders.py --tournaments 400 --bots hard,medium
    python bench/outsiders.py --as-wild --opponents minraiser,maniac,tag

``--as-wild`` reads every opponent as card-independent from the second hand
on (an oracle read, not a bot): what a read of card-independent aggression
would be worth, and what misreading a sound player would cost.

* ``minraiser`` — min-raises whenever it may, otherwise checks or calls;
* ``potter`` — raises the pot whenever it may, otherwise checks or calls;
* ``random2`` — random like ``random`` but never folds when checking is
  free, and raises half, one or two pots;
* ``aggro-station`` — calls, and half the time raises half the pot.
"""

from __future__ import annotations

import argparse
import random
import sys

import freezeout.bots.match as match
from freezeout.bots.base import Bot, Situation, legal_action, situation
from freezeout.bots.registry import get_bot
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.views import TableView


def _raise_to(view: TableView, s: Situation, pots: float) -> Action:
    """A raise of ``pots`` times the pot after calling (at least a big blind)."""
    return legal_action(view, "raise", s.to_match + max(int((s.pot + s.to_call) * pots), s.big_blind))


class MinRaiser:
    name = "minraiser"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        return legal_action(view, "raise", s.min_to) if s.can_raise else legal_action(view, "passive")


class PotRaiser:
    name = "potter"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        return _raise_to(view, s, 1.0) if s.can_raise else legal_action(view, "passive")


class RandomNoFreeFold:
    name = "random2"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        choices = ["passive", "raise"] if s.can_raise else ["passive"]
        if not s.can_check:
            choices.append("fold")
        choice = rng.choice(choices)
        if choice == "raise":
            return _raise_to(view, s, rng.choice((0.5, 1.0, 2.0)))
        if choice == "fold":
            assert view.viewer is not None
            return Action(view.viewer, ActionKind.FOLD)
        return legal_action(view, "passive")


class AggroStation:
    name = "aggro-station"

    def act(self, view: TableView, rng: random.Random) -> Action:
        s = situation(view)
        if s.can_raise and rng.random() < 0.5:
            return _raise_to(view, s, 0.5)
        return legal_action(view, "passive")


OUTSIDERS: dict[str, Bot] = {
    bot.name: bot for bot in (MinRaiser(), PotRaiser(), RandomNoFreeFold(), AggroStation())
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bots", default="hard", help="comma-separated bots to measure")
    parser.add_argument("--opponents", default=",".join(OUTSIDERS))
    parser.add_argument("--tournaments", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--as-wild", action="store_true", help="hard reads every opponent as card-independent"
    )
    args = parser.parse_args()
    if args.as_wild:
        import freezeout.bots.hard as hard

        setattr(hard, "wild_seats", lambda view, seats: frozenset(seats))  # noqa: B010

    def bots(name: str) -> Bot:
        return OUTSIDERS[name] if name in OUTSIDERS else get_bot(name)

    setattr(match, "get_bot", bots)  # noqa: B010  (the match module looks its bots up by name)
    for me in args.bots.split(","):
        for opponent in args.opponents.split(","):
            result = match.run_match(
                [me, opponent], tournaments=args.tournaments, seed=args.seed, jobs=args.jobs
            )
            entry = result.entries[0]
            low, high = entry.confidence()
            print(
                f"{me} vs {opponent:14} {entry.win_rate:6.1%} [{low:5.1%}, {high:5.1%}]  n={result.tournaments},"
                f" {result.hands / result.tournaments:.1f} hands/t",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
