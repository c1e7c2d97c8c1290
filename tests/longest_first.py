"""Longest tests first: the order ``make test``'s workers take the tests in.

With ``--dist load --maxschedchunk 1`` each xdist worker takes the next test
of one shared queue when it is free.  Queued longest first (the longest
processing time rule), the long tests — a browser test that plays hands, a
server test that plays a game of every variant — start at the beginning,
spread over the workers, and the run ends on a stream of short tests that
all workers share: no worker is left running a two-minute test while the
others idle.

How long each test takes comes from ``tests/durations.json`` (test id →
seconds, setup and teardown included), written by ``make durations``
(``pytest --record-durations``).  A test the file does not know yet is
guessed at the median of its module's known tests, or ``DEFAULT_SECONDS``.
Tests that share a module- or class-scoped fixture (a server started once
for the module, an enumeration computed once) stay together in their
module's order, as one block of their summed length: ordered apart, each
worker would set the fixture up again for every test.

The order only matters to xdist's shared queue; a run without workers
(``-n 0``) keeps pytest's own order.
"""

from __future__ import annotations

import fcntl
import json
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
#: The guess for a test of a module the durations file does not know at all.
DEFAULT_SECONDS = 1.0
SHARED_SCOPES = frozenset({"module", "class", "package"})


def known_durations(path: Path = DURATIONS) -> dict[str, float]:
    """The recorded seconds of each test id, or nothing when there is no file."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    return {str(k): float(v) for k, v in data.items()}


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a fixture set up once for its module or class."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(d.scope in SHARED_SCOPES for defs in info.name2fixturedefs.values() for d in defs)


def estimates(nodeids: Iterable[str], known: dict[str, float]) -> dict[str, float]:
    """Each test's expected seconds: recorded, else its module's median, else the default."""
    by_module: dict[str, list[float]] = {}
    for nodeid, seconds in known.items():
        by_module.setdefault(_module(nodeid), []).append(seconds)
    medians = {module: statistics.median(values) for module, values in by_module.items()}
    return {n: known.get(n, medians.get(_module(n), DEFAULT_SECONDS)) for n in nodeids}


def longest_first(items: Sequence[pytest.Item], known: dict[str, float]) -> list[pytest.Item]:
    """``items`` in blocks, longest block first (a stable sort: equal blocks keep their order);
    a block is one test, or a module's tests that share a fixture, in pytest's order."""
    guess = estimates((item.nodeid for item in items), known)
    blocks: dict[str, list[pytest.Item]] = {}
    for item in items:
        key = _module(item.nodeid) + "::<shared>" if _shares_a_fixture(item) else item.nodeid
        blocks.setdefault(key, []).append(item)
    ordered = sorted(blocks.values(), key=lambda block: -sum(guess[item.nodeid] for item in block))
    return [item for block in ordered for item in block]


def record(durations: dict[str, float], path: Path = DURATIONS) -> None:
    """Merge this run's durations into the file (tests not run keep theirs); two passes that
    finish together take turns (a lock), so neither loses the other's."""
    path.touch()
    with path.open("r+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        text = handle.read()
        old = json.loads(text) if text.strip() else {}
        root = path.resolve().parent.parent  # test ids are relative to the repository
        kept = {k: v for k, v in old.items() if (root / _module(k)).exists()}  # a deleted file's tests go
        merged = {**kept, **{k: round(v, 2) for k, v in durations.items()}}
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(dict(sorted(merged.items())), indent=0) + "\n")
