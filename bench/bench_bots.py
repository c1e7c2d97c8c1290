"""``hard``'s numbers (issue #12): win rates with 95 % CIs, and decision latency.

    python bench/bench_bots.py                          # the full benchmark (2,000 per line-up)
    python bench/bench_bots.py --tournaments 200        # a quick look
    python bench/bench_bots.py --only four --jobs 1     # one part, one process

Win rates use duplicate decks (``freezeout.bots.match``): ``--tournaments``
counts played tournaments per line-up (heads-up: half as many deck
sequences, four players: a quarter), and the CIs are over deck sequences.
Heads-up, ``hard`` meets every archetype, the baselines and ``hard-v1``;
four-handed it sits with three different archetypes, in several mixes,
reported one by one and pooled (par is 25 %).  Latency is measured in a
separate single-process run so parallel jobs do not inflate it: wall
time, which on a machine shared with other work includes their load, and
CPU time, which does not.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np

from freezeout.bots import get_bot
from freezeout.bots.archetypes import ARCHETYPES
from freezeout.bots.match import MatchResult, run_match
from freezeout.cards import shuffled_deck
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import seat_view

HEADS_UP = (*ARCHETYPES, "random", "station", "medium", "hard-v1")
#: Four-handed tables: ``hard`` and three different styles, every archetype in three of the five.
FOUR_HANDED = (
    ("tight-passive", "loose-passive", "maniac"),
    ("tag", "nit", "loose-passive"),
    ("maniac", "tag", "tight-passive"),
    ("nit", "tight-passive", "maniac"),
    ("loose-passive", "tag", "nit"),
)
#: Issue #12's targets (heads-up per opponent; four-handed pooled).
TARGETS = {**dict.fromkeys((*ARCHETYPES, "random", "station"), 0.80), "medium": 0.72, "hard-v1": 0.58}
FOUR_TARGET = 0.45


def _line(label: str, result: MatchResult, seconds: float, target: float) -> str:
    entry = result.entries[0]
    low, high = entry.confidence()
    verdict = "meets" if low >= target else "short of" if high < target else "undecided at"
    return (
        f"{label:34} {entry.win_rate:6.1%} [{low:5.1%}, {high:5.1%}]  n={result.tournaments}"
        f" ({result.deals} deck sequences), {result.hands / result.tournaments:.1f} hands/t,"
        f" {verdict} {target:.0%}, {seconds:.0f} s"
    )


def _cpu_latency(lineup: tuple[str, ...], tournaments: int, seed: int) -> list[float]:
    """Milliseconds of CPU time (``time.process_time``) of each of ``hard``'s
    decisions (seat 0): what a decision costs, whatever else the machine runs."""
    bots = [get_bot(name) for name in lineup]
    costs: list[float] = []
    for number in range(tournaments):
        rng = random.Random(seed * 1_000_003 + number)
        players = tuple(f"p{i}" for i in range(len(lineup)))
        tournament = Tournament.start(TournamentConfig(players=players, button=number % len(lineup)))
        while not tournament.finished:
            tournament, _ = tournament.deal_deck(shuffled_deck(rng))
            while tournament.in_hand:
                seat = tournament.to_act
                view = seat_view(tournament, seat)
                start = time.process_time()
                action = bots[seat].act(view, random.Random(rng.getrandbits(64)))
                if seat == 0:
                    costs.append((time.process_time() - start) * 1000)
                tournament, _ = tournament.act(action)
    return costs


def _pooled(results: list[MatchResult]) -> tuple[float, float, float, int]:
    """Win rate of ``hard`` over several line-ups, CI over all their deck sequences."""
    means = [float(np.mean(v)) for r in results for v in r.entries[0].per_deal.values()]
    centre = float(np.mean(means))
    half = 1.96 * float(np.std(means, ddof=1)) / math.sqrt(len(means)) if len(means) > 1 else 1.0
    return centre, max(0.0, centre - half), min(1.0, centre + half), sum(r.tournaments for r in results)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=2000, help="tournaments per line-up")
    parser.add_argument("--latency-tournaments", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--only", choices=["latency", "heads-up", "four"], help="run one part")
    parser.add_argument("--opponents", help="comma-separated heads-up opponents (default: all)")
    args = parser.parse_args()
    report: dict[str, object] = {}
    if args.only in (None, "latency"):
        latency = {}
        for lineup in (("hard", "loose-passive"), ("hard", "tight-passive", "maniac", "tag")):
            run_match(
                list(lineup), tournaments=len(lineup), seed=args.seed + 1, jobs=1
            )  # compile and load first
            result = run_match(list(lineup), tournaments=args.latency_tournaments, seed=args.seed, jobs=1)
            entry = result.entries[0]
            key = ",".join(lineup)
            cpu = np.array(_cpu_latency(lineup, args.latency_tournaments // len(lineup), args.seed))
            latency[key] = {
                "wall_p50_ms": entry.latency_ms(0.5),
                "wall_p99_ms": entry.latency_ms(0.99),
                "cpu_p50_ms": float(np.quantile(cpu, 0.5)),
                "cpu_p99_ms": float(np.quantile(cpu, 0.99)),
                "decisions": entry.decisions,
            }
            print(
                f"latency hard in {key:34} wall p50 {entry.latency_ms(0.5):6.2f} ms  p99 {entry.latency_ms(0.99):6.2f} ms"
                f" ({entry.decisions} decisions);  CPU p50 {np.quantile(cpu, 0.5):6.2f} ms"
                f"  p99 {np.quantile(cpu, 0.99):6.2f} ms ({len(cpu)} decisions)",
                flush=True,
            )
        report["latency"] = latency
    if args.only in (None, "heads-up"):
        opponents = args.opponents.split(",") if args.opponents else HEADS_UP
        for opponent in opponents:
            start = time.perf_counter()
            result = run_match(
                ["hard", opponent], tournaments=args.tournaments, seed=args.seed, jobs=args.jobs
            )
            report[f"hard_vs_{opponent}"] = result.to_json()
            print(
                _line(f"hard vs {opponent}", result, time.perf_counter() - start, TARGETS[opponent]),
                flush=True,
            )
    if args.only in (None, "four"):
        results = []
        for mix in FOUR_HANDED:
            start = time.perf_counter()
            result = run_match(["hard", *mix], tournaments=args.tournaments, seed=args.seed, jobs=args.jobs)
            results.append(result)
            report[f"hard_vs_{'+'.join(mix)}"] = result.to_json()
            print(
                _line(f"hard vs {'+'.join(mix)}", result, time.perf_counter() - start, FOUR_TARGET),
                flush=True,
            )
        centre, low, high, played = _pooled(results)
        report["four_handed_pooled"] = {"win_rate": centre, "ci95": [low, high], "tournaments": played}
        print(f"{'four-handed, pooled':34} {centre:6.1%} [{low:5.1%}, {high:5.1%}]  n={played}", flush=True)
    print(json.dumps(report, default=float), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
