"""Resigning mid-hand (R28), a closed tab that reconnects to the same state,
a whole hand at the phone viewport, the language switch, and the measured
numbers (first load, table page bytes, update-to-screen time)."""

from __future__ import annotations

import json
import statistics
import time

import pytest

pytestmark = pytest.mark.browser


def _quickplay(page, ui, level: str = "station") -> str:
    page.goto("/")
    page.locator(f"label[for=qlevel-{level}]").click()
    page.locator("label[for=qbots-1]").click()
    page.locator("#quickplay").click()
    page.wait_for_url("**/#/table/*")
    ui.wait_for(page, ui.MY_TURN)
    return page.url


def test_resign_mid_hand(new_page, ui):
    page = new_page()
    _quickplay(page, ui)
    state = ui.state(page)
    assert not state["view"]["hand_over"], "a hand is in progress"
    me = state["you"]["seat"]
    page.locator(".table-head button", has_text="Resign").click()
    dialog = page.locator("dialog[open]")
    assert "Resign" in dialog.locator("h2").inner_text()
    dialog.locator("button", has_text="Keep playing").click()
    # Cancelling keeps the game going.  Not "it is still my turn": the turn
    # clock (5 s here) may run out on a busy machine while the dialog is open.
    after = ui.state(page)["view"]
    assert not after["finished"] and after["seats"][me]["in_tournament"], "cancelling keeps the game going"
    assert page.locator("dialog[open]").count() == 0
    page.locator(".table-head button", has_text="Resign").click()
    page.locator("dialog[open] button", has_text="Resign").click()
    page.locator(".endscreen h1").wait_for()
    view = ui.state(page)["view"]
    assert view["finished"]
    assert view["seats"][me]["place"] == 2
    assert view["seats"][me]["stack"] == 0, "R28: the resigning player's chips leave the game"
    assert "You finished 2nd" in page.locator(".endscreen").inner_text()


def test_closed_tab_reconnects_to_the_same_state(new_page, ui):
    page = new_page()
    url = _quickplay(page, ui)
    before = ui.state(page)
    me = before["you"]["seat"]
    context = page.context
    page.close()
    again = new_page(context=context)
    again.goto(url)
    ui.wait_for(again, ui.MY_TURN)
    after = ui.state(again)
    assert after["you"]["seat"] == me
    assert after["view"]["hand_number"] >= before["view"]["hand_number"]
    # The turn clock (5 s here) keeps running while no tab is open: on a
    # busy machine it can run out before the new tab loads, and the table
    # moves on.  Whatever it reached, the new tab shows it; when it is still
    # the same hand and street, it is exactly the state the closed tab showed.
    if after["view"]["hand_number"] == before["view"]["hand_number"]:
        assert after["view"]["seats"][me]["cards"] == before["view"]["seats"][me]["cards"]
        if after["view"]["board"] == before["view"]["board"]:
            assert after["view"]["legal"] == before["view"]["legal"]
    assert again.locator(".seat.me .hole .card:not(.slot):not(.back)").count() == 2
    ui.passive(again)
    ui.wait_for(again, ui.PAST_VERSION, after["version"])


def test_phone_viewport_whole_hand(new_page, ui, artifacts):
    page = new_page(width=375, height=667, locale="cs-CZ")
    _quickplay(page, ui)
    fold_label = page.locator(".actionbar .btn.fold .lbl")
    ui.wait_for(page, lambda: bool(fold_label.text_content()))  # the bar renders on the next frame
    assert fold_label.text_content() == "Složit", "Czech by the browser's language"
    page.screenshot(path=str(artifacts / "phone-table.png"))
    start = ui.state(page)["view"]["hand_number"]
    overflow = []
    # The hand is over once the view says so or the next hand is dealt: wait on that state,
    # never on the result box, which shows only during the pause (R30) and may be gone.
    while ui.state(page)["view"]["hand_number"] == start and not ui.state(page)["view"]["hand_over"]:
        version = ui.version(page)  # before looking for the turn (Ui.await_news)
        if ui.my_turn(page):
            for sel in (".actionbar .moves .btn.fold", ".actionbar .moves .btn.raise, .actionbar .moves .btn.allin"):
                box = page.locator(sel).first.bounding_box()
                if box and box["y"] + box["height"] > 667:
                    overflow.append(sel)
            ui.passive(page)
        ui.moved_on(page, version)  # the move applied, the next turn or the hand's end: a state, not a time
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no horizontal scrolling"
    page.screenshot(path=str(artifacts / "phone-result.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "no horizontal scrolling"
    assert not overflow, f"action buttons below the fold: {overflow}"


def test_language_switch_and_catalogs(new_page, server):
    page = new_page(locale="en-US")
    page.goto("/#/rules")
    page.locator("#rule-R26").wait_for()
    assert "Don't wait" in page.locator("#rule-R26").inner_text()
    page.locator("#lang").click()
    page.locator("#rule-R26", has_text="Nečekat").wait_for()
    assert page.evaluate("document.documentElement.lang") == "cs"
    assert "Pozice je síla" in page.locator("#rules-tips").inner_text()
    # every key of one catalog exists in the other, rules included
    missing = page.evaluate("""async () => {
      const en = (await import('/static/i18n/en.js')).default, cs = (await import('/static/i18n/cs.js')).default;
      const re = (await import('/static/i18n/rules.en.js')).default, rc = (await import('/static/i18n/rules.cs.js')).default;
      const diff = (a, b) => Object.keys(a).filter(k => !(k in b));
      const ids = r => r.sections.flatMap(s => s.items.map(i => i[0])).join(',');
      return {enOnly: diff(en, cs), csOnly: diff(cs, en), rules: ids(re) === ids(rc) ? '' : 'R-numbers differ',
              count: ids(re).split(',').length, tips: [re.tips.length, rc.tips.length]};
    }""")
    assert missing == {"enOnly": [], "csOnly": [], "rules": "", "count": 30, "tips": [4, 4]}


def test_the_page_names_hands_with_the_servers_words(new_page, server):
    """No poker in the page (design "No poker in the page"): poker.js has no
    evaluator, and a shown hand is named with the server's words in both languages."""
    from freezeout.evaluate.describe import describe_rank

    page = new_page(locale="en-US")
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    exported = page.evaluate("async () => Object.keys(await import('/static/js/poker.js')).sort()")
    assert not {"evaluate", "describeRank", "fiveCardClasses", "bestFive"} & set(exported), exported
    names = {"en": describe_rank(7281), "cs": describe_rank(7281, "cs")}
    event = {"type": "cards_shown", "seat": 0, "cards": "KsKd", "rank": 7281, "names": names}
    named = "e => import('/static/js/poker.js').then(p => p.handName(e))"
    assert page.evaluate(named, event) == "Full house, kings full of tens"
    page.locator("#lang").click()
    page.locator("html[lang=cs]").wait_for(state="attached")
    assert page.evaluate(named, event) == describe_rank(7281, "cs")


def test_measured_numbers(new_page, ui, server, artifacts):
    """First page load on loopback, bytes of the table page, and the time from
    a WebSocket update to the updated table on screen."""
    page = new_page()
    t0 = time.monotonic()
    page.goto("/")
    page.locator("#quickplay").wait_for()
    first_paint_s = time.monotonic() - t0
    nav = page.evaluate("(() => { const n = performance.getEntriesByType('navigation')[0]; return {load: n.loadEventEnd, dcl: n.domContentLoadedEventEnd}; })()")
    # the same in a second fresh context: an empty cache, but the browser already running
    second = new_page()
    second.goto("/")
    second.locator("#quickplay").wait_for()
    nav2 = second.evaluate("(() => { const n = performance.getEntriesByType('navigation')[0]; return {load: n.loadEventEnd, dcl: n.domContentLoadedEventEnd}; })()")
    second.close()
    url = _quickplay(page, ui)
    # a fresh context loads the table page cold: count every byte it transfers
    cold = new_page()
    cold.goto(url)
    ui.wait_for(cold, lambda: ui.state(cold) is not None)
    cold.wait_for_load_state("networkidle")
    transferred = cold.evaluate("""(() => {
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
      return entries.reduce((a, e) => a + (e.transferSize || e.encodedBodySize || 0), 0); })()""")
    decoded = cold.evaluate("""(() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .reduce((a, e) => a + (e.decodedBodySize || 0), 0))()""")
    cold.close()
    # play a few hands and read the update -> painted times
    # play until ten updates were painted (a condition, not a time: a busy machine only plays slower)
    painted = lambda: page.evaluate("window.__fzMetrics.updates.length") >= 10  # noqa: E731
    while not painted() and not ui.ended(page):
        ui.wait_for(page, lambda: ui.my_turn(page) or ui.ended(page) or painted(), timeout=120)
        if ui.my_turn(page):
            ui.passive(page)
            ui.wait_for(page, lambda: not ui.my_turn(page) or ui.ended(page), timeout=120)
    samples = page.evaluate("window.__fzMetrics.updates.map(u => u.ms)")
    assert samples
    numbers = {
        "first_load_ms": round(nav["load"], 1),
        "first_load_dom_content_loaded_ms": round(nav["dcl"], 1),
        "cold_cache_warm_browser_load_ms": round(nav2["load"], 1),
        "lobby_usable_s_wall": round(first_paint_s, 3),
        "table_page_transferred_bytes": transferred,
        "table_page_decoded_bytes": decoded,
        "ws_update_to_screen_ms_median": round(statistics.median(samples), 2),
        "ws_update_to_screen_ms_p95": round(sorted(samples)[int(len(samples) * 0.95) - 1], 2),
        "ws_update_samples": len(samples),
    }
    (artifacts / "metrics.json").write_text(json.dumps(numbers, indent=2))
    print(json.dumps(numbers))
    assert transferred < 300_000, numbers
    # The update -> screen times are reported (artifacts/metrics.json, bench), never asserted:
    # a wall-clock number fails at random on a busy machine.
