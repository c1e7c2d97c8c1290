"""The lobby (issue #21, items 2, 5, 8 and 11): leaving a table where you still
play asks first, and the lobby then says when it is your turn there (banner, tab
title, the table's alert, one tap back); the profile's past games show Replay
at every width; guests have readable names, a player chooses the name shown
everywhere and a bot has one name; the lobby names the game it deals."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import uuid

import pytest

pytestmark = pytest.mark.browser

HOUSE = "No-Limit Texas Hold'em freezeout, 1,000 chips, blinds 10/20, up every 6 hands"
HOUSE_CS = "No-Limit Texas Hold'em freezeout, 1\u00a0000 žetonů, blindy 10/20, rostou každých 6 rukou"
# every alert of alerts.js vibrates where the phone can: counted here
COUNT_VIBRATIONS = "window.__vibrations = 0; navigator.vibrate = () => { window.__vibrations += 1; return true; };"
MY_TURN_IN_VIEW = """() => { const t = window.__fzTable; const v = t && t.state.view;
  return !!(v && !v.hand_over && v.viewer != null && v.to_act === v.viewer); }"""

LIVE_SEAT = """() => { const t = window.__fzTable; const s = t && t.state; const v = s && s.view;
  return !!(v && !v.finished && s.you && s.you.seat != null && v.seats[s.you.seat].in_tournament); }"""


def _at_my_turn(page, ui) -> str:
    page.goto("/")
    page.locator("label[for=qbots-1]").click()
    page.locator("#quickplay").click()
    page.wait_for_url("**/#/table/*")
    ui.wait_for(page, ui.MY_TURN)
    page.wait_for_function(MY_TURN_IN_VIEW)
    return page.url


def _lobby_button(page):
    return page.locator(".table-head a.btn[href='#/']")


def test_leaving_a_live_seat_asks_and_the_lobby_tells_your_turn(new_page, ui):
    page = new_page()
    page.add_init_script(COUNT_VIBRATIONS)
    table_url = _at_my_turn(page, ui)

    _lobby_button(page).click()  # "← Lobby" in the middle of a game: asked first, in the page's own dialog
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "Leave the table?"
    assert "two in a row put you out" in dialog.inner_text()
    dialog.locator("button", has_text="Stay at the table").click()
    page.locator("dialog[open]").wait_for(state="detached")
    page.wait_for_url(table_url)  # staying keeps the table, at its address
    assert page.locator(".table-page").count() == 1

    _lobby_button(page).click()
    before = page.evaluate("window.__vibrations")  # the table's own alert has rung for this turn
    page.locator("dialog[open] button", has_text="Go to the lobby").click()
    page.locator("#quickplay").wait_for()
    banner = page.locator(".seatwatch.your-turn .seatwatch-row.turn")
    banner.wait_for()
    assert banner.locator("b").inner_text() == "Your turn at the table with Max"
    page.wait_for_function("() => document.title.startsWith('▶ Your turn — Max')")
    page.wait_for_function(f"() => window.__vibrations > {before}")  # the table's alert (alerts.js), here too
    box = banner.locator("a.seatwatch-back").bounding_box()
    viewport = page.viewport_size
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], "the way back is in view"

    banner.locator("a.seatwatch-back").click()  # one tap back
    page.wait_for_url(table_url)
    page.wait_for_function(LIVE_SEAT)
    assert not page.evaluate("document.title").startswith("▶"), "the table has its own title again"
    assert page.locator(".seatwatch").count() == 0

    page.locator("#lang").click()  # in Czech too (the table page is made anew: wait for its seat)
    page.wait_for_function("document.documentElement.lang === 'cs'")
    page.wait_for_function(LIVE_SEAT)
    _lobby_button(page).click()
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "Odejít od stolu?"
    assert dialog.locator("button", has_text="Do lobby").count() == 1
    dialog.locator("button", has_text="Zůstat u stolu").click()
    page.locator("dialog[open]").wait_for(state="detached")
    page.wait_for_url(table_url)


def test_a_finished_game_leaves_without_asking(new_page, ui):
    page = new_page()
    _at_my_turn(page, ui)
    page.locator(".table-head button", has_text="Resign").click()
    page.locator("dialog[open] button", has_text="Resign").click()
    page.locator(".endscreen h1").wait_for()
    _lobby_button(page).click()
    page.locator("#quickplay").wait_for()
    assert page.locator("dialog[open]").count() == 0
    assert page.locator(".seatwatch").is_hidden()


@pytest.mark.parametrize(("width", "height"), [(375, 667), (1366, 900)])
def test_past_games_show_replay_at_every_width(new_page, ui, width, height):
    page = new_page(width=width, height=height)
    _at_my_turn(page, ui)
    page.locator(".table-head button", has_text="Resign").click()
    page.locator("dialog[open] button", has_text="Resign").click()
    page.locator(".endscreen h1").wait_for()
    page.goto("/#/profile")
    row = page.locator("table.past tbody tr").first
    row.wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    overflow = page.evaluate("""() => [document.documentElement.scrollWidth - innerWidth,
      ...[...document.querySelectorAll('.profile *')].filter(e => e.scrollWidth > e.clientWidth + 1 &&
        ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)).map(e => e.className)]""")
    assert overflow == [0], f"nothing scrolls sideways: {overflow}"
    for label in ("Replay final hand", "Replay", "JSON", "PHH"):
        button = row.locator(".btn", has_text=label).first
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (label, box)
    row.locator(".btn", has_text="Replay").last.click()
    page.locator("dialog[open] .replayer").wait_for()


def _set_ranked_games(server, name: str, games: int) -> None:
    with contextlib.closing(sqlite3.connect(server.log.parent / "web.db", timeout=30)) as conn:
        conn.execute("UPDATE users SET ranked_games = ? WHERE name = ?", (games, name))
        conn.commit()


def test_readable_names_chosen_names_and_one_name_per_bot(new_page, ui, server):
    page = new_page()
    _at_my_turn(page, ui)
    guest = page.locator(".who .guest-name").inner_text()
    assert re.fullmatch(r"Guest \d{4,}", guest), guest
    assert page.locator(".seat.me .pname").inner_text() == guest, "the table shows the guest's readable name"

    tag = uuid.uuid4().hex[:4]
    other = new_page()
    ui.register(other, f"Alice{tag}")
    page.locator(".table-head button", has_text="Resign").click()
    page.locator("dialog[open] button", has_text="Resign").click()
    page.locator(".endscreen h1").wait_for()
    page.goto("/#/profile")
    field = page.locator("#display-name")
    field.wait_for()
    field.fill(f"AIice{tag}")  # reads like Alice…: refused, saying whose name it looks like
    page.locator(".name-form button[type=submit]").click()
    error = page.locator("#display-error")
    error.wait_for()
    assert error.inner_text() == f"That name reads too much like Alice{tag}, another player’s name: choose another."
    page.locator("#display-name").fill("Max")  # a bot's name
    page.locator(".name-form button[type=submit]").click()
    page.locator("#display-error", has_text="belongs to a bot").wait_for()
    chosen = f"Rosa {tag}"
    page.locator("#display-name").fill(chosen)
    page.locator(".name-form button[type=submit]").click()
    page.locator(".who .guest-name", has_text=chosen).wait_for()
    page.locator(".profile h1", has_text=chosen).wait_for()
    assert page.locator("table.past tbody tr").count() == 1, "the game played as a guest stays on the profile"

    page.goto("/")
    page.locator("#create-title").wait_for()
    assert page.locator(".create .create-slots").inner_text().count(chosen) == 1
    page.locator("#quickplay").click()
    page.wait_for_url("**/#/table/*")
    page.locator(".seat.me .pname", has_text=chosen).wait_for()

    _set_ranked_games(server, "bot-medium", 12)  # the bot on the leaderboard: Max, as at the table
    board = new_page()
    board.goto("/")
    row = board.locator(".leader tr[data-name='bot-medium']")
    row.wait_for()
    assert row.locator("a").inner_text() == "Max" and "bot" in row.inner_text()
    row.locator("a").click()
    board.locator(".profile h1").wait_for()
    assert board.locator(".profile h1").inner_text() == "Profile of Max"


def test_the_lobby_names_the_game(new_page, ui):
    page = new_page()
    page.goto("/")
    page.locator("#quick-game").wait_for()
    assert page.locator("#quick-game").inner_text() == HOUSE
    assert page.locator("#create-game").inner_text() == "Game: " + HOUSE
    watcher = new_page()
    _at_my_turn(watcher, ui)  # a table in the list
    table_id = watcher.url.rsplit("/", 1)[1]
    listed = page.locator(f".table-list li[data-table='{table_id}'] .game-line")
    listed.wait_for()
    assert listed.inner_text() == HOUSE
    page.locator("#lang").click()
    page.wait_for_function("document.documentElement.lang === 'cs'")
    page.locator("#quick-game", has_text="žetonů").wait_for()
    assert page.locator("#quick-game").inner_text() == HOUSE_CS
