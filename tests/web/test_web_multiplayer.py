"""Two registered users play a ranked heads-up to the end in two browser
contexts, both see their Elo change, and rematch with rotated seats (R3,
R25); a 3-player table with a bot where one human lets the clock run out
and the other presses Don't wait (R26)."""

from __future__ import annotations

import re
import time
import uuid

import pytest

pytestmark = pytest.mark.browser


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def _create_table(page, size: int, others: list[str], ranked: bool = False) -> str:
    page.goto("/")
    page.locator(f"label[for=csize-{size}]").click()
    for i, level in enumerate(others, start=1):
        page.select_option(f"#cslot-{i}", level)
    if ranked:
        page.check("#cranked")
    page.locator(".create button[type=submit]").click()
    page.wait_for_url("**/#/table/*")
    return re.search(r"#/table/([^/]+)$", page.url).group(1)


def _join_from_lobby(page, table_id: str) -> None:
    page.goto("/")
    page.locator(f".table-list li[data-table='{table_id}'] a").click()
    page.wait_for_url(f"**/#/table/{table_id}")
    page.locator(".seat.empty .plate").first.click()


def test_ranked_heads_up_elo_and_rematch(new_page, ui, artifacts):
    a, b = new_page(), new_page()
    name_a, name_b = _name("ana"), _name("bo")
    ui.register(a, name_a)
    ui.register(b, name_b)
    table_id = _create_table(a, 2, [""], ranked=True)
    _join_from_lobby(b, table_id)
    ui.wait_for(a, ui.DEALT)
    first = ui.state(a)["table"]["players"]
    assert sorted(first) == sorted([name_a, name_b])
    assert a.locator(".table-head .pill.ranked").count() == 1

    ui.play_to_end([a, b])
    for page in (a, b):
        page.locator(".endscreen td.elo .elo-delta").nth(1).wait_for()
        deltas = page.locator(".endscreen td.elo .elo-delta").all_inner_texts()
        assert len(deltas) == 2
        assert any(d.startswith("+") for d in deltas) and any(d.startswith("−") for d in deltas), deltas
        # two new accounts rate each other, and both ratings are still provisional: "1520?"
        assert page.locator(".endscreen td.elo .rating.provisional").count() == 2
    a.screenshot(path=str(artifacts / "end-screen-ranked.png"), full_page=True)

    for page in (a, b):
        page.locator(".end-actions button", has_text="Rematch").click()
    ui.wait_for(a, lambda: ui.state(a)["table"]["game"] == 2 and not (ui.state(a)["view"] or {}).get("finished", True))
    second = ui.state(a)["table"]["players"]
    assert second == [first[-1], *first[:-1]], "R3: in a rematch every player moves one seat on"
    ui.wait_for(b, lambda: not ui.ended(b))
    assert not ui.ended(a)

    # the profile: Elo history plot, the past game with downloads and the replayer
    profile = a.context.new_page()
    profile.goto("/#/profile")
    profile.locator(".family-chart[data-family='house'] svg.chart path.line").wait_for()  # the Elo plot (the play chips have one too)
    row = profile.locator(".profile table.grid tbody tr", has=profile.locator(".elo-delta")).first
    assert row.locator("a[href$='/record']").count() == 1 and row.locator("a[href$='/phh']").count() == 1
    # Past games: date, game, opponents, place, Elo change; not a raw id
    heads = profile.locator(".profile table.grid.past thead th").all_inner_texts()
    assert [h.lower() for h in heads[:5]] == ["date", "game", "opponents", "place", "elo"], heads
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == "Hold'em · Heads-up · ranked" and cells[2] == name_b and cells[3] in ("1st", "2nd"), cells
    assert re.search(r"\d{4}", cells[0]) and "-1" not in cells[0], "a date, not the game's id"
    row.locator("button", has_text="Replay final hand").click()
    final = profile.locator("dialog[open] .replayer .log li")
    final.first.wait_for()
    assert final.last.get_attribute("class") == "cur", "the final hand opens at its end"
    profile.keyboard.press("ArrowLeft")
    assert final.nth(final.count() - 2).get_attribute("class") == "cur", "the arrow keys move the replayer"
    profile.keyboard.press("Escape")
    phh = profile.evaluate("href => fetch(href).then(r => r.text())", row.locator("a[href$='/phh']").get_attribute("href"))
    assert "[1]" in phh or "variant" in phh
    stars = profile.evaluate("href => fetch(href).then(r => r.text())", row.locator("a[href$='/stars']").get_attribute("href"))
    assert stars.startswith("PokerStars Hand #"), "the trackers' download (issue #21 item 12)"
    row.get_by_role("button", name="Replay", exact=True).click()
    profile.locator("dialog[open] .replayer .log li").first.wait_for()
    profile.screenshot(path=str(artifacts / "profile-replayer.png"))

    # a stranger's browser (nothing remembered locally) lists the game from the
    # server and replays it from the server's public events
    stranger = new_page()
    stranger.goto(f"/#/profile/{name_b}")
    stranger_row = stranger.locator(".profile table.grid tbody tr").first
    stranger_row.wait_for()
    stranger_row.get_by_role("button", name="Replay", exact=True).click()
    stranger.locator("dialog[open] .replayer .log li").first.wait_for()
    for page in (a, b):
        assert not [e for e in page.errors if "pageerror" in e], page.errors


def test_three_players_clock_runs_out_and_dont_wait(new_page, ui, server):
    a, b = new_page(), new_page()
    # a guest creates the table: the lobby makes the guest account on submit
    a.goto("/")
    a.locator("label[for=csize-3]").click()
    a.select_option("#cslot-2", "station")
    a.locator(".create button[type=submit]").click()
    a.wait_for_url("**/#/table/*")
    table_id = re.search(r"#/table/([^/]+)$", a.url).group(1)
    b.goto(f"/#/table/{table_id}")
    b.locator(".seat.empty .plate").first.click()
    ui.wait_for(a, ui.DEALT)
    seat_a = ui.state(a)["you"]["seat"]

    pressed = False
    deadline = 120
    start = time.monotonic()
    while not pressed:
        assert time.monotonic() - start < deadline, "A never got a turn"
        if ui.ended(a) or ui.ended(b):
            pytest.fail("the game ended before A's turn")
        versions = [ui.version(a), ui.version(b)]  # before looking for turns (Ui.await_news)
        if ui.my_turn(b):
            ui.passive(b)
            ui.moved_on(b, versions[1])  # B's move is applied
        elif ui.my_turn(a):
            # A lets the clock run; B's Don't wait appears once it has run out (and
            # only then: the seat reads expired when it shows, whatever the machine's speed)
            b.locator(".actionbar .dontwait").wait_for(state="visible", timeout=90_000)  # a fail-safe; the wait is for the button
            assert b.locator(".seat.expired").count() == 1
            expired_version = ui.state(b)["version"]
            b.locator(".actionbar .dontwait").click()
            pressed = True
        else:
            ui.await_news([a, b], versions)
    ui.wait_for(b, lambda: ui.state(b)["view"]["seats"][seat_a]["forfeits"] == 1)
    a.locator(".toast", has_text="Don't wait").wait_for()
    # the expired turn is over (A may act again later in the hand: a timeout checks when it can, R26)
    ui.wait_for(a, ui.PAST_VERSION, expired_version)
