"""Names people know on the profile and at the table (issue #31 item 9, the page's part).

The profile's past games name the game ("Stud Hi/Lo · 3 players", "Hold'em · Heads-up ·
ranked"; was "Game: 2 players"), from the games list's ``game`` (null: the house game); and
your own name at the table is whole on the desktop (a " •" after it cut it).
"""

from __future__ import annotations

import pytest
from scripted import dealt
from test_web_cash import _register_on

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_the_profiles_past_games_name_the_game(new_page, locale):
    page = new_page(width=1366, height=900, locale=locale)
    _register_on(page, f"past_{locale[:2]}")
    me = f"past_{locale[:2]}"
    played = [{"id": "g-stud", "table": "t1", "number": 1, "players": [me, "bot-station", "bot-medium"], "as": me,
               "ranked": False, "rated": False, "finished_at": 1.7e9, "places": {me: 1}, "family": "stud", "game": "F7S/8"},
              {"id": "g-house", "table": "t2", "number": 1, "players": [me, "bot-medium"], "as": me,
               "ranked": False, "rated": False, "finished_at": 1.6e9, "places": {me: 2}, "family": "house", "game": None}]
    page.route("**/api/users/*/games*", lambda route: route.fulfill(json={"games": played}))
    page.goto("/#/profile")
    stud = page.locator("tr[data-game='g-stud'] td.kind")
    stud.wait_for()
    assert stud.inner_text().startswith("Stud Hi/Lo · 3"), stud.inner_text()
    assert page.locator("tr[data-game='g-house'] td.kind").inner_text().startswith("Hold'em · 2")
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", [(1366, 900), (1920, 1080), (1024, 768)], ids=["1366x900", "1920x1080", "1024x768"])
def test_your_own_name_is_whole_at_the_table_on_the_desktop(new_page, size):
    page = new_page(width=size[0], height=size[1])
    dealt(page, ["alice_layout", "bot-station", "bot-medium", "bot-hard"], {0: "AhKh", 1: "7c2d", 2: "KsKd", 3: "9d9c"},
          "Qh9s4h8s3d", bots={1: "station", 2: "medium", 3: "hard"})
    name = page.locator(".felt-wrap .seat.me .pname")
    assert name.inner_text() == "alice_layout"
    cut = name.evaluate("el => el.scrollWidth > el.clientWidth + 0.5 || getComputedStyle(el, '::after').content !== 'none'")
    assert not cut, name.evaluate("el => [el.scrollWidth, el.clientWidth, getComputedStyle(el, '::after').content]")
