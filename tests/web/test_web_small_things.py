"""Small things a regular notices (issue #31 item 11, the page's part).

* Pot limit: the most you may bet is the pot, so the quick sizes show one Pot button and no
  "All-in" that sets the pot too.
* A seat says it straddled (C6) and shows its time bank (C11) when the view has them.
* Moving quickly between the lobby and a table leaves no console warning "WebSocket is
  closed before the connection is established": a socket still connecting is closed once
  it opens.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import mount
from scripted_games import GameScript
from test_web_cash import cash_server  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

SIZES_JS = """() => [...document.querySelectorAll('.sizer:not([hidden]) .quick-sizes button')]
  .map(b => ({label: b.textContent, to: Number(b.dataset.to)}))"""


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_pot_limit_shows_one_pot_button_and_no_all_in_that_sets_the_pot(new_page, locale):
    page = new_page(width=375, height=667, locale=locale)
    mount(page)
    s = GameScript("PO", ["alice_ux", "bot-station", "bot-medium"], bots={1: "station", 2: "medium"}, button=0)
    s.deal_seeded(4)
    while s.game.to_act != 0:
        s.act(s.game.to_act, "call")
    s.feed(page, s.snapshot())
    page.locator(".sizer:not([hidden]) .quick-sizes button").first.wait_for()
    sizes = page.evaluate(SIZES_JS)
    legal = s.view()["legal"]
    assert legal["max_to"] < legal["all_in_to"], "the case: the pot caps the bet below your stack"
    amounts = [q["to"] for q in sizes]
    assert len(amounts) == len(set(amounts)), f"two buttons for one amount: {sizes}"
    assert all(q["label"] != "All-in" for q in sizes), sizes
    assert amounts[-1] == legal["max_to"], sizes


def test_moving_between_lobby_and_table_leaves_no_websocket_warning(new_page, cash_server):  # noqa: F811
    page = new_page(width=1366, height=900, server=cash_server)
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
    page.goto("/")
    table = cash_server.cash["po"]
    page.locator(f"section.cash-tables li[data-table='{table}']").wait_for()
    for _ in range(4):
        # away again before the table's socket (or the lobby's) has opened
        page.evaluate("id => { location.hash = '#/table/' + id; }", table)
        page.wait_for_function("() => location.hash.startsWith('#/table/') && !!document.querySelector('.felt-wrap')")
        page.evaluate("() => { location.hash = '#/'; }")
        page.locator("section.cash-tables").wait_for()
    page.evaluate("id => { location.hash = '#/table/' + id; }", table)
    page.wait_for_function("() => !!(window.__fzTable && window.__fzTable.state.table)")
    page.evaluate("() => { location.hash = '#/'; }")
    page.locator(f"section.cash-tables li[data-table='{table}']").wait_for()
    # a last look once every socket opened by now has settled: the lobby's list arrived again
    warned = [m for m in said if "closed before the connection is established" in m]
    assert not warned, warned


# A cash view as the server sends it with the seats' straddle flags and time banks (C6, C11;
# docs/protocol.md "Cash tables"), drawn by the page's own cashModel and Felt.
CASH_SEATS_JS = """async view => {
  const {cashModel} = await import('/static/js/cashview.js');
  const {Felt} = await import('/static/js/felt.js');
  document.querySelector('#test-felt')?.remove();
  const felt = new Felt();
  felt.el.id = 'test-felt';
  document.body.prepend(felt.el);
  felt.render({...cashModel({view, events: [], clock: {}}, 0), animate: false});
  return [...felt.el.querySelectorAll('.seat')].map(s => ({text: s.querySelector('.state').textContent,
    title: s.querySelector('.state').title}));
}"""


def _cash_view(straddled: int | None, straddle_next: int | None) -> dict[str, Any]:
    seats = [{"seat": i, "player": name, "stack": 1000, "status": "playing", "owes": 0, "leaving": False, "in_hand": True,
              "bet": 0, "cards": "????", "time_bank": 30 - 10 * i, "time_bank_hands": 4 if i else None,
              "straddled": i == straddled, "straddle_next": i == straddle_next}
             for i, name in enumerate(["alice_ux", "bo", "cy"])]
    return {"format": "cash", "game": "NT", "game_name": "No-Limit Texas Hold'em", "hand": 3, "in_hand": True, "to_act": 0,
            "button": 0, "stakes": {"small_blind": 5, "big_blind": 10}, "board": "", "pot": 35, "seats": seats, "you": 0,
            "board_size": 5, "boards": [""], "dealer_button": 0, "blind_seats": [1, 2], "result": [], "offers": {}}


@pytest.mark.parametrize(("locale", "words"), [("en-US", ("Straddled", "Time bank 20 s (+ in 4 hands)")),
                                               ("cs-CZ", ("Straddle", "Časová rezerva 20 s (+ za 4 ruce)"))])
def test_a_seat_shows_its_straddle_and_time_bank_when_the_view_has_them(new_page, locale, words):
    page = new_page(width=375, height=667, locale=locale)
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    seats = page.evaluate(CASH_SEATS_JS, _cash_view(straddled=1, straddle_next=None))
    assert seats[1]["text"] == words[0], seats
    assert words[1] in seats[1]["title"].replace("\u00a0", " "), seats
    assert "Straddle" in page.evaluate(CASH_SEATS_JS, _cash_view(straddled=None, straddle_next=2))[2]["text"]
