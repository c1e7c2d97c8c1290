"""Benchmark the rankings beyond high against PokerKit, side by side in one process.

    .venv/bin/python bench/bench_rankings.py [--quick] [--repeat N] [--json OUT]

Sections:

1. tables: first-use generation of each family of tables (empty cache, a
   fresh subprocess timed inside it) and a warm ``get_ranking`` (cache hit).
2. single call: every ranking's ``rank(hole, board)`` against the PokerKit
   hand class of the same game (``from_game``), on the same random deals,
   pre-converted outside the timed loops, run in turns (so that outside load
   hits both alike); Omaha Hi/Lo is high plus low together on each side.
   PokerKit's results are checked to order the deals exactly as ours.
3. batch: ``rank_batch`` on millions of rows, one core (million hands per
   second), next to PokerKit's per-call rate.

Ratios are PokerKit's time over ours, measured in the same run; ``--repeat``
runs the whole single-call and batch sections several times to show how
stable they are on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from bench_evaluator import race, show, subprocess_seconds

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
Results = dict[str, Any]

#: name -> (hole cards, board cards, lowest card index) of the deal benchmarked.
DEALS = {
    "high": (2, 5, 0),
    "short-deck": (2, 5, 16),
    "low8": (7, 0, 0),
    "low-a5": (7, 0, 0),
    "low-27": (5, 0, 0),
    "badugi": (4, 0, 0),
    "omaha-high": (4, 5, 0),
    "omaha-low8": (4, 5, 0),
}
POKERKIT = {
    "high": "StandardHighHand",
    "short-deck": "ShortDeckHoldemHand",
    "low8": "EightOrBetterLowHand",
    "low-a5": "RegularLowHand",
    "low-27": "StandardLowHand",
    "badugi": "BadugiHand",
    "omaha-high": "OmahaHoldemHand",
    "omaha-low8": "OmahaEightOrBetterLowHand",
}


# --------------------------------------------------------------------------- tables
def bench_tables() -> Results:
    """First-use build of each table family (empty cache; high's tables already cached) and a warm load."""
    results: Results = {}
    builds = {
        "low (low8, low-a5, low-27)": "from freezeout.evaluate import lowtables; lowtables.load_low_tables()",
        "short-deck": "from freezeout.evaluate import shorttables; shorttables.load_short_tables()",
        "badugi": "from freezeout.evaluate import badugitables; badugitables.load_badugi_tables()",
        "omaha (low tables cached)": "from freezeout.evaluate import omahatables; omahatables.load_omaha_tables()",
    }
    with tempfile.TemporaryDirectory() as cache:
        env = {"FREEZEOUT_CACHE_DIR": cache}
        subprocess_seconds("from freezeout.evaluate import tables; tables.load_high_tables()", env)
        for name, code in builds.items():
            results[f"build {name} (s)"] = subprocess_seconds(code, env)
        every = (
            "from freezeout.evaluate.rankings import NAMES, get_ranking\nfor name in NAMES: get_ranking(name)"
        )
        results["warm: import + get_ranking of all eight (s)"] = min(
            subprocess_seconds(every, env) for _ in range(3)
        )
        results["warm: import freezeout.evaluate alone (s)"] = min(
            subprocess_seconds("import freezeout.evaluate", env) for _ in range(3)
        )
    return results


# --------------------------------------------------------------------------- deals
def random_deals(name: str, count: int, seed: int) -> list[tuple[list[int], list[int]]]:
    hole, board, lowest = DEALS[name]
    rng = random.Random(f"{name}/{seed}")
    out = []
    for _ in range(count):
        cards = rng.sample(range(lowest, 52), hole + board)
        out.append((cards[:hole], cards[hole:]))
    return out


def _text(cards: Sequence[int]) -> str:
    return "".join("23456789TJQKA"[card >> 2] + "shdc"[card & 3] for card in cards)


def _pokerkit_runner(name: str, deals: list[tuple[list[int], list[int]]]) -> Callable[[], list[Any]]:
    import pokerkit

    hand_class = getattr(pokerkit, POKERKIT[name])
    converted = [
        (tuple(pokerkit.Card.parse(_text(hole))), tuple(pokerkit.Card.parse(_text(board))))
        for hole, board in deals
    ]
    make = hand_class.from_game_or_none if name in ("low8", "omaha-low8") else hand_class.from_game
    return lambda: [make(hole, board) for hole, board in converted]


def orders_alike(ours: Sequence[int], theirs: Sequence[Any]) -> bool:
    """PokerKit's hands (None = no low) sort the deals exactly as our ranks do, ties included."""
    order = sorted(range(len(ours)), key=ours.__getitem__)
    for a, b in pairwise(order):
        left, right = theirs[a], theirs[b]
        if left is None or right is None:
            same = left is None and right is None
            ok = same == (ours[a] == ours[b]) and (left is None or right is not None)
        else:
            ok = (left == right) == (ours[a] == ours[b]) and not right < left
        if not ok:
            return False
    return True


# --------------------------------------------------------------------------- single
def bench_single(count: int, rounds: int) -> Results:
    from freezeout.evaluate.rankings import NAMES, get_ranking

    results: Results = {}
    for name in NAMES:
        ranking = get_ranking(name)
        deals = random_deals(name, count, seed=1)
        few = deals[: max(200, count // 20)]  # PokerKit is slow: fewer deals, per-hand times compared
        ours = [ranking.rank(hole, board) for hole, board in deals]
        pokerkit_run = _pokerkit_runner(name, few)
        agree = orders_alike(ours[: len(few)], pokerkit_run())
        best = race(
            {
                "ours": (
                    lambda ranking=ranking, deals=deals: [ranking.rank(h, b) for h, b in deals],
                    len(deals),
                ),
                "pokerkit": (pokerkit_run, len(few)),
            },
            rounds,
        )
        results[name] = {
            "ours ns": best["ours"] * 1e9,
            "pokerkit ns": best["pokerkit"] * 1e9,
            "pokerkit/ours": best["pokerkit"] / best["ours"],
            "orders alike": agree,
        }
    results["omaha hi/lo (high + low8)"] = _bench_hi_lo(count, rounds)
    return results


def _bench_hi_lo(count: int, rounds: int) -> Results:
    from freezeout.evaluate.rankings import get_ranking

    high, low = get_ranking("omaha-high"), get_ranking("omaha-low8")
    deals = random_deals("omaha-high", count, seed=2)
    few = deals[: max(200, count // 20)]
    high_pk, low_pk = _pokerkit_runner("omaha-high", few), _pokerkit_runner("omaha-low8", few)
    best = race(
        {
            "ours": (lambda: [(high.rank(h, b), low.rank(h, b)) for h, b in deals], len(deals)),
            "pokerkit": (lambda: (high_pk(), low_pk()), len(few)),
        },
        rounds,
    )
    return {
        "ours ns": best["ours"] * 1e9,
        "pokerkit ns": best["pokerkit"] * 1e9,
        "pokerkit/ours": best["pokerkit"] / best["ours"],
    }


# --------------------------------------------------------------------------- batch
def bench_batch(rows: int, rounds: int, single: Results) -> Results:
    from freezeout.evaluate.rankings import NAMES, get_ranking

    results: Results = {}
    for name in NAMES:
        ranking = get_ranking(name)
        hole, board, lowest = DEALS[name]
        rng = np.random.default_rng(7)
        cards = (np.argsort(rng.random((rows, 52 - lowest)), axis=1)[:, : hole + board] + lowest).astype(
            np.uint8
        )
        hole_count = hole if name.startswith("omaha") else None
        ranking.rank_batch(cards[:10], hole_count)  # compile or load the kernel
        check = cards[:2000]
        assert ranking.rank_batch(check, hole_count).tolist() == [
            ranking.rank(row[:hole].tolist(), row[hole:].tolist()) for row in check
        ]
        best = race(
            {
                name: (
                    lambda ranking=ranking, cards=cards, hole_count=hole_count: ranking.rank_batch(
                        cards, hole_count
                    ),
                    rows,
                )
            },
            rounds,
        )
        per_second = 1 / best[name]
        pokerkit_per_second = 1e9 / single[name]["pokerkit ns"]
        results[f"{name} ({hole}+{board} cards)"] = {
            "M hands/s": per_second / 1e6,
            "x PokerKit per call": per_second / pokerkit_per_second,
        }
    return results


# --------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--repeat", type=int, default=1, help="run the timed sections this many times")
    parser.add_argument("--no-tables", action="store_true", help="skip the table build timings")
    parser.add_argument("--json", type=Path, help="also write the results here")
    options = parser.parse_args(argv)
    sys.path.insert(0, str(SRC))
    count = 4_000 if options.quick else 20_000
    rows = 1_000_000 if options.quick else 4_000_000
    report: dict[str, Results] = {}
    if not options.no_tables:
        report["tables"] = bench_tables()
        show("tables (seconds)", report["tables"])
    for run in range(1, options.repeat + 1):
        single = bench_single(count, 7)
        show(f"single call, run {run} (ns per hand; ratio = PokerKit time / ours)", single)
        batch = bench_batch(rows, 7, single)
        show(f"batch, one core, run {run} (million hands per second)", batch)
        report[f"single {run}"], report[f"batch {run}"] = single, batch
    if options.json:
        options.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
