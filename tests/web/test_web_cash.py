"""Issue #25: cash tables on the page (docs/protocol.md "Cash tables", docs/ledger.md).

The lobby lists the cash tables by game and stakes with seats free, average pot and hands
per hour, and filters them by game; guests see them and are told to log in.  The "Create
cash table" dialog sends the contract's request.  At the table a player takes an empty seat
through the buy-in dialog (the limits and the balance shown; the server's refusals said in
words), plays a whole hand against a second player, tops up between hands (the button is
disabled, with why, while in a hand), sits out, sits in and leaves — the header's balance
is the ledger's right after each.  On a phone the action bar and the cash controls are on
the screen without scrolling on your turn, and no seat covers the board or the pots.

The cash tables are opened the way the room opens one (a ``create`` entry naming the cash
game, written to the database before the server starts and restored by it), so these tests
need no create endpoint; the create dialog's request is checked against the contract.  The
server here has a long pause between hands (R30's pause, FREEZEOUT_PAUSE_SECONDS) and a long
turn clock, so "between hands" lasts until the test is done with it and no move is made by
a timeout: every wait is for a condition.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from freezeout.server.settings import Settings, async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import Store
from freezeout.server.table.entries import LogEntry
from freezeout.server.table.game import GameSpec

pytestmark = pytest.mark.browser

GRANT = Settings.model_fields["ledger_grant"].default  # 10,000 (C9)
BIG_BLIND = 100  # buy-ins 2,000 to 10,000 (C1's defaults: 20 to 100 big blinds)
OPTIONS = {"big_blind": BIG_BLIND, "rake_bp": 500, "rake_cap": 50, "straddle": True, "run_twice": True}
CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""
API_JS = """async ([method, path, body]) => { const api = await import('/static/js/api.js');
  return method === 'GET' ? api.get(path) : api.post(path, body); }"""
NUMBER_JS = "async n => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang()).format(n)"
# the table as the page holds it: the cash view, or null
VIEW_JS = "() => { const t = window.__fzTable; return t && t.state.view ? t.state.view : null; }"

#: the seeded tables, by name: (game, seats); each test takes its own
TABLES = {f"nt{i}": ("NT", 4) for i in range(8)} | {"po": ("PO", 4), "hu": ("NT", 2)}


async def _seed(url: str) -> dict[str, str]:
    """Open the cash tables in a fresh database as the room opens one: a ``create`` entry
    naming the cash game (server/table/cash.py ``opened``); the server restores them."""
    engine = create_engine(async_database_url(url))
    await run_migrations(engine)
    store = Store(engine)
    await store.start()
    ids = {}
    try:
        for name, (game, seats) in TABLES.items():
            table_id = "c" + secrets.token_hex(6)
            spec = GameSpec.parse_cash(game, OPTIONS)
            entry = LogEntry(table_id, 1, 1.7e9, "create", {"slots": [None] * seats, "ranked": False, "created_by": None,
                                                            "game": spec.to_json()})
            await store.log.create_table(table_id, entry)
            ids[name] = table_id
    finally:
        await store.close()
    return ids


@pytest.fixture(scope="module")
def cash_server(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server with the cash tables of TABLES open, a long pause between hands and a long turn
    clock; it starts the way tests/web/conftest.py starts the session's ``server`` (its
    ``_serving``, found through that fixture's module)."""
    web = sys.modules[type(server).__module__]
    tmp: Path = tmp_path_factory.mktemp("web-cash")
    # in a thread of its own: Playwright's sync API runs an event loop in this one
    with ThreadPoolExecutor(1) as pool:
        ids = pool.submit(asyncio.run, _seed(f"sqlite:///{tmp / 'web.db'}")).result()
    env = {"FREEZEOUT_PAUSE_SECONDS": "600", "FREEZEOUT_TURN_SECONDS": "600"}
    with web._serving(tmp, env) as running:
        running.cash = ids
        yield running


def _api(page: Any, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(API_JS, ["GET" if body is None else "POST", path, body])


def _badge(page: Any, balance: int) -> None:
    """The header shows ``balance`` (and it is the ledger's)."""
    page.locator(f".who .balance[data-balance='{balance}']").wait_for()
    assert _api(page, "/api/me/balance")["balance"] == balance


def _view(page: Any) -> dict[str, Any]:
    page.wait_for_function(VIEW_JS)
    return page.evaluate(VIEW_JS)


def _open(page: Any, table: str) -> None:
    page.goto(f"/#/table/{table}")
    page.wait_for_function("() => { const t = window.__fzTable; return !!t && !!t.state.view && t.state.view.format === 'cash'; }")


def _buy_in(page: Any, seat: int, chips: int) -> Any:
    """Click the empty seat, choose ``chips`` in the dialog, buy in; the dialog closes once seated."""
    page.locator(f".felt-wrap .seat[data-seat='{seat}']").click()
    dialog = page.locator("dialog.buyin-dialog")
    dialog.wait_for()
    dialog.locator("input[type=number]").fill(str(chips))
    dialog.locator("button.buyin-go").click()
    page.wait_for_function("s => { const v = window.__fzTable.state.view; return v && v.you === s; }", arg=seat)
    dialog.wait_for(state="detached")
    return dialog


def _mine(page: Any) -> dict[str, Any]:
    view = _view(page)
    return view["seats"][view["you"]]


def _wait_view(page: Any, js: str, arg: Any = None) -> None:
    """Wait until the page's cash view satisfies ``js`` (a function of the view and ``arg``)."""
    page.wait_for_function(f"a => {{ const v = window.__fzTable && window.__fzTable.state.view; return !!v && ({js})(v, a); }}", arg=arg)


def _play_hand(pages: list[Any], on_turn: Any = None) -> None:
    """Play the hand in progress to its end, each page checking or calling on its turn."""
    for _ in range(200):
        views = [p.evaluate(VIEW_JS) for p in pages]
        if views[0] and not views[0]["in_hand"] and views[0]["hand"] > 0:
            return
        acted = False
        for p in pages:
            button = p.locator(".actionbar .moves:not(.off) .btn.call:enabled, .actionbar .moves:not(.off) .btn.check:enabled")
            if button.count():
                if on_turn:
                    on_turn(p)
                version = p.evaluate("() => window.__fzTable.state.version")
                button.first.click()
                p.wait_for_function("v => window.__fzTable.state.version > v", arg=version)
                acted = True
        if not acted:
            version = pages[0].evaluate("() => window.__fzTable.state.version")
            pages[0].wait_for_function(
                """v => { const t = window.__fzTable; return t.state.version > v
                  || document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null; }""", arg=version)
            for p in pages[1:]:
                p.wait_for_function("v => window.__fzTable.state.version >= v",
                                    arg=pages[0].evaluate("() => window.__fzTable.state.version"))
    raise AssertionError("the hand did not end")


def _inside(page: Any, locator: Any, width: int, height: int) -> None:
    """The element is on the screen as it is, without scrolling (Playwright would scroll to click)."""
    box = locator.bounding_box()
    assert box is not None, locator
    assert box["x"] >= -0.5 and box["y"] >= -0.5, box
    assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5, (box, width, height)


VIEWPORTS = [(1366, 900, "en-US"), (360, 740, "cs-CZ"), (375, 667, "en-US"), (1366, 900, "cs-CZ")]


@pytest.mark.parametrize(("width", "height", "locale"), VIEWPORTS)
def test_a_cash_session_buy_in_play_top_up_sit_out_sit_in_leave(new_page, cash_server, width, height, locale):
    index = VIEWPORTS.index((width, height, locale))
    table = cash_server.cash[f"nt{index}"]
    tag = f"{width}{locale[:2]}"
    page = new_page(width=width, height=height, locale=locale, server=cash_server)
    other = new_page(locale="en-US", server=cash_server)
    _register_on(page, f"cash_a{tag}")
    _register_on(other, f"cash_b{tag}")
    words = page.evaluate(CATALOG_JS)
    _badge(page, GRANT)

    # the buy-in dialog: the limits and the balance shown; out of range is said, not sent
    _open(page, table)
    page.locator(".felt-wrap .seat[data-seat='0']").click()
    dialog = page.locator("dialog.buyin-dialog")
    dialog.wait_for()
    fmt = lambda n: page.evaluate(NUMBER_JS, n)  # noqa: E731
    assert dialog.locator(".limits").inner_text() == words["cash.limits"].replace("{min}", fmt(20 * BIG_BLIND)).replace(
        "{max}", fmt(min(100 * BIG_BLIND, GRANT)))
    dialog.locator(".have").filter(has_text=fmt(GRANT)).wait_for()
    dialog.locator("input[type=number]").fill("50")
    dialog.locator("button.buyin-go").click()
    assert dialog.locator(".cash-error").inner_text() == words["cash.outOfRange"].replace("{min}", fmt(2000)).replace("{max}", fmt(GRANT))
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    _buy_in(page, 0, 4000)
    _badge(page, GRANT - 4000)
    assert _mine(page)["stack"] == 4000

    # a second player sits down: a hand is dealt; in it Top up is disabled, and the page says why
    _open(other, table)
    _buy_in(other, 2, 5000)
    _wait_view(page, "v => v.in_hand")
    controls = page.locator(".cash-controls")
    assert controls.locator("button.topup").is_disabled()
    assert controls.locator(".why").inner_text() == words["cash.topUpInHand"]

    def on_turn(p: Any) -> None:
        if p is page and width < 720:  # the phone: the bar and the controls on the screen as they are
            for part in [".actionbar .moves .btn.call:visible, .actionbar .moves .btn.check:visible", ".actionbar .moves .btn.fold",
                         ".cash-controls button.leave", ".cash-controls button.topup", ".cash-controls button.sitout"]:
                _inside(page, page.locator(part).first, width, height)

    _play_hand([page, other], on_turn)
    _wait_view(page, "v => !v.in_hand && v.hand === 1")
    result = page.locator(".actionbar .cash-result")
    result.wait_for()
    view = _view(page)
    stack = _mine(page)["stack"]
    assert stack + view["seats"][2]["stack"] + view["rake"]["total"] == 9000, "no chip made or lost (C9)"

    # between hands: top up
    top_up = controls.locator("button.topup")
    assert top_up.is_enabled()
    top_up.click()
    tdialog = page.locator("dialog.topup-dialog")
    tdialog.wait_for()
    tdialog.locator("input[type=number]").fill("1000")
    tdialog.locator("button.topup-go").click()
    tdialog.wait_for(state="detached")
    _wait_view(page, "(v, n) => v.seats[v.you].stack === n", stack + 1000)
    _badge(page, GRANT - 5000)

    # sit out, sit in
    controls.locator("button.sitout").click()
    _wait_view(page, "v => v.seats[v.you].status === 'sitting out'")
    seat = page.locator(".felt-wrap .seat[data-seat='0'] .state")
    assert seat.text_content() == words["cash.status.sittingOut"]
    controls.locator("button.sitin").click()
    _wait_view(page, "v => v.seats[v.you].status !== 'sitting out'")

    # leave: the chips go back to the balance, and the header says so at once
    controls.locator("button.leave").click()
    page.wait_for_function("() => { const v = window.__fzTable.state.view; return v && v.you == null; }")
    _badge(page, GRANT - 5000 + stack + 1000)
    assert page.errors == [] and other.errors == [], (page.errors, other.errors)


def _register_on(page: Any, name: str) -> None:
    page.goto("/")
    page.locator(".who .reg").click()
    page.fill("#auth-name", name)
    page.fill("#auth-password", "correct horse 1")
    page.locator("dialog form button[type=submit]").click()
    page.locator(".who a.name", has_text=name).wait_for()
