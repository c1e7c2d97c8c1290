"""What a broadcast costs in views: every seat's and a spectator's view of a 4-seat table after
each move of a played freezeout, with the own-hand-name cache of rules/views.py on and off
(issue #22 "Speed": the load bench's profile found the name recomputed at every update).

    PYTHONPATH=src .venv/bin/python bench/bench_views.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

import load  # noqa: E402  (bench/load.py: the load client's move chooser)
from freezeout.rules import views  # noqa: E402
from freezeout.rules.tournament import Tournament  # noqa: E402

GAMES = ("NT", "FO/8", "F7S/8", "F2L3D")
VIEWERS = (0, 1, 2, 3, None)


def played_states(game: str, seed: int = 1, moves: int = 1500) -> list[Tournament]:
    """The table after each move of a freezeout the load client plays."""
    return [tournament for tournament, _ in load.played_freezeout(game, seed, moves)]


def microseconds_per_broadcast(states: list[Tournament], passes: int = 3) -> float:
    start = time.perf_counter()
    for _ in range(passes):
        for tournament in states:
            views.view_dicts(tournament, VIEWERS)
    return (time.perf_counter() - start) / (passes * len(states)) * 1e6


def main() -> None:
    """Each way three times, alternating, the best of each (a busy machine only adds time)."""
    cached = views._hand_name_now
    for game in GAMES:
        states = played_states(game)
        without, with_cache = [], []
        for _ in range(3):
            views._hand_name_now = cached.__wrapped__  # type: ignore[assignment]
            without.append(microseconds_per_broadcast(states))
            views._hand_name_now = cached
            cached.cache_clear()  # the first pass pays every miss
            with_cache.append(microseconds_per_broadcast(states))
        print(f"{game:6} {len(states):5} states  views of 4 seats and a spectator: {min(without):6.1f} µs without the cache, "
              f"{min(with_cache):6.1f} µs with it ({min(with_cache) / min(without):.2f}×)")


if __name__ == "__main__":
    main()
