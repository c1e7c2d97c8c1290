"""Small things a regular notices (issue #31 item 11, the page's part).

* Pot limit: the most you may bet is the pot, so the quick sizes show one Pot button and no
  "All-in" that sets the pot too.
* Moving quickly between the lobby and a table leaves no console warning "WebSocket is
  closed before the connection is established": a socket still connecting is closed once
  it opens.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted_games import GameScript
from test_web_cash import cash_server  # noqa: F401 (a fixture)

from scripted import mount

pytestmark = pytest.mark.browser

SIZES_JS = """() => [...document.querySelectorAll('.sizer:not([hidden]) .quick-sizes button')]
  .map(b => ({label: b.textContent, to: Number(b.dataset.to)}))"""


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_pot_limit_shows_one_pot_button_and_no_all_in_that_sets_the_pot(new_page, locale):
    page = new_page(width=375, height=667, locale=locale)
    mount(page)
    s = GameScript("PO", ["alice_ux", "bot-station", "bot-medium"], bots={1: "station", 2: "medium"}, button=0)
    s.deal_seeded(4)
    while s.game.to_act != 0:
        s.act(s.game.to_act, "call")
    s.feed(page, s.snapshot())
    page.locator(".sizer:not([hidden]) .quick-sizes button").first.wait_for()
    sizes = page.evaluate(SIZES_JS)
    legal = s.view()["legal"]
    assert legal["max_to"] < legal["all_in_to"], "the case: the pot caps the bet below your stack"
    amounts = [q["to"] for q in sizes]
    assert len(amounts) == len(set(amounts)), f"two buttons for one amount: {sizes}"
    assert all(q["label"] != "All-in" for q in sizes), sizes
    assert amounts[-1] == legal["max_to"], sizes


def test_moving_between_lobby_and_table_leaves_no_websocket_warning(new_page, cash_server):  # noqa: F811
    page = new_page(width=1366, height=900, server=cash_server)
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
    page.goto("/")
    table = cash_server.cash["po"]
    page.locator(f"section.cash-tables li[data-table='{table}']").wait_for()
    for _ in range(4):
        # away again before the table's socket (or the lobby's) has opened
        page.evaluate("id => { location.hash = '#/table/' + id; }", table)
        page.wait_for_function("() => location.hash.startsWith('#/table/') && !!document.querySelector('.felt-wrap')")
        page.evaluate("() => { location.hash = '#/'; }")
        page.locator("section.cash-tables").wait_for()
    page.evaluate("id => { location.hash = '#/table/' + id; }", table)
    page.wait_for_function("() => !!(window.__fzTable && window.__fzTable.state.table)")
    page.evaluate("() => { location.hash = '#/'; }")
    page.locator(f"section.cash-tables li[data-table='{table}']").wait_for()
    # a last look once every socket opened by now has settled: the lobby's list arrived again
    warned = [m for m in said if "closed before the connection is established" in m]
    assert not warned, warned
