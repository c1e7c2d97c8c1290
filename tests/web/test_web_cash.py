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
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scripted_cash import open_cash_menu
from test_web_phone_layout import _overlaps

from freezeout.server.entries import LogEntry
from freezeout.server.gamespec import GameSpec
from freezeout.server.settings import Settings, async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import Store

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
TABLES = ({f"session{i}": ("NT", 4) for i in range(2)} | {f"twice_{lang}": ("NT", 4) for lang in ("en", "cs")}
          | {f"refuse_{lang}_{which}": ("NT", 2) for lang in ("en", "cs") for which in ("here", "there")} | {"po": ("PO", 4)})


async def _seed(url: str, tables: dict[str, tuple[str, int]] = TABLES,
                options: dict[str, Any] | None = None) -> dict[str, str]:
    """Open the cash tables (name: game, seats) in a fresh database as the room opens one: a
    ``create`` entry naming the cash game (server/table/cash.py ``opened``); the server restores
    them.  tests/web/test_web_cash_more.py seeds its own tables and options with it."""
    engine = create_engine(async_database_url(url))
    await run_migrations(engine)
    store = Store(engine)
    await store.start()
    ids = {}
    try:
        for name, (game, seats) in tables.items():
            table_id = "c" + secrets.token_hex(6)
            spec = GameSpec.parse_cash(game, OPTIONS if options is None else options)
            entry = LogEntry(table_id, 1, time.time(), "create", {"slots": [None] * seats, "ranked": False, "created_by": None,
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
    # The module that defined the server's class, by its functions' globals: several test
    # folders have a module named ``conftest``, so sys.modules["conftest"] may be another one.
    web = SimpleNamespace(**type(server).__init__.__globals__)
    tmp: Path = tmp_path_factory.mktemp("web-cash")
    # in a thread of its own: Playwright's sync API runs an event loop in this one
    with ThreadPoolExecutor(1) as pool:
        ids = pool.submit(asyncio.run, _seed(f"sqlite:///{tmp / 'web.db'}")).result()
    env = {"FREEZEOUT_PAUSE_SECONDS": "600", "FREEZEOUT_TURN_SECONDS": "600", "FREEZEOUT_CASH_IDLE_SECONDS": "36000"}
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
        # read before looking for a turn: an update that lands while the pages are looked at
        # must not be the change the loop then waits for, in vain
        seen = pages[0].evaluate("() => window.__fzTable.state.version")
        for p in pages[1:]:  # every page has what the first has: a turn there is drawn by now
            p.wait_for_function("v => window.__fzTable.state.version >= v", arg=seen)
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
            pages[0].wait_for_function(
                """v => { const t = window.__fzTable; return t.state.version > v
                  || document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null; }""", arg=seen)
    raise AssertionError("the hand did not end")


def _sit_in_order(pages: list[Any], table: str, chips: int) -> None:
    """Each page opens the table and buys ``chips`` in the seat of its place in the list."""
    for seat, page in enumerate(pages):
        _open(page, table)
        _buy_in(page, seat, chips)


def _inside(page: Any, locator: Any, width: int, height: int) -> None:
    """The element is on the screen as it is, without scrolling (Playwright would scroll to click).

    Measured in the page in one task, once the element is there: the controls are drawn again
    when the view or the balance changes, and a box taken across two steps can miss the element."""
    box = locator.evaluate("e => { const r = e.getBoundingClientRect(); "
                           "return r.width || r.height ? {x: r.x, y: r.y, width: r.width, height: r.height} : null; }")
    assert box is not None, (locator, "not drawn")
    assert box["x"] >= -0.5 and box["y"] >= -0.5, box
    assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5, (box, width, height)


# The desktop in English and the shortest phone in Czech (the longer words): the session is the
# same at every size, and tests/web/test_web_phone_layout.py covers the phones one by one.
VIEWPORTS = [(1366, 900, "en-US"), (375, 667, "cs-CZ")]


@pytest.mark.parametrize(("width", "height", "locale"), VIEWPORTS)
def test_a_cash_session_buy_in_play_top_up_sit_out_sit_in_leave(new_page, cash_server, width, height, locale):
    index = VIEWPORTS.index((width, height, locale))
    table = cash_server.cash[f"session{index}"]
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

    measured = []

    def on_turn(p: Any) -> None:
        if p is not page:
            return
        measured.append(p)
        assert _overlaps(page) == [], "no seat, bet, marker, pot or board card covers another"
        if width < 720:  # the phone: the bar and the controls on the screen as they are  # the phone: the bar and the controls on the screen as they are
            for part in [".actionbar .moves .btn.call:visible, .actionbar .moves .btn.check:visible", ".actionbar .moves .btn.fold",
                         ".cash-controls button.cash-menu"]:  # issue #34: the seat's controls one tap away
                _inside(page, page.locator(part).first, width, height)

    _play_hand([page, other], on_turn)
    assert measured, "your turn came, and the layout was measured on it"
    _wait_view(page, "v => !v.in_hand && v.hand === 1")
    result = page.locator(".actionbar .cash-result")
    result.wait_for()
    view = _view(page)
    stack = _mine(page)["stack"]
    assert stack + view["seats"][2]["stack"] + view["rake"]["total"] == 9000, "no chip made or lost (C9)"

    # between hands: top up (on the phone, from the "⋯ Table" menu: issue #34)
    open_cash_menu(page)
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

    # the time bank (C11) as the view gives it, and auto top-up (C2) to the table's maximum
    bank = _mine(page)["time_bank"]
    assert controls.locator(".bank").inner_text() == words["cash.timeBank"].replace("{s}", fmt(round(bank)))
    controls.locator(".autotopup input").check()
    _wait_view(page, "v => v.seats[v.you].auto_top_up === v.buy_in.max")
    controls.locator(".autotopup input:checked").wait_for()
    controls.locator(".autotopup input").uncheck()
    _wait_view(page, "v => v.seats[v.you].auto_top_up == null")

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


RUNS_JS = "() => window.__fzTable.state.events.filter(e => e.type === 'run_twice').map(e => e.seat).sort()"


@pytest.mark.parametrize("locale", ["cs-CZ"])  # one run: the second player's page is in English
def test_run_it_twice_both_agree_and_each_runs_board_and_winners_are_shown_with_the_rake(new_page, cash_server, ui, locale):
    table = cash_server.cash[f"twice_{locale[:2]}"]
    page = new_page(locale=locale, server=cash_server)
    other = new_page(locale="en-US", server=cash_server)
    _register_on(page, f"twice_a{locale[:2]}")
    _register_on(other, f"twice_b{locale[:2]}")
    words = page.evaluate(CATALOG_JS)
    _sit_in_order([page, other], table, 3000)
    for p in (page, other):
        _wait_view(p, "v => v.in_hand")
        open_cash_menu(p)
        box = p.locator(".cash-controls .runtwice-box input")
        box.check()
    page.wait_for_function(f"() => ({RUNS_JS})().length === 2")  # both agreed, by the server's events (C7)
    # whoever acts first goes all in, the other calls: the rest of the board is run twice
    for _ in range(2):
        turn = next(p for p in (page, other) if p.evaluate(VIEW_JS)["to_act"] == p.evaluate(VIEW_JS)["you"]) \
            if page.evaluate(VIEW_JS)["in_hand"] else None
        if turn is None:
            break
        version = turn.evaluate("() => window.__fzTable.state.version")
        ui.push(turn)  # all in when the rules allow it, else call
        turn.wait_for_function("v => window.__fzTable.state.version > v", arg=version)
        for p in (page, other):  # both pages hold the move before the next turn is read off them
            p.wait_for_function("v => window.__fzTable.state.version >= v", arg=turn.evaluate("() => window.__fzTable.state.version"))
    _wait_view(page, "v => !v.in_hand && v.hand === 1")
    runs = page.locator(".actionbar .cash-result p.run")
    runs.first.wait_for()
    events = page.evaluate("() => window.__fzTable.state.events")
    boards = [e["board"] for e in events if e["type"] == "run_showdown"]
    assert len(boards) == 2, events
    assert [runs.nth(i).get_attribute("data-run") for i in range(runs.count())][:1] == ["1"]
    assert {r.get_attribute("data-run") for r in runs.all()} == {"1", "2"}, "each run's line"
    for n, board in enumerate(boards, 1):
        line = page.locator(f".actionbar .cash-result p.run[data-run='{n}']").first.inner_text()
        cards = page.evaluate("async b => (await import('/static/js/poker.js')).cardsText(b)", board)
        assert line.startswith(words["cash.run"].replace("{n}", str(n)).replace("{board}", cards)), (line, cards)
    rake = sum(e["amount"] for e in events if e["type"] == "rake_taken")
    assert rake > 0
    assert page.locator(".actionbar .cash-result p.rake").inner_text() == words["cash.rakeTaken"].replace(
        "{n}", page.evaluate(NUMBER_JS, rake))
    view = _view(page)
    assert sum(s["stack"] for s in view["seats"] if s["player"]) + view["rake"]["total"] == 6000, "no chip made or lost"
    # a third player sits down after a hand was dealt: the dialog offers to post a big blind now
    # or wait for it (C4); waiting is the default, and the seat says so
    third = new_page(locale=locale, server=cash_server)
    _register_on(third, f"twice_c{locale[:2]}")
    _open(third, table)
    third.locator(".felt-wrap .seat[data-seat='2']").click()
    dialog = third.locator("dialog.buyin-dialog")
    dialog.locator(".post-choice").wait_for()
    assert dialog.locator("#post-wait").is_checked() and not dialog.locator("#post-post").is_checked()
    dialog.locator("input[type=number]").fill("2500")
    dialog.locator("button.buyin-go").click()
    dialog.wait_for(state="detached")
    _wait_view(third, "v => v.seats[2].status === 'waiting'")
    assert third.locator(".felt-wrap .seat[data-seat='2'] .state").text_content() == third.evaluate(CATALOG_JS)["cash.status.waiting"]
    assert page.errors == [] and other.errors == [] and third.errors == [], (page.errors, other.errors, third.errors)


def _stood_in(table_id: str, game: str, big_blind: int, *, seats: int = 4, seated: int = 1, avg_pot: int = 0,
              hands_per_hour: int = 0) -> dict[str, Any]:
    """A cash table's summary in the contract's shape (docs/protocol.md "Table" and "Format", as
    table/gameinfo.py with_format gives it: the lobby tells a cash table by ``format.type``)."""
    slots = [{"slot": i, "user": {"id": 900 + i, "name": f"p{i}", "kind": "user"} if i < seated else None, "bot": None}
             for i in range(seats)]
    stakes = {"small_blind": big_blind // 2, "big_blind": big_blind}
    buy_in = {"min": 20 * big_blind, "max": 100 * big_blind}
    return {"id": table_id, "status": "playing", "ranked": False, "size": seats, "version": 3, "game": 1, "slots": slots,
            "players": [], "game_id": table_id, "created_at": 1.7e9,
            "format": {"game": game, "name": game, "type": "cash", "stakes": stakes, "buy_in": buy_in},
            "table_game": {"code": game, "name": game, "format": "cash"},
            "stakes": stakes, "buy_in": buy_in, "seats_free": seats - seated,
            "avg_pot": avg_pot, "hands_per_hour": hands_per_hour}


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_the_lobby_says_a_stud_tables_bets_ante_and_bring_in_and_a_limit_tables_bets(new_page, cash_server, locale):
    """Issue #31 item 7: one statement of stakes, the server's (blinds; small/big bet; stud's
    ante, bring-in and bets), drawn as the server gives it."""
    page = new_page(width=1366, height=900, locale=locale, server=cash_server)
    stud = _stood_in("cashF7S", "F7S", 20)
    stud["stakes"] = {"small_blind": 10, "big_blind": 20, "ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}
    limit = _stood_in("cashFT", "FT", 20)
    limit["stakes"] = {"small_blind": 10, "big_blind": 20, "small_bet": 20, "big_bet": 40}
    page.route("**/api/tables?format=cash*", lambda route: route.fulfill(json={"tables": [stud, limit], "next": None}))
    page.goto("/")
    words = page.evaluate(CATALOG_JS)
    fmt = lambda n: page.evaluate(NUMBER_JS, n)  # noqa: E731
    section = page.locator("section.cash-tables")
    row = section.locator("li[data-table='cashF7S']")
    row.wait_for()
    forced = ", ".join([words["game.level.ante"].replace("{n}", fmt(2)), words["game.level.bringIn"].replace("{n}", fmt(5))])
    assert row.locator(".stakes").inner_text() == f"{fmt(20)}/{fmt(40)} ({forced})"
    assert section.locator("li[data-table='cashFT'] .stakes").inner_text() == f"{fmt(20)}/{fmt(40)}"
    assert page.errors == []


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 900, "en-US"), (360, 740, "cs-CZ")])
def test_the_lobby_lists_cash_tables_by_game_and_stakes_and_guests_are_told_to_log_in(new_page, cash_server, width, height, locale):
    page = new_page(width=width, height=height, locale=locale, server=cash_server)
    stood_in = [_stood_in("cashNT1", "NT", 200, seated=3, avg_pot=1234, hands_per_hour=87),
                _stood_in("cashPO1", "PO", 20, seats=2, seated=0)]
    page.route("**/api/tables?format=cash*", lambda route: route.fulfill(json={"tables": stood_in, "next": None}))
    page.goto("/")
    words = page.evaluate(CATALOG_JS)
    fmt = lambda n: page.evaluate(NUMBER_JS, n)  # noqa: E731
    section = page.locator("section.cash-tables")
    row = section.locator("li[data-table='cashNT1']")
    row.wait_for()
    assert row.locator(".stakes").inner_text() == f"{fmt(100)}/{fmt(200)}"
    assert row.locator(".free").inner_text() == words["cashLobby.seats"].replace("{free}", "1").replace("{size}", "4")
    assert row.locator(".buyin").inner_text() == words["cashLobby.buyIn"].replace("{min}", fmt(4000)).replace("{max}", fmt(20000))
    assert row.locator(".avgpot").inner_text() == words["cashLobby.avgPot"].replace("{n}", fmt(1234))
    assert row.locator(".hph").inner_text() == words["cashLobby.handsPerHour"].replace("{n}", fmt(87))
    # the tables the server opened are listed here (from the lobby feed), not among the freezeouts
    seeded = cash_server.cash["po"]
    real = section.locator(f"li[data-table='{seeded}']")
    real.wait_for()
    assert real.locator(".stakes").inner_text() == f"{fmt(BIG_BLIND // 2)}/{fmt(BIG_BLIND)}", "the server's own summary"
    assert real.locator(".buyin").inner_text() == words["cashLobby.buyIn"].replace("{min}", fmt(20 * BIG_BLIND)).replace(
        "{max}", fmt(100 * BIG_BLIND))
    assert page.locator(f"section.tables li[data-table='{seeded}']").count() == 0
    # a filter by game
    page.select_option("#cash-filter", "PO")
    section.locator("li[data-table='cashNT1']").wait_for(state="detached")
    games = {li.get_attribute("data-game") for li in section.locator("li").all()}
    assert games == {"PO"}, games
    assert section.locator("li[data-table='cashPO1']").count() == 1
    page.select_option("#cash-filter", "")
    row.wait_for()
    # a guest (and nobody signed in) sees the list, is told to log in, and creates nothing
    assert section.locator(".cash-guest").inner_text().startswith(words["cashLobby.guest"])
    assert section.locator(".create-cash").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "nothing pushes the page sideways"
    for li in section.locator("li").all()[:3]:
        assert li.evaluate("el => el.getBoundingClientRect().right") <= width + 0.5
    _register_on(page, f"lobby_{width}{locale[:2]}")
    section.locator(".create-cash").wait_for()
    assert section.locator(".cash-guest").count() == 0
    assert page.errors == [], page.errors


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_the_create_cash_table_dialog_sends_the_contracts_request_and_says_a_refusal(new_page, cash_server, locale):
    page = new_page(locale=locale, server=cash_server)
    _register_on(page, f"creator_{locale[:2]}")
    words = page.evaluate(CATALOG_JS)
    fmt = lambda n: page.evaluate(NUMBER_JS, n)  # noqa: E731
    sent: list[Any] = []

    def answer(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.post_data_json)
        if len(sent) == 1:  # the first is refused: the dialog says why and stays open
            route.fulfill(status=409, json={"error": {"code": "illegal", "message": "stakes too small"}})
        else:
            route.continue_()  # the server creates it (POST /api/tables, format cash)

    page.route("**/api/tables", answer)
    page.locator("section.cash-tables .create-cash").click()
    dialog = page.locator("dialog.cash-create-dialog")
    dialog.wait_for()
    page.select_option("#cash-game", "PO")
    page.fill("#cash-bb", "50")
    # C1's defaults shown: 100 big blinds at most, 20 at least
    assert dialog.locator(".buyin-hint").inner_text() == words["cashLobby.defaults"].replace("{min}", fmt(1000)).replace("{max}", fmt(5000))
    assert page.get_attribute("#cash-max", "placeholder") == "5000"
    page.fill("#cash-max", "4000")
    page.fill("#cash-rake", "2.5")
    page.fill("#cash-cap", "30")
    page.select_option("#cash-seats", "3")
    page.uncheck("#cash-straddle")
    assert page.locator("#cash-button-straddle").is_disabled(), "a button straddle needs straddles (C6)"
    page.check("#cash-show-called")
    dialog.locator("button.create-go").click()
    error = dialog.locator(".cash-error")
    error.filter(has_text="stakes too small").wait_for()
    assert error.inner_text() == words["cashLobby.refused"].replace("{message}", "stakes too small")
    dialog.locator("button.create-go").click()
    page.wait_for_function("() => location.hash.startsWith('#/table/')")
    assert sent[-1] == {"format": "cash", "game": "PO", "seats": 3,
                        "cash": {"big_blind": 50, "max_buy_in": 4000, "rake_bp": 250, "rake_cap": 30, "straddle": False,
                                 "button_straddle": False, "run_twice": True, "show_called": True}}
    assert len(sent) == 2
    page.wait_for_function("() => { const t = window.__fzTable; return !!t && !!t.state.view && t.state.view.format === 'cash'; }")
    view = _view(page)
    assert (view["game"], view["stakes"]["big_blind"], view["buy_in"]["max"], len(view["seats"])) == ("PO", 50, 4000, 3)
    assert (view["rake"]["basis_points"], view["rake"]["cap"], view["straddle"], view["run_twice"]) == (250, 30, False, True)
    assert (view["button_straddle"], view["show_called"]) == (False, True)
    assert page.locator(".cash-controls .cash-hint").inner_text() == words["cash.pickSeat"], "the creator is not seated"
    # the creator buys in through the dialog: the header's balance is the ledger's at once
    _buy_in(page, 1, 1500)
    _badge(page, GRANT - 1500)
    errors = [e for e in page.errors if "409" not in e]
    assert errors == [], page.errors


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_the_servers_refusals_are_said_in_the_buy_in_dialog(new_page, cash_server, locale):
    """C9: chips spent at another table behind the dialog's back (another tab) are refused as
    insufficient; C3: back within 30 minutes with fewer chips than you left with is refused."""
    here, there = cash_server.cash[f"refuse_{locale[:2]}_here"], cash_server.cash[f"refuse_{locale[:2]}_there"]
    page = new_page(locale=locale, server=cash_server)
    _register_on(page, f"refused_{locale[:2]}")
    words = page.evaluate(CATALOG_JS)
    _open(page, here)
    page.locator(".felt-wrap .seat[data-seat='0']").click()
    dialog = page.locator("dialog.buyin-dialog")
    dialog.wait_for()
    dialog.locator(".have").filter(has_text=page.evaluate(NUMBER_JS, GRANT)).wait_for()
    dialog.locator("input[type=number]").fill("9000")
    _api(page, f"/api/tables/{there}/buy_in", {"chips": 5000, "slot": 1})
    dialog.locator("button.buyin-go").click()
    error = dialog.locator(".cash-error:not([hidden])")
    error.wait_for()
    assert error.inner_text().startswith(words["cash.err.insufficient"].split("{message}")[0]), error.inner_text()
    _badge(page, GRANT - 5000)
    assert dialog.locator(".limits").inner_text().endswith(page.evaluate(NUMBER_JS, GRANT - 5000)), "the limit follows the balance"
    assert _view(page)["you"] is None, "nothing changed"
    dialog.locator("input[type=number]").fill("3000")
    dialog.locator("button.buyin-go").click()
    page.wait_for_function("() => window.__fzTable.state.view.you === 0")
    dialog.wait_for(state="detached")
    _badge(page, GRANT - 8000)
    # leave between hands: the 3,000 chips go back; coming back at once with fewer is refused (C3)
    open_cash_menu(page)
    page.locator(".cash-controls button.leave").click()
    page.wait_for_function("() => window.__fzTable.state.view.you == null")
    _badge(page, GRANT - 5000)
    page.locator(".felt-wrap .seat[data-seat='0']").click()
    dialog.wait_for()
    dialog.locator("input[type=number]").fill("2000")
    dialog.locator("button.buyin-go").click()
    error.wait_for()
    assert error.inner_text().startswith(words["cash.err.illegal"].split("{message}")[0]) and "C3" in error.inner_text(), error.inner_text()
    _badge(page, GRANT - 5000)
    assert _view(page)["you"] is None, "nothing changed"
    errors = [e for e in page.errors if "409" not in e]
    assert errors == [], page.errors


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_leaving_with_no_chips_does_not_say_they_are_back_on_the_balance(new_page, cash_server, locale):
    """Issue #31 item 11: "You left the table with 0 chips; they are back on your balance" — with
    nothing to give back, the page says the player left with no chips."""
    page = new_page(locale=locale, server=cash_server)
    name = f"left_empty_{locale[:2]}"
    _register_on(page, name)
    _open(page, cash_server.cash["po"])
    words = page.evaluate(CATALOG_JS)
    page.evaluate("n => window.__fzTable.cashTable().onEvents([{type: 'stood', slot: 3, name: n, chips: 0}])", name)
    toast = page.locator(".toast", has_text=words["cash.youLeftEmpty"])
    toast.wait_for()
    assert words["cash.youLeftEmpty"] != words["cash.youLeft"]
    fmt = page.evaluate(NUMBER_JS, 1500)
    page.evaluate("n => window.__fzTable.cashTable().onEvents([{type: 'stood', slot: 3, name: n, chips: 1500}])", name)
    page.locator(".toast", has_text=words["cash.youLeft"].replace("{chips}", fmt)).wait_for()
    assert page.errors == []
