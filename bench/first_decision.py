"""The first decision of a new process, per game (issue #35: at most 1 s).

Each game gets a fresh interpreter that imports the bots, deals one hand
heads-up and lets ``hard`` make the first decision it faces there (the
first draw too in a draw game, where that is a separate code path).  The
time printed is wall-clock from the interpreter's first line to the end
of that decision: imports, the game's tables, the numba kernels loaded
from their disk cache (a cold cache compiles them, which this does not
measure: every game is run once before the timed run, which also writes
the byte code a deployed install has, even where the environment sets
``PYTHONDONTWRITEBYTECODE``).

    nice -n 19 .venv/bin/python bench/first_decision.py --games FT,PO,F7S,F2L3D,FB
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import time
start = time.perf_counter()
import json, random, sys
from freezeout.bots.registry import get_bot
from freezeout.bots.match import deck_of, tournament_config
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import seat_view
game = sys.argv[1]
bot = get_bot("hard")
tournament = Tournament.start(tournament_config(game, ("p0", "p1"), button=0))
deck = list(deck_of(game))
random.Random(1).shuffle(deck)
tournament, _ = tournament.deal_deck(tuple(deck), tuple(deck[::-1]))
first = None
draw = None
while tournament.in_hand and (first is None or (draw is None and tournament.hand_number == 1)):
    view = seat_view(tournament, tournament.to_act)
    drawing = bool(view.legal and view.legal.draw)
    action = bot.act(view, random.Random(2))
    now = time.perf_counter() - start
    if first is None:
        first = now
        cpu = time.process_time()
    elif drawing and draw is None:
        draw = now - first
    tournament, _ = tournament.act(action)
print(json.dumps({"first": first, "draw": draw, "cpu": cpu}))
"""

GAMES = ("FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N5CD", "F2L3D", "FB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    # a deployed process finds its byte code compiled: let the children write it (to a cache of
    # their own, not into an environment others share), and warm it once
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "freezeout-first-decision"))
    games = args.games.split(",")
    for game in games:
        subprocess.run([sys.executable, "-c", CHILD, game], capture_output=True, text=True, check=True, env=env)
    print(f"{'game':7} {'first decision':>15} {'its CPU':>8} {'first draw after it':>20}")
    for game in games:
        out = subprocess.run([sys.executable, "-c", CHILD, game], capture_output=True, text=True, check=True, env=env).stdout
        result = json.loads(out.strip().splitlines()[-1])
        draw = f"{result['draw']:.2f} s" if result["draw"] is not None else "-"
        print(f"{game:7} {result['first']:13.2f} s {result['cpu']:6.2f} s {draw:>20}", flush=True)


if __name__ == "__main__":
    main()
