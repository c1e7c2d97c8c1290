"""Ranges too wide to list (issue #36: ``random`` against ``random`` in the calculator): each hand
is drawn from its own range and draws that share a card are thrown away, which is uniform over
the combinations, so the equities agree with the exact ones within their ±."""

from __future__ import annotations

import pytest

from freezeout.analysis import equity as equity_module
from freezeout.analysis.equity import EquityError
from freezeout.analysis.odds import OddsError, odds

HANDS = ["QQ+,AKs", "JJ,TT,AQo"]
BOARD = "2c7d9h"


def test_drawn_ranges_agree_with_the_exact_equities(monkeypatch: pytest.MonkeyPatch) -> None:
    _, exact = odds(HANDS, board=BOARD)
    assert exact.exact
    monkeypatch.setattr(equity_module, "LISTED_LIMIT", 0)
    _, drawn = odds(HANDS, board=BOARD, seed=3)
    assert not drawn.exact and drawn.deals == 50_000
    for share, estimate, error in zip(exact.equity, drawn.equity, drawn.error, strict=True):
        assert abs(share - estimate) < error, (share, estimate, error)
    _, again = odds(HANDS, board=BOARD, seed=3)
    assert again == drawn  # seeded


def test_random_against_random_is_drawn_not_listed() -> None:
    _, result = odds(["random", "random"])
    assert not result.exact and result.deals == 50_000
    assert result.equity[0] == pytest.approx(0.5, abs=result.error[0])


def test_ranges_that_hardly_ever_fit_are_refused() -> None:
    with pytest.raises(OddsError, match="hardly ever fit together"):
        odds(["AA", "AA", "AA", "random", "random"])
    assert issubclass(OddsError, ValueError) and issubclass(EquityError, ValueError)
