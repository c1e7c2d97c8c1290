"""Ratings per game family on the page (issue #22; docs/protocol.md "Ratings"): the
leaderboard has a family picker — the house game's board by default, as always —
and a profile plots the rating history of the family picked, in English and Czech."""

from __future__ import annotations

import contextlib
import sqlite3
import time
import uuid

import pytest

pytestmark = pytest.mark.browser


def _seed_family(server, name: str, family: str, history: list[tuple[float, float]]) -> None:
    """As if the account had played ``history`` (before, after) counted games in ``family``
    lately, each against another registered player who vouched for it (elo.established, #32)."""
    with contextlib.closing(sqlite3.connect(server.log.parent / "web.db", timeout=30)) as conn:
        (user_id,) = conn.execute("SELECT id FROM users WHERE name = ?", (name,)).fetchone()
        conn.execute("INSERT INTO ratings (user_id, family, rating, ranked_games) VALUES (?, ?, ?, ?)",
                     (user_id, family, history[-1][1], len(history)))
        now = time.time()
        conn.executemany("INSERT INTO rating_history (user_id, game_id, before, after, at, family, opponent, vouched) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
                         [(user_id, f"{name}-{family}-{i}", before, after, now - 3600.0 * (len(history) - i), family, -1 - i)
                          for i, (before, after) in enumerate(history)])
        conn.commit()


def test_the_leaderboard_and_the_profile_show_each_family(new_page, ui, server, artifacts):
    tag = uuid.uuid4().hex[:6]
    ana, bo = f"ana{tag}", f"bo{tag}"
    page = new_page()
    ui.register(new_page(), bo)
    ui.register(page, ana)
    _seed_family(server, ana, "omaha", [(1500.0, 1540.0), (1540.0, 1575.0)] * 6)
    _seed_family(server, bo, "omaha", [(1500.0, 1460.0)])
    page.goto("/")

    picker = page.locator(".leader select#leader-family")
    picker.locator("option[value='omaha']").wait_for(state="attached")  # the families as the server lists them
    assert picker.input_value() == "house"
    assert page.locator(".leader label[for='leader-family']").inner_text().startswith("Game family")
    options = picker.locator("option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
    assert options == [["house", "No-Limit Hold'em (house game)"], ["holdem", "Hold'em"], ["omaha", "Omaha"],
                       ["stud", "Stud and Razz"], ["draw", "Draw games"], ["mixed", "Mixed games"]]
    page.locator(".leader [data-family='house']").wait_for()
    assert page.locator(f".leader tr[data-name='{ana}']").count() == 0  # no house game: not on the house board

    picker.select_option("omaha")
    board = page.locator(".leader [data-family='omaha'] table.grid")
    board.locator(f"tr[data-name='{ana}']").wait_for()
    assert board.locator(f"tr[data-name='{ana}'] .rating").text_content() == "1,575"
    assert board.locator(f"tr[data-name='{ana}'] td.place").inner_text().isdigit()  # 12 games: established
    assert board.locator(f"tbody.provisional tr[data-name='{bo}']").count() == 1
    page.locator(".leader").screenshot(path=str(artifacts / "leaderboard-omaha.png"))

    picker.select_option("stud")
    page.locator(".leader [data-family='stud'] p.empty").wait_for()

    page.goto(f"/#/profile/{ana}")
    chosen = page.locator(".profile select#profile-family")
    chosen.wait_for()
    assert chosen.locator("option").evaluate_all("os => os.map(o => o.value)") == ["house", "omaha"]
    assert page.locator(".profile .family-chart[data-family='house'] svg.chart").count() == 0  # no house games
    chosen.select_option("omaha")
    page.locator(".profile .family-chart[data-family='omaha'] svg.chart").wait_for()
    assert page.locator(".profile-rating .rating").text_content() == "1,575"
    assert page.locator(".profile .family-chart path.line").count() == 1
    page.locator(".profile").screenshot(path=str(artifacts / "profile-omaha.png"))

    page.locator("#lang").click()  # Czech
    page.wait_for_function("document.documentElement.lang === 'cs'")
    page.goto("/")
    czech = page.locator(".leader select#leader-family")
    czech.locator("option[value='mixed']").wait_for(state="attached")
    assert page.locator(".leader label[for='leader-family']").inner_text().startswith("Druh her")
    assert czech.locator("option[value='mixed']").text_content() == "Smíšené hry"
