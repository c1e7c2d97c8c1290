"""Issue #21 item 10, the page around the table on a phone: the table's tool
buttons are 44 px touch targets, the header has Register, seat labels and bot
levels read whole (never cut, never broken mid-word), and messages (the
welcome toast) stay clear of the forms and the action bar at the bottom."""

from __future__ import annotations

import pytest
from scripted import Script, mount

pytestmark = pytest.mark.browser

RECT_JS = "el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_phone_table_tools_are_touch_sized_and_seat_labels_whole(new_page, locale):
    page = new_page(width=375, height=667, locale=locale)
    mount(page)
    s = Script(["ana", "bo", "cy", "dd"], button=0)
    # hand 1: dd shoves and loses: an "out" label on the next hand's seat
    s.deal({0: "7c2d", 1: "8c3d", 2: "AsAd", 3: "KsKd"}, "Ah9s4c8h5s")
    s.act(3, "allin") + s.act(0, "fold") + s.act(1, "fold") + s.act(2, "call")
    s.deal({0: "QsQd", 1: "8c3d", 2: "AhAc"}, "Kh9s4c8h5d")
    s.feed(page, s.snapshot())
    tools = page.locator(".table-head a.btn:visible, .table-head button.btn:visible")  # the tools the head shows
    assert tools.count() >= 5  # back, sound, history, fairness, resign
    for i in range(tools.count()):
        box = tools.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (tools.nth(i).get_attribute("aria-label"), box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    out = page.locator(".felt-wrap .seat[data-seat='3'] .state")
    assert out.inner_text().lower().startswith("out" if locale == "en-US" else "venku")
    for handle in page.locator(".felt-wrap .seat .state").element_handles():
        assert page.evaluate("el => el.scrollWidth <= el.clientWidth", handle), handle.inner_text()


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_phone_header_has_register_and_level_names_are_whole(new_page, locale):
    page = new_page(width=360, height=640, locale=locale)
    with page.expect_response("**/api/catalogue"):  # the lobby draws its levels again with the server's list
        page.goto("/")
    page.locator(".lobby .levels label").first.wait_for()
    reg = page.locator(".topbar .who .reg")
    assert reg.is_visible(), "Register is in the phone header"
    _, _, right, bottom = reg.evaluate(RECT_JS)
    assert right <= 360 and bottom <= 640
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "the header does not push the page sideways"
    levels = page.evaluate("""() => new Promise(done => requestAnimationFrame(() => done(
      [...document.querySelectorAll('.lobby .levels label b')].map(el => ({text: el.textContent,
        lines: el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
        fits: el.scrollWidth <= el.clientWidth + 1})))))""")
    assert levels
    for level in levels:
        assert level["lines"] < len(level["text"].split()) + 0.5, f"{level} is broken mid-word"
        assert level["fits"], level


def test_phone_welcome_toast_leaves_the_create_form_free(new_page, ui):
    page = new_page(width=375, height=667)
    page.goto("/")
    submit = page.locator(".lobby .create button[type=submit]")
    submit.wait_for()
    submit.evaluate("el => el.scrollIntoView({block: 'end'})")
    page.locator(".who .reg").click()
    page.fill("#auth-name", "phone_toast")
    page.fill("#auth-password", "correct horse 1")
    page.locator("dialog form button[type=submit]").click()
    toast = page.locator(".toast.info")
    toast.wait_for()
    t = toast.evaluate(RECT_JS)
    assert t[3] <= 667 / 2, f"the toast {t} drops from the top, clear of the bottom of the screen"
    for handle in page.locator(".lobby .create").locator("button, input, select").element_handles():
        r = handle.evaluate(RECT_JS)
        if r[2] - r[0] <= 0:
            continue
        assert not (t[0] < r[2] and r[0] < t[2] and t[1] < r[3] and r[1] < t[3]), f"the toast {t} covers a control {r}"
