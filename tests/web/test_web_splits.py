"""Hi/lo splits with amounts (issue #31 item 4, V6, V9).

Each half of a split pot says its amount and its winners, live and in the replayer, in
English and Czech: "High 35 — you (…); Low 35 — bo 18 & cy 17 (…)" — a quartered half names
each winner's chips, the odd chip included (V9).  Every number is the view's (its
``result``): the page counts nothing.
"""

from __future__ import annotations

import pytest
from scripted import mount
from test_web_replayer_games import GameScript

pytestmark = pytest.mark.browser

WORDS = {"en": ("High", "Low", "you"), "cs": ("Vysoká", "Nízká", "ty")}
CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""
NUMBER_JS = "async n => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang()).format(n)"


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_a_quartered_split_pot_says_each_halfs_amount_and_each_winners_chips_live_and_replayed(new_page, locale):
    page = new_page(locale=locale)
    lang = locale[:2]
    mount(page)
    # ana: trips kings for high, no low; bo and cy: the same 8-7-4-3-2 low (quartered);
    # dan folds his small blind: 35 a half, the low half 18 + 17 (V9's odd chip)
    s = GameScript("FO/8", ["ana", "dan", "bo", "cy"], viewer=0)
    s.deal({0: "AhKdQsJc", 1: "5s6s9dTc", 2: "3c8d9hTs", 3: "3d8h9cTd"}, "2c4d7hKcKs")
    s.feed(page, s.snapshot())
    folded = False
    while s.t.in_hand:
        moves = s.t.legal_actions().moves
        if s.t.to_act == 1 and not folded:
            events, folded = s.act(1, "fold"), True
        else:
            events = s.act(s.t.to_act, "check" if "check" in moves else "call")
        s.feed(page, s.update(events))
    result = page.locator(".actionbar .hand-result")
    result.wait_for()
    high, low = (next(p for p in s.view()["result"] if p["half"] == half) for half in ("high", "low"))
    assert [w["chips"] for w in low["winners"]] == [18, 17] and high["amount"] == 35, "the scripted hand is the case"
    fmt = lambda n: page.evaluate(NUMBER_JS, n)  # noqa: E731
    hi, lo, you = WORDS[lang]
    want = [f"{hi} {fmt(high['amount'])} — {you} ({high['names'][lang]})",
            f"{lo} {fmt(low['amount'])} — bo {fmt(18)} & cy {fmt(17)} ({low['names'][lang]})"]
    text = result.inner_text()
    for line in want:
        assert line in text, (line, text)
    # the replayer says the same, from the server's steps of the hand
    page.locator(".table-head button[aria-keyshortcuts=H]").click()
    log = page.locator("dialog[open] .replayer .log")
    log.locator("li").first.wait_for()
    page.wait_for_function("w => document.querySelector('dialog[open] .replayer .log').textContent.includes(w)", arg=want[1])
    replayed = log.inner_text()
    for line in want:
        assert line in replayed, (line, replayed)
    assert not page.errors, page.errors
