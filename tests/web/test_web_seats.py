"""Every seat count on a phone and the desktop (issue #31 item 2, issue #34 "The page").

The phone's felt is built from a layout table per seat count (felt.js GRID), so a table of
2 to 10 seats draws every seat, bet and card box clear of every other, of the board and of
the pots, with your own seat at the bottom; the names and the stacks are drawn at least
11 px tall (the rendered box, after the felt's zoom), also when the action bar is taller
(a cash table's controls).  A desktop seats five to ten around the oval (felt.js RING),
with the same checks.  These tables are the server's own views of 2..10 seats
(scripted_games.GameScript) fed to the real page.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_games import GameScript
from test_web_phone_layout import BAR_JS, _overlaps

pytestmark = pytest.mark.browser

# the largest table of each family (C12): hold'em and Omaha 10, stud 8, draw 6
TABLES = [("NT", n) for n in range(2, 11)] + [("PO", 10), ("F7S", 8), ("F2L3D", 6)]

TEXT_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(seat => {
  const box = el => { const b = el.getBoundingClientRect(); return {h: b.height, w: b.width, text: el.textContent}; };
  const plate = seat.querySelector('.plate').getBoundingClientRect();
  return {seat: +seat.dataset.seat, name: box(seat.querySelector('.pname')), stack: box(seat.querySelector('.stack')),
          stackShown: getComputedStyle(seat.querySelector('.stack')).visibility !== 'hidden',
          top: plate.top, bottom: plate.bottom};
})"""


def _bar_outside(page: Any) -> list[str]:
    """What of the action bar is outside the window on your turn (test_web_phone_layout's check,
    whatever the turn offers)."""
    page.wait_for_function("() => !!document.querySelector('.actionbar .moves:not(.off) .btn:enabled')")
    data = page.evaluate(BAR_JS)
    w, h = data["w"], data["h"]
    return [f"{name} {[round(x) for x in rect]} is outside the {w}x{h} window"
            for name, rect in [("the bar", data["bar"])] + [(c["name"], c["rect"]) for c in data["controls"]]
            if rect[0] < -0.5 or rect[1] < -0.5 or rect[2] > w + 0.5 or rect[3] > h + 0.5]


def _names(n: int) -> list[str]:
    return ["alice_ux"] + [f"bot-station-{i}" for i in range(1, n)]


def _mid_hand(page: Any, code: str, n: int, *, mounted: bool) -> GameScript:
    """A hand of ``code`` at ``n`` seats: the others have bet (chips on the felt), your turn."""
    if mounted:
        page.evaluate(MOUNT_JS)
    else:
        mount(page)
    s = GameScript(code, _names(n), button=n - 1, bots={i: "station" for i in range(1, n)})
    s.deal_seeded(7)
    raised = False
    while s.game.in_hand and s.game.to_act != 0:
        legal = s.game.legal_actions()
        moves = legal.moves
        if "discard" in moves or "standpat" in moves:
            s.draw(s.game.to_act, 1)
            continue
        word = next((w for w in ("raise", "bet", "complete") if w in moves and not raised), None)
        if word:
            s.act(s.game.to_act, word, legal.min_to)
            raised = True
        else:
            s.act(s.game.to_act, next(w for w in ("call", "check", "bringin") if w in moves))
    s.feed(page, s.snapshot())
    return s


def _problems(page: Any, n: int) -> list[str]:
    found = _overlaps(page)
    seats = page.evaluate(TEXT_JS)
    assert len(seats) == n
    for seat in seats:
        for part in ("name", "stack"):
            if seat[part]["h"] < 11:
                found.append(f"seat {seat['seat']}'s {part} {seat[part]['text']!r} is {seat[part]['h']:.1f} px tall")
    mine = next(x for x in seats if x["seat"] == 0)
    if any(x["bottom"] > mine["bottom"] + 0.5 for x in seats):
        found.append("your own seat is not the lowest")
    return found


@pytest.mark.parametrize(("size", "locale"), [((360, 640), "en-US"), ((375, 667), "cs-CZ"), ((390, 844), "en-US")],
                         ids=["360x640-en", "375x667-cs", "390x844-en"])
def test_phone_every_seat_count_readable_and_nothing_covers_anything(new_page, size, locale):
    page = new_page(width=size[0], height=size[1], locale=locale)
    page.emulate_media(reduced_motion="reduce")
    problems = {}
    for i, (code, n) in enumerate(TABLES):
        _mid_hand(page, code, n, mounted=i > 0)
        found = _problems(page, n) + _bar_outside(page)
        if found:
            problems[f"{code}x{n}"] = found
    assert not problems, problems


def test_phone_names_stay_readable_when_the_bar_is_taller(new_page):
    """A cash table's controls under the bar leave the felt less room: the decoration shrinks,
    the names and stacks stay at least 11 px tall (they were 5-8 px, issue #31 item 2)."""
    page = new_page(width=360, height=640)
    page.emulate_media(reduced_motion="reduce")
    for i, n in enumerate((4, 10)):
        _mid_hand(page, "NT", n, mounted=i > 0)
        page.evaluate("""() => { const row = document.createElement('div'); row.className = 'extra-row';
          row.style.height = '110px'; document.querySelector('.actionbar').append(row); }""")
        page.wait_for_function("() => !!document.querySelector('.felt-wrap').style.zoom")
        seats = page.evaluate(TEXT_JS)
        small = [(x["seat"], p, x[p]["h"]) for x in seats for p in ("name", "stack") if x[p]["h"] < 11]
        assert not small, (n, small)


@pytest.mark.parametrize("size", [(1366, 900), (1920, 1080)], ids=["1366x900", "1920x1080"])
def test_desktop_every_seat_count_nothing_covers_anything(new_page, size):
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    problems = {}
    for i, (code, n) in enumerate(TABLES):
        _mid_hand(page, code, n, mounted=i > 0)
        # five to ten seats sit around the oval as at a card room's table, not in the phone's grid
        page.wait_for_function("n => { const c = document.querySelector('.felt-wrap').classList;"
                               " return !c.contains('grid') && c.contains('ring') === (n > 4); }", arg=n)
        found = _overlaps(page) + _bar_outside(page)
        if found:
            problems[f"{code}x{n}"] = found
    assert not problems, problems
