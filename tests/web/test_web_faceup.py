"""V20: when nobody can bet any more with two or more hands left in (an all-in), every hand is
turned face up before the rest of the board is dealt: the server sends ``hand_turned_up`` and the
view's slots say ``up``; the page draws those cards face up on the felt at once, while the run-out
is dealt (before the result), on a phone and the desktop.  Stud: the cards dealt after the
turn-up come face up too.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import dealt

pytestmark = pytest.mark.browser

HOLES = {0: "AhAd", 1: "KcKs"}
BOARD = "2c7d9hJs3c"

SEATS_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(seat => ({
  seat: +seat.dataset.seat,
  cards: [...seat.querySelectorAll('.hole .card')].map(c => ({card: c.dataset.card || null, up: c.classList.contains('up'),
    back: c.classList.contains('back'), shown: c.getBoundingClientRect().width > 0})),
}))"""


@pytest.mark.parametrize("size", [(360, 640), (1366, 900)], ids=["360x640", "1366x900"])
def test_all_in_hands_are_drawn_face_up_for_the_run_out(new_page, size: tuple[int, int], artifacts) -> None:
    page = new_page(width=size[0], height=size[1])
    s = dealt(page, ["alice_ux", "bot-station-1"], HOLES, BOARD, bots={1: "station"})
    before = {x["seat"]: x for x in page.evaluate(SEATS_JS)}
    assert all(c["card"] in (None, "back") or c["back"] for c in before[1]["cards"]), before[1]  # hidden before the all-in
    legal = s.t.legal_actions()
    events: list[dict[str, Any]] = s.act(s.t.to_act, "raise", legal.max_to)
    events += s.act(s.t.to_act, "call")
    turned = [e for e in events if e["type"] == "hand_turned_up"]
    assert sorted(e["seat"] for e in turned) == [0, 1], events
    # the page gets the update of the all-in: the run-out is dealt (its cards one after another)
    s.feed(page, s.update(events))
    seats = {x["seat"]: x for x in page.evaluate(SEATS_JS)}
    for seat, cards in HOLES.items():
        drawn = [c["card"] for c in seats[seat]["cards"]]
        assert drawn == [cards[:2], cards[2:]], (seat, seats[seat])
        assert all(c["up"] and c["shown"] for c in seats[seat]["cards"]), (seat, seats[seat])
    page.screenshot(path=str(artifacts / f"faceup-{size[0]}x{size[1]}.png"))
