"""The odds calculator page (#/odds, issue #36), on a phone in Czech and a desktop in English.

Hands are chosen with the card picker (the phone) and the 13×13 range grid (the desktop,
by a drag across the cells); the result appears, the page's address carries the whole
question, and opening that address in a fresh page shows the same result.  Every control
is inside the window and nothing scrolls sideways.  Waits are for conditions only.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

# Shown controls whose box leaves the window sideways, and the page's extra width.
OUTSIDE_JS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('main button, main input, main select, main a')].filter(el => {
    const b = el.getBoundingClientRect(); return b.width > 0 && (b.left < -0.5 || b.right > w + 0.5);
  }).map(el => (el.id || el.className || el.tagName) + ' ' + (el.textContent || el.value || '').slice(0, 20));
  return {out, extra: document.documentElement.scrollWidth - window.innerWidth};
}"""


def _fits(page: Any) -> None:
    data = page.evaluate(OUTSIDE_JS)
    assert data["out"] == [] and data["extra"] <= 0, data


def _pick(page: Any, hand: int, cards: list[str]) -> None:
    field = page.locator(".odds-field").nth(hand)
    field.locator(".odds-pick").click()
    for card in cards:
        button = field.locator(f".odds-card[data-card='{card}']")
        button.click()
        page.wait_for_function("b => b.getAttribute('aria-pressed') === 'true'", arg=button.element_handle())
    _fits(page)
    field.locator(".odds-done").click()
    page.locator(".odds-picker").wait_for(state="detached")


def test_phone_in_czech_picks_cards_and_shares_the_result(new_page) -> None:
    page = new_page(width=360, height=640, locale="cs-CZ")
    page.goto("/")
    page.locator("#odds-link").click()
    page.locator("#odds-go").wait_for()
    assert page.locator("h1").inner_text() == "Kalkulačka šancí"
    _fits(page)
    _pick(page, 0, ["Ah", "As"])
    _pick(page, 1, ["Kh", "Kc"])
    assert page.locator("#odds-h0").input_value() == "AhAs"
    # the range grid fits a phone too: 13 cells a row
    page.locator(".odds-field").nth(0).locator(".odds-range").click()
    page.locator(".odds-cell[data-name='22']").wait_for()
    _fits(page)
    page.locator(".odds-done").click()
    assert page.locator("#odds-h0").input_value() == "AhAs"
    # a card another hand holds cannot be picked again
    page.locator(".odds-field").nth(1).locator(".odds-pick").click()
    assert page.locator(".odds-card[data-card='Ah']").is_disabled()
    page.locator(".odds-done").click()
    page.locator("#odds-go").click()
    first = page.locator(".odds-result li").first
    first.locator(".odds-eq").wait_for()
    assert first.locator(".odds-eq").inner_text() == "81,95 %"
    assert page.locator(".odds-result li").nth(1).locator(".odds-eq").inner_text() == "18,05 %"
    assert "1 712 304" in page.locator(".odds-how").inner_text().replace("\xa0", " ").replace("\u202f", " ")
    _fits(page)
    page.locator("#odds-go").scroll_into_view_if_needed()
    box = page.locator("#odds-go").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    address = page.evaluate("location.hash")
    assert address == "#/odds?game=NT&hand=AhAs&hand=KhKc"
    again = new_page(width=360, height=640, locale="cs-CZ")
    again.goto("/" + address)
    again.locator(".odds-result li .odds-eq").first.wait_for()
    assert again.locator(".odds-eq").all_inner_texts() == ["81,95 %", "18,05 %"]
    assert again.locator("#odds-h1").input_value() == "KhKc"
    assert not page.errors and not again.errors, page.errors + again.errors


def test_desktop_in_english_drags_a_range_and_sees_the_monte_carlo_plus_minus(new_page) -> None:
    page = new_page(width=1366, height=900, locale="en-US")
    page.goto("/#/odds")
    page.locator("#odds-go").wait_for()
    field = page.locator(".odds-field").first
    field.locator(".odds-range").click()
    cells = {name: field.locator(f".odds-cell[data-name='{name}']") for name in ("AA", "KK", "QQ", "AKs", "AKo")}
    assert cells["AKs"].bounding_box()["x"] > cells["AA"].bounding_box()["x"]  # suited above the diagonal
    assert cells["AKo"].bounding_box()["y"] > cells["AA"].bounding_box()["y"]  # offsuit below it
    start, end = cells["AA"].bounding_box(), cells["QQ"].bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('#odds-h0').value === 'AA,KK,QQ'")
    assert "18 combinations" in field.locator(".odds-combos").inner_text()
    _fits(page)
    field.locator(".odds-done").click()
    # a written range opens on the grid as its classes; a part the grid cannot draw is kept
    page.locator("#odds-h1").fill("qq+,AhKh,A2s-A3s")
    second = page.locator(".odds-field").nth(1)
    second.locator(".odds-range").click()
    pressed = second.locator(".odds-cell[aria-pressed='true']")
    pressed.first.wait_for()
    assert pressed.evaluate_all("cells => cells.map(c => c.dataset.name)") == ["AA", "A3s", "A2s", "KK", "QQ"]
    second.locator(".odds-cell[data-name='AKo']").click()
    page.wait_for_function("() => document.querySelector('#odds-h1').value === 'AA,A3s,A2s,AKo,KK,QQ,AhKh'")
    second.locator(".odds-done").click()
    page.locator("#odds-h1").fill("jsts")
    page.locator("#odds-dead").fill("2c")
    page.locator("#odds-go").click()
    page.locator(".odds-result li .odds-eq").first.wait_for()
    assert page.locator(".odds-result li .odds-hand").all_inner_texts() == ["AA,KK,QQ", "JsTs"]
    assert "± " in page.locator(".odds-result li .odds-eq").first.inner_text()
    assert "Monte Carlo: 50,000 random deals (seed 0)" in page.locator(".odds-how").inner_text()
    assert page.evaluate("location.hash") == "#/odds?game=NT&hand=AA%2CKK%2CQQ&hand=JsTs&dead=2c"
    shown = page.locator(".odds-eq").all_inner_texts()
    _fits(page)
    again = new_page(width=1366, height=900, locale="en-US")
    again.goto("/" + page.evaluate("location.hash"))
    again.locator(".odds-result li .odds-eq").first.wait_for()
    assert again.locator(".odds-eq").all_inner_texts() == shown
    # a game with the wrong number of cards: one clear error
    again.locator("#odds-game").select_option("PO")
    again.locator("#odds-go").click()
    error = again.locator(".odds-error")
    error.wait_for()
    assert error.inner_text().startswith("Cannot calculate: hand 1 'AA,KK,QQ'")
    assert not page.errors, page.errors
    assert [e for e in again.errors if "status of 400" not in e] == []
