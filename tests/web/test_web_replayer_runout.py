"""The replayer deals an all-in run-out street by street (issue #22, R18).

The server cuts a run-out into steps (server/table/replaysteps.py): the move that
left nobody able to bet, one step per street (a board card, or stud's next cards,
V7), then the result.  The page draws what each step says: the board grows one
street at a time, nobody is marked the winner until the result, which comes last.
Steps are the server's own (``hand_steps``), served to the page; waits are for
conditions, never for a time.
"""

from __future__ import annotations

from typing import Any

import pytest

from freezeout.server.table.replaysteps import hand_steps
from runouts import run_out_record

pytestmark = pytest.mark.browser




REPLAYER_JS = """async ([number, viewer]) => {
  const {Replayer, stepsOfGame} = await import('/static/js/replayer.js');
  const box = document.createElement('div');
  box.id = 'test-replayer';
  document.body.prepend(box);
  const r = new Replayer({hands: [{number}], players: [], viewer, source: stepsOfGame('g1')});
  box.append(r.el);
  window.__fzReplayer = r;
}"""

LOOK_JS = """() => {
  const r = window.__fzReplayer; const el = r.el;
  return {n: r.steps.length, at: r.steps[r.i].at, text: el.querySelector('.step-text').textContent,
    board: [...el.querySelectorAll('.board .card:not(.slot)')].map(c => c.dataset.card),
    winners: [...el.querySelectorAll('.felt-wrap > .seat')].filter(s => s.querySelector('.winbadge.on')).length,
    named: el.querySelectorAll('.felt-wrap > .seat .handname.on').length,
    cards: [...el.querySelectorAll('.felt-wrap > .seat')].map(s => s.querySelectorAll('.hole .card:not(.slot)').length)};
}"""


@pytest.mark.parametrize(("code", "stack"), [("NT", 400), ("F7S", 60)])
def test_the_replayer_deals_a_run_out_street_by_street_then_the_result(new_page, code: str, stack: int) -> None:
    record = run_out_record(code, stack, ("ana", "bo", "cy"))
    number = len(record["hands"])
    served = hand_steps(record, number, "ana")
    steps = served["steps"]
    result = len(steps) - 1
    # a street of the run-out is a step of its own: its cards and nothing else (no move)
    run_out = [i for i, step in enumerate(steps)
               if step["events"] and all(e["type"] in ("street_dealt", "hole_dealt") for e in step["events"])]
    assert len(run_out) >= 2 and run_out[-1] == result - 1, "the server deals the run-out one street a step"
    page = new_page(375, 667)
    page.route("**/api/games/g1/hands/*/steps", lambda route: route.fulfill(json=served))
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    page.evaluate(REPLAYER_JS, [number, 0])
    page.wait_for_function("() => window.__fzReplayer && window.__fzReplayer.steps.length > 0")
    seen: list[dict[str, Any]] = []
    for i in range(page.evaluate("() => window.__fzReplayer.steps.length")):
        page.evaluate("i => window.__fzReplayer.go(i)", i)
        look = page.evaluate(LOOK_JS)
        if look["at"] in run_out:
            seen.append(look)
            view = steps[look["at"]]["view"]
            assert look["board"] == [view["board"][k : k + 2] for k in range(0, len(view["board"]), 2)]
            assert look["winners"] == 0 and look["named"] == 0, "nobody has won before the last card"
        if look["at"] == result:
            assert look["winners"] >= 1, "the result comes after the run-out"
    assert {look["at"] for look in seen} == set(run_out), "every street of the run-out is drawn"
    progress = [(len(look["board"]), sum(look["cards"])) for look in seen]
    assert progress == sorted(progress) and len(set(progress)) == len(run_out), "one street more at each step"
    assert not page.errors, page.errors
