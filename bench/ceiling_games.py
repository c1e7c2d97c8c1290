"""What a player who *knows* ``random``'s strategy wins against it in any game.

bench/ceiling.py's method (docs/bots.md, "Ceilings") carried to every game:
``random`` plays regardless of its cards, so a player who knows that knows
its range exactly — any hand — and needs no reads.  The family swept here
moves all-in (pot limit: raises the most allowed) with a pot share of
``premium`` or more against one random hand, checks when it is free, and
calls a bet when, valued as an all-in at that share, it beats folding in
skill-adjusted chips with edge ``k`` (:func:`freezeout.bots.versus_wild.skill_utility`);
otherwise it folds (:func:`freezeout.bots.game_wild.knowing_action`, which
``hard`` plays once it reads its opponent as card-independent).  The best of the family on the bench's decks is a
lower bound on the true best response, the yardstick for ``hard``'s gap.

    python bench/ceiling_games.py --games NS,NO --premiums 0.6,0.65,0.7 --ks 1,1.5,2 --tournaments 200

With ``--players 4`` it sits against three ``random``: while three or four
are left it plays :func:`freezeout.bots.wild_multiway.multiway_action`
(the all-in valued over who may call it) with the same ``k``, heads-up the
rule above — what ``hard`` plays once it has read the table, from the
first hand on.

    python bench/ceiling_games.py --games NO --players 4 --premiums 0.65 --ks 1 --tournaments 2000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import freezeout.bots.match as match
from freezeout.bots.base import Bot
from freezeout.bots.game_bot import MEDIUM, GameBot
from freezeout.bots.game_equity import shares_by_callers
from freezeout.bots.game_spot import read_spot
from freezeout.bots.game_wild import knowing_action, players_left
from freezeout.bots.montecarlo import numpy_rng
from freezeout.bots.registry import get_bot
from freezeout.bots.wild_multiway import multiway_action
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView


class KnowingBot(GameBot):
    """Knows its opponent is ``random``: premium shares all-in, the rest by skill-adjusted value."""

    def __init__(self, premium: float, k: float) -> None:
        super().__init__("knowing", MEDIUM)
        self.premium = premium
        self.k = k

    def act(self, view: TableView, rng: random.Random) -> Action:
        spot = read_spot(view)
        if spot.drawing or spot.legal.bring_in:
            return super().act(view, rng)
        if players_left(view) > 2 and spot.opponents:
            # a bigger table: the same rule over who may call (bots/wild_multiway.py)
            shares = shares_by_callers(spot.variant, self._seen(spot), self.level.samples, numpy_rng(rng))
            return multiway_action(view, spot, shares, k=self.k)
        return knowing_action(view, spot, self._share(spot, {}, rng), premium=self.premium, k=self.k)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="NS,NO")
    parser.add_argument("--premiums", default="0.6,0.65,0.7")
    parser.add_argument("--ks", default="1.5")
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=2, help="4: against three random (bots/wild_multiway.py's rule while three or four are left)")
    args = parser.parse_args()
    for game in args.games.split(","):
        for premium in (float(p) for p in args.premiums.split(",")):
            for k in (float(value) for value in args.ks.split(",")):
                knowing = KnowingBot(premium, k)

                def bots(name: str, knowing: Bot = knowing) -> Bot:
                    return knowing if name == "knowing" else get_bot(name)

                match.get_bot = bots  # type: ignore[assignment]  # one process (jobs=1): the player under test
                start = time.perf_counter()
                lineup = ["knowing"] + ["random"] * (args.players - 1)
                result = match.run_match(lineup, tournaments=args.tournaments, seed=args.seed, jobs=1, game=game)
                entry = result.entries[0]
                low, high = entry.confidence()
                print(json.dumps({
                    "game": game, "players": args.players, "premium": premium, "k": k, "tournaments": result.tournaments,
                    "win_rate": round(entry.win_rate, 4), "ci95": [round(low, 4), round(high, 4)],
                    "seconds": round(time.perf_counter() - start, 1),
                }), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
