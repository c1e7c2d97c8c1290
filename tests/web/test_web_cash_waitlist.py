"""A full cash table's waiting list on the page (C13, issue #34): at 360x640 in Czech, a player
without a seat joins the list of a full heads-up table ("Zapsat se do pořadníku"), sees their
place ("Jsi 1. v pořadí") at the table and in the lobby, is offered the seat a player left at
the hand's end with its countdown and Take / Decline inside the viewport, and takes it with a
normal buy-in.  A real server; the page draws what it says (web/js/waitlist.js).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_web_cash import _buy_in, _inside, _open, _play_hand, _register_on, _seed, _view, _wait_view

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def wait_server(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server with one heads-up cash table and long clocks (as test_web_cash.py's ``cash_server``)."""
    web = SimpleNamespace(**type(server).__init__.__globals__)
    tmp: Path = tmp_path_factory.mktemp("web-waitlist")
    with ThreadPoolExecutor(1) as pool:
        ids = pool.submit(asyncio.run, _seed(f"sqlite:///{tmp / 'web.db'}", {"hu": ("NT", 2)})).result()
    env = {"FREEZEOUT_PAUSE_SECONDS": "600", "FREEZEOUT_TURN_SECONDS": "600", "FREEZEOUT_CASH_IDLE_SECONDS": "36000"}
    with web._serving(tmp, env) as running:
        running.cash = ids
        yield running


def test_join_the_waiting_list_of_a_full_table_get_the_seat_offered_with_its_countdown_and_take_it(new_page, wait_server):
    table = wait_server.cash["hu"]
    ana = new_page(server=wait_server)
    bo = new_page(server=wait_server)
    cy = new_page(width=360, height=640, locale="cs-CZ", server=wait_server)
    for page, name in ((ana, "wl_ana"), (bo, "wl_bo"), (cy, "wl_cy")):
        _register_on(page, name)
    for seat, page in enumerate((ana, bo)):
        _open(page, table)
        _buy_in(page, seat, 2000)
    # the table is full: cy is offered the list, inside a phone's screen
    _open(cy, table)
    join = cy.locator(".cash-controls .waitlist.join button.wait-join")
    join.wait_for()
    assert join.inner_text() == "Zapsat se do pořadníku"
    assert cy.locator(".cash-controls .waitlist.join button.wait-anywhere").inner_text() == "První volné"
    _inside(cy, join, 360, 640)
    join.click()
    place = cy.locator(".cash-controls .waitlist.listed .wait-text")
    place.wait_for()
    assert "Jsi 1. v pořadí" in place.inner_text(), place.inner_text()
    _inside(cy, cy.locator(".cash-controls .waitlist.listed button.wait-leave"), 360, 640)
    # the lobby says the same
    cy.goto("/")
    row = cy.locator(f".cash-list li[data-table='{table}']")
    row.locator("button.wait-leave").wait_for()
    assert "Jsi 1. v pořadí" in row.inner_text()
    _open(cy, table)
    # bo leaves during the hand: at its end the seat is offered to cy, held with a countdown
    bo.evaluate("() => window.__fzTable.cashTable().send({type: 'stand'})")
    _wait_view(bo, "v => v.seats[1].leaving")
    _play_hand([ana, bo])
    offer = cy.locator(".cash-controls .waitlist.offer")
    offer.wait_for()
    text = offer.locator(".wait-text").inner_text()
    assert text.startswith("Místo 2 je pro tebe drženo ještě ") and text.endswith(" s"), text
    seconds = int(text.split()[-2])
    assert 50 <= seconds <= 60, text
    cy.wait_for_function("s => { const e = document.querySelector('.cash-controls .waitlist.offer .wait-text');"
                         " return e && Number(e.textContent.split(' ').at(-2)) < s; }", arg=seconds)  # it counts down
    take = offer.locator("button.wait-take")
    for button in (take, offer.locator("button.wait-decline")):
        _inside(cy, button, 360, 640)
    assert take.inner_text() == "Sednout si"
    # Take: a normal buy-in (C1), at the seat held
    take.click()
    dialog = cy.locator("dialog.buyin-dialog")
    dialog.wait_for()
    dialog.locator("input[type=number]").fill("2000")
    dialog.locator("button.buyin-go").click()
    _wait_view(cy, "v => v.you === 1")
    assert _view(cy)["waitlist"] == {"full": True, "players": [], "offers": [], "offer_seconds": 60.0}
    for page in (ana, bo, cy):
        assert page.errors == [], page.errors
