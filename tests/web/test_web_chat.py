"""Table chat and notes in the browser (issue #37): two players chat in two contexts, markup
in a line is shown as text, one reports and mutes the other, hides the chat; a note and
label on a player is shown by their seat to its author only.  On a phone (360x640, Czech:
the chat a sheet from the top that ends above the action bar) and a desktop (1366x900,
English: the chat beside the felt), input and send inside the viewport."""

from __future__ import annotations

import re
import uuid

import pytest

pytestmark = pytest.mark.browser

XSS = '<img src=x onerror="window.__xss=1"><b>bold</b>'
CASES = [pytest.param(1366, 900, "en-US", id="desktop-en"), pytest.param(360, 640, "cs-CZ", id="phone-cs")]


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def _heads_up(new_page, ui, width: int, height: int, locale: str):
    a, b = new_page(width, height, locale), new_page(width, height, locale)
    name_a, name_b = _name("ana"), _name("bo")
    ui.register(a, name_a)
    ui.register(b, name_b)
    a.goto("/")
    a.locator("label[for=csize-2]").click()
    a.select_option("#cslot-1", "")
    a.locator(".create button[type=submit]").click()
    a.wait_for_url("**/#/table/*")
    table_id = re.search(r"#/table/([^/]+)$", a.url).group(1)
    b.goto(f"/#/table/{table_id}")
    b.locator(".seat.empty .plate").first.click()
    for page in (a, b):
        ui.wait_for(page, lambda p=page: (ui.state(p)["view"] or {}).get("hand_number", 0) >= 1)
    return a, b, name_a, name_b


def _inside(page, locator) -> None:
    box = locator.bounding_box()
    view = page.viewport_size
    assert box is not None, "not drawn"
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= view["width"] + 0.5 \
        and box["y"] + box["height"] <= view["height"] + 0.5, (box, view)


def _open_chat(page, phone: bool) -> None:
    if phone:
        page.locator(".chat-toggle").click()
    page.locator(".chat-panel .chat-input").wait_for(state="visible")


def _errors(*pages) -> list[str]:
    """Console errors, less the browser's note that a turn alert could not vibrate before a tap."""
    return [e for p in pages for e in p.errors if "navigator.vibrate" not in e]


def _lines_seen(page) -> int:
    return int(page.evaluate("() => window.__fzTable.chat.seen.size"))


@pytest.mark.parametrize(("width", "height", "locale"), CASES)
def test_chat_between_two_players_with_report_mute_and_hide(new_page, ui, artifacts, width, height, locale):
    phone = width < 700
    a, b, _name_a, _ = _heads_up(new_page, ui, width, height, locale)
    for page in (a, b):
        _open_chat(page, phone)
        _inside(page, page.locator(".chat-panel .chat-input"))
        _inside(page, page.locator(".chat-panel .chat-send"))
        panel = page.locator(".chat-panel").bounding_box()
        if phone:  # the sheet ends above the action bar: the moves stay free on your turn
            bar = page.locator(".actionbar").bounding_box()
            assert panel["y"] + panel["height"] <= bar["y"], (panel, bar)
        else:  # beside the felt
            felt = page.locator(".felt-box").bounding_box()
            assert panel["x"] >= felt["x"] + felt["width"] - 0.5, (panel, felt)
    send_label = "Odeslat" if locale.startswith("cs") else "Send"
    assert a.locator(".chat-panel .chat-send").inner_text().strip() == send_label
    a.fill(".chat-panel .chat-input", XSS)
    a.locator(".chat-panel .chat-send").click()
    line = b.locator(".chat-line:not(.system) .chat-text", has_text="bold")
    line.wait_for()
    assert line.inner_text() == XSS  # the markup as text
    assert b.locator(".chat-line b:not(.chat-author), .chat-line img").count() == 0
    assert b.evaluate("() => window.__xss") is None and a.evaluate("() => window.__xss") is None
    a.screenshot(path=str(artifacts / f"chat-{width}x{height}.png"))

    # b reports a's line, then mutes a: a's lines go, and a's next line is not even sent to b
    b.locator(".chat-line:not(.system) .chat-more").first.click()
    b.locator(".chat-menu .btn.danger").click()
    b.locator(".toast.info").first.wait_for()
    b.locator(".chat-line:not(.system) .chat-more").first.click()
    b.locator(".chat-menu .btn:not(.danger)").click()
    b.wait_for_function("() => !document.querySelector('.chat-line:not(.system)')")
    seen = _lines_seen(b)
    a.fill(".chat-panel .chat-input", "second line")
    a.locator(".chat-panel .chat-send").click()
    a.locator(".chat-line .chat-text", has_text="second line").wait_for()
    # b's own line, said after a's in the table's order, reaches b after anything a's would have
    b.fill(".chat-panel .chat-input", "marker")
    b.locator(".chat-panel .chat-send").click()
    b.locator(".chat-line .chat-text", has_text="marker").wait_for()
    assert _lines_seen(b) == seen + 1  # the server sent b only its own line
    assert b.locator(".chat-line:not(.system) .chat-text").all_inner_texts() == ["marker"]
    muted = b.evaluate("() => fetch('/api/chat/mutes').then(r => r.json())")
    assert muted["muted"] == [a.evaluate("() => window.__fzTable.state.you.user.id")]

    # hide the chat: its lines and form go, a button brings them back
    b.locator(".chat-hide").click()
    assert b.locator(".chat-panel .chat-lines").is_hidden() and b.locator(".chat-panel .chat-form").is_hidden()
    b.locator(".chat-hide").click()
    b.locator(".chat-panel .chat-input").wait_for(state="visible")
    assert not _errors(a, b)


@pytest.mark.parametrize(("width", "height", "locale"), CASES)
def test_a_note_is_shown_by_the_seat_to_its_author_only(new_page, ui, artifacts, width, height, locale):
    a, b, _, name_b = _heads_up(new_page, ui, width, height, locale)
    note = "<script>window.__xss=2</script> calls wide"
    a.locator(".seat:not(.me):not(.empty) .plate").first.click()
    a.locator("dialog .note-input").fill(note)
    a.locator("dialog .note-swatch[data-label=red]").click()
    a.locator("dialog .actions .btn.primary").click()
    tag = a.locator(".seat:not(.me) .note-tag")
    tag.wait_for()
    assert tag.get_attribute("data-label") == "red"
    assert tag.locator(".note-text").inner_text() == note  # as text
    assert a.locator(".seat script").count() == 0 and a.evaluate("() => window.__xss") is None
    a.screenshot(path=str(artifacts / f"note-{width}x{height}.png"))
    # b sees no note anywhere: not by a's seat, not by its own
    b.reload()
    ui.wait_for(b, lambda: (ui.state(b)["view"] or {}).get("hand_number", 0) >= 1)
    b.wait_for_function("() => document.querySelectorAll('.seat .plate').length >= 2")
    assert b.locator(".note-tag").count() == 0
    assert b.evaluate("() => fetch('/api/notes').then(r => r.json())")["notes"] == {}
    # a's note is there after a reload too, and in the profile
    a.reload()
    a.locator(".seat:not(.me) .note-tag").wait_for()
    profile = new_page(context=a.context)  # a second tab: leaving the table would ask first
    profile.goto(f"/#/profile/{name_b}")
    profile.locator(".notes-panel .note-text", has_text="calls wide").wait_for()
    _inside(profile, profile.locator(".notes-panel .btn"))
    assert not _errors(a, b, profile)


def test_the_replayer_shows_the_tables_chat_and_my_notes_by_the_seats(new_page, ui):
    a, b, _, _ = _heads_up(new_page, ui, 1366, 900, "cs-CZ")
    a.fill(".chat-panel .chat-input", "hodně štěstí <i>")
    a.locator(".chat-panel .chat-send").click()
    b.locator(".chat-line .chat-text", has_text="hodně štěstí").wait_for()
    a.locator(".seat:not(.me):not(.empty) .plate").first.click()
    a.locator("dialog .note-input").fill("bluffs the river")
    a.locator("dialog .note-swatch[data-label=blue]").click()
    a.locator("dialog .actions .btn.primary").click()
    a.locator(".seat:not(.me) .note-tag").wait_for()
    ui.play_to_end([a, b])
    for page in (a, b):
        page.locator(".table-head button[aria-keyshortcuts=H]").click()
        page.locator("dialog[open] .replayer .log li").first.wait_for()
        page.locator("dialog[open] .chat-replay .chat-text", has_text="hodně štěstí <i>").wait_for()
        assert page.locator("dialog[open] .chat-replay i").count() == 0  # as text
        assert page.locator("dialog[open] .chat-replay .chat-line.system", has_text="přisedl").count() >= 1  # Czech system lines
    note = a.locator("dialog[open] .replayer .seat .note-tag")
    note.wait_for()
    assert note.get_attribute("data-label") == "blue" and note.inner_text() == "bluffs the river"
    b.locator("dialog[open] .replayer .seat").first.wait_for()
    assert b.locator("dialog[open] .replayer .note-tag").count() == 0  # only its author sees it
    assert not _errors(a, b)
