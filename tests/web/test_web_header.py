"""The page's top bar fits at every width, in English and Czech (issue #22).

From the narrowest phone (320 px) to a desktop (1366 px), and across the steps where
the style sheet changes (720/721 px, the tablet's 768-900 px, where Czech used to push
the language button out of the window), every item of the top bar (the brand, the nav's
links, your name, play chips and rating, Log in / Register / Log out, the language) is
inside the bar and the window, no item covers another, and the bar is one row (nothing
wraps under it).  For someone not signed in, a guest and a player with the longest name
the server allows (24 characters, NAME_RE): a long name gives way with an ellipsis.
Measured as rectangles; the waits are for conditions (the header drawn, the window's
width applied), never for a time.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

WIDTHS = [320, 360, 375, 414, 600, 720, 721, 740, 768, 800, 1024, 1366]
LOCALES = ["en-US", "cs-CZ"]
WHO = ["nobody", "guest", "player"]

# Every shown item of the top bar, its rectangle; the bar's; the window's width.
HEADER_JS = """() => {
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const shown = el => { const s = getComputedStyle(el); const b = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && b.width > 0 && b.height > 0; };
  const bar = document.querySelector('.topbar');
  const items = [...bar.querySelectorAll('.brand, .nav a, .who > :not(.me), .who .me > *, .lang')].filter(shown)
    .map(el => ({name: (el.className || el.tagName) + ' "' + el.textContent.trim() + '"', rect: r(el)}));
  const rows = [...bar.children].filter(shown).map(el => ({name: el.className || el.tagName, rect: r(el)}));
  return {bar: r(bar), items, rows, width: document.documentElement.clientWidth, overflow: bar.scrollWidth - bar.clientWidth};
}"""


def _problems(data: dict[str, Any]) -> list[str]:
    """What of the top bar leaves it or the window, covers another item, or wraps to a second row."""
    bar, items, width = data["bar"], data["items"], data["width"]
    found = [f"the bar's content is {data['overflow']} px wider than the bar"] if data["overflow"] > 0 else []
    for item in items:
        left, top, right, bottom = item["rect"]
        if left < max(bar[0], 0) - 0.5 or right > min(bar[2], width) + 0.5 or top < bar[1] - 0.5 or bottom > bar[3] + 0.5:
            found.append(f"{item['name']} {[round(x) for x in item['rect']]} leaves the bar {[round(x) for x in bar]}")
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            ra, rb = a["rect"], b["rect"]
            if ra[0] < rb[2] - 0.5 and rb[0] < ra[2] - 0.5 and ra[1] < rb[3] - 0.5 and rb[1] < ra[3] - 0.5:
                found.append(f"{a['name']} {[round(x) for x in ra]} covers {b['name']} {[round(x) for x in rb]}")
    rows = data["rows"]  # the brand, the nav, who you are, the language: side by side, never one under another
    if rows and max(it["rect"][1] for it in rows) >= min(it["rect"][3] for it in rows):
        found.append("the bar wraps: " + ", ".join(f"{it['name']} {[round(x) for x in it['rect']]}" for it in rows))
    return found


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("locale", LOCALES)
def test_the_top_bar_fits_in_one_row_at_every_width(new_page, artifacts, locale: str, who: str) -> None:
    page = new_page(width=WIDTHS[-1], height=700, locale=locale)
    page.goto("/")
    page.locator("#quickplay").wait_for()
    if who == "nobody":
        page.locator(".who .reg").wait_for()
    else:
        if who == "guest":
            page.evaluate("async () => (await import('/static/js/api.js')).ensureGuest()")
            page.locator(".who .me.guest").wait_for(state="attached")
        else:
            name = f"header_{locale[:2]}_" + "w" * 14  # 24 characters, the longest name there is
            page.evaluate("async n => (await import('/static/js/api.js')).register(n, 'correct horse 1')", name)
            page.locator(".who a.name").wait_for()
        page.wait_for_function("() => /\\d/.test(document.querySelector('.who .balance')?.textContent || '')")
    problems: dict[int, list[str]] = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 700})
        page.wait_for_function("w => document.documentElement.clientWidth === w", arg=width)
        found = _problems(page.evaluate(HEADER_JS))
        if found:
            problems[width] = found
            page.screenshot(path=str(artifacts / f"header-{who}-{locale}-{width}.png"), clip={"x": 0, "y": 0, "width": width, "height": 120})
    assert not problems, problems
    assert not page.errors, page.errors
