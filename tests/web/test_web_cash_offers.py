"""What the cash table's controls offer, as the server's view says it (issue #31 item 11).

* At an all-in with a bot in the pot, run it twice is not offered (C7: bots run the board
  once) and the page says why: the view's ``offers.run_twice_reason == "bots"``.
* "Add bot" is shown only where the view's ``add_bot.possible`` is true (once the fill has
  taken the seats a bot may have, clicking it would only earn a 409).
* On a phone your own seat's name (up to 12 characters) is drawn whole, not cut with "…".

The real table page (``TablePage``) is mounted on a connection the test feeds
(scripted.py's ``mount``) with a cash view shaped as the server's (server/table/cashview.py).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from scripted import mount
from scripted_cash import CashScript, open_cash_menu

pytestmark = pytest.mark.browser

NOW = 1_700_000_000.0


def _cash_view(*, all_in: bool, twice_reason: str | None, add_bot: bool | None, me: str = "alice_ux") -> dict[str, Any]:
    """A 6-seat No-Limit Hold'em cash view for seat 0: seat 1 is a bot; with ``all_in`` the bot
    has called all in and it is seat 0's turn; seats 3-5 are free."""
    names = [me, "bot-medium", "cy", None, None, None]
    seats: list[dict[str, Any]] = []
    for i, name in enumerate(names):
        if name is None:
            seats.append({"seat": i, "player": None})
            continue
        stack = 0 if all_in and i == 1 else 900
        seats.append({"seat": i, "player": name, "stack": stack, "status": "playing", "position": ["BTN", "SB", "BB"][i],
                      "owes": 0, "leaving": False, "in_hand": True, "time_bank": 30, "auto_top_up": None,
                      "time_bank_hands": None, "straddled": False, "straddle_next": False,
                      "bet": 100 if i == 1 else 10, "cards": "AsKd" if i == 0 else "????"})
    view: dict[str, Any] = {
        "format": "cash", "game": "NT", "game_name": "No-Limit Texas Hold'em", "hand": 3, "in_hand": True, "to_act": 0,
        "button": 0, "stakes": {"small_blind": 5, "big_blind": 10}, "level": {"small_blind": 5, "big_blind": 10},
        "buy_in": {"min": 400, "max": 2000}, "rake": {"basis_points": 0, "cap": 0, "caps": [0, 0, 0], "total": 0},
        "straddle": False, "button_straddle": False, "run_twice": True, "show_called": False,
        "board": "", "pot": 120, "seats": seats, "you": 0, "board_size": 5, "boards": [""], "dealer_button": 0,
        "blind_seats": [1, 2], "result": [], "post_choice": False,
        "offers": {"straddle": False, "straddling": False, "run_twice": twice_reason is None,
                   "run_twice_reason": twice_reason, "run_twice_agreed": [], "sit_in_choice": False},
        "bots": ["easy", "medium", "hard"],
    }
    if add_bot is not None:
        view["add_bot"] = {"possible": add_bot, "reason": None if add_bot else "no_seat"}
    return view


class Feeder:
    """Snapshots of crafted cash views, delivered to the mounted page one version after another."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.version = 10

    def feed(self, view: dict[str, Any]) -> None:
        self.version += 1
        msg = {"type": "snapshot", "version": self.version, "events": [], "view": copy.deepcopy(view),
               "table": {"id": "scripted", "status": "playing", "format": "cash", "game": "NT", "size": len(view["seats"]),
                         "slots": [], "players": None, "game_id": None},
               "clock": {"now": NOW, "to_act": view["to_act"], "turn_started": NOW, "turn_deadline": NOW + 30,
                         "bank_deadline": None, "expired": False, "next_hand_at": None},
               "fairness": {"next": None, "current": None, "revealed": []}, "presence": [True] * len(view["seats"]),
               "you": {"user": {"id": 1, "name": view["seats"][0]["player"], "kind": "user"}, "seat": 0, "slot": 0}}
        self.page.evaluate("m => window.__fzFeed(m)", msg)
        self.page.wait_for_function("v => window.__fzTable && window.__fzTable.state.version === v", arg=self.version)
        self.page.locator(".cash-controls .cash-row").first.wait_for(state="attached")


def _mounted(new_page: Any, *, width: int, height: int, locale: str = "en-US") -> tuple[Any, Feeder]:
    page = new_page(width=width, height=height, locale=locale)
    mount(page)
    return page, Feeder(page)


@pytest.mark.parametrize(("locale", "words"), [("en-US", "a bot is in the pot"), ("cs-CZ", "v potu je bot")])
def test_at_an_all_in_with_a_bot_the_page_says_why_run_it_twice_is_not_offered(new_page, locale, words):
    page, feeder = _mounted(new_page, width=375, height=667, locale=locale)
    feeder.feed(_cash_view(all_in=True, twice_reason="bots", add_bot=False))
    why = page.locator(".cash-controls .runtwice-why")
    why.wait_for()
    assert why.is_visible()
    assert words in why.inner_text(), why.inner_text()
    # nothing to agree to: no Yes/No and no box
    assert page.locator(".cash-controls .runtwice, .cash-controls .runtwice-box").count() == 0
    # no reason without the all-in (nothing to say yet) and none where it is offered
    feeder.feed(_cash_view(all_in=False, twice_reason="bots", add_bot=False))
    assert page.locator(".cash-controls .runtwice-why").count() == 0
    feeder.feed(_cash_view(all_in=True, twice_reason=None, add_bot=False))
    page.locator(".cash-controls .runtwice button.yes").wait_for()
    assert page.locator(".cash-controls .runtwice-why").count() == 0
    assert page.errors == [], page.errors


def test_add_bot_is_shown_only_where_the_view_says_one_may_sit(new_page):
    page, feeder = _mounted(new_page, width=360, height=640)
    feeder.feed(_cash_view(all_in=False, twice_reason="bots", add_bot=True))
    open_cash_menu(page)
    add = page.locator(".cash-controls button.addbot")
    add.wait_for()
    add.scroll_into_view_if_needed()
    box = add.bounding_box()
    assert box is not None and add.is_visible()
    vw = page.evaluate("() => [innerWidth, innerHeight]")
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw[0], (box, vw)
    assert box["y"] >= 0 and box["y"] + box["height"] <= vw[1], (box, vw)
    feeder.feed(_cash_view(all_in=False, twice_reason="bots", add_bot=False))
    add.wait_for(state="detached")
    assert page.locator(".cash-controls .bot-level").count() == 0
    feeder.feed(_cash_view(all_in=False, twice_reason="bots", add_bot=True))
    add.wait_for()
    assert page.errors == [], page.errors


@pytest.mark.parametrize("me", ["alice_ux", "alice_wonder", "WWWWWWWWWWWW"])
def test_your_own_seats_name_is_whole_on_a_phone(new_page, me):
    # six seats on a phone: the felt zoomed to about a third, the names drawn back up to 11 px;
    # your seat has the bottom row to itself and takes the width its name needs
    page, feeder = _mounted(new_page, width=360, height=640)
    feeder.feed(_cash_view(all_in=False, twice_reason="bots", add_bot=True, me=me))
    name = page.locator(".felt-wrap .seat[data-seat='0'] .pname")
    name.wait_for()
    seen = name.evaluate("e => ({text: e.textContent, sw: e.scrollWidth, cw: e.clientWidth})")
    assert seen["text"] == me, seen
    assert seen["sw"] <= seen["cw"], seen  # whole: no "alice_…"
    box = name.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 900, "en-US"), (360, 640, "cs-CZ")])
def test_the_top_up_dialog_draws_the_views_range_and_works_none_out(new_page, width, height, locale):
    """Issue #33 item 5: the chips a top-up may add are the view's ``top_up`` (C1, C2: the rules
    work them out, server/table/cashview.py); the page no longer subtracts the stack from the
    maximum buy-in itself.  The view here says 1 to 777 where that subtraction gives 1,100."""
    page, feeder = _mounted(new_page, width=width, height=height, locale=locale)
    view = _cash_view(all_in=False, twice_reason=None, add_bot=False)
    view.update(in_hand=False, to_act=-1, pot=0, top_up={"min": 1, "max": 777})
    for seat in view["seats"]:
        if seat["player"] is not None:
            seat.update(in_hand=False, bet=0)
    feeder.feed(view)
    open_cash_menu(page)
    button = page.locator(".cash-controls button.topup")
    button.click()
    dialog = page.locator("dialog.topup-dialog")
    dialog.wait_for()
    amount = dialog.locator("#topup-amount")
    assert (amount.get_attribute("min"), amount.get_attribute("max")) == ("1", "777")
    assert amount.input_value() == "777"
    limits = dialog.locator(".limits").inner_text()
    assert "777" in limits and page.evaluate("n => new Intl.NumberFormat(document.documentElement.lang || 'en').format(n)", 1100) not in limits
    go = dialog.locator("button.topup-go")
    box, window = go.bounding_box(), page.evaluate("() => [innerWidth, innerHeight]")
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= window[0] and box["y"] + box["height"] <= window[1]
    amount.fill("778")
    go.click()
    dialog.locator(".cash-error").wait_for()
    assert "777" in dialog.locator(".cash-error").inner_text()
    assert not any(m.get("type") == "top_up" for m in page.evaluate("window.__fzSent"))
    assert page.errors == [], page.errors


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 900, "en-US"), (360, 640, "cs-CZ")])
def test_a_cash_run_out_draws_the_views_stacks_and_pots_before_the_result(new_page, width, height, locale):
    """Issue #33 item 5: while a cash table's all-in run-out is dealt, the felt shows the table as
    it stood before the pots were awarded as the cash view says it (``before_result``,
    rules/cashview.py), as a freezeout's does; the page takes no winnings off the stacks.  The
    view's numbers here are not the ones that subtraction would give."""
    page = new_page(width=width, height=height, locale=locale)
    mount(page)
    s = CashScript("NT", {0: ("ana", 1000), 1: ("bo", 3000)})
    deck = list(s.game.variant.deck)
    random.Random(33).shuffle(deck)
    s.deal(deck)
    s.feed(page, s.snapshot())
    events: list[dict[str, Any]] = []
    while s.game.in_hand:
        legal = s.game.legal_actions()
        assert legal is not None
        events += s.act(legal.seat, "raise", legal.max_to) if legal.can_raise else s.act(legal.seat, "call")
    msg = s.update(events)
    before = msg["view"]["before_result"]
    assert sum(pot["amount"] for pot in before["pots"]) == 2000 and before["stacks"][:2] == [0, 2000]
    msg["view"]["before_result"] = {"stacks": [0, 4321, *before["stacks"][2:]], "pots": [{"pot": 0, "amount": 1999}]}
    s.feed(page, msg)
    page.evaluate("() => { const t = window.__fzTable; t.settleUntil = t.now() + 3600; t.render(); }")
    number = lambda n: page.evaluate("n => new Intl.NumberFormat(document.documentElement.lang || 'en').format(n)", n)  # noqa: E731
    stack = page.locator(".felt-wrap .seat[data-seat='1'] .stack")
    page.wait_for_function("want => document.querySelector(\".felt-wrap .seat[data-seat='1'] .stack\").textContent === want",
                           arg=number(4321))
    assert stack.is_visible()
    pots = page.locator(".felt-wrap .pots .pot")
    assert pots.count() == 1 and pots.first.get_attribute("aria-label").replace("\xa0", " ").endswith("1999")
    assert page.errors == [], page.errors
