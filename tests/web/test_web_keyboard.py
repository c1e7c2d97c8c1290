"""Four-handed quick play (a guest against 3 bots), every move by keyboard,
and no layout shifts while cards and chips move."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CLS_JS = """() => { window.__cls = 0; new PerformanceObserver(list => { for (const e of list.getEntries())
  if (!e.hadRecentInput) window.__cls += e.value; }).observe({type: 'layout-shift', buffered: false}); }"""


def test_four_handed_by_keyboard_without_layout_shift(new_page, ui, artifacts):
    page = new_page()
    page.goto("/")
    page.locator("label[for=qbots-3]").click()
    page.locator("label[for=qlevel-easy]").click()
    page.locator("#quickplay").click()
    page.wait_for_url("**/#/table/*")
    ui.wait_for(page, ui.DEALT)
    assert page.locator(".felt-wrap .seat").count() == 4
    page.evaluate(CLS_JS)
    ui.wait_for(page, ui.MY_TURN, timeout=90)
    page.screenshot(path=str(artifacts / "table-4-handed.png"))
    legal = ui.state(page)["view"]["legal"]
    amount = page.locator(".sizer input[type=number]")
    if legal["min_to"] is not None and legal["max_to"] > legal["min_to"]:
        page.keyboard.press("5")
        assert int(amount.input_value()) == legal["max_to"], "5 = all-in size"
        page.keyboard.press("1")
        assert int(amount.input_value()) == legal["min_to"], "1 = the minimum"
        page.keyboard.press("ArrowUp")
        assert int(amount.input_value()) == min(legal["max_to"], legal["min_to"] + ui.state(page)["view"]["blinds"][1])
        page.keyboard.press("r")
        assert page.evaluate("document.activeElement.type") == "number", "R focuses the amount"
        page.keyboard.press("Escape")
    version = ui.state(page)["version"]
    page.keyboard.press("c")
    ui.wait_for(page, ui.PAST_VERSION, version)
    # play on by keyboard (check/call) until this hand is over
    hand = ui.state(page)["view"]["hand_number"]
    while ui.state(page)["view"]["hand_number"] == hand and not ui.state(page)["view"]["hand_over"]:
        version = ui.version(page)  # before looking for the turn (Ui.await_news)
        if ui.my_turn(page):
            page.keyboard.press("c")
        ui.moved_on(page, version)  # the move applied, the next turn or the hand's end: a state, not a time
    cls = page.evaluate("window.__cls")
    assert cls < 0.02, f"cumulative layout shift {cls}"
    assert not [e for e in page.errors if "pageerror" in e], page.errors
