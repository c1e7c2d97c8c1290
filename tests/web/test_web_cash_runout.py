"""Equity on every run-out at a cash table (issue #36, issue #25): when the betting is over and
cards remain, each hand turned up (V20) shows by its seat its share of each pot as the cards
come — per pot where there is a side pot (the hand that does not contend a pot is dead to it)
and, with the board run twice (C7), the mean of the two runs.  Nothing before the hands are up
(a hidden card never reaches the calculator), nothing once the last card is down, and the result (the winners, the bar's words) only then, as at a
freezeout table.  The table
is the server's own cash game fed to the real page (``scripted_cash``); the run-out is held at
its start by the page's own clock (``settleUntil``), so no wait is for a time.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from runout_js import CATALOG_JS, PCT_JS, SHARES_JS
from scripted import mount
from scripted_cash import CashScript

from freezeout.server.oddsdesk import compute

pytestmark = pytest.mark.browser

def _share(page: Any, answer: dict[str, Any], index: int) -> str:
    hand = answer["hands"][index]
    text = page.evaluate(PCT_JS, 100 * hand["equity"]) + " %"
    return text if answer["exact"] else text + " ±" + page.evaluate(PCT_JS, 100 * hand["error"])


def _all_in(page: Any) -> tuple[CashScript, list[str]]:
    """Ana (1,000, the viewer), Bo (3,000) and Cy (5,000) all in before the flop, the board run
    twice: a main pot the three contend and a side pot of Bo's and Cy's."""
    s = CashScript("NT", {0: ("ana", 1000), 1: ("bo", 3000), 2: ("cy", 5000)})
    deck = list(s.game.variant.deck)
    random.Random(36).shuffle(deck)
    s.deal(deck)
    for seat in range(3):
        s.game = s.game.run_twice(seat, True)
    s.feed(page, s.snapshot())
    events = s.act(0, "raise", s.game.legal_actions().max_to)
    events += s.act(1, "raise", s.game.legal_actions().max_to)
    s.feed(page, s.update(events))
    assert page.evaluate(SHARES_JS)[:3] == [None, None, None]  # Cy still to act: a decision remains
    final = s.act(2, "call")
    hands = [e["cards"] for e in sorted((e for e in final if e["type"] == "hand_turned_up"), key=lambda e: e["seat"])]
    s.feed(page, s.update(final))
    return s, hands


@pytest.mark.parametrize(("lang", "size"), [("en", (1366, 900)), ("cs", (360, 640))], ids=["en-1366", "cs-360"])
def test_a_cash_all_in_shows_each_hands_share_of_each_pot_while_the_run_out_is_dealt(new_page, lang: str,
                                                                                     size: tuple[int, int]) -> None:
    page = new_page(*size, locale="cs-CZ" if lang == "cs" else "en-US")
    mount(page)
    page.evaluate("() => { window.__fzTable.settleUntil = null; }")
    _, hands = _all_in(page)
    # the run-out is being dealt (held at its start: a machine slower than the deal sees the same)
    page.evaluate("() => { const t = window.__fzTable; t.settleUntil = t.now() + 3600; t.render(); }")
    main = compute("NT", tuple(hands), "", "")
    side = compute("NT", (hands[1], hands[2]), "", hands[0])  # Ana's cards are dead to the side pot
    catalog = page.evaluate(CATALOG_JS)
    label = {0: catalog["runout.mainPot"], 1: catalog["runout.sidePot"]}

    def line(pot: int, share: str) -> str:
        return label[pot].replace("{n}", str(pot)).replace("{pct}", share)

    want = [[line(0, _share(page, main, 0))],
            [line(0, _share(page, main, 1)), line(1, _share(page, side, 0))],
            [line(0, _share(page, main, 2)), line(1, _share(page, side, 1))]]
    page.wait_for_function(f"want => JSON.stringify(({SHARES_JS})().slice(0, 3)) === JSON.stringify(want)", arg=want)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.runout-eq:not([hidden])')].map(el => {
      const b = el.getBoundingClientRect(); return [b.left, b.right, b.top, b.bottom]; })""")
    assert len(boxes) == 3 and all(0 <= left < right <= size[0] and 0 <= top < bottom <= size[1]
                                   for left, right, top, bottom in boxes), boxes
    # as at a freezeout table, who won stays unsaid until the last card is down
    assert page.locator(".hand-result").count() == 0 and page.locator(".felt-wrap > .seat.winner").count() == 0
    # the last card is down: the result, and no share any more
    page.evaluate("() => { const t = window.__fzTable; t.settleUntil = t.now() - 1; t.render(); }")
    page.locator(".hand-result").wait_for()
    page.wait_for_function(f"() => ({SHARES_JS})().every(x => x === null)")
    assert page.locator(".felt-wrap > .seat.winner").count() >= 1
    assert not page.errors, page.errors


# liveRunOut and cashRunOutModel at chosen moments of a run twice dealt from t=98.15 (run 1's five
# cards 0.22 s apart, the second run's beside them, 0.75 s to settle, until t=100)
STAGES_JS = """async () => {
  const {liveRunOut, cashRunOutModel, runOutQuery} = await import('/static/js/runoutodds.js');
  const model = {seats: [{seat: 0, name: 'ana', stack: 0, cards: ['Ah', 'Ad'], flags: {}}, {seat: 1, name: 'bo', stack: 0, cards: ['Kc', 'Ks'], flags: {}},
    {seat: 2, name: 'cy', stack: 500, cards: ['7c', '2d'], flags: {}}],
    board: ['2c', '7d', '9h', 'Js', '3c'], secondBoard: ['4c', '5d', '6h', '8s', 'Tc'], boardSize: 5, view: {in_hand: false}};
  const events = [{type: 'hand_started'}, {type: 'action_taken', seat: 2, kind: 'fold'}, {type: 'action_taken'},
    {type: 'hand_turned_up', seat: 0, cards: 'AhAd'}, {type: 'hand_turned_up', seat: 1, cards: 'KcKs'},
    {type: 'street_dealt', cards: '2c7d9h'}, {type: 'street_dealt', cards: 'Js'}, {type: 'street_dealt', cards: '3c'},
    {type: 'second_run_dealt', cards: '4c5d6h'}, {type: 'second_run_dealt', cards: '8s'}, {type: 'second_run_dealt', cards: 'Tc'},
    {type: 'pot_awarded', pot: 0, eligible: [0, 1]}, {type: 'pot_awarded', pot: 0, eligible: [0, 1]}];
  const cash = cashRunOutModel(model, events);
  return [98.1, 98.9, 99.1].map(now => { const m = liveRunOut(cash, events, now, 100, 0.22, 0.75);
    return [m.board.join(''), m.secondBoard.join(''), runOutQuery(m, 'NT')]; });
}"""


def test_a_run_twice_counts_each_run_dealt_from_what_neither_has_shown(new_page) -> None:
    page = new_page(360, 640)
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    stages = page.evaluate(STAGES_JS)
    assert [(first, second) for first, second, _ in stages] == [("", ""), ("2c7d9h", "4c5d6h"), ("2c7d9hJs", "4c5d6h8s")]
    # Cy folded: their cards are in no query (a folded hand is never turned up)
    for _, _, asked in stages:
        assert asked["seats"] == [0, 1] and all("7c2d" not in q and "2d" not in q.split("dead=")[-1] for p in asked["pots"] for q in p["runs"])
    run1, run2 = stages[1][2]["pots"][0]["runs"]
    assert run1 == "game=NT&hand=AhAd&hand=KcKs&board=2c7d9h&dead=4c5d6h"
    assert run2 == "game=NT&hand=AhAd&hand=KcKs&board=4c5d6h&dead=2c7d9h"
    assert not page.errors, page.errors
