"""The bench modules under test (bench/ is scripts, not a package): imported with bench/ on the path
for a module's tests, as the scripts themselves run."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _bench_module(name: str) -> Iterator[ModuleType]:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH))
        yield importlib.import_module(name)


@pytest.fixture(scope="module")
def load() -> Iterator[ModuleType]:
    """bench/load.py."""
    yield from _bench_module("load")


@pytest.fixture(scope="module")
def full() -> Iterator[ModuleType]:
    """bench/fulltables.py."""
    yield from _bench_module("fulltables")
