"""The offline demo of the table (#/demo/…, web/js/demo.js) draws from the same contract as a
live table: its table summary names its game (``table_game`` with its ``starting_stack``, R1),
so the waiting table's seats and the end screen's stack chart start from the game's stack and
no page of it throws (issue #33 item 5: no 1000 written into the page)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 900, "en-US"), (360, 640, "cs-CZ")])
def test_the_demo_waiting_table_and_end_screen_draw_from_the_tables_game(new_page, width, height, locale):
    page = new_page(width=width, height=height, locale=locale)
    page.goto("/#/demo/waiting")
    stack = page.locator(".felt-wrap .seat[data-seat='0'] .stack")
    stack.wait_for()
    assert stack.inner_text() == page.evaluate("n => new Intl.NumberFormat(document.documentElement.lang || 'en').format(n)", 1000)
    page.goto("/#/demo/end")
    page.locator("section.endscreen:not([hidden]) svg").first.wait_for()
    # the demo has no table on the server (its chat and notes answer 404): no script error is what counts
    assert [e for e in page.errors if e.startswith("pageerror")] == [], page.errors
