"""Project-wide test settings.

Tests marked ``slow`` (exhaustive enumerations, long matches) run only with
``FREEZEOUT_SLOW=1`` so that ``make test`` stays within CI's time budget.

With ``--longest-first``, xdist's workers take the tests longest first
(``longest_first.py``: the seconds each took, from ``tests/durations.json``;
``make test`` does not: its work stealing splits the list in contiguous
shares, which would give one worker every long test); ``--record-durations``
(``make durations``) writes this run's seconds into that file.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from longest_first import known_durations, longest_first, record

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

#: This process's seconds per test id (under xdist the controller gets every worker's reports).
_SECONDS: dict[str, float] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-durations", action="store_true",
                     help="merge each test's seconds (setup, call, teardown) into tests/durations.json")
    parser.addoption("--longest-first", action="store_true",
                     help="under xdist, order the tests longest first by tests/durations.json")


@pytest.hookimpl(trylast=True)  # after the folders' hooks have marked their tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("FREEZEOUT_SLOW") != "1":
        skip = pytest.mark.skip(reason="slow: run with FREEZEOUT_SLOW=1")
        for item in items:
            if "slow" in item.keywords:
                item.add_marker(skip)
    if config.getoption("--longest-first") and hasattr(config, "workerinput"):
        # an xdist worker: every worker orders the same tests the same way
        items[:] = longest_first(items, known_durations())


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _SECONDS[report.nodeid] = _SECONDS.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if config.getoption("--record-durations") and not hasattr(config, "workerinput"):
        record(_SECONDS)
