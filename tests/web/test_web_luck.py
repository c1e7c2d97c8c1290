"""Your luck on your own profile (issue #36): per recent freezeout and cash session the result,
the all-in EV and the luck (result − all-in EV), each kind with its total, from GET
/api/me/luck; in Czech and English, on a phone and a desktop, every figure inside the window.
Another player's profile never shows it, and never asks for it.  The first load is the real
server's answer for a new account (nothing yet); the figures are then a fixed answer, as the
route gives it (its numbers are tests/server/test_server_luck.py's)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from test_web_cash import _register_on

pytestmark = pytest.mark.browser

CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""
NUMBER_JS = "async n => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang()).format(n)"

ANSWER = {
    "freezeouts": {"games": [
        {"game": "g-house", "code": None, "finished_at": 1.7e9, "hands": 41, "result": 3000, "all_in_ev": 1875.5,
         "luck": 1124.5, "all_ins": 3},
        {"game": "g-stud", "code": "F7S/8", "finished_at": 1.6e9, "hands": 12, "result": -1500, "all_in_ev": -300,
         "luck": -1200, "all_ins": 1}],
        "total": {"count": 2, "result": 1500, "all_in_ev": 1575.5, "luck": -75.5, "all_ins": 4}},
    "sessions": {"sessions": [
        {"table": "t-long", "label": "Vega IV", "started_at": 1.7e9, "ended_at": None, "open": True, "net": -4000,
         "hands": 230, "result": -123456, "all_in_ev": 98765.25, "luck": -222221.25, "all_ins": 17, "not_reviewed": 0}],
        "total": {"count": 1, "result": -123456, "all_in_ev": 98765.25, "luck": -222221.25, "all_ins": 17}},
}


def _signed(page: Any, value: float) -> str:
    v = math.floor(value + 0.5)  # as the page's Math.round
    return ("+" if v > 0 else "−" if v < 0 else "") + page.evaluate(NUMBER_JS, abs(v))


@pytest.mark.parametrize(("locale", "size"), [("en-US", (1366, 900)), ("cs-CZ", (360, 640)), ("en-US", (360, 640)),
                                               ("cs-CZ", (1366, 900))], ids=["en-1366", "cs-360", "en-360", "cs-1366"])
def test_your_profile_shows_your_luck_per_freezeout_and_cash_session(new_page, locale: str, size: tuple[int, int]) -> None:
    page = new_page(width=size[0], height=size[1], locale=locale)
    me = f"luck_{locale[:2]}_{size[0]}"
    _register_on(page, me)
    catalog = page.evaluate(CATALOG_JS)
    page.goto("/#/profile")
    page.locator("section.luck[data-luck='ready']").wait_for()  # the real route: nothing yet
    assert page.locator("section.luck .lk-none").all_inner_texts() == [catalog["luck.noGames"], catalog["luck.noSessions"]]
    page.route("**/api/me/luck", lambda route: route.fulfill(json=ANSWER))
    page.goto("/#/")
    page.goto("/#/profile")
    page.locator("section.luck[data-luck='ready'] table[data-kind='table']").wait_for()
    games = page.locator("table[data-kind='game'] tbody tr")
    assert games.count() == 2
    first = [games.nth(0).locator(f"td.{c}").inner_text() for c in ("lk-result", "lk-ev", "lk-luck")]
    assert first == [_signed(page, 3000), _signed(page, 1875.5), _signed(page, 1124.5)]
    total = page.locator("table[data-kind='game'] tfoot .lk-luck").inner_text()
    assert total == _signed(page, -75.5)
    session = page.locator("table[data-kind='table'] tbody tr")
    assert session.locator(".lk-name").inner_text() == f"Vega IV · {catalog['luck.open']}"
    assert session.locator("td.lk-luck").inner_text() == _signed(page, -222221.25)
    assert "down" in (session.locator("td.lk-luck").get_attribute("class") or "")
    assert page.locator("section.luck h2").inner_text() == catalog["luck.title"]
    # every figure and word of the section inside the window: nothing wider than the page, nothing cut
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    right = page.locator("section.luck").evaluate("el => el.getBoundingClientRect().right")
    assert right <= size[0]
    for cell in page.locator("section.luck h2, section.luck .luck-note, section.luck caption, section.luck td, section.luck tfoot th").all():
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= right + 0.5, (cell.inner_text(), box)
        assert cell.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), cell.inner_text()
        assert box["y"] >= -1 and box["y"] + box["height"] <= size[1] + 1, (cell.inner_text(), box)
    assert not page.errors, page.errors


def test_another_players_profile_never_shows_luck_nor_asks_for_it(new_page) -> None:
    other = new_page(width=360, height=640)
    _register_on(other, "luck_other")
    page = new_page(width=360, height=640, locale="cs-CZ")
    _register_on(page, "luck_viewer")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/me/luck" in request.url else None)
    page.goto("/#/profile/luck_other")
    page.locator(".profile section.past-games").wait_for()
    assert page.locator("section.luck").count() == 0 and asked == []
    page.goto("/#/profile")  # one's own: there it is
    page.locator("section.luck[data-luck='ready']").wait_for()
    assert len(asked) == 1
    assert not page.errors, page.errors
