"""Rebuild the bots' committed data files.

    python -m freezeout.bots.build_data equity     # exact 169x169 table (~3 min, 2 cores)
    python -m freezeout.bots.build_data pushfold   # Nash push/fold grids (needs the table)
    python -m freezeout.bots.build_data all

The files live in ``src/freezeout/data/`` and are committed, so nothing is
built at run time; the tests check that the builders reproduce them.
"""

from __future__ import annotations

import argparse
import os
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m freezeout.bots.build_data")
    parser.add_argument("what", choices=["equity", "pushfold", "all"])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    if args.what in ("equity", "all"):
        from freezeout.bots.equity_table import EQUITY_FILE, build_equity

        start = time.perf_counter()
        build_equity(jobs=args.jobs)
        print(f"wrote {EQUITY_FILE} in {time.perf_counter() - start:.1f} s")
    if args.what in ("pushfold", "all"):
        from freezeout.bots.pushfold import PUSHFOLD_FILE, build_pushfold

        start = time.perf_counter()
        build_pushfold()
        print(f"wrote {PUSHFOLD_FILE} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
