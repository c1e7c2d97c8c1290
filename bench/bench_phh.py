"""PHH replay speed and agreement: our replay against PokerKit's HandHistory.

    python bench/bench_phh.py               # every file of tests/data/phh, 3 rounds
    python bench/bench_phh.py --rounds 10

Prints, per folder, how many hands replayed and matched and the time per
hand of our parse + replay and of PokerKit's load + iteration (exact
division for odd chips, as the data README does), so a regression in either
the result or the speed of the PHH path shows at a glance.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from decimal import Decimal
from pathlib import Path
from typing import Any

from freezeout.formats.phh_replay import replay_phh_file

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "phh"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (the best one is reported)")
    args = parser.parse_args()
    pokerkit: Any
    try:
        import pokerkit
    except ImportError:  # optional benchmark dependency
        pokerkit = None
    for folder in sorted(path for path in DATA.iterdir() if path.is_dir()):
        files = sorted(folder.glob("*.phh"))
        results = [replay_phh_file(str(path)) for path in files]
        best = min(_time_ours(files) for _ in range(args.rounds))
        line = {
            "folder": folder.name,
            "hands": len(files),
            "replayed": sum("error" not in result for result in results),
            "matched": sum(result.get("matches") is True for result in results),
            "ours_ms_per_hand": round(best * 1000 / len(files), 3),
        }
        if pokerkit is not None:
            replayable = [path for path, result in zip(files, results, strict=True) if "error" not in result]
            if replayable:
                best_pk = min(_time_pokerkit(pokerkit, replayable) for _ in range(args.rounds))
                line["pokerkit_ms_per_hand"] = round(best_pk * 1000 / len(replayable), 3)
        print(json.dumps(line))
    return 0


def _time_ours(paths: list[Path]) -> float:
    start = time.perf_counter()
    for path in paths:
        replay_phh_file(str(path))
    return time.perf_counter() - start


def _time_pokerkit(pokerkit: Any, paths: list[Path]) -> float:
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in paths:
            with path.open("rb") as file:
                history = pokerkit.HandHistory.load(file, divmod=lambda a, b: (Decimal(a) / b, 0))
            for _ in history:
                pass
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
