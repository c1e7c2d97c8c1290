"""Issue #21 at the live table, on the server's own messages for chosen cards
(tests/web/scripted.py): busting in a run-out is said with its last card
(item 3), the deciding hand stays readable for the whole pause before the end
screen (item 4), and the result and buttons in plain words (item 7).

Every wait is on the page's state (a version drawn, an element shown), never
on time; no test reads a clock value back."""

from __future__ import annotations

import re

import pytest
from scripted import Script, dealt, mount

from freezeout.server.gamespec import GameSpec

pytestmark = pytest.mark.browser

# The page's first drawing that shows a run-out card: what it says then.
AT_RUN_OUT_JS = """() => {
  window.__atRunOut = null;
  const observer = new MutationObserver(() => {
    if (!document.querySelector('.board .card:not(.slot)')) return;
    const text = sel => { const el = document.querySelector(sel); return el ? el.innerText : null; };
    window.__atRunOut = {
      status: text('.actionbar .status'),
      resign: !!document.querySelector('.table-head .resign:not([hidden])'),
      states: [...document.querySelectorAll('.felt-wrap .seat')].map(s => s.querySelector('.state').textContent),
      stacks: [...document.querySelectorAll('.felt-wrap .seat')].map(s => s.querySelector('.stack').textContent),
      pots: [...document.querySelectorAll('.felt-wrap .pots .pot')].map(p => p.getAttribute('aria-label')),
    };
    observer.disconnect();
  });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def _seat(page, seat: int):
    return page.locator(f".felt-wrap .seat[data-seat='{seat}']")


def _labels(page) -> list[str]:
    return [x.strip() for x in page.locator(".actionbar .moves .btn:not(.gone) .lbl").all_inner_texts()]


def test_busting_in_a_run_out_is_said_with_the_last_card(new_page):
    """Item 3: while the board is run out, you are not out yet (no "You are
    out", Resign stays), and who went out in an earlier hand still reads OUT."""
    page = new_page()
    mount(page)
    s = Script(["ana", "bo", "cy", "dd"], button=0)
    # hand 1: dd shoves, cy calls and wins: dd is out (4th)
    s.deal({0: "7c2d", 1: "8c3d", 2: "AsAd", 3: "KsKd"}, "Ah9s4c8h5s")
    s.feed(page, s.snapshot())
    s.pause = 3600
    s.feed(page, s.update(s.act(3, "allin") + s.act(0, "fold") + s.act(1, "fold") + s.act(2, "call")))
    _seat(page, 3).locator(".state", has_text="Out").wait_for()
    # hand 2: cy shoves, ana calls all-in and loses: ana is out (3rd), bo and cy play on
    events = s.deal({0: "QsQd", 1: "8c3d", 2: "AhAc"}, "Kh9s4c8h5d")
    s.feed(page, s.update(events))
    assert s.t.to_act == 1
    s.feed(page, s.update(s.act(1, "fold")))
    s.feed(page, s.update(s.act(2, "allin")))
    page.evaluate(AT_RUN_OUT_JS)
    s.feed(page, s.update(s.act(0, "call")))
    at = page.evaluate("window.__atRunOut")
    assert at is not None
    assert "out" not in at["status"].lower(), at
    assert at["resign"], "Resign stays while the run-out is dealt"
    assert at["states"][3].startswith("Out"), f"dd went out a hand ago: {at}"
    assert at["states"][0] == "All-in", at
    # with the last card: your own result, as the winner's
    result = page.locator(".actionbar .hand-result")
    result.wait_for()
    assert "You are out in 3rd place" in result.inner_text()
    assert page.locator(".table-head .resign").is_hidden()
    assert _seat(page, 0).locator(".state").inner_text().lower().startswith("out")


def test_the_deciding_hand_is_readable_for_the_whole_pause_before_the_end_screen(new_page):
    """Item 4: a five-card run-out does not eat the pause (R30): the end
    screen comes a full pause after the last card is down."""
    page = new_page()
    s = dealt(page, ["ana", "bo"], {0: "AsKd", 1: "QcQh"}, "Qs9h4c8h3d", button=0)
    s.feed(page, s.update(s.act(0, "allin")))
    s.pause = 4.0
    page.evaluate(AT_RUN_OUT_JS)
    s.feed(page, s.update(s.act(1, "call")))
    held = page.evaluate("() => { const t = window.__fzTable; return {settle: t.settleUntil, final: t.finalUntil}; }")
    assert held["settle"] is not None, "the run-out is dealt card by card"
    assert held["final"] - held["settle"] >= s.pause - 1e-6, held
    page.locator(".actionbar .hand-result").wait_for()
    assert page.locator(".endscreen").is_hidden(), "the result is on the table, not yet the end screen"


def test_an_all_in_call_is_one_button(new_page):
    """Item 7: facing an all-in as big as your stack, Call (all-in) is the only way in."""
    page = new_page()
    s = dealt(page, ["ana", "bo"], {0: "AsKd", 1: "QcQh"}, "Qs9h4c8h3d", button=0)
    s.feed(page, s.update(s.act(0, "call") + s.act(1, "allin")))
    assert set(s.view()["legal"]["moves"]) == {"fold", "call", "allin"}
    page.locator(".actionbar .moves:not(.off)").wait_for()
    assert _labels(page) == ["Fold", "Call 980 (all-in)"]


def test_a_split_pot_names_you_and_not_a_lone_main_pot(new_page):
    """Item 7: one pot split: "You and bo split 2,000", not "ana & bo split the main pot"."""
    page = new_page()
    s = dealt(page, ["ana", "bo"], {0: "2c3d", 1: "2d3c"}, "AhKhQhJhTh", button=0)
    s.pause = 3600
    s.feed(page, s.update(s.act(0, "allin") + s.act(1, "call")))
    result = page.locator(".actionbar .hand-result")
    result.wait_for()
    text = result.inner_text()
    assert "You and bo split 2,000" in text, text
    assert "main pot" not in text and "ana" not in text, text


def _all_in_with_a_side_pot(page) -> tuple[Script, list]:
    """A mounted table at hand 2's last all-in (a main and a side pot, ana's aces win both):
    the script and the moves of the update that runs the board out, not yet fed."""
    mount(page)
    s = Script(["ana", "bo", "cy"], button=0)
    # hand 1: ana and bo fold: cy 1,010, ana 1,000, bo 990
    s.deal({0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s")
    s.feed(page, s.snapshot())
    s.feed(page, s.update(s.act(0, "fold") + s.act(1, "fold")))
    # hand 2: all three all-in; ana's aces win the main pot and the side pot
    events = s.deal({0: "AhAc", 1: "8d3c", 2: "KsKd"}, "2h9s4c8h5d")
    s.feed(page, s.update(events))
    s.pause = 3600
    moves = []
    while s.t.to_act >= 0 and s.t.in_hand:
        moves += s.act(s.t.to_act, "allin")
    return s, moves


def test_a_side_pot_keeps_its_name_in_the_run_out_and_one_winner_gets_one_line(new_page):
    """Item 7: the pots of an all-in run-out stay apart until the last card;
    a player who wins the main and the side pot reads once."""
    page = new_page()
    s, moves = _all_in_with_a_side_pot(page)
    page.evaluate(AT_RUN_OUT_JS)
    s.feed(page, s.update(moves))
    at = page.evaluate("window.__atRunOut")
    assert at["pots"] == ["Pot 2970", "Side pot 1 20"], at
    result = page.locator(".actionbar .hand-result")
    result.wait_for()
    lines = result.locator("p b").all_inner_texts()
    assert lines == ["You win 2,990"], lines


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 900, "en-US"), (375, 667, "cs-CZ")])
def test_the_run_out_draws_the_views_stacks_and_pots_before_the_result(new_page, width, height, locale):
    """Issue #33 item 5: while an all-in run-out is dealt the felt shows the table as it stood
    before the pots were awarded, as the view says it (``before_result``, rules/views.py); the
    page takes no winnings off the stacks itself.  Here the view's numbers are not the ones
    that subtraction would give, so the felt can only have drawn them from the view."""
    page = new_page(width=width, height=height, locale=locale)
    s, moves = _all_in_with_a_side_pot(page)
    msg = s.update(moves)
    assert msg["view"]["before_result"] == {"stacks": [0, 0, 10], "pots": [{"pot": 0, "amount": 2970}, {"pot": 1, "amount": 20}]}
    msg["view"]["before_result"] = {"stacks": [0, 4321, 0], "pots": [{"pot": 0, "amount": 2990}]}
    page.evaluate(AT_RUN_OUT_JS)
    s.feed(page, msg)
    at = page.evaluate("window.__atRunOut")
    number = page.evaluate("n => new Intl.NumberFormat(document.documentElement.lang || 'en').format(n)", 4321)
    assert at["stacks"][1] == number, at
    assert len(at["pots"]) == 1 and at["pots"][0].replace("\xa0", " ").endswith("2990"), at
    page.locator(".actionbar .hand-result").wait_for()  # the result with the last card, as before
    assert page.errors == [], page.errors


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 900, "en-US"), (360, 640, "cs-CZ")])
def test_a_waiting_tables_seats_show_the_starting_stack_its_game_names(new_page, width, height, locale):
    """Issue #33 item 5: before the first hand each seat shows the chips it will start with, the
    table's ``table_game.starting_stack`` (R1), not a 1000 written into the page."""
    page = new_page(width=width, height=height, locale=locale)
    mount(page)
    table = Script(["ana", "bo"]).table()
    table.update(status="waiting", players=None, game_id=None,
                 table_game=GameSpec(starting_stack=3000).summary())
    table["slots"][1]["user"] = None
    message = {"type": "snapshot", "version": 3, "table": table, "view": None, "events": [],
               "clock": {"now": 1.7e9}, "presence": [True, False], "fairness": None,
               "you": {"user": {"id": 1, "name": "ana", "kind": "user"}, "seat": None, "slot": 0}}
    page.evaluate("m => window.__fzFeed(m)", message)
    stacks = page.locator(".felt-wrap .seat .stack")
    stacks.first.wait_for()
    number = page.evaluate("n => new Intl.NumberFormat(document.documentElement.lang || 'en').format(n)", 3000)
    assert stacks.all_text_contents() == [number, ""]  # a free seat shows no chips
    assert page.errors == [], page.errors


def test_czech_timeouts_read_well(new_page):
    """Item 7: "Vypršel ti čas a hra za tebe složila", and one line for who is out."""
    page = new_page(locale="cs-CZ")
    s = dealt(page, ["ana", "bo", "cy"], {0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s", button=2, viewer=0)
    s.feed(page, s.update(s.act(2, "call")))
    s.feed(page, s.update(s.act(0, "timeout")))
    toast = page.locator(".toast", has_text="Vypršel ti čas")
    toast.wait_for()
    assert "takže" not in toast.inner_text() and "hra za tebe složila" in toast.inner_text(), toast.inner_text()
    s.feed(page, s.update(_check_down(s)))
    # the next hand: ana times out again and is out (R27): one line says it
    s.pause = 3600
    events = s.deal({0: "Kc2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s")
    assert s.t.to_act == 0
    events += s.act(0, "timeout")
    s.feed(page, s.update(events + _check_down(s)))
    result = page.locator(".actionbar .hand-result")
    result.wait_for()
    text = result.inner_text()
    assert text.count("Vypadáváš") + text.count("Končíš") == 1, text
    assert "dva timeouty v řadě" in text and "3." in text, text


def _check_down(s: Script) -> list[dict]:
    events: list[dict] = []
    while s.t.in_hand:
        events += s.act(s.t.to_act, "check" if "check" in s.t.legal_actions().moves else "call")
    return events


def test_a_late_turn_says_how_long_and_alerts_the_one_who_must_end_it(new_page):
    """Item 6 (R26): the table waits for Don't wait however long; after the
    clock runs out the late seat and the bar say for how long, and a player
    alone with the late one is alerted as on a turn of their own."""
    page = new_page()
    mount(page)
    s = Script(["ana", "bo"], button=1)  # bo has the button: bo acts first
    s.deal({0: "7c2d", 1: "8c3d"}, "Ah9s4c8h5s")
    assert s.t.to_act == 1
    s.feed(page, s.snapshot(left=-75))
    late = _seat(page, 1).locator(".state")
    assert re.fullmatch(r"1:\d\d late", late.inner_text().lower()), late.inner_text()
    status = page.locator(".actionbar .status").inner_text()
    assert re.search(r"bo's time ran out 1:\d\d ago", status), status
    assert page.locator(".actionbar .dontwait").is_visible()
    page.wait_for_function("() => (window.__fzAlerts || []).includes('late')")


def test_a_late_turn_with_a_bot_at_the_table_does_not_alert(new_page):
    """A bot presses Don't wait itself (R26): the others get the button, not an alert."""
    page = new_page()
    mount(page)
    s = Script(["ana", "bo", "bot-medium"], button=0, bots={2: "medium"})  # ana acts first: bo is late after her
    s.deal({0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s")
    s.act(0, "call")
    assert s.t.to_act == 1
    s.feed(page, s.snapshot(left=-75))
    page.locator(".actionbar .dontwait").wait_for()
    assert "late" not in page.evaluate("window.__fzAlerts || []")
