"""Issue #11's "Should fix" list: the end screen, the lobby, the phone header,
the pot before the flop, folded cards, the replayer's log and the words of
both catalogs (no rule codes, neutral Czech)."""

from __future__ import annotations

import re

import pytest
from scripted import Script, mount

pytestmark = pytest.mark.browser

CATALOGS_JS = """async () => ({en: (await import('/static/i18n/en.js')).default, cs: (await import('/static/i18n/cs.js')).default})"""


def _texts(value) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in value.values() if isinstance(v, str)] if isinstance(value, dict) else []


def test_player_facing_words(new_page):
    page = new_page()
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    catalogs = page.evaluate(CATALOGS_JS)
    codes = [(lang, key) for lang, cat in catalogs.items() for key, value in cat.items()
             for text in _texts(value) if re.search(r"\(R\d+\)", text)]
    assert not codes, f"rule codes in player-facing text: {codes}"
    cs = catalogs["cs"]
    words = " | ".join(text for value in cs.values() for text in _texts(value))
    for stiff in ("Vyhrál jsi", "Skončil jsi", "Ranked", "Složil", "Budeš hned vyřazen"):
        assert stiff not in words, stiff
    assert cs["create.size"] != "Míst" and cs["leader.games"] != "Her"
    assert catalogs["en"]["table.resign"] == "Resign" and cs["table.resign"] == "Vzdát se"


def _game_of_three(page) -> Script:
    """ana (the viewer) shoves and wins against two calls: bo and cy are out in the same
    hand, so their stack lines would lie on one another."""
    mount(page)
    s = Script(["ana", "bo", "cy"], button=0, viewer=0)
    s.deal({0: "AsAd", 1: "KsKd", 2: "QsQd"}, "Ah9s4c8h3d")
    s.feed(page, s.snapshot())
    s.pause = 0
    s.feed(page, s.update(s.act(0, "allin") + s.act(1, "call") + s.act(2, "call")))
    page.locator(".endscreen:not([hidden]) h1").wait_for()
    return s


def test_end_screen_header_rematch_lines_and_chart(new_page):
    page = new_page()
    s = _game_of_three(page)
    assert page.locator(".table-head .info").inner_text().startswith("Game over")
    assert "next level" not in page.locator(".table-head").inner_text()
    paths = page.locator(".endscreen .stack-chart svg.chart path.line").evaluate_all("els => els.map(e => e.getAttribute('d'))")
    assert len(paths) == 3 and len(set(paths)) == 3, "two players out together keep lines of their own"
    s.feed(page, s.update([{"type": "rematch_accepted", "seat": 1}, {"type": "rematch_accepted", "seat": 2}]))
    page.locator(".endscreen .rematch-info li").nth(1).wait_for()
    assert page.locator(".endscreen .rematch-info li").all_inner_texts() == ["bo wants a rematch", "cy wants a rematch"]


def test_czech_end_screen_place_reads_once(new_page):
    page = new_page(locale="cs-CZ")
    mount(page)
    s = Script(["ana", "bo"], button=0, viewer=0)
    s.deal({0: "KsKd", 1: "AsAd"}, "Ah9s4c8h3d")
    s.feed(page, s.snapshot())
    s.pause = 0
    s.feed(page, s.update(s.act(0, "allin") + s.act(1, "call")))
    page.locator(".endscreen:not([hidden]) h1").wait_for()
    text = page.locator(".endscreen .banner").inner_text()
    assert "Tvoje umístění: 2." in text and "2.." not in text


def test_phone_header_pot_before_the_flop_and_folded_cards(new_page):
    page = new_page(width=375, height=740, locale="cs-CZ")
    mount(page)
    s = Script(["ana", "bo", "cy"], button=0, viewer=0)
    s.deal({0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s")
    s.feed(page, s.snapshot())
    short = page.locator(".table-head .level .short")
    assert short.is_visible() and "↑" not in short.inner_text() and "6" in short.inner_text()
    assert page.locator(".pots .pot").first.inner_text().replace("\n", " ").endswith("30"), "the blinds make a pot before the flop"
    s.feed(page, s.update(s.act(0, "fold")))
    hole = page.locator(".felt-wrap .seat.me.folded .hole")
    assert float(hole.evaluate("el => getComputedStyle(el).opacity")) < 1, "your folded cards are dimmed"
    s.pause = 3600
    s.feed(page, s.update(s.act(1, "fold")))
    assert float(page.locator(".felt-wrap .seat.me .hole").evaluate("el => getComputedStyle(el).opacity")) < 1, \
        "and stay dimmed while the hand's result is shown"


def test_replayer_log_keeps_two_digit_steps(new_page):
    page = new_page()
    _game_of_three(page)
    page.locator(".end-actions button", has_text="Hand history").click()
    log = page.locator("dialog[open] .replayer .log")
    log.locator("li").nth(10).wait_for()
    pad, size = log.evaluate("el => [parseFloat(getComputedStyle(el).paddingLeft), parseFloat(getComputedStyle(el).fontSize)]")
    assert pad >= 2.4 * size, "room for the marker '10.' and more"
    text = log.inner_text()
    assert not re.search(r"\b(10|[2-9JQKA])[shdc]\b", text), "cards read as symbols, not codes"
    assert "shows A♠ A♦: three of a kind, aces" in text
    # the arrow keys move it wherever the focus is in the dialog
    page.locator("dialog[open] .replayer .controls button[aria-label='Start']").click()
    page.keyboard.press("ArrowRight")
    assert page.locator("dialog[open] .replayer .log li").nth(1).get_attribute("class") == "cur"


def _open_heads_up_table(new_page) -> str:
    """A guest opens a heads-up table from the lobby and waits at it: its id."""
    host = new_page()
    host.goto("/")
    host.locator("label[for=csize-2]").click()
    host.locator(".create button[type=submit]").click()
    host.wait_for_url("**/#/table/*")
    return host.url.rsplit("/", 1)[1]


def test_lobby_waiting_table_tiles_and_card_art(new_page, ui):
    table_id = _open_heads_up_table(new_page)
    page = new_page(width=360, height=780, locale="cs-CZ")
    page.goto("/")
    row = page.locator(f".table-list li[data-table='{table_id}']")
    row.wait_for()
    who = row.locator(".who-sits").inner_text()
    assert "·" not in who and who.startswith("Guest "), who
    assert "1 volné místo" in row.locator(".meta").inner_text()
    panel = page.locator(".quick").bounding_box()
    art = page.locator(".quick-art").bounding_box()
    assert art["x"] >= panel["x"] and art["y"] >= panel["y"] and art["x"] + art["width"] <= panel["x"] + panel["width"]
    for handle in page.locator(".levels label").element_handles():
        assert page.evaluate("el => el.scrollWidth <= el.clientWidth + 1", handle), page.evaluate("el => el.textContent", handle)


def test_the_lobby_shows_tables_as_they_open_and_start(new_page):
    """The lobby is pushed (docs/protocol.md "The lobby"): a table opened in another browser
    appears without a reload or a click, and its row turns to playing once its game starts."""
    watcher = new_page()
    watcher.goto("/")
    watcher.locator(".tables .section-head").wait_for()
    table_id = _open_heads_up_table(new_page)
    row = watcher.locator(f".table-list li[data-table='{table_id}']")
    row.wait_for()
    assert row.locator(".pill.playing").count() == 0
    guest = new_page()
    guest.goto(f"/#/table/{table_id}")
    guest.locator(".seat.empty .plate").first.click()
    row.locator(".pill.playing").wait_for()
    assert not watcher.errors, watcher.errors


def test_turn_sound_switch_and_slider_in_big_blinds(new_page):
    page = new_page()
    mount(page)
    s = Script(["ana", "bo"], button=0, viewer=0)
    s.deal({0: "7c2d", 1: "8c3d"}, "Ah9s4c8h5s")
    s.feed(page, s.snapshot())
    switch = page.locator(".table-head .sound")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('fz-sound')") == "off", "the mute is remembered"
    legal = s.view()["legal"]
    big = s.view()["blinds"][1]
    slider = page.locator(".sizer input[type=range]")
    assert slider.get_attribute("step") == str(big)
    amount = page.locator(".sizer input[type=number]")
    slider.evaluate("(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input')); }", legal["min_to"] + big + 7)
    assert (int(amount.input_value()) - legal["min_to"]) % big == 0, "the slider moves in whole big blinds"
    slider.evaluate("(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input')); }", legal["max_to"])
    assert int(amount.input_value()) == legal["max_to"], "its last step is all-in"
