"""Issue #25: the player's play chips on the page (C9, docs/protocol.md "Play chips").

The header shows the signed-in player's balance (guests too) and reads it again when the
lobby is shown; the profile's "Play chips" section shows the balance, the daily reload when
the server says it is possible (else when it next is), the ledger as a plot and a list, and
the cash sessions.  A reload is one transfer id, retried as the same id after a network
error, so a double click or a lost answer never reloads twice; a refused one says why.

The reload tests run their own server whose starting grant is below the reload floor
(FREEZEOUT_LEDGER_GRANT < FREEZEOUT_LEDGER_RELOAD_FLOOR), so a new account may reload."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from freezeout.server.settings import Settings

pytestmark = pytest.mark.browser

GRANT, FLOOR, AMOUNT = 500, 1_000, 5_000
LOCALES = ["en-US", "cs-CZ"]
CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""
# the page's own API client (same module, same CSRF token): "another tab" acting behind this page's back
API_JS = """async ([method, path, body]) => { const api = await import('/static/js/api.js');
  return method === 'GET' ? api.get(path) : api.post(path, body); }"""
NUMBER_JS = "async n => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang()).format(n)"


@pytest.fixture(scope="module")
def reload_server(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server where a new account starts below the reload floor: it may reload at once.  It
    starts the way tests/web/conftest.py starts the session's ``server`` (its ``_serving``, found
    through that fixture's module: ``import conftest`` could name tests/conftest.py)."""
    # The module that defined the server's class, by its functions' globals: several test
    # folders have a module named ``conftest``, so sys.modules["conftest"] may be another one.
    web = SimpleNamespace(**type(server).__init__.__globals__)
    env = {"FREEZEOUT_LEDGER_GRANT": str(GRANT), "FREEZEOUT_LEDGER_RELOAD_FLOOR": str(FLOOR),
           "FREEZEOUT_LEDGER_RELOAD_AMOUNT": str(AMOUNT)}
    with web._serving(tmp_path_factory.mktemp("web-balance"), env) as running:
        yield running


def _api(page: Any, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(API_JS, ["GET" if body is None else "POST", path, body])


def _badge(page: Any, balance: int) -> Any:
    """The header's balance once it shows ``balance``."""
    badge = page.locator(f".who .balance[data-balance='{balance}']")
    badge.wait_for()
    return badge


def _register(page: Any, name: str) -> None:
    page.goto("/")
    page.locator(".who .reg").click()
    page.fill("#auth-name", name)
    page.fill("#auth-password", "correct horse 1")
    page.locator("dialog form button[type=submit]").click()
    page.locator(".who a.name", has_text=name).wait_for()


def _profile(page: Any) -> Any:
    page.goto("/#/profile")
    section = page.locator("section.chips")
    section.locator(".chips-balance").wait_for()
    return section


@pytest.mark.parametrize("locale", LOCALES)
def test_a_new_account_and_a_guest_see_their_starting_grant_in_the_header(new_page, locale):
    grant = Settings.model_fields["ledger_grant"].default  # the session server keeps the default (C9)
    guest = new_page(locale=locale)
    guest.goto("/")
    guest.locator(".who .reg").wait_for()
    assert guest.locator(".who .balance:visible").count() == 0, "nobody signed in: no balance"
    _api(guest, "/api/guest", {})
    badge = _badge(guest, grant)
    words = guest.evaluate(CATALOG_JS)
    assert badge.locator(".num").inner_text() == guest.evaluate(NUMBER_JS, grant), "in the page's number format"
    assert badge.get_attribute("aria-label") == words["chips.headerLabel"].replace("{n}", guest.evaluate(NUMBER_JS, grant))
    assert _api(guest, "/api/me/balance")["balance"] == grant

    page = new_page(locale=locale)
    name = f"grant_{locale[:2]}"
    _register(page, name)
    badge = _badge(page, grant)
    me = page.locator(".who .me")
    assert me.locator("a.name").inner_text() == name and me.locator(".balance").count() == 1, "next to the name"
    assert page.errors == [] and guest.errors == []


@pytest.mark.parametrize("locale", LOCALES)
def test_profile_plots_and_lists_the_ledger_and_a_double_clicked_retried_reload_reloads_once(new_page, reload_server, locale):
    page = new_page(locale=locale, server=reload_server)
    _register(page, f"reload_{locale[:2]}")
    _badge(page, GRANT)
    section = _profile(page)
    words = page.evaluate(CATALOG_JS)
    # the history: the plot from 0 to the grant, the grant in the list, no cash sessions yet
    assert section.locator(".chips-plot svg.chart circle.point").count() == 2
    rows = section.locator(".chips-rows li")
    assert rows.count() == 1
    assert rows.first.locator(".kind").inner_text() == words["chips.kind.grant"]
    assert rows.first.locator(".amount").inner_text() == "+" + page.evaluate(NUMBER_JS, GRANT)
    assert section.locator(".no-sessions").inner_text() == words["chips.noSessions"]

    # the first answer is lost on its way back (the server did reload): the page retries the same id
    transfers: list[str] = []

    def lose_first_answer(route: Any) -> None:
        transfers.append(route.request.post_data_json["transfer"])
        if len(transfers) == 1:
            route.fetch()
            route.abort("failed")
        else:
            route.continue_()

    page.route("**/api/me/reload", lose_first_answer)
    button = section.locator("button.reload")
    assert button.inner_text() == words["chips.reload"].replace("{amount}", page.evaluate(NUMBER_JS, AMOUNT))
    button.dblclick()
    message = section.locator(".chips-message")
    message.wait_for()
    assert "ok" in (message.get_attribute("class") or "").split(), message.inner_text()
    assert len(transfers) >= 2 and len(set(transfers)) == 1, f"one transfer id, retried: {transfers}"
    _badge(page, GRANT + AMOUNT)
    assert section.locator(".chips-balance b.num").get_attribute("data-balance") == str(GRANT + AMOUNT)
    ledger = _api(page, "/api/me/ledger?limit=200")["rows"]
    assert [r["kind"] for r in ledger] == ["reload", "grant"], "reloaded once"
    section.locator(".chips-rows li[data-kind='reload']").wait_for()
    assert section.locator(".chips-rows li").count() == 2
    assert section.locator(".chips-plot svg.chart circle.point").count() == 3
    # no second reload today: no button, and the next time the server names, in the page's words
    assert button.count() == 0
    state = _api(page, "/api/me/balance")
    assert state["can_reload"] is False
    when = section.locator(".next-reload time")
    assert page.evaluate("iso => Date.parse(iso) / 1000", when.get_attribute("datetime")) == state["next_reload_at"]
    assert section.locator(".next-reload").inner_text().startswith(words["chips.nextReload"])
    lost = [e for e in page.errors if "net::ERR_FAILED" in e]
    assert len(lost) == 1 and len(page.errors) == 1, f"only the answer this test made lost: {page.errors}"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refused_reload_says_why(new_page, reload_server, locale):
    page = new_page(locale=locale, server=reload_server)
    _register(page, f"refused_{locale[:2]}")
    section = _profile(page)
    button = section.locator("button.reload")
    button.wait_for()
    # another tab reloads first: this page's button is now out of date, and the server refuses it
    assert _api(page, "/api/me/reload", {"transfer": "another-tab-1"})["balance"] == GRANT + AMOUNT
    button.click()
    message = section.locator(".chips-message.error-text[role=alert]")
    message.wait_for()
    assert message.inner_text() == page.evaluate(CATALOG_JS)["chips.err.refusedToday"]
    _badge(page, GRANT + AMOUNT)
    assert [r["kind"] for r in _api(page, "/api/me/ledger")["rows"]] == ["reload", "grant"], "nothing moved"
    assert len(page.errors) == 1 and "409" in page.errors[0], f"only the refusal's own 409: {page.errors}"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_header_reads_the_balance_again_when_the_lobby_is_shown(new_page, reload_server, locale):
    page = new_page(locale=locale, server=reload_server)
    _register(page, f"lobby_{locale[:2]}")
    _badge(page, GRANT)
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    _api(page, "/api/me/reload", {"transfer": "behind-its-back"})  # chips moved elsewhere (another tab)
    page.locator(".nav a[data-nav=lobby]").click()
    _badge(page, GRANT + AMOUNT)
    assert page.errors == [], page.errors


VIEWPORTS = [(360, 740), (375, 667), (1366, 900)]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_the_play_chips_fit_a_phone_and_a_desktop(new_page, reload_server, locale, width, height):
    page = new_page(width=width, height=height, locale=locale, server=reload_server)
    _register(page, f"fit{width}_{locale[:2]}")
    badge = _badge(page, GRANT)
    bar = page.locator(".topbar")
    tall = bar.bounding_box()["height"]
    box = badge.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= tall
    badge.evaluate("el => { el.style.display = 'none'; }")
    assert bar.bounding_box()["height"] == tall, "the balance makes the top bar no taller"
    badge.evaluate("el => { el.style.display = ''; }")

    section = _profile(page)
    button = section.locator("button.reload")
    button.wait_for()
    section.evaluate("el => el.scrollIntoView()")
    # Playwright would scroll before a click: the button must be in view where the section is
    under_bar = bar.bounding_box()["y"] + bar.bounding_box()["height"]
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["y"] >= under_bar and box["y"] + box["height"] <= height, (box, under_bar)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "nothing pushes the page sideways"
    for handle in section.locator("li, .chips-head, .chips-plot, p").element_handles():
        right = handle.evaluate("el => el.getBoundingClientRect().right")
        assert right <= width + 0.5, handle.inner_text()
    assert page.errors == [], page.errors


@pytest.mark.parametrize("locale", LOCALES)
def test_table_rows_and_cash_sessions_in_words(new_page, locale):
    """Cash tables come later: the server's answers are stood in for here, in the shapes
    docs/protocol.md gives (a row's amount is signed; a session's net is its result)."""
    page = new_page(locale=locale)
    rows = [
        {"id": 4, "transfer": "t:4", "kind": "cash_out", "amount": 2600, "balance": 10600, "table": "cash-1", "at": 1.7e9 + 300},
        {"id": 3, "transfer": "t:3", "kind": "top_up", "amount": -500, "balance": 8000, "table": "cash-1", "at": 1.7e9 + 200},
        {"id": 2, "transfer": "t:2", "kind": "buy_in", "amount": -1500, "balance": 8500, "table": "cash-1", "at": 1.7e9 + 100},
        {"id": 1, "transfer": "grant:1", "kind": "grant", "amount": 10000, "balance": 10000, "table": None, "at": 1.7e9},
    ]
    sessions = [{"table": "cash-1", "label": "Vega IV", "started_at": 1.7e9 + 100, "ended_at": 1.7e9 + 300, "bought_in": 1500, "topped_up": 500,
                 "cashed_out": 2600, "net": 600, "open": False}]
    page.route("**/api/me/ledger?*", lambda route: route.fulfill(json={"rows": rows, "next": None}))
    page.route("**/api/me/sessions", lambda route: route.fulfill(json={"sessions": sessions}))
    _register(page, f"tables_{locale[:2]}")
    section = _profile(page)
    words = page.evaluate(CATALOG_JS)
    listed = section.locator(".chips-rows li")
    listed.first.wait_for()
    assert [li.get_attribute("data-kind") for li in listed.all()] == ["cash_out", "top_up", "buy_in", "grant"], "newest first"
    buy_in = section.locator(".chips-rows li[data-kind='buy_in']")
    assert buy_in.locator(".kind").inner_text() == words["chips.kind.buy_in"]
    assert buy_in.locator(".amount.down").inner_text() == "−" + page.evaluate(NUMBER_JS, 1500)
    assert buy_in.locator("a.table-link").get_attribute("href") == "#/table/cash-1"
    assert buy_in.locator("time").get_attribute("datetime") == "2023-11-14T22:15:00.000Z"
    assert section.locator(".chips-rows li[data-kind='grant'] a.table-link").count() == 0, "a grant has no table"
    assert section.locator(".chips-plot svg.chart circle.point").count() == 5, "the start and the balance after each row"
    session = section.locator(".chips-sessions li[data-table='cash-1']")
    assert session.locator("a.table-link").get_attribute("href") == "#/table/cash-1"
    assert "Vega IV" in session.locator("a.table-link").inner_text(), "a session is named as people know the table"
    assert session.locator(".net.up").inner_text() == "+" + page.evaluate(NUMBER_JS, 600)
    assert section.locator(".no-sessions").count() == 0
    assert page.errors == [], page.errors
