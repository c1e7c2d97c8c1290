"""Exploitability of ``hard``'s heads-up push/fold charts, by our own best response.

For each depth the charts are taken from the bot's real decision function
(``freezeout.bots.chart``, exactly what ``freezeout bot chart`` prints), then
the opponent's best response is computed in the push/fold game with the
exact 169×169 table and combo-level card removal:

* small blind chart ``p``:  exploitability = v* − min_q U(p, q)
* big blind chart ``q``:    exploitability = max_p U(p, q) − v*

with ``v*`` the game value from the LP.  Units: milli-big-blinds per hand.

    python bench/best_response.py [--depths 2,3,5,8,10,12,15,20] [--bot hard] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from freezeout.bots import get_bot
from freezeout.bots.chart import chart
from freezeout.bots.classes import CLASS_NAMES, class_weights
from freezeout.bots.pushfold import call_best_response, push_best_response, solve_heads_up


def measure(bot_name: str, depth: float) -> dict[str, float]:
    bot = get_bot(bot_name)
    push = np.array([chart(bot, players=2, stack_bb=depth, position="sb")["allin"][n] for n in CLASS_NAMES])
    call = np.array([chart(bot, players=2, stack_bb=depth, position="bb")["allin"][n] for n in CLASS_NAMES])
    _, _, value = solve_heads_up(depth)
    vs_push, _ = call_best_response(push, depth)
    vs_call, _ = push_best_response(call, depth)
    weights = class_weights() / class_weights().sum()
    return {
        "stack_bb": depth,
        "game_value_bb": value,
        "sb_push_share": float(push @ weights),
        "bb_call_share": float(call @ weights),
        "sb_exploitability_mbb": (value - vs_push) * 1000,
        "bb_exploitability_mbb": (vs_call - value) * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depths", default="2,3,5,8,10,12,15,20")
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(args.bot, float(d)) for d in args.depths.split(",")]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(
            f"{'bb':>5} {'SB value':>9} {'push %':>7} {'call %':>7} {'SB expl mbb':>12} {'BB expl mbb':>12}"
        )
        for r in rows:
            print(
                f"{r['stack_bb']:>5g} {r['game_value_bb']:>9.4f} {r['sb_push_share']:>7.1%} {r['bb_call_share']:>7.1%}"
                f" {r['sb_exploitability_mbb']:>12.2e} {r['bb_exploitability_mbb']:>12.2e}"
            )
    worst = max(max(r["sb_exploitability_mbb"], r["bb_exploitability_mbb"]) for r in rows)
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
