"""Issue #21 item 9: the hand history and the stack chart.

During hand 1 the history says there is nothing yet (no empty felt with a
stray blind marker); the end screen's chart never draws a busted player below
0, gives each player the colour their standings row shows, and draws the hands
this browser did not see from the server (GET /api/games/{id}/events) instead
of a straight line over them."""

from __future__ import annotations

import pytest
from scripted import Script, mount

pytestmark = pytest.mark.browser

CHART_JS = """() => {
  const svg = document.querySelector('.endscreen .stack-chart svg.chart');
  const axis = svg.querySelector('line.axis');
  const ys = [...svg.querySelectorAll('path.line')].flatMap(p => [...p.getAttribute('d').matchAll(/[ML]\\S+ (\\S+)/g)].map(m => +m[1]));
  const points = [...svg.querySelectorAll('path.line')].map(p => (p.getAttribute('d').match(/[ML]/g) || []).length);
  const legend = Object.fromEntries([...document.querySelectorAll('.endscreen .stack-chart .legend span')].map(s => [s.textContent, s.style.getPropertyValue('--c')]));
  const rows = Object.fromEntries([...document.querySelectorAll('.endscreen .panel:not(.review-panel) table.grid tbody tr')].map(tr => {
    const sw = tr.querySelector('.swatch');
    return [tr.cells[1].textContent, sw ? sw.style.getPropertyValue('--c') : null];
  }));
  return {floor: +axis.getAttribute('y1'), lowest: Math.max(...ys), points, legend, rows};
}"""


def test_history_during_hand_one_says_nothing_yet(new_page):
    page = new_page(width=375, height=667)
    mount(page)
    s = Script(["ana", "bo"], button=0)
    s.deal({0: "AsKd", 1: "QcQh"}, "Qs9h4c8h3d")
    s.feed(page, s.snapshot())
    page.locator(".table-head button[aria-keyshortcuts=H]").click()
    dialog = page.locator("dialog[open]")
    dialog.locator(".replayer .step-text", has_text="No").wait_for()
    assert dialog.locator(".replayer .stage").is_hidden()
    assert dialog.locator(".marker:visible").count() == 0, "no stray blind marker"


def test_the_chart_draws_every_hand_in_the_standings_colours_and_never_below_zero(new_page):
    page = new_page()
    s = Script(["ana", "bo", "cy", "dd"], button=0)
    hands: list[dict] = []

    def play(holes: dict[int, str], board: str, moves: list[tuple[int, str]]) -> list[dict]:
        events = s.deal(holes, board)
        for seat, move in moves:
            assert s.t.to_act == seat, (seat, move)
            events += s.act(seat, move)
        hands.append({"number": len(hands) + 1, "events": events, "revealed": None, "commitment": None})
        return events

    # hands 1 and 2 are played before this browser comes: dd, then ana go out
    play({0: "7c2d", 1: "8c3d", 2: "AsAd", 3: "KsKd"}, "Ah9s4c8h5s", [(3, "allin"), (0, "fold"), (1, "fold"), (2, "call")])
    play({0: "QsQd", 1: "8c3d", 2: "AhAc"}, "Kh9s4c8h5d", [(1, "fold"), (2, "allin"), (0, "call")])
    # hand 3, the last: the browser joins as it starts
    page.route("**/api/games/scripted-1/events", lambda route: route.fulfill(json={"players": s.players, "hands": hands}))
    mount(page)
    start = s.deal({1: "7h2s", 2: "AdKc"}, "Qc9d4h8d3s")
    s.feed(page, s.snapshot())
    end = []
    while s.t.in_hand:
        end += s.act(s.t.to_act, "allin" if "allin" in s.t.legal_actions().moves else "call")
    hands.append({"number": 3, "events": start + end, "revealed": None, "commitment": None})
    s.pause = 0.3
    s.feed(page, s.update(end))
    page.locator(".endscreen:not([hidden]) .stack-chart svg.chart").wait_for()
    page.wait_for_function("() => document.querySelector('.endscreen path.line').getAttribute('d').match(/[ML]/g).length === 4")
    chart = page.evaluate(CHART_JS)
    assert chart["points"] == [4, 4, 4, 4], "the start and hands 1, 2, 3 for every player"
    assert chart["lowest"] <= chart["floor"] + 0.01, f"a line goes below 0: {chart}"
    assert chart["rows"] == chart["legend"], "each player has one colour in the standings and the chart"
