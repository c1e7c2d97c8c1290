"""The bot ladder's numbers: win rates with 95 % CIs and decision latency.

    python bench/bench_bots.py                     # the full issue-#3 benchmark
    python bench/bench_bots.py --tournaments 200   # a quick look

Win rates use duplicate decks (``freezeout.bots.match``); ``--tournaments``
counts played tournaments per line-up (heads-up: half as many deck
sequences, 4 players: a quarter).  Latency is measured in a separate
single-process run so parallel jobs do not inflate it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from freezeout.bots import BOT_NAMES
from freezeout.bots.match import run_match

HEADS_UP = ("random", "station", "medium")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=4000, help="heads-up tournaments per opponent")
    parser.add_argument("--four-player", type=int, default=2000, help="4-player tournaments vs three mediums")
    parser.add_argument("--latency-tournaments", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=["latency", "heads-up", "four"], help="run one part")
    args = parser.parse_args()
    report: dict[str, object] = {}
    if args.only in (None, "latency"):
        latency = {}
        for name in BOT_NAMES:
            result = run_match(
                [name, "medium", "medium"], tournaments=args.latency_tournaments, seed=args.seed, jobs=1
            )
            entry = result.entries[0]
            latency[name] = {
                "p50_ms": entry.latency_ms(0.5),
                "p99_ms": entry.latency_ms(0.99),
                "decisions": entry.decisions,
            }
            print(
                f"latency {name:8} p50 {latency[name]['p50_ms']:7.3f} ms  p99 {latency[name]['p99_ms']:7.3f} ms  ({entry.decisions} decisions)",
                flush=True,
            )
        report["latency"] = latency
    if args.only in (None, "heads-up"):
        for opponent in HEADS_UP:
            start = time.perf_counter()
            result = run_match(
                ["hard", opponent], tournaments=args.tournaments, seed=args.seed, jobs=args.jobs
            )
            document = result.to_json()
            report[f"hard_vs_{opponent}"] = document
            hard = document["entries"][0]  # type: ignore[index]
            print(
                f"hard vs {opponent:8}: {hard['win_rate']:.1%} [{hard['ci95'][0]:.1%}, {hard['ci95'][1]:.1%}] over"
                f" {document['tournaments']} tournaments ({document['deals']} deck sequences),"
                f" {document['hands_per_tournament']:.1f} hands/t, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    if args.only in (None, "four"):
        start = time.perf_counter()
        result = run_match(
            ["hard", "medium", "medium", "medium"],
            tournaments=args.four_player,
            seed=args.seed,
            jobs=args.jobs,
        )
        document = result.to_json()
        report["hard_vs_3_medium"] = document
        hard = document["entries"][0]  # type: ignore[index]
        print(
            f"hard vs 3 medium: {hard['win_rate']:.1%} [{hard['ci95'][0]:.1%}, {hard['ci95'][1]:.1%}] over"
            f" {document['tournaments']} tournaments, avg place {hard['average_place']:.2f},"
            f" {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    print(json.dumps(report, default=float), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
