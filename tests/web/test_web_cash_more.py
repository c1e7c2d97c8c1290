"""Issue #25: the cash table's page draws what the cash view says (docs/protocol.md "Cash tables").

Coming back from sitting out owing blinds asks to post them or wait for the big blind where
the view offers that choice (C10); the straddle box shows only for the seat the view offers a
straddle (C6) and the straddle goes in; a board run twice is drawn twice on the felt, each run
with its winners' cards (C7); "Add bot" offers the bots the view names and seats one where a
seat is free.

Two servers, seeded as tests/web/test_web_cash.py seeds its own (a ``create`` entry per
table): one with a long pause between hands, so "between hands" lasts until the test is done
with it, and one with a short pause, where hands follow each other (to miss blinds).  The
turn clock is long on both: no move is made by a timeout; every wait is for a condition.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scripted_cash import open_cash_menu
from test_web_cash import (
    CATALOG_JS,
    NUMBER_JS,
    VIEW_JS,
    _buy_in,
    _inside,
    _open,
    _play_hand,
    _register_on,
    _seed,
    _sit_in_order,
    _view,
    _wait_view,
)

pytestmark = pytest.mark.browser

OPTIONS = {"big_blind": 100, "rake_bp": 500, "rake_cap": 50, "straddle": True, "run_twice": True}
SLOW = {"straddle": 4, "twice": 2, "history": 2, "stud": 2}  # name: seats (a long pause between hands)
GAMES = {"stud": "F7S"}  # the tables that deal another game than no-limit hold'em
QUICK = {"sitin": 3, "bot0": 3, "bot1": 3}  # a short pause: hands follow each other


def _serve(server: Any, tmp: Path, tables: dict[str, int], pause: str) -> Iterator[Any]:
    web = SimpleNamespace(**type(server).__init__.__globals__)  # tests/web/conftest.py (see test_web_cash.py)
    with ThreadPoolExecutor(1) as pool:
        ids = pool.submit(asyncio.run, _seed(f"sqlite:///{tmp / 'web.db'}", {name: (GAMES.get(name, "NT"), seats) for name, seats in tables.items()}, OPTIONS)).result()
    env = {"FREEZEOUT_PAUSE_SECONDS": pause, "FREEZEOUT_TURN_SECONDS": "600", "FREEZEOUT_CASH_IDLE_SECONDS": "36000"}
    with web._serving(tmp, env) as running:
        running.cash = ids
        yield running


@pytest.fixture(scope="module")
def slow_server(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from _serve(server, tmp_path_factory.mktemp("web-cash-slow"), SLOW, "600")


@pytest.fixture(scope="module")
def quick_server(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from _serve(server, tmp_path_factory.mktemp("web-cash-quick"), QUICK, "0.3")


def _players(new_page: Any, server: Any, tag: str, n: int, *, width: int = 1366, height: int = 900,
             locale: str = "en-US") -> list[Any]:
    pages = [new_page(width=width, height=height, locale=locale, server=server)]
    pages += [new_page(locale="en-US", server=server) for _ in range(n - 1)]
    for i, p in enumerate(pages):
        _register_on(p, f"{tag}{i}")
    return pages


VIEW_AND_VERSION_JS = "() => [window.__fzTable.state.view, window.__fzTable.state.version]"


def _next_move(pages: list[Any]) -> None:
    """The player to act (as the first page's view says) checks if they may, else folds; between
    hands, wait for the next change (the next deal)."""
    # one read of both: a deal between two reads would leave the loop waiting for a change
    # that only its own next move can make
    view, version = pages[0].evaluate(VIEW_AND_VERSION_JS)
    if not view["in_hand"] or view["to_act"] < 0:
        pages[0].wait_for_function("v => window.__fzTable.state.version > v", arg=version)
        return
    actor = next(p for p in pages if p.evaluate(VIEW_JS)["you"] == view["to_act"])
    actor.wait_for_function("v => window.__fzTable.state.version >= v", arg=version)
    button = actor.locator(".actionbar .moves:not(.off) .btn.check:enabled, .actionbar .moves:not(.off) .btn.fold:enabled")
    button.first.wait_for()
    button.first.click()
    pages[0].wait_for_function("v => window.__fzTable.state.version > v", arg=version)


VIEWPORTS = [(1366, 900, "en-US"), (375, 667, "cs-CZ")]


@pytest.mark.parametrize(("width", "height", "locale"), VIEWPORTS[1:])  # the phone: the dialog's buttons on its screen
def test_coming_back_owing_blinds_asks_to_post_or_wait(new_page, quick_server, width, height, locale):  # C10
    table = quick_server.cash["sitin"]
    page, b, c = _players(new_page, quick_server, "sitin", 3, width=width, height=height, locale=locale)
    words = page.evaluate(CATALOG_JS)
    _sit_in_order([page, b, c], table, 3000)
    open_cash_menu(page)
    page.locator(".cash-controls button.sitout").click()
    _wait_view(page, "v => v.seats[v.you].status === 'sitting out'")
    # hand after hand, everyone checks or folds until the blinds have passed the seat sitting out
    for _ in range(100):
        if page.evaluate("() => window.__fzTable.state.view.seats[0].owes > 0"):
            break
        _next_move([page, b, c])
    else:
        raise AssertionError("the blinds never passed the seat that sat out")
    _wait_view(page, "v => v.offers.sit_in_choice")
    open_cash_menu(page)
    page.locator(".cash-controls button.sitin").click()
    dialog = page.locator("dialog").filter(has=page.locator("button.wait"))
    dialog.wait_for()
    assert dialog.locator("p").first.inner_text() == words["cash.owes"]
    for button in ("button.wait", "button.post"):
        _inside(page, dialog.locator(button), width, height)
    dialog.locator("button.wait").click()
    _wait_view(page, "v => v.seats[v.you].status === 'waiting'")
    assert page.errors == [] and b.errors == [] and c.errors == [], (page.errors, b.errors, c.errors)


@pytest.mark.parametrize(("width", "height", "locale"), VIEWPORTS)
def test_add_bot_offers_the_views_bots_and_seats_one_where_a_seat_is_free(new_page, quick_server, width, height, locale):
    table = quick_server.cash[f"bot{VIEWPORTS.index((width, height, locale))}"]
    (page,) = _players(new_page, quick_server, f"addbot{width}", 1, width=width, height=height, locale=locale)
    words = page.evaluate(CATALOG_JS)
    _open(page, table)
    assert page.locator(".cash-controls button.addbot").count() == 0, "only a seated player adds a bot"
    _buy_in(page, 0, 3000)
    view = _view(page)
    open_cash_menu(page)
    add = page.locator(".cash-controls button.addbot")
    add.wait_for()
    assert add.inner_text() == words["cash.addBot"]
    pick = page.locator(".cash-controls select.bot-level")
    levels = pick.locator("option").evaluate_all("els => els.map(e => e.value)")
    assert levels == view["bots"] and levels, "the levels are the server's, for this table's game"
    assert pick.locator("option").first.inner_text() == words["level." + levels[0]]
    _inside(page, add, width, height)
    _inside(page, pick, width, height)
    pick.select_option(levels[0])
    bots = sum(1 for s in view["seats"] if s["player"] and s["player"].startswith("bot-"))
    add.click()
    _wait_view(page, "(v, n) => v.seats.filter(s => s.player && s.player.startsWith('bot-')).length > n", bots)
    # issue #31 item 11: once the fill has taken the seats bots may have, the view says so and
    # "Add bot" is gone (no 409 to click into)
    _wait_view(page, "v => v.add_bot && !v.add_bot.possible && v.add_bot.reason === 'no_seat'")
    page.locator(".cash-controls button.addbot").wait_for(state="detached")
    assert page.errors == [], page.errors


def test_the_straddle_box_shows_for_the_seat_the_view_offers_and_the_straddle_goes_in(new_page, slow_server):  # C6
    table = slow_server.cash["straddle"]
    pages = _players(new_page, slow_server, "straddle", 3)
    _sit_in_order(pages[:2], table, 3000)
    _wait_view(pages[0], "v => v.in_hand")
    third = pages[2]
    _open(third, table)
    third.locator(".felt-wrap .seat[data-seat='2']").click()
    dialog = third.locator("dialog.buyin-dialog")
    dialog.locator("#post-post").check()  # C4: post a big blind to be dealt the next hand
    dialog.locator("input[type=number]").fill("3000")
    dialog.locator("button.buyin-go").click()
    dialog.wait_for(state="detached")
    _play_hand(pages[:2])
    for p in pages:
        _wait_view(p, "v => !v.in_hand && v.hand === 1")
    offered = [p for p in pages if p.evaluate(VIEW_JS)["offers"]["straddle"]]
    assert len(offered) == 1, [p.evaluate(VIEW_JS)["offers"] for p in pages]
    for p in pages:
        p.wait_for_function("() => !!document.querySelector('.cash-controls .cash-row')")
        assert p.locator(".cash-controls .straddle input").count() == (1 if p in offered else 0)
    mine = offered[0]
    box = mine.locator(".cash-controls .straddle input")
    _inside(mine, box, 1366, 900)
    box.click()
    seat = mine.evaluate(VIEW_JS)["you"]
    mine.wait_for_function("s => window.__fzTable.state.events.some(e => e.type === 'straddle' && e.seat === s)", arg=seat)
    _wait_view(mine, "v => v.offers.straddling")
    straddled = mine.locator(".cash-controls .straddle input:checked:disabled")  # in for the next hand: said so
    straddled.wait_for()
    assert all(p.errors == [] for p in pages), [p.errors for p in pages]


def test_a_board_run_twice_is_drawn_twice_with_each_runs_winners(new_page, slow_server, ui):  # C7
    table = slow_server.cash["twice"]
    page, other = _players(new_page, slow_server, "twice", 2)
    _sit_in_order([page, other], table, 3000)
    for p in (page, other):
        _wait_view(p, "v => v.in_hand && v.offers.run_twice")
        open_cash_menu(p)
        p.locator(".cash-controls .runtwice-box input").check()
    page.wait_for_function("() => window.__fzTable.state.view.offers.run_twice_agreed.length === 2")
    for _ in range(4):
        views = [p.evaluate(VIEW_JS) for p in (page, other)]
        if not views[0]["in_hand"]:
            break
        turn = next((p for p, v in zip((page, other), views, strict=True) if v["to_act"] == v["you"]), None)
        if turn is None:
            page.wait_for_function("v => window.__fzTable.state.version > v", arg=page.evaluate("() => window.__fzTable.state.version"))
            continue
        version = turn.evaluate("() => window.__fzTable.state.version")
        ui.push(turn)  # all in when the rules allow it, else call
        turn.wait_for_function("v => window.__fzTable.state.version > v", arg=version)
    _wait_view(page, "v => !v.in_hand && v.boards.length === 2")
    view = _view(page)
    boards = [[b[i:i + 2] for i in range(0, len(b), 2)] for b in view["boards"]]
    for p in (page, other):
        for size in ((1366, 900), (375, 667)):  # on the desktop and the phone: both boards on the screen
            p.set_viewport_size({"width": size[0], "height": size[1]})
            rows = [p.locator(".felt-wrap .center .board"), p.locator(".felt-wrap .center .board2")]
            rows[1].wait_for()
            for row, board in zip(rows, boards, strict=True):
                drawn = row.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
                assert drawn == board, (drawn, board)
                _inside(p, row, *size)
            # each run's winners' cards are marked on that run's board
            for n, row in enumerate(rows, 1):
                wins = {card for pot in view["result"] if pot.get("run") == n for w in pot["winners"] if w["chips"] > 0
                        for card in (w["best"][i:i + 2] for i in range(0, len(w["best"]), 2))}
                # (the marks come with the result, once the run-out's last card is down: issue #36)
                p.wait_for_function("([el, want]) => JSON.stringify([...el.querySelectorAll('.card.win')]"
                                    ".map(e => e.dataset.card).sort()) === JSON.stringify(want)",
                                    arg=[row.element_handle(), sorted(wins & set(boards[n - 1]))])
    # the hand's history: the replayer's last step draws both runs' boards as the table did (its
    # steps come from the server, server/table/replaysteps.py), and no earlier step shows a second board
    words = page.evaluate(CATALOG_JS)
    page.locator(f".side-tools button[aria-label='{words['table.history']}']").click()
    steps = page.locator(".replayer ol.log li")
    steps.first.wait_for()
    steps.last.click()
    replayed = [page.locator(".replayer .stage .board"), page.locator(".replayer .stage .board2")]
    replayed[1].wait_for()
    for row, board in zip(replayed, boards, strict=True):
        page.wait_for_function("([el, want]) => [...el.querySelectorAll('.card')].map(e => e.dataset.card).join() === want",
                               arg=[row.element_handle(), ",".join(board)])
    steps.first.click()
    replayed[1].wait_for(state="hidden")
    _replayed_run_out_shares(page, steps)
    assert page.errors == [] and other.errors == [], (page.errors, other.errors)


def _replayed_run_out_shares(page: Any, steps: Any) -> None:
    """Issue #36: in a cash hand's replayer, from the step that turned the hands up (V20) until
    both runs are whole, each hand's share by its seat: the mean of the two runs' shares, each
    run's with the other run's cards beyond the common board dead (runoutodds.js)."""
    from freezeout.server.oddsdesk import compute

    events = page.evaluate("() => window.__fzTable.state.events")
    turned = {e["seat"]: e["cards"] for e in events if e["type"] == "hand_turned_up"}
    assert len(turned) == 2, events
    pct = "x => new Intl.NumberFormat(document.documentElement.lang || 'en', {minimumFractionDigits: 1, maximumFractionDigits: 1}).format(x)"
    board_js = "sel => [...document.querySelectorAll(sel + ' .card')].map(e => e.dataset.card).filter(Boolean)"
    shares_js = """() => [...document.querySelectorAll('.replayer .stage .seat')].map(s => {
      const el = s.querySelector('.runout-eq'); return el && !el.hidden ? el.textContent : null; })"""
    shown = 0
    for i in range(steps.count()):
        steps.nth(i).click()
        boards = [page.evaluate(board_js, ".replayer .stage .board")]
        if page.locator(".replayer .stage .board2").is_visible():
            boards.append(page.evaluate(board_js, ".replayer .stage .board2"))
        up = all(page.locator(f".replayer .stage .seat[data-seat='{seat}'] .hole .card:not(.back)[data-card]").count() >= 2
                 for seat in turned)  # both hands face up on the felt: the turn-up's step or later
        seated = page.evaluate(shares_js)
        if not (up and any(len(b) < 5 for b in boards)):
            assert not any(seated), (i, seated)
            continue
        common = [c for c, d in zip(boards[0], boards[-1], strict=False) if c == d] if len(boards) > 1 else []
        runs = [compute("NT", tuple(turned.values()), "".join(b), "".join(boards[1 - k][len(common):]) if len(boards) > 1 else "")
                for k, b in enumerate(boards)]
        want = [None] * len(seated)
        for k, seat in enumerate(turned):
            want[seat] = page.evaluate(pct, 100 * sum(r["hands"][k]["equity"] for r in runs) / len(runs)) + " %"
        page.wait_for_function(f"want => JSON.stringify(({shares_js})()) === JSON.stringify(want)", arg=want)
        shown += 1
    assert shown >= 1, "the run-out's shares were shown at some step"


def test_the_hand_history_at_a_cash_table_shows_the_rake_and_the_result(new_page, slow_server):  # C5
    table = slow_server.cash["history"]
    page, other = _players(new_page, slow_server, "history", 2, width=375, height=667, locale="cs-CZ")
    words = page.evaluate(CATALOG_JS)
    _sit_in_order([page, other], table, 3000)
    _play_hand([page, other])  # checked and called down: a flop was seen, so the pot was raked
    _wait_view(page, "v => !v.in_hand && v.hand === 1 && v.result.length > 0")
    view = _view(page)
    rake = view["rake"]["total"]
    assert rake > 0
    page.locator(f".side-tools button[aria-label='{words['table.history']}']").click()
    lines = page.locator(".replayer ol.log li")
    lines.first.wait_for()
    said = lines.all_inner_texts()
    assert words["cash.rakeTaken"].replace("{n}", page.evaluate(NUMBER_JS, rake)) in said, said
    pot = view["result"][0]
    winners = [w["seat"] for w in pot["winners"] if w["chips"] > 0]
    assert any(str(page.evaluate(NUMBER_JS, pot["amount"])) in line for line in said), said  # the result's line, its pot
    assert winners and not any("undefined" in line for line in said), said
    assert page.errors == [] and other.errors == [], (page.errors, other.errors)


def test_a_stud_tables_header_and_hand_history_say_its_ante_bring_in_and_bets(new_page, slow_server):  # issue #31 item 7
    table = slow_server.cash["stud"]
    page, other = _players(new_page, slow_server, "stud", 2, width=375, height=667, locale="cs-CZ")
    words = page.evaluate(CATALOG_JS)
    fmt = lambda n: page.evaluate(NUMBER_JS, n)  # noqa: E731
    _sit_in_order([page, other], table, 5000)  # C1: 20 to 100 big bets (stud's big bet is 200 here)
    view = _view(page)
    level = view["level"]
    assert (level["ante"], level["bring_in"], level["small_bet"], level["big_bet"]) == (10, 25, 100, 200)
    forced = ", ".join([words["game.level.ante"].replace("{n}", fmt(10)), words["game.level.bringIn"].replace("{n}", fmt(25))])
    page.locator(".stakes", has_text=f"{fmt(100)}/{fmt(200)} ({forced})").first.wait_for()  # as the lobby says it
    _play_hand([page, other])
    _wait_view(page, "v => !v.in_hand && v.hand === 1")
    page.locator(f".side-tools button[aria-label='{words['table.history']}']").click()
    lines = page.locator(".replayer ol.log li")
    lines.first.wait_for()
    first = words["history.startAnte"].replace("{ante}", "10").replace("{bringIn}", "25")
    assert lines.first.inner_text().startswith(first), lines.all_inner_texts()  # not "Ante 0, bring-in 0"
    assert page.errors == [] and other.errors == [], (page.errors, other.errors)
