"""A finished game's review on the page (issue #36, docs/review.md "On the page"): beside each
push/fold decision of the house game the replayer says the equilibrium's move and the EV given
up; under the hand, per player the result, all-in EV, luck (the asker's own seat only) and the
mistakes' count and total, and the chart of cumulative chips won and all-in EV per hand.  The
steps and the review are the server's own (``hand_steps``; the review route's answer), served to
the page; waits are for conditions, never for a time."""

from __future__ import annotations

import pytest

from freezeout.analysis.review import review_record_text
from freezeout.server.table.records import player_record
from freezeout.server.table.replaysteps import hand_steps
from freezeout.server.transport.apireview import for_viewer
from runouts import run_out_record

pytestmark = pytest.mark.browser

REPLAYER_JS = """async ([number]) => {
  const {Replayer, stepsOfGame} = await import('/static/js/replayer.js');
  const box = document.createElement('div');
  box.id = 'test-replayer';
  document.body.prepend(box);
  const r = new Replayer({hands: [{number}], players: [], viewer: 0, source: stepsOfGame('g1'), gameId: 'g1'});
  box.append(r.el);
  window.__fzReplayer = r;
}"""

INSIDE_JS = """() => {
  const r = window.__fzReplayer.el;
  const out = [];
  const w = document.documentElement.clientWidth;
  for (const el of r.querySelectorAll('.controls .btn, .decision-review, .review table, .review svg.chart')) {
    const b = el.getBoundingClientRect();
    if (b.left < -0.5 || b.right > w + 0.5) out.push(el.className + ' ' + b.left + '..' + b.right);
  }
  return {out, sideways: document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth};
}"""


def _signed(value: float) -> str:
    """A whole number of chips as the page writes it, digits and sign only."""
    v = round(value)
    return ("+" if v > 0 else "-" if v < 0 else "") + str(abs(v))


def _digits(text: str) -> str:
    return "".join(c for c in text.replace("\u2212", "-") if c.isdigit() or c in "+-")


@pytest.mark.parametrize(("width", "height", "locale", "words"), [
    (360, 640, "cs-CZ", ("chyba", "rovnováha", "Štěstí")),
    (1366, 900, "en-US", ("mistake", "equilibrium", "Luck")),
])
def test_the_replayer_shows_the_mistakes_beside_the_decisions_and_the_luck_and_ev_chart(
        new_page, width: int, height: int, locale: str, words: tuple[str, str, str]) -> None:
    record = run_out_record("NT", 200, ("ana", "bo", "cy"))
    number = len(record["hands"])
    served = hand_steps(record, number, "ana")
    review = for_viewer(review_record_text(player_record(record, "ana")), "ana")
    decisions = review["hands"][-1]["decisions"]
    assert [d["player"] for d in decisions] == ["ana", "bo", "cy"] and any(d["mistake"] for d in decisions)
    page = new_page(width, height, locale=locale)
    page.route("**/api/games/g1/hands/*/steps", lambda route: route.fulfill(json=served))
    page.route("**/api/games/g1/review", lambda route: route.fulfill(json=review))
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    page.evaluate(REPLAYER_JS, [number])
    page.wait_for_function("() => window.__fzReplayer && window.__fzReplayer.decisions.size > 0")
    shown: dict[str, str] = {}
    for i in range(page.evaluate("() => window.__fzReplayer.steps.length")):
        page.evaluate("i => window.__fzReplayer.go(i)", i)
        box = page.locator("#test-replayer .decision-review")
        if box.is_visible():
            for line in box.locator("p").all():
                shown[str(line.get_attribute("data-player"))] = line.inner_text()
            assert page.evaluate(INSIDE_JS) == {"out": [], "sideways": False}
    assert set(shown) == {"ana", "bo", "cy"}, "each decision is shown beside its move"
    for d in decisions:
        text = shown[d["player"]]
        loss = f"{d['ev_loss_bb']:.2f}".replace(".", "," if locale == "cs-CZ" else ".")
        assert loss in text and words[1] in text, text
        assert (words[0] in text) == bool(d["mistake"]), text
    # the game's review: luck for the asker's own seat only, the mistakes' counts, the chart
    table = page.locator("#test-replayer .review table")
    table.wait_for()
    assert words[2].lower() in table.inner_text().lower()
    luck = {name: table.locator(f"tr[data-player={name}] td.rv-luck").inner_text() for name in ("ana", "bo", "cy")}
    assert luck["bo"] == luck["cy"] == "—" and luck["ana"] != "—" and any(c.isdigit() for c in luck["ana"])
    for name, totals in review["players"].items():
        for column, key in (("rv-result", "result"), ("rv-ev", "all_in_ev")):
            cell = table.locator(f"tr[data-player={name}] td.{column}")
            assert cell.is_visible() and _digits(cell.inner_text()) == _signed(totals[key]), (name, key)
    mistakes = page.locator("#test-replayer .review-mistakes").inner_text()
    assert all(name in mistakes for name in ("ana", "bo", "cy"))
    chart = page.locator("#test-replayer .review svg.chart")
    assert chart.locator("path.line").count() == 6
    assert chart.locator("path.line[stroke-dasharray]").count() == 3, "all-in EV is the dashed line"
    page.locator("#test-replayer .review svg.chart").scroll_into_view_if_needed()
    assert page.evaluate(INSIDE_JS) == {"out": [], "sideways": False}
    assert not page.errors, page.errors
