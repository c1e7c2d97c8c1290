"""Project-wide test settings.

Tests marked ``slow`` (exhaustive enumerations, long matches) run only with
``FREEZEOUT_SLOW=1`` so that ``make test`` stays within CI's time budget.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("FREEZEOUT_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with FREEZEOUT_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
