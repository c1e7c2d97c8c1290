"""C12: each seat's position in the hand (the view's ``position``: BTN, SB, BB, UTG.., LJ, HJ, CO)
drawn by the seat, at least 11 px tall, clear of every card and bet (issue #34 "The page").

The tables are the server's own views of 6 and 9 seats (scripted_games.GameScript, as
test_web_seats.py feeds them) at a phone's and a desktop's size.
"""

from __future__ import annotations

import pytest
from test_web_phone_layout import _overlaps
from test_web_seats import _mid_hand

pytestmark = pytest.mark.browser

POS_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(seat => {
  const pos = seat.querySelector('.pos');
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const shown = !pos.hidden && getComputedStyle(pos).display !== 'none';
  const others = [...document.querySelectorAll('.felt-wrap .card, .felt-wrap .bet:not(.off)')]
    .filter(el => el.getBoundingClientRect().width > 0).map(r);
  return {seat: +seat.dataset.seat, text: shown ? pos.textContent : null, rect: r(pos), h: pos.getBoundingClientRect().height,
          others, w: window.innerWidth};
})"""


def _covers(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("size", [(360, 640), (1366, 900)], ids=["360x640", "1366x900"])
def test_every_seat_shows_its_position_readable_and_clear(new_page, size, artifacts):
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    for i, n in enumerate((6, 9)):
        s = _mid_hand(page, "NT", n, mounted=i > 0)
        want = {seat["seat"]: seat.get("position") for seat in s.view()["seats"]}
        assert sorted(want.values()) == sorted({6: ["BTN", "SB", "BB", "UTG", "HJ", "CO"],
                                                9: ["BTN", "SB", "BB", "UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"]}[n])
        problems = _overlaps(page)  # once the cards and chips have come to rest and the felt is fitted
        seats = page.evaluate(POS_JS)
        for seat in seats:
            if seat["text"] != want[seat["seat"]]:
                problems.append(f"seat {seat['seat']} shows {seat['text']!r}, the view says {want[seat['seat']]!r}")
            if seat["h"] < 11:
                problems.append(f"seat {seat['seat']}'s position is {seat['h']:.1f} px tall")
            if seat["rect"][0] < -0.5 or seat["rect"][2] > seat["w"] + 0.5:
                problems.append(f"seat {seat['seat']}'s position leaves the screen")
            problems += [f"seat {seat['seat']}'s position {seat['rect']} covers {o}" for o in seat["others"] if _covers(seat["rect"], o)]
        page.screenshot(path=str(artifacts / f"positions-{n}-{size[0]}x{size[1]}.png"))
        assert not problems, (n, problems)


def test_no_position_draws_nothing(new_page):
    """Stud has no positions (C12: null): no seat shows a label."""
    page = new_page(width=360, height=640)
    page.emulate_media(reduced_motion="reduce")
    s = _mid_hand(page, "F7S", 6, mounted=False)
    assert all(seat.get("position") is None for seat in s.view()["seats"])
    assert all(seat["text"] is None for seat in page.evaluate(POS_JS))
