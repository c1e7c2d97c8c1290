"""Full tables in the lobby (issue #34, C12): the usual sizes for the chosen game, and a filter by size.

The "Create cash table" dialog offers the picked game's usual sizes first, from the
catalogue (hold'em: heads-up, 6-max, 9-max, 10; stud 8; draw 6), then every other
size the game allows; the new table has the seats chosen.  The freezeout form offers a
game's usual sizes (the house game: 2, 3, 4 as ever).  The cash tables list filters by
size.  On a phone (360×640) and a desktop (1366×900) the controls lie inside the
viewport.  Waits are for conditions, never for a time.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_cash import _register_on, _stood_in

pytestmark = pytest.mark.browser

SEATS_JS = """() => [...document.querySelectorAll('#cash-seats option')].map(o => [o.parentElement.tagName === 'OPTGROUP'
  ? o.parentElement.label : '', Number(o.value)])"""


def _inside(page: Any, selector: str, width: int, height: int) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
    assert box["y"] + box["height"] <= height + 0.5, (selector, box)


def _usual(page: Any) -> list[int]:
    return [n for group, n in page.evaluate(SEATS_JS) if group == "Usual sizes"]


@pytest.mark.parametrize(("width", "height"), [(360, 640), (1366, 900)])
def test_the_cash_dialog_offers_the_games_usual_sizes_and_opens_a_nine_max_table(new_page, server, width, height):
    page = new_page(width=width, height=height)
    _register_on(page, f"sizes_{width}")
    page.wait_for_function("() => document.querySelectorAll('#create-game-pick option').length > 1")  # the catalogue is in
    page.locator("section.cash-tables .create-cash").click()
    dialog = page.locator("dialog.cash-create-dialog")
    dialog.wait_for()
    page.select_option("#cash-game", "NT")
    page.wait_for_function("() => document.querySelectorAll('#cash-seats option').length === 9")  # 2 to 10 (C12)
    assert _usual(page) == [2, 6, 9, 10] and page.input_value("#cash-seats") == "6"  # 6-max first offered
    labels = page.eval_on_selector_all("#cash-seats optgroup:first-child option", "els => els.map(e => e.textContent)")
    assert labels == ["Heads-up", "6-max", "9-max (full ring)", "10-max"], labels
    page.select_option("#cash-game", "F7S")  # stud seats 8
    page.wait_for_function("() => document.querySelectorAll('#cash-seats option').length === 7")
    assert _usual(page) == [2, 6, 8]
    page.select_option("#cash-game", "F2L3D")  # draw seats 6
    page.wait_for_function("() => document.querySelectorAll('#cash-seats option').length === 5")
    assert _usual(page) == [2, 6] and page.input_value("#cash-seats") == "6"
    page.select_option("#cash-game", "NT")
    page.wait_for_function("() => document.querySelectorAll('#cash-seats option').length === 9")
    page.select_option("#cash-seats", "9")
    _inside(page, "#cash-seats", width, height)
    _inside(page, "#cash-game", width, height)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    dialog.locator("button.create-go").click()
    page.wait_for_url("**/#/table/*")
    table = server.get(f"/api/tables/{page.url.rsplit('/', 1)[1]}")["table"]
    assert (table["size"], table["seats_free"], table["format"]["game"]) == (9, 9, "NT")
    assert page.errors == [], page.errors


@pytest.mark.parametrize(("width", "height"), [(360, 640), (1366, 900)])
def test_the_cash_tables_list_filters_by_size(new_page, server, width, height):
    page = new_page(width=width, height=height)
    tables = [_stood_in("hu1", "NT", 200, seats=2), _stood_in("six1", "NT", 200, seats=6),
              _stood_in("nine1", "NT", 200, seats=9), _stood_in("stud8", "F7S", 20, seats=8)]
    page.route("**/api/tables?format=cash*", lambda route: route.fulfill(json={"tables": tables, "next": None}))
    page.goto("/")
    section = page.locator("section.cash-tables")
    section.locator("li[data-table='nine1']").wait_for()
    assert section.locator("li[data-table='nine1'] .size").inner_text() == "9-max (full ring)"
    assert section.locator("li[data-table='six1'] .size").inner_text() == "6-max"
    ours = {"hu1", "six1", "nine1", "stud8"}  # the session's server may list tables of other tests too
    shown = lambda: sorted(ours & {li.get_attribute("data-table") for li in section.locator("li[data-table]").all()})  # noqa: E731
    page.select_option("#cash-size", "full")
    section.locator("li[data-table='six1']").wait_for(state="detached")
    assert shown() == ["nine1", "stud8"]
    sizes = {li.get_attribute("data-table"): li.evaluate("el => el.querySelector('.free').textContent")
             for li in section.locator("li[data-table]").all()}
    assert all("of 2" not in text and "of 6" not in text for text in sizes.values()), sizes
    page.select_option("#cash-size", "short")
    section.locator("li[data-table='six1']").wait_for()
    assert shown() == ["six1"]
    page.select_option("#cash-size", "hu")
    section.locator("li[data-table='hu1']").wait_for()
    assert shown() == ["hu1"]
    page.select_option("#cash-size", "")
    section.locator("li[data-table='nine1']").wait_for()
    assert len(shown()) == 4
    page.locator("#cash-size").scroll_into_view_if_needed()
    box = page.locator("#cash-size").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.errors == [], page.errors


def test_the_freezeout_form_offers_a_games_usual_sizes_and_the_house_game_two_to_four(new_page, server):
    page = new_page(width=360, height=640)
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#create-game-pick option').length > 1")
    page.locator("#create-game-pick").select_option("F2L3D")
    page.wait_for_function("() => !!document.querySelector('#csize-6')")
    sizes = lambda: page.eval_on_selector_all("input[name=csize]", "els => els.map(e => Number(e.id.slice(6)))")  # noqa: E731
    assert sizes() == [2, 6]
    page.locator("label[for=csize-6]").click()
    page.wait_for_function("() => !!document.querySelector('#cslot-5')")  # six places: five to fill
    _inside(page, "label[for=csize-6]", 360, 10_000)
    # a full table: one choice fills every other seat with a bot, then each seat may still differ
    bots = page.eval_on_selector_all("#cslot-all option", "els => els.map(e => e.value).filter(Boolean)")
    page.locator("#cslot-all").select_option(bots[0])
    page.wait_for_function("b => [1, 2, 3, 4, 5].every(i => document.querySelector('#cslot-' + i).value === b)", arg=bots[0])
    page.locator("#cslot-3").select_option("")
    page.wait_for_function("() => document.querySelector('#cslot-3').value === ''")
    assert page.eval_on_selector_all("select[id^=cslot-]:not(#cslot-all)", "els => els.map(e => e.value)") == [
        bots[0], bots[0], "", bots[0], bots[0]]
    _inside(page, "#cslot-all", 360, 10_000)
    page.locator("#create-game-pick").select_option("NT")
    assert page.locator("#cslot-all").count() == 0  # the house game seats four at most
    page.wait_for_function("() => !document.querySelector('#csize-6')")
    assert sizes() == [2, 3, 4]
    assert page.errors == [], page.errors
