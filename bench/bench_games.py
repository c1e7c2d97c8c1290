"""Issue #24's benchmark: the best bot in every game against ``random`` and ``station``.

For each game (the 25 engine variants; the mixes once the rules build
their tournaments) it plays three lines with duplicate decks
(:mod:`freezeout.bots.match`): heads-up against ``random``, heads-up
against ``station``, and four-handed against three ``random``.  Each line
prints one JSON object as soon as it is done (win rate, 95 % CI over deck
sequences, decision latency), so a long run can be read while it goes:

    python bench/bench_games.py --tournaments 100 --jobs 1 > games.jsonl
    python bench/bench_games.py --games FO/8,FR --tournaments 400
    python bench/bench_games.py --cash --games NT --hands 4000   # bb/100 at 100 big blinds
    python bench/bench_games.py --latency --games FB,PO          # CPU time per decision
    python bench/bench_games.py --latency --games NT --latency-stack 2000   # at 100 big blinds

``--latency`` replays decisions of ``random``-driven games in this process
after a warm-up and reports thread CPU time per decision (what one core
spends; wall time on a shared machine measures the neighbours too).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from freezeout.bots import get_bot
from freezeout.bots.cash import run_cash
from freezeout.bots.match import deck_of, run_match, shuffled, tournament_config
from freezeout.rules.games import MIXES
from freezeout.rules.tournament import Tournament
from freezeout.rules.variant import VARIANTS
from freezeout.rules.views import seat_view

TARGETS = {"random": 0.70, "station": 0.70, "random x3": 0.40}


def lines(bot: str) -> list[tuple[str, list[str]]]:
    return [
        ("random", [bot, "random"]),
        ("station", [bot, "station"]),
        ("random x3", [bot, "random", "random", "random"]),
    ]


def _games(text: str | None) -> list[str]:
    if text:
        return [code.strip() for code in text.split(",") if code.strip()]
    return [*VARIANTS, *MIXES]


def _mix_ok(code: str) -> bool:
    try:
        tournament_config(code, ("a", "b"), button=0)
    except ValueError:
        return False
    return True


def _print_row(start: float, **row: object) -> None:
    """One JSON line of results, with the seconds it took since ``start``."""
    print(json.dumps({**row, "seconds": round(time.perf_counter() - start, 1)}), flush=True)


def run_freezeouts(args: argparse.Namespace) -> None:
    for game in _games(args.games):
        if not _mix_ok(game):
            print(json.dumps({"game": game, "skipped": "the rules do not build this mix's tournament yet"}), flush=True)
            continue
        for label, lineup in lines(args.bot):
            if args.only and label not in args.only.split(","):
                continue
            count = args.four_tournaments if len(lineup) == 4 else args.tournaments
            start = time.perf_counter()
            result = run_match(lineup, tournaments=count, seed=args.seed, jobs=args.jobs, game=game)
            entry = result.entries[0]
            _print_row(
                start,
                game=game,
                against=label,
                bot=args.bot,
                tournaments=result.tournaments,
                win_rate=round(entry.win_rate, 4),
                ci95=[round(bound, 4) for bound in entry.confidence()],
                target=TARGETS[label],
                hands_per_tournament=round(result.hands / result.tournaments, 1),
                latency_ms_p50=round(entry.latency_ms(0.5), 2),
                latency_ms_p99=round(entry.latency_ms(0.99), 2),
            )


def run_cash_lines(args: argparse.Namespace) -> None:
    for game in _games(args.games):
        for opponent in ("station", "random"):
            start = time.perf_counter()
            result = run_cash(
                [args.bot, opponent], hands=args.hands, seed=args.seed, game=game, stack=args.stack,
                session_hands=args.session_hands, jobs=args.jobs,
            )
            entry = result.entries[0]
            _print_row(
                start,
                game=game,
                cash=True,
                against=opponent,
                bot=args.bot,
                stack_bb=args.stack,
                hands=entry.hands,
                sessions=result.sessions,
                bb_per_100=round(entry.bb_per_100, 1),
                ci95=[round(bound, 1) for bound in entry.confidence()],
                latency_ms_p99=round(entry.latency_ms(0.99), 2),
            )


def run_latency(args: argparse.Namespace) -> None:
    bot = get_bot(args.bot)
    for game in _games(args.games):
        if game in MIXES:
            continue
        for players in (2, 4):
            views = []
            rng = random.Random(args.seed)
            driver = get_bot("random")
            names = tuple(f"p{i}" for i in range(players))
            while len(views) < args.decisions:  # as many random-driven freezeouts as it takes
                tournament = Tournament.start(
                    tournament_config(game, names, button=len(views) % players, starting_stack=args.latency_stack)
                )
                while not tournament.finished and len(views) < args.decisions:
                    cards = deck_of(game)
                    tournament, _ = tournament.deal_deck(shuffled(cards, rng), shuffled(cards, rng))
                    while tournament.in_hand:
                        view = seat_view(tournament, tournament.to_act)
                        if view.viewer == 0:  # the bot's own seat: its decisions, not the drivers'
                            views.append(view)
                        tournament, _ = tournament.act(driver.act(view, rng))
            for number, view in enumerate(views[:20]):  # warm-up: tables and kernels load once per process
                bot.act(view, random.Random(number))
            cpu = []
            for number, view in enumerate(views):
                start = time.thread_time()
                bot.act(view, random.Random(10_000 + number))
                cpu.append(time.thread_time() - start)
            ms = np.array(cpu) * 1000
            print(
                json.dumps(
                    {
                        "game": game,
                        "players": players,
                        "stack": args.latency_stack,
                        "bot": args.bot,
                        "decisions": len(ms),
                        "cpu_ms_p50": round(float(np.quantile(ms, 0.5)), 2),
                        "cpu_ms_p99": round(float(np.quantile(ms, 0.99)), 2),
                        "cpu_ms_max": round(float(ms.max()), 2),
                    }
                ),
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", help="comma-separated codes (default: every variant and mix)")
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--tournaments", type=int, default=400, help="per heads-up line")
    parser.add_argument("--four-tournaments", type=int, default=400, help="per four-handed line")
    parser.add_argument("--only", help="lines to play: random, station, 'random x3'")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cash", action="store_true", help="cash sessions instead of freezeouts")
    parser.add_argument("--stack", type=int, default=100)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--session-hands", type=int, default=100)
    parser.add_argument("--latency", action="store_true", help="CPU time per decision instead of matches")
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--latency-stack", type=int, default=1000, help="--latency: starting chips (2000: 100 big blinds, the deep game)")
    args = parser.parse_args()
    if args.latency:
        run_latency(args)
    elif args.cash:
        run_cash_lines(args)
    else:
        run_freezeouts(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
