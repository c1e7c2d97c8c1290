"""Count the categories of all 133,784,560 seven-card hands (the evaluator's perft).

    .venv/bin/python bench/enumerate7.py

Prints each category's count next to the known value, the number of distinct
ranks seen (4,824), and the time: first call (numba compile or cache load)
and a second, warm run.  Exits non-zero on any mismatch.
"""

from __future__ import annotations

import sys
import time


def main() -> int:
    started = time.perf_counter()
    from freezeout.evaluate.batch import SEVEN_CARD_CATEGORY_COUNTS
    from freezeout.evaluate.batch import all_seven_card_category_counts as category_counts

    imported = time.perf_counter()
    counts, distinct = category_counts()
    first = time.perf_counter()
    counts_again, _ = category_counts()
    second = time.perf_counter()
    ok = counts == counts_again == SEVEN_CARD_CATEGORY_COUNTS and distinct == 4_824
    for name, expected in SEVEN_CARD_CATEGORY_COUNTS.items():
        flag = "ok" if counts.get(name, 0) == expected else "MISMATCH"
        print(f"{name:16} {counts.get(name, 0):>12,} {expected:>12,} {flag}")
    print(f"total            {sum(counts.values()):>12,}   distinct ranks {distinct:,}")
    print(
        f"import {imported - started:.2f} s, first run {first - imported:.2f} s "
        f"(includes numba compile or cache load), warm run {second - first:.2f} s"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
