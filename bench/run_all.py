"""Run every benchmark in turn (``make bench``).

Each benchmark measures us side by side with the named peers in one process
and prints ratios; this script only runs them one after the other so that a
whole report comes from one command.  Long ones can be skipped by name:
``python bench/run_all.py --skip load bots``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = {
    "evaluator": ["bench_evaluator.py"],
    "enumerate7": ["enumerate7.py"],
    "engine": ["bench_engine.py"],
    "phh": ["bench_phh.py"],
    "bots": ["bench_bots.py"],
    "best-response": ["best_response.py"],
    "load": ["load.py"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip", nargs="*", default=[], choices=sorted(BENCHES))
    args = parser.parse_args()
    status = 0
    for name, command in BENCHES.items():
        if name in args.skip:
            continue
        print(f"\n=== {name} ===", flush=True)
        done = subprocess.run([sys.executable, str(HERE / command[0]), *command[1:]], check=False)
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
