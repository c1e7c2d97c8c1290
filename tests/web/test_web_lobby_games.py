"""Picking a game in the lobby (issue #22 "Every game at the table").

A player opens the lobby and picks any game of the server's catalogue
(GET /api/catalogue: the house game, the 25 engine games, the mixes), grouped
by family; quick play and a new table then deal that game, offer only the bots
that play it and only as many seats as a table of it has; the tables list
filters by game. The page knows no game itself: every name, bot and seat count
comes from the catalogue. Waits are for conditions, never for a time.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _catalogue(server) -> dict[str, dict[str, Any]]:
    return {game["game"]: game for game in server.get("/api/catalogue")["games"]}


def _table_id(page) -> str:
    page.wait_for_url("**/#/table/*")
    return page.url.rsplit("/", 1)[1]


def _levels(page) -> list[str]:
    return page.eval_on_selector_all("input[name=qlevel]", "els => els.map(e => e.value)")


def test_the_catalogue_names_every_game_once_with_what_a_table_of_it_offers(server):
    games = server.get("/api/catalogue")
    codes = [game["game"] for game in games["games"]]
    assert codes[0] == games["house"] == "NT"  # the house game first, as quick play deals it by default
    assert len(codes) == len(set(codes)) == 25 + 2  # every engine game and both mixes (V19)
    for game in games["games"]:
        assert game["family"] in ("house", "holdem", "omaha", "stud", "draw", "mixed"), game
        assert {"random", "station"} <= set(game["bots"]), game  # the floor every table needs
        assert 2 <= game["min_seats"] <= game["max_seats"] <= 10, game  # C12: hold'em and Omaha seat 10 at most
        assert game["seats"]["freezeout"]["max"] == game["max_seats"] <= game["seats"]["cash"]["max"], game
    assert games["games"][0]["seats"]["freezeout"]["max"] == 4  # the house game's freezeout stays 2-4 (R1)
    assert server.get("/api/catalogue")["games"][-1]["games"]  # a mix lists the games it plays


def test_quick_play_deals_the_game_picked_in_the_lobby_with_its_own_bots(new_page, server):
    catalogue = _catalogue(server)
    page = new_page(375, 667)
    page.goto("/")
    picker = page.locator("#quick-game-pick")
    page.wait_for_function("n => document.querySelectorAll('#quick-game-pick option').length === n", arg=len(catalogue))
    groups = page.eval_on_selector_all("#quick-game-pick optgroup", "els => els.map(e => e.label)")
    assert groups[0] == "No-Limit Hold'em (house game)" and "Stud and Razz" in groups and "Mixed games" in groups

    picker.select_option("FO/8")
    omaha = catalogue["FO/8"]
    page.wait_for_function("name => (document.querySelector('#quick-game') || {}).textContent?.includes(name)",
                           arg=omaha["name"])
    assert _levels(page) == omaha["bots"]  # only the bots that play Omaha Hi/Lo
    box = picker.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375  # on a phone, inside the screen

    page.locator("label[for=qbots-1]").click()
    page.locator("#quickplay").click()
    table = server.get(f"/api/tables/{_table_id(page)}")["table"]
    assert table["format"]["game"] == "FO/8"
    page.wait_for_function("() => { const v = window.__fzTable && window.__fzTable.state.view;"
                           " return !!(v && v.seats.some(s => (s.slots || []).length === 4)); }")  # Omaha's four cards

    page.goto("/")  # the lobby remembers the game picked
    page.wait_for_function("() => document.querySelector('#quick-game-pick')?.value === 'FO/8'")


def test_a_new_table_names_its_game_and_the_tables_list_filters_by_game(new_page, server):
    catalogue = _catalogue(server)
    page = new_page()
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#create-game-pick option').length > 1")
    page.locator("#create-game-pick").select_option("FR")
    razz = catalogue["FR"]
    page.wait_for_function("name => (document.querySelector('#create-game') || {}).textContent?.includes(name)",
                           arg=razz["name"])
    # the first level as the game's own schedule has it: stud posts an ante and a bring-in, no blinds (V7, V18)
    line = page.locator("#create-game").inner_text()
    assert "ante 2, bring-in 5, bets 20/40, up every 6 hands" in line and "blinds" not in line, line
    sizes = page.eval_on_selector_all("input[name=csize]", "els => els.map(e => e.id)")
    assert sizes == [f"csize-{n}" for n in razz["seats"]["freezeout"]["usual"]] == ["csize-2", "csize-6", "csize-8"]  # C12
    bots = page.eval_on_selector_all("#cslot-1 option", "els => els.map(e => e.value).filter(Boolean)")
    assert bots == razz["bots"]
    page.locator("#cslot-1").select_option("station")
    page.locator(".panel.create button[type=submit]").click()
    razz_table = _table_id(page)
    assert server.get(f"/api/tables/{razz_table}")["table"]["format"]["game"] == "FR"

    page.goto("/")
    page.locator("#create-game-pick").select_option("NT")  # a second game in the list: a house table
    page.wait_for_function("() => !/Razz/.test(document.querySelector('#create-game')?.textContent || '')")
    page.locator(".panel.create button[type=submit]").click()
    house_table = _table_id(page)

    page.goto("/")
    page.wait_for_function("ids => ids.every(id => document.querySelector(`li[data-table='${id}']`))",
                           arg=[razz_table, house_table])
    page.locator("#table-filter").select_option("FR")
    page.wait_for_function("id => !document.querySelector(`li[data-table='${id}']`)", arg=house_table)
    lines = page.locator(".table-list li .game-line").all_inner_texts()
    assert lines and all(re.search(re.escape(razz["name"]), line) for line in lines), lines
    assert page.locator(f"li[data-table='{razz_table}']").count() == 1
    page.locator("#table-filter").select_option("")  # all games again
    page.wait_for_function("id => !!document.querySelector(`li[data-table='${id}']`)", arg=house_table)
