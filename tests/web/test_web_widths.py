"""No page wider than the window (issue #31 item 3).

The lobby (with cash tables of two games listed and "Create cash table" offered to a player),
the profile, the rules, a cash table and the replayer, at 360, 375, 390, 414, 768, 1024 and
1366 px and at 721 and 744 px (where the Czech header overflowed), in English and Czech:
``scrollWidth <= innerWidth``, and what sticks out is named when it fails.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, Script
from test_web_cash import _register_on, cash_server  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

WIDTHS = [360, 375, 390, 414, 721, 744, 768, 1024, 1366]

# the page's width, and the elements whose right edge is past the window (the deepest ones)
WIDE_JS = """() => {
  const w = window.innerWidth;
  const out = [...document.querySelectorAll('body *')].filter(el => {
    const b = el.getBoundingClientRect(); if (b.width === 0 || b.right <= w + 0.5) return false;
    for (let p = el.parentElement; p; p = p.parentElement) { const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' && p !== document.body && p !== document.documentElement) return false; }
    return ![...el.children].some(c => c.getBoundingClientRect().right > w + 0.5);
  }).slice(0, 4).map(el => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' ' + Math.round(el.getBoundingClientRect().right)
    + ' ' + (el.textContent || '').trim().slice(0, 30));
  return {scroll: document.documentElement.scrollWidth, inner: w, out};
}"""

FRAME_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _too_wide(page: Any, where: str) -> list[str]:
    found = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        # the page has taken the new width (a busy machine may lay it out a frame late)
        page.wait_for_function("w => window.innerWidth === w && document.documentElement.clientWidth <= w", arg=width)
        page.evaluate(FRAME_JS)
        data = page.evaluate(WIDE_JS)
        if data["scroll"] > data["inner"]:
            found.append(f"{where} at {width}px is {data['scroll']}px wide: {data['out']}")
    return found


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_no_page_is_wider_than_the_window(new_page, cash_server, locale):  # noqa: F811
    page = new_page(width=375, height=667, locale=locale, server=cash_server)
    found: list[str] = []
    page.goto("/")
    page.locator(".who .reg").wait_for()
    page.locator(f"section.cash-tables li[data-table='{cash_server.cash['po']}']").wait_for()
    found += _too_wide(page, "the lobby of a guest")
    _register_on(page, f"wide_{locale[:2]}")
    section = page.locator("section.cash-tables")
    section.locator(f"li[data-table='{cash_server.cash['po']}']").wait_for()
    section.locator(".create-cash").wait_for()
    assert {li.get_attribute("data-game") for li in section.locator("li").all()} >= {"NT", "PO"}
    found += _too_wide(page, "the lobby")
    page.goto("/#/profile")
    page.locator(".profile").first.wait_for()
    found += _too_wide(page, "the profile")
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    found += _too_wide(page, "the rules")
    page.goto(f"/#/table/{cash_server.cash['po']}")
    page.locator(".felt-wrap .seat").first.wait_for()
    found += _too_wide(page, "a cash table")
    # the replayer: a finished hand of a table, from its history button
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    page.evaluate(MOUNT_JS)
    page.wait_for_function("() => typeof window.__fzFeed === 'function'")
    s = Script(["alice_ux", "bot-station", "bot-medium"], bots={1: "station", 2: "medium"})
    s.deal({0: "AhKh", 1: "7c2d", 2: "KsKd"}, "Qh9s4h8s3d")
    events = []
    while s.t.in_hand:
        events += s.act(s.t.to_act, "call" if "call" in s.t.legal_actions().moves else "check")
    s.feed(page, s.snapshot())
    page.locator(".table-head button[aria-keyshortcuts=H]").click()
    page.locator("dialog[open] .replayer .log li").first.wait_for()
    found += _too_wide(page, "the replayer")
    assert not found, "\n".join(found)
