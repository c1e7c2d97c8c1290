"""The table on a phone (issue #11 item 3, issue #21 item 1).

On your turn the whole action bar (its buttons, the slider, the amount box
and the quick sizes) is inside the window without scrolling, at every phone
size from 360x640 up and on the desktop, in English and Czech, with 2, 3 and
4 seats: the table shrinks around it.  And no seat, bet, marker, pot or board
card covers another, nothing leaves the screen sideways, and your hand's name
stays clear of the result.  Checked on element rectangles, in the middle of a
hand (bets on the river) and at its showdown.
"""

from __future__ import annotations

import pytest
from scripted import MOUNT_JS, Script, mount

pytestmark = pytest.mark.browser

HOLES = {0: "AhKh", 1: "7c2d", 2: "KsKd", 3: "9d9c"}
NAMES = ["alice_ux", "bot-station", "bot-medium", "bot-hard"]

# Rectangles by group: the parts of one seat may overlap each other (cards tuck
# under the plate), nothing of one group may overlap another group.
RECTS_JS = """() => {
  const wrap = document.querySelector('.felt-wrap');
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const visible = el => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden' && +s.opacity > 0 && el.getBoundingClientRect().width > 0; };
  const groups = [];
  wrap.querySelectorAll(':scope > .seat').forEach(seat => groups.push({name: 'seat ' + seat.dataset.seat,
    rects: [...seat.querySelectorAll('.plate, .hole .card:not(.slot), .handname.on, .mark.on, .winbadge.on')].filter(visible).map(r)}));
  wrap.querySelectorAll(':scope > .bet:not(.off)').forEach((bet, i) => groups.push({name: 'bet ' + i, rects: [r(bet)]}));
  wrap.querySelectorAll(':scope > .marker:not([hidden])').forEach((m, i) => groups.push({name: 'marker ' + i, rects: [r(m)]}));
  wrap.querySelectorAll('.pots .pot').forEach((p, i) => groups.push({name: 'pot ' + i, rects: [r(p)]}));
  wrap.querySelectorAll('.board .card').forEach((c, i) => groups.push({name: 'board ' + i, rects: [r(c)]}));
  const result = document.querySelector('.actionbar .hand-result');
  if (result) groups.push({name: 'result', rects: [r(result)]});
  return {groups, width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth};
}"""

# Cards being dealt, chips and the button's markers moving (their CSS transitions too): a
# rectangle mid-flight is no layout.
MOVING_JS = """() => document.getAnimations().filter(a => (a.playState === 'running' || a.pending)
  && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('.card, .bet, .winbadge, .pot, .marker'))"""

SETTLED_JS = f"""() => Promise.all(({MOVING_JS})().map(a => a.finished.catch(() => null)))"""

# Wait until nothing moves, then measure in the same task: a message arriving between a
# separate "settled" look and the measurement (the next street dealt, chips flying to the
# pot) can no longer be measured mid-flight.
SETTLED_RECTS_JS = f"""async () => {{
  const moving = {MOVING_JS};
  for (let left = moving(); left.length; left = moving()) await Promise.all(left.map(a => a.finished.catch(() => null)));
  return ({RECTS_JS})();
}}"""


def _overlaps(page) -> list[str]:
    """What covers what on the felt, once the cards and chips have come to rest."""
    data = page.evaluate(SETTLED_RECTS_JS)
    found = []
    groups = data["groups"]
    for i, a in enumerate(groups):
        for ra in a["rects"]:
            if ra[0] < -0.5 or ra[2] > data["width"] + 0.5:
                found.append(f"{a['name']} leaves the screen: {ra}")
        for b in groups[i + 1:]:
            for ra in a["rects"]:
                for rb in b["rects"]:
                    if ra[0] < rb[2] - 0.5 and rb[0] < ra[2] - 0.5 and ra[1] < rb[3] - 0.5 and rb[1] < ra[3] - 0.5:
                        found.append(f"{a['name']} {ra} covers {b['name']} {rb}")
    if data["scroll"] > data["width"]:
        found.append(f"the page scrolls sideways ({data['scroll']} > {data['width']})")
    return found


def _to_the_river(s: Script) -> list[dict]:
    events: list[dict] = []
    while len(s.t.hand.board) < 5:
        seat = s.t.to_act
        events += s.act(seat, "check" if "check" in s.t.legal_actions().moves else "call")
    return events


# Every control of the action bar that is shown, with its rectangle.
BAR_JS = """() => {
  const bar = document.querySelector('.actionbar');
  const shown = el => { const s = getComputedStyle(el); const b = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && b.width > 0 && b.height > 0; };
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const controls = [...bar.querySelectorAll('button, input')].filter(shown)
    .map(el => ({name: (el.className || el.type) + ' ' + (el.textContent || el.getAttribute('aria-label') || '').trim(), rect: r(el)}));
  return {bar: r(bar), controls, w: window.innerWidth, h: window.innerHeight, scrollY: window.scrollY,
          sized: !!bar.querySelector('.sizer:not([hidden]) input[type=range]')};
}"""

PHONES = [(360, 640), (360, 740), (375, 667), (390, 844), (412, 915)]


def _bar_outside(page) -> list[str]:
    """What of the action bar is not on the screen (without scrolling) on your turn."""
    page.wait_for_function("() => !!document.querySelector('.actionbar .moves:not(.off) .btn:enabled')")
    data = page.evaluate(BAR_JS)
    assert data["sized"], "the raise sizer is shown on this turn"
    found = [] if data["scrollY"] == 0 else [f"the page is scrolled by {data['scrollY']}"]
    w, h = data["w"], data["h"]
    for name, (left, top, right, bottom) in [("the bar", data["bar"])] + [(c["name"], c["rect"]) for c in data["controls"]]:
        if left < -0.5 or top < -0.5 or right > w + 0.5 or bottom > h + 0.5:
            found.append(f"{name} {[round(x) for x in (left, top, right, bottom)]} is outside the {w}x{h} window")
    return found


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_phone_your_turn_the_whole_bar_is_on_screen_and_nothing_covers_the_board(new_page, size, locale):
    problems = _each_seat_count(new_page(width=size[0], height=size[1], locale=locale))
    assert not any(problems.values()), problems


@pytest.mark.parametrize("size", [(1366, 900), (1024, 768)], ids=["1366x900", "1024x768"])
def test_desktop_your_turn_the_whole_bar_is_on_screen_and_nothing_covers_the_board(new_page, size):
    """The oval table too: a bet in front of the top seat once sat on the pot."""
    problems = _each_seat_count(new_page(width=size[0], height=size[1]))
    assert not any(problems.values()), problems


def test_a_taller_bar_shrinks_the_table(new_page):
    """Games with a draw will add a picker row to the bar: the table makes room for it."""
    page = new_page(width=360, height=640)
    mount(page)
    s = _to_my_turn(4)
    s.feed(page, s.snapshot())
    assert not _bar_outside(page)
    before = page.locator(".felt-wrap").bounding_box()["height"]
    page.evaluate("""() => { const row = document.createElement('div'); row.className = 'extra-row';
      row.style.height = '72px'; document.querySelector('.actionbar').append(row); }""")
    page.wait_for_function("""h => document.querySelector('.felt-wrap').getBoundingClientRect().height < h - 60""", arg=before)
    assert not _bar_outside(page)


def _each_seat_count(page) -> dict[int, dict[str, list[str]]]:
    """A hand at 2, 3 and 4 seats, one after another on one page (a new table page each).
    Without motion: the layout is the same, and no card is dealt or chip flown to wait for."""
    page.emulate_media(reduced_motion="reduce")
    mount(page)
    problems = {}
    for seats in (2, 3, 4):
        if seats > 2:
            page.evaluate(MOUNT_JS)
        problems[seats] = _play_a_hand_checking_the_layout(page, seats)
    return problems


def _to_my_turn(seats: int) -> Script:
    s = Script(NAMES[:seats], button=0, bots={i: NAMES[i][4:] for i in range(1, seats)})
    s.deal({i: HOLES[i] for i in range(seats)}, "Qh9s4h8s3d")
    while s.t.to_act != 0:
        s.act(s.t.to_act, "call")
    return s


def _play_a_hand_checking_the_layout(page, seats: int) -> dict[str, list[str]]:
    s = _to_my_turn(seats)
    s.feed(page, s.snapshot())
    problems = {"bar preflop": _bar_outside(page), "preflop": _overlaps(page)}
    # the river with a bet and a raise on the table, and you to act
    events = _to_the_river(s)
    events += s.act(s.t.to_act, "bet", 40)
    raiser, to = None, 120
    while s.t.to_act != 0 or raiser is None:
        seat = s.t.to_act
        if raiser is None or raiser == 0:  # a raise over the bet, or over yours
            events += s.act(seat, "raise", to)
            raiser, to = seat, to * 2
        else:
            events += s.act(seat, "call")
    s.feed(page, s.update(events))
    problems["bar on the river"] = _bar_outside(page)
    problems["river"] = _overlaps(page)
    assert page.locator(".felt-wrap .bet:not(.off)").count() >= 2
    # the showdown: every hand named, the result in the bar
    s.pause = 3600
    events = []
    while s.t.in_hand:
        events += s.act(s.t.to_act, "call")
    s.feed(page, s.update(events))
    assert page.locator(".felt-wrap .seat .handname.on").count() >= 2
    problems["showdown"] = _overlaps(page)
    return {k: v for k, v in problems.items() if v}
