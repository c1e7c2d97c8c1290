"""On a phone the showdown's hand names leave the cards that won in sight (issue #22).

At a showdown (R17) every seat shown down gets a label naming its hand.  On a phone
(360x740, 375x667; English and Czech, whose names run longer) the label must not lie
over that seat's own cards: the cards that won are the point of the showdown.  Nor may
it take room of its own: every seat keeps the height it had on the viewer's last turn,
so that nothing grows into the middle of the table or the hand's result (a label in a
row of its own under the seat did: test_web_games_layout[FO/8-375x667]).  A whole hand of hold'em (two cards), Omaha
(four) and seven card stud (seven, V7) is played to its showdown at a table of four by
the server's own view builder (scripted_games), and every shown seat's label box is
measured against each of its cards' boxes.
Waits are for conditions (the labels drawn), never for a time.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import mount
from scripted_games import GameScript, play_to_showdown

pytestmark = pytest.mark.browser

GAMES = ["FT", "PO", "F7S"]
SIZES = [(360, 740), (375, 667)]
LOCALES = ["en-US", "cs-CZ"]
NAMES = ["alice_layout", "bot-station", "bot-random", "bot-station-2"]
BOTS = {1: "station", 2: "random", 3: "station"}

# Per seat with its hand named: the label's box and each of its cards' boxes.
LABELS_JS = """() => {
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  return [...document.querySelectorAll('.felt-wrap .seat')].filter(s => s.querySelector('.handname.on')).map(s => {
    const label = s.querySelector('.handname');
    return {seat: s.dataset.seat, text: label.textContent, title: label.title, opacity: getComputedStyle(label).opacity,
            label: r(label),
            cards: [...s.querySelectorAll('.hole .card')].filter(c => c.dataset.card).map(c => ({card: c.dataset.card, rect: r(c)}))};
  });
}"""

# Every seat's height, in the felt's own pixels (table.js fit() zooms the felt into the window).
HEIGHTS_JS = """() => { const wrap = document.querySelector('.felt-wrap'); const zoom = Number(wrap.style.zoom || 1);
  return Object.fromEntries([...wrap.querySelectorAll('.seat')].map(s => [s.dataset.seat, s.getBoundingClientRect().height / zoom])); }"""


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("code", GAMES)
def test_the_hand_names_at_a_showdown_leave_the_cards_in_sight(new_page, artifacts, code: str,
                                                                size: tuple[int, int], locale: str) -> None:
    page = new_page(width=size[0], height=size[1], locale=locale)
    page.emulate_media(reduced_motion="reduce")  # nothing in flight: the labels are where they rest
    mount(page)
    s = GameScript(code, NAMES, bots=BOTS)
    s.deal_seeded(22)
    s.feed(page, s.snapshot())
    before: dict[str, float] = {}

    def on_my_turn(s: GameScript, legal: Any) -> None:
        s.feed(page, s.update(s.feed_pending))
        page.wait_for_function("() => !!document.querySelector('.actionbar .moves:not(.off) .btn:enabled')")
        before.update(page.evaluate(HEIGHTS_JS))

    s.pause = 3600
    events = play_to_showdown(s, 0, on_my_turn)
    s.feed(page, s.update(events))
    view = s.view()
    assert view["showdown"], f"{code}: the hand reaches a showdown"
    assert before, "the viewer had a turn"
    shown = sum(1 for seat in view["seats"] if seat.get("shown"))
    page.wait_for_function("n => document.querySelectorAll('.felt-wrap .seat .handname.on').length === n", arg=shown)
    labels: list[dict[str, Any]] = page.evaluate(LABELS_JS)
    assert len(labels) == shown >= 2
    covered = [f"seat {seat['seat']}: '{seat['text']}' {[round(x) for x in seat['label']]} covers {card['card']} "
               f"{[round(x) for x in card['rect']]}"
               for seat in labels for card in seat["cards"] if _meets(seat["label"], card["rect"])]
    for seat in labels:
        assert seat["cards"], f"seat {seat['seat']} shows its cards"
        assert float(seat["opacity"]) == 1.0 and seat["text"].strip(), seat
        assert seat["title"].startswith(seat["text"].split(";")[0]), "the whole name is the label's title"
    after = page.evaluate(HEIGHTS_JS)
    grown = {k: (round(before[k], 1), round(after[k], 1)) for k in before if abs(after[k] - before[k]) > 0.5}
    if covered or grown:
        page.screenshot(path=str(artifacts / f"showdown-{code.replace('/', '')}-{size[0]}x{size[1]}-{locale}.png"))
    assert not covered, covered
    assert not grown, f"seats changed height at the showdown (before, after): {grown}"
    assert not page.errors, page.errors
