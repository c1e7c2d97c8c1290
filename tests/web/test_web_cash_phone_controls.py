"""A full cash table on a phone: your own cards readable, the action bar on screen (issue #34, "The page").

On a phone the seat's cash controls (Top up, Sit out, Leave table, auto top-up, run it twice,
the hints) fold into one "⋯ Table" button whose sheet rises over the page, as the phone
clients of card rooms do: the felt keeps the height, so at 9 and 10 seats your own hole
cards stay readable on your turn.  Every control stays one tap away and inside the screen;
on a desktop the controls are drawn in their row under the bar, as before.

The real table page is mounted on a connection the test feeds (scripted.py's ``mount``) with
a cash table dealt by the rules engine (scripted_cash.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from scripted import mount, sent
from scripted_cash import CashScript
from test_web_phone_layout import SETTLED_JS

pytestmark = pytest.mark.browser

PHONES = [(360, 640), (375, 667)]
LOCALES = ["en-US", "cs-CZ"]

CARD_MIN_WIDTH = 24.0  # px, as drawn: a card you can read at a glance
RANK_MIN = 11.0  # px: the rank's text


def _your_turn(page: Any, seats: int) -> CashScript:
    """A hold'em cash table of ``seats`` mid-hand (a raise, the calls) and the viewer, seat 0, to act."""
    names = ["ana"] + [f"bot-station-{i}" for i in range(1, seats)]
    s = CashScript("NT", {i: (names[i], 2000 + 137 * i) for i in range(seats)}, seats=seats)
    deck = list(s.game.variant.deck)
    random.Random(34).shuffle(deck)
    s.deal(deck)
    raised = False
    while s.game.in_hand and s.game.to_act != 0:
        legal = s.game.legal_actions()
        if not raised and "raise" in legal.moves:
            s.act(s.game.to_act, "raise", legal.min_to)
            raised = True
        else:
            s.act(s.game.to_act, next(w for w in ("call", "check") if w in legal.moves))
    s.feed(page, s.snapshot())
    page.locator(".actionbar .moves .btn").first.wait_for()
    page.evaluate(SETTLED_JS)
    return s


def _inside(page: Any, selector: str) -> None:
    """Every element of ``selector`` is drawn whole inside the viewport."""
    size = page.viewport_size
    boxes = page.locator(selector).evaluate_all("els => els.map(e => { const r = e.getBoundingClientRect();"
                                                " return [r.left, r.top, r.right, r.bottom, r.width, r.height]; })")
    assert boxes, f"nothing drawn for {selector}"
    for left, top, right, bottom, width, height in boxes:
        assert width > 0 and height > 0, f"{selector} is not drawn"
        assert left >= -0.5 and top >= -0.5 and right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5, \
            f"{selector} at {(left, top, right, bottom)} is outside the {size['width']}x{size['height']} screen"


def _open_menu(page: Any) -> None:
    page.locator(".cash-controls button.cash-menu").click()
    page.locator(".cash-controls.open .cash-sheet").wait_for()


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("seats", [9, 10])
def test_at_a_full_cash_table_on_a_phone_your_cards_are_readable_and_the_bar_on_screen(new_page, seats, size, locale):
    page = new_page(width=size[0], height=size[1], locale=locale)
    page.emulate_media(reduced_motion="reduce")
    mount(page)
    _your_turn(page, seats)
    cards = page.locator(".seat.me .hole .card").evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, parseFloat(getComputedStyle(e.querySelector('.r')).fontSize)"
        " * e.getBoundingClientRect().width / e.offsetWidth])")
    assert len(cards) == 2
    for width, rank in cards:
        assert width >= CARD_MIN_WIDTH, f"your card is {width:.1f} px wide at {seats} seats"
        assert rank >= RANK_MIN, f"your card's rank is {rank:.1f} px tall at {seats} seats"
    _inside(page, ".actionbar .moves .btn")
    _inside(page, ".cash-controls button.cash-menu")
    # the folded controls take no room: none of them is shown until the menu opens
    assert not page.locator(".cash-controls button.leave").is_visible()


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", PHONES)
def test_every_folded_control_is_one_tap_away_inside_the_screen_and_works(new_page, size, locale):
    page = new_page(width=size[0], height=size[1], locale=locale)
    page.emulate_media(reduced_motion="reduce")
    mount(page)
    _your_turn(page, 9)
    _open_menu(page)
    for selector in (".cash-controls button.topup", ".cash-controls button.sitout", ".cash-controls button.leave",
                     ".cash-controls .autotopup", ".cash-controls .runtwice-box", ".cash-controls .cash-hint.why",
                     ".cash-controls .cash-hint.bank", ".cash-controls button.cash-sheet-close"):
        _inside(page, selector)
    assert page.locator(".cash-controls button.topup").is_disabled(), "no top-up during a hand (C2)"
    # the open sheet covers the felt, never the action bar: your turn is played as ever
    _inside(page, ".actionbar .moves .btn")
    covered = page.locator(".actionbar .moves .btn").evaluate_all(
        "els => els.filter(e => { const r = e.getBoundingClientRect();"
        " return !e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }).length")
    assert covered == 0, "the sheet covers the action bar"
    # sit out sends its intent; the auto top-up and the run-it-twice boxes send theirs
    page.locator(".cash-controls button.sitout").click()
    page.wait_for_function("() => window.__fzSent.some(m => m.type === 'sit_out')")
    page.locator(".cash-controls .autotopup input").check()
    page.wait_for_function("() => window.__fzSent.some(m => m.type === 'auto_top_up' && m.to === 10000)")
    page.locator(".cash-controls .runtwice-box input").check()
    page.wait_for_function("() => window.__fzSent.some(m => m.type === 'run_twice' && m.agree === true)")
    # leaving during a hand asks first (in its dialog, over the sheet)
    page.locator(".cash-controls button.leave").click()
    confirm = page.locator("dialog[open]")
    confirm.wait_for()
    _inside(page, "dialog[open]")
    assert not any(m["type"] == "stand" for m in sent(page)), "nothing sent before the answer"
    # the sheet closes with its button and gives the felt back
    page.keyboard.press("Escape")
    confirm.wait_for(state="detached")
    page.locator(".cash-controls button.cash-sheet-close").click()
    page.locator(".cash-controls .cash-sheet").wait_for(state="hidden")
    _inside(page, ".actionbar .moves .btn")


@pytest.mark.parametrize("locale", LOCALES)
def test_between_hands_top_up_opens_its_dialog_from_the_phones_menu(new_page, locale):
    page = new_page(width=360, height=640, locale=locale)
    page.emulate_media(reduced_motion="reduce")
    mount(page)
    s = CashScript("NT", {0: ("ana", 2000), 1: ("bo", 3000)}, seats=9)
    s.feed(page, s.snapshot())
    _open_menu(page)
    page.locator(".cash-controls button.topup").click()
    page.locator("dialog.topup-dialog").wait_for()
    _inside(page, "dialog.topup-dialog button.topup-go")


@pytest.mark.parametrize("locale", LOCALES)
def test_on_a_desktop_the_cash_controls_are_in_their_row_as_before(new_page, locale):
    page = new_page(width=1366, height=900, locale=locale)
    mount(page)
    _your_turn(page, 9)
    assert not page.locator(".cash-controls button.cash-menu").is_visible(), "no menu on a desktop"
    for selector in (".cash-controls button.topup", ".cash-controls button.sitout", ".cash-controls button.leave",
                     ".cash-controls .autotopup", ".cash-controls .runtwice-box", ".cash-controls .cash-hint.bank"):
        _inside(page, selector)
    # in one row under the action bar, in the page's flow
    bar = page.locator(".actionbar").bounding_box()
    leave = page.locator(".cash-controls button.leave").bounding_box()
    top_up = page.locator(".cash-controls button.topup").bounding_box()
    assert bar and leave and top_up
    assert leave["y"] >= bar["y"] + bar["height"] - 0.5
    assert abs(leave["y"] - top_up["y"]) < 1
    assert page.locator(".cash-controls .cash-sheet").evaluate("e => getComputedStyle(e).position") != "fixed"
