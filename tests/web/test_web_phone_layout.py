"""The phone layout (issue #11, item 3): at 360, 375 and 390 px with 2, 3 and
4 seats no seat, bet, marker, pot or board card covers another, nothing
leaves the screen sideways, and your hand's name stays clear of the result.
Checked on element rectangles, in the middle of a hand (bets on the river)
and at its showdown."""

from __future__ import annotations

import pytest
from scripted import Script, mount

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


SETTLED_JS = """() => Promise.all(document.getAnimations()
  .filter(a => a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('.card, .bet, .winbadge'))
  .map(a => a.finished.catch(() => null)))"""


def _overlaps(page) -> list[str]:
    page.evaluate(SETTLED_JS)  # cards being dealt and chips moving come to rest first
    data = page.evaluate(RECTS_JS)
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


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("width", [360, 375, 390])
def test_phone_table_nothing_covers_the_board_or_pots(new_page, width, seats):
    page = new_page(width=width, height=800, locale="cs-CZ")
    _play_a_hand_checking_the_layout(page, seats)
    # the action buttons and the board are both on the first screen of a phone
    board = page.locator(".board").bounding_box()
    assert board["y"] + board["height"] <= 800


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("size", [(1366, 900), (1024, 768)])
def test_desktop_table_nothing_covers_the_board_or_pots(new_page, size, seats):
    """The oval table too: a bet in front of the top seat once sat on the pot."""
    page = new_page(width=size[0], height=size[1])
    _play_a_hand_checking_the_layout(page, seats)


def _play_a_hand_checking_the_layout(page, seats: int) -> None:
    mount(page)
    s = Script(NAMES[:seats], button=0, bots={i: NAMES[i][4:] for i in range(1, seats)})
    s.deal({i: HOLES[i] for i in range(seats)}, "Qh9s4h8s3d")
    s.feed(page, s.snapshot())
    preflop = _overlaps(page)
    # the river with a bet and a raise on the table
    events = _to_the_river(s)
    events += s.act(s.t.to_act, "bet", 100)
    events += s.act(s.t.to_act, "raise", 300)
    s.feed(page, s.update(events))
    river = _overlaps(page)
    assert page.locator(".felt-wrap .bet:not(.off)").count() == 2
    # the showdown: every hand named, the result in the bar
    s.pause = 3600
    events = []
    while s.t.in_hand:
        events += s.act(s.t.to_act, "call")
    s.feed(page, s.update(events))
    assert page.locator(".felt-wrap .seat .handname.on").count() >= 2
    showdown = _overlaps(page)
    assert not (preflop or river or showdown), {"preflop": preflop, "river": river, "showdown": showdown}
