"""Every game's table on a phone and on the desktop (issue #22 "The page",
issue #21 item 1).

The rectangle test of test_web_phone_layout.py for every family at four
seats (stud too: four is the most the layout draws, ``GameSpec.max_seats``),
at 360x740, 375x667 and 1366x900, in English and Czech.  A whole hand of each
game is put on the felt by the server's own view builder (scripted_games):
the bots bet and raise in every round, so chips lie in front of the seats,
and the viewer is at each of their turns in turn:
- no seat (its plate, its cards: seven in stud, five in a draw, four in
  Omaha), bet, marker, pot or board card covers another, and nothing leaves
  the screen sideways (at every turn, and at the showdown with every hand
  named);
- the whole action bar, and on a draw the picker with all its cards, is
  inside the window with the page unscrolled: measured as rectangles
  against the viewport, never by clicking (Playwright scrolls before a
  click);
- fixed limit shows no slider; a draw shows the picker.

The tests of one size and locale share one page (``page_per_size``): each
mounts a new table page on it, as test_web_phone_layout's seat counts do,
instead of loading the whole site again into a fresh browser context.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_games import GameScript, play_to_showdown
from test_web_phone_layout import _overlaps

pytestmark = pytest.mark.browser

# One game of each family and structure the page draws differently; HORSE at its first
# level (the header names the mix, this game and the next: the longest header).
GAMES = ["FT", "PO", "FO/8", "F7S", "FR", "F5CD", "F2L3D", "FB", "HORSE"]
SIZES = [(360, 740), (375, 667), (1366, 900)]
LOCALES = ["en-US", "cs-CZ"]
NAMES = ["alice_layout", "bot-station", "bot-random", "bot-station-2"]
BOTS = {1: "station", 2: "random", 3: "station"}

# Every control of the action bar that is shown (the picker's cards too), the picker itself.
BAR_JS = """() => {
  const bar = document.querySelector('.actionbar');
  const shown = el => { const s = getComputedStyle(el); const b = el.getBoundingClientRect();
    return !el.closest('[hidden]') && s.display !== 'none' && s.visibility !== 'hidden' && b.width > 0 && b.height > 0; };
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const parts = [{name: 'the bar', rect: r(bar)}];
  const picker = bar.querySelector('.drawpick');
  if (picker && shown(picker)) parts.push({name: 'the draw picker', rect: r(picker)});
  for (const el of bar.querySelectorAll('button, input')) if (shown(el))
    parts.push({name: (el.className || el.type) + ' ' + (el.textContent || el.getAttribute('aria-label') || '').trim(), rect: r(el)});
  return {parts, w: window.innerWidth, h: window.innerHeight, scrollY: window.scrollY, scrollX: window.scrollX,
          picks: picker && shown(picker) ? picker.querySelectorAll('.pick').length : 0,
          slider: !!bar.querySelector('.sizer:not([hidden]) input[type=range]'),
          head: document.querySelector('.table-head .info').textContent + ' | ' + [...document.querySelectorAll('.table-head .info [title]')].map(e => e.title).join(' | ')};
}"""


def _bar_outside(page: Any) -> tuple[list[str], dict[str, Any]]:
    """What of the action bar (and the draw picker) is not in the window, unscrolled, on your turn."""
    page.wait_for_function("() => !!document.querySelector('.actionbar .moves:not(.off) .btn:enabled')")
    data = page.evaluate(BAR_JS)
    found = [] if data["scrollY"] == 0 and data["scrollX"] == 0 else [f"the page is scrolled by {data['scrollX']},{data['scrollY']}"]
    w, h = data["w"], data["h"]
    for part in data["parts"]:
        left, top, right, bottom = part["rect"]
        if left < -0.5 or top < -0.5 or right > w + 0.5 or bottom > h + 0.5:
            found.append(f"{part['name']} {[round(x) for x in part['rect']]} is outside the {w}x{h} window")
    return found, data


def _mounted(page: Any) -> None:
    """A new scripted table page on ``page``: loaded the first time, else made anew in place (the
    last test's table page destroyed, as MOUNT_JS does)."""
    if page.evaluate("() => typeof window.__fzFeed === 'function'"):
        page.evaluate(MOUNT_JS)
        page.wait_for_function("() => typeof window.__fzFeed === 'function'")
    else:
        mount(page)


def _script(code: str) -> GameScript:
    """A table of four in ``code``, its first hand dealt (HORSE: its hold'em, the next game named)."""
    s = GameScript(code, NAMES, bots=BOTS)
    s.deal_seeded(22)
    return s


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("code", GAMES)
def test_every_game_nothing_covers_the_board_and_the_bar_is_on_screen(page_per_size, artifacts, code: str,
                                                                      size: tuple[int, int], locale: str) -> None:
    page = page_per_size(size[0], size[1], locale)
    page.emulate_media(reduced_motion="reduce")  # the same layout, nothing in flight to wait for
    _mounted(page)
    s = _script(code)
    s.feed(page, s.snapshot())
    problems: dict[str, list[str]] = {}
    turns = {"draws": 0, "bets": 0, "most cards": 0}

    def on_my_turn(s: GameScript, legal: Any) -> None:
        s.feed(page, s.update(s.feed_pending))
        view = s.view()
        cards = max(len(seat.get("slots") or []) for seat in view["seats"])
        turns["most cards"] = max(turns["most cards"], cards)
        where = f"turn {turns['draws'] + turns['bets'] + 1} ({cards} cards, board {len(view.get('board') or '') // 2})"
        outside, bar = _bar_outside(page)
        drawing = "discard" in legal.moves
        if drawing:
            turns["draws"] += 1
            assert bar["picks"] == len(s.cards_of(0)), f"{code}: the picker shows every card you hold"
        else:
            turns["bets"] += 1
            assert bar["picks"] == 0, "no picker on a betting turn"
            if view["betting"] == "fixed":
                assert not bar["slider"], f"{code}: fixed limit shows the fixed size, no slider"
        if code == "HORSE":
            assert "HORSE" in bar["head"] and view["mix"]["next_game_name"] in bar["head"], bar["head"]
        problems[where + " bar"] = outside
        problems[where] = _overlaps(page)
        if outside or problems[where]:  # what the failure looked like, for the report
            page.screenshot(path=str(artifacts / f"layout-{code.replace('/', '')}-{size[0]}x{size[1]}-{locale}-{len(problems)}.png"))

    s.pause = 3600
    events = play_to_showdown(s, 0, on_my_turn)
    s.feed(page, s.update(events))
    assert page.locator(".felt-wrap .seat .handname.on").count() >= 2 or not s.view()["showdown"]
    problems["showdown"] = _overlaps(page)
    if code in ("F5CD", "F2L3D", "FB"):
        assert turns["draws"] == (3 if code in ("F2L3D", "FB") else 1), turns
    assert turns["most cards"] == {"FT": 2, "PO": 4, "FO/8": 4, "F5CD": 5, "F2L3D": 5, "FB": 4, "HORSE": 2}.get(code, 7), turns
    problems = {k: v for k, v in problems.items() if v}
    assert not problems, problems
    assert not page.errors, page.errors

