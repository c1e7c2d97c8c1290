"""Provisional ratings on the page (docs/protocol.md "Ratings"): wherever a
rating appears — the header, the leaderboard, a profile — a provisional one
reads "1650?", says why on hover and to screen readers, in English and
Czech; the leaderboard numbers established ratings only and lists the
provisional ones apart, unnumbered, even when they are higher."""

from __future__ import annotations

import contextlib
import sqlite3
import time
import uuid

import pytest

pytestmark = pytest.mark.browser


def _set_rating(server, name: str, rating: float, games: int) -> None:
    """As if the account had played ``games`` counted games (the server reads users afresh),
    lately and, with enough of them, against the eight vouching opponents that make a rating
    established (elo.established, issue #32)."""
    with contextlib.closing(sqlite3.connect(server.log.parent / "web.db", timeout=30)) as conn:
        changed = conn.execute("UPDATE users SET rating = ?, ranked_games = ? WHERE name = ?", (rating, games, name))
        assert changed.rowcount == 1
        if games >= 10:
            conn.executemany("INSERT INTO rating_history (user_id, game_id, before, after, at, family, opponent, vouched) "
                             "SELECT id, ?, 1500, 1500, ?, 'house', ?, 1 FROM users WHERE name = ?",
                             [(f"vouch-{name}-{i}", time.time(), -1 - i, name) for i in range(8)])
        conn.commit()


def test_provisional_ratings_are_marked_everywhere(new_page, ui, server, artifacts):
    tag = uuid.uuid4().hex[:6]
    viewer, vet, rookie = f"view{tag}", f"vet{tag}", f"rook{tag}"
    page = new_page()
    for name in (vet, rookie):
        ui.register(new_page(), name)
    ui.register(page, viewer)
    _set_rating(server, vet, 1712.0, 25)  # established
    _set_rating(server, rookie, 1750.0, 3)  # provisional, and higher

    page.reload()
    header = page.locator(".who .elo .rating.provisional")  # a new account: 1500?
    header.wait_for()
    assert header.text_content().startswith("1,500?") and "Provisional" in header.get_attribute("title")

    board = page.locator(".leader table.grid")
    board.locator(f"tr[data-name='{rookie}']").wait_for()
    vet_row, rookie_row = board.locator(f"tr[data-name='{vet}']"), board.locator(f"tr[data-name='{rookie}']")
    assert vet_row.locator("td.place").inner_text().isdigit()
    assert vet_row.locator(".rating").text_content() == "1,712" and vet_row.locator(".rating.provisional").count() == 0
    assert rookie_row.locator("td.place").inner_text() == ""  # a provisional rating ranks nobody
    assert board.locator("tbody.provisional th.sub").inner_text() == "Provisional ratings — not ranked yet"
    assert board.locator(f"tbody.provisional tr[data-name='{rookie}']").count() == 1
    names = board.locator("tr[data-name]").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert names.index(vet) < names.index(rookie), "established ratings come first"
    mark = rookie_row.locator(".rating.provisional")
    assert mark.text_content() == "1,750? (provisional)"
    assert mark.locator(".q").get_attribute("aria-hidden") == "true" and mark.locator(".sr-only").count() == 1
    assert mark.get_attribute("title") == "Provisional rating: 7 more rated games until it counts"
    page.locator(".leader").screenshot(path=str(artifacts / "leaderboard-provisional.png"))

    page.goto(f"/#/profile/{rookie}")
    line = page.locator(".profile-rating")
    line.locator(".pill.provisional").wait_for()
    assert line.locator(".rating.provisional").text_content().startswith("1,750?")
    assert line.locator(".pill.provisional").inner_text() == "provisional"
    page.goto(f"/#/profile/{vet}")
    page.locator(f".profile h1:has-text('{vet}')").wait_for()
    page.locator(".profile-rating .rating").wait_for()
    assert page.locator(".profile-rating .rating").text_content() == "1,712"
    assert page.locator(".profile-rating .provisional").count() == 0

    page.locator("#lang").click()  # Czech
    page.wait_for_function("document.documentElement.lang === 'cs'")
    page.goto(f"/#/profile/{rookie}")
    badge = page.locator(".profile-rating .pill.provisional")
    badge.wait_for()
    assert badge.inner_text() == "předběžné"
    assert badge.get_attribute("title") == "Předběžné hodnocení: platit začne po 7 dalších hodnocených hrách"
    page.goto("/")
    czech = page.locator(f".leader tr[data-name='{rookie}'] .rating.provisional")
    czech.wait_for()
    assert czech.text_content().endswith("? (předběžné)")
    assert page.locator(".leader tbody.provisional th.sub").inner_text() == "Předběžná hodnocení — zatím bez pořadí"
    assert page.locator(".who .elo .rating.provisional .sr-only").text_content() == " (předběžné)"
    assert not [e for e in page.errors if "pageerror" in e], page.errors
