"""The views' remembered parts change nothing a client reads (issue #22 "Speed").

rules/views.py remembers a seat's hand name and the names of a finished hand's
shown hands and pots (pure functions of the cards and ranks): every view of
whole played freezeouts, showdowns included, must be the same, key for key,
as the views built with nothing remembered.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from freezeout.rules import views

BENCH = Path(__file__).resolve().parents[2] / "bench"
VIEWERS = (0, 1, 2, 3, None)


@pytest.fixture(scope="module")
def load():  # type: ignore[no-untyped-def]  # the bench module: its players choose legal moves in any game
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH))
        import load as module

        yield module


@pytest.mark.parametrize("game", ["NT", "FO/8", "F7S/8", "F2L3D"])
def test_remembered_names_give_the_views_built_without_them(load, monkeypatch, game) -> None:  # type: ignore[no-untyped-def]
    states = [t for t, _ in load.played_freezeout(game, 3, 600)]
    assert any(t.hand is not None and t.hand.finished and t.hand.showdown for t in states)  # R17: names shown
    cached = [views.view_dicts(t, VIEWERS) for t in states]
    for name in ("_names", "_described", "_hand_name_now"):
        monkeypatch.setattr(views, name, getattr(views, name).__wrapped__)
    assert [views.view_dicts(t, VIEWERS) for t in states] == cached
    assert [views.seat_view(t, 2).to_dict() for t in states] == [c[2] for c in cached]
