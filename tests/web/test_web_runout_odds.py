"""Equity on every run-out in the replayer (issue #36): once the hands still in are face up
(V20) and cards remain, each one's share of the pot is drawn by its seat, street by street,
as the odds calculator computes it (GET /api/odds); nothing before the hands are turned up,
nothing once no card remains or the result is drawn.  Hold'em and stud, on a phone and a
desktop.  The steps are the server's own (``hand_steps``); waits are for conditions.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_replayer_runout import REPLAYER_JS

from freezeout.server.oddsdesk import compute
from freezeout.server.table.replaysteps import hand_steps
from runouts import run_out_record

pytestmark = pytest.mark.browser


# each seat's shown share, in seat order (null: none shown)
SHARES_JS = """() => [...window.__fzReplayer.el.querySelectorAll('.felt-wrap > .seat')].map(s => {
  const el = s.querySelector('.runout-eq'); return el && !el.hidden ? el.textContent : null; })"""


def _expected(view: dict[str, Any], game: str) -> list[str | None]:
    """What each seat should show at a step: the calculator's equity of the face-up hands."""
    seats = view["seats"]
    live = [s for s in seats if not s["folded"] and s.get("cards") and s.get("slots")]
    up = len(live) >= 2 and all(all(slot == "up" for slot in s["slots"]) for s in live)
    stud = game.startswith("F7S") or game == "FR"
    remain = any(len(s["slots"]) < 7 for s in live) if stud else len(view["board"]) < 10
    if view["hand_over"] or not up or not remain:
        return [None] * len(seats)
    answer = compute(game, tuple(s["cards"] for s in live), "" if stud else view["board"], "")
    shares: list[str | None] = [None] * len(seats)
    for seat, hand in zip(live, answer["hands"], strict=True):
        shares[seat["seat"]] = f"{100 * hand['equity']:.1f} %" + ("" if answer["exact"] else f" ±{100 * hand['error']:.1f}")
    return shares


@pytest.mark.parametrize(("code", "stack", "size"), [("NT", 400, (1366, 900)), ("F7S", 60, (360, 640))],
                         ids=["holdem-1366", "stud-360"])
def test_the_replayer_shows_each_face_up_hands_share_street_by_street(new_page, code: str, stack: int,
                                                                      size: tuple[int, int]) -> None:
    record = run_out_record(code, stack, ("ana", "bo", "cy"))
    number = len(record["hands"])
    served = hand_steps(record, number, "ana")
    steps = served["steps"]
    page = new_page(*size)
    page.route("**/api/games/g1/hands/*/steps", lambda route: route.fulfill(json=served))
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    page.evaluate(REPLAYER_JS, [number, 0])
    page.wait_for_function("() => window.__fzReplayer && window.__fzReplayer.steps.length > 0")
    shown_at: list[int] = []
    for i in range(page.evaluate("() => window.__fzReplayer.steps.length")):
        at = page.evaluate("i => { window.__fzReplayer.go(i); return window.__fzReplayer.steps[i].at; }", i)
        want = _expected(steps[at]["view"], served["game"])
        if any(want):
            shown_at.append(at)
            page.wait_for_function(f"want => JSON.stringify(({SHARES_JS})()) === JSON.stringify(want)", arg=want)
            boxes = page.evaluate("""() => [...document.querySelectorAll('.runout-eq:not([hidden])')].map(el => {
              const b = el.getBoundingClientRect(); return [b.left, b.right]; })""")
            assert len(boxes) == sum(1 for share in want if share) and all(0 <= left < right <= size[0] for left, right in boxes), boxes
        else:
            assert page.evaluate(SHARES_JS) == want, (at, page.evaluate(SHARES_JS))
    turned = next(i for i, step in enumerate(steps) if any(e["type"] == "hand_turned_up" for e in step["events"]))
    assert shown_at[0] == turned and len(set(shown_at)) >= 3, shown_at  # from the turn-up, street by street
    assert not page.errors, page.errors


HOLES = {0: "AhAd", 1: "KcKs"}
BOARD = "2c7d9hJs3c"

# liveRunOut (runoutodds.js) at chosen moments of a run-out dealt from t=98.5 (5 cards 0.2 s apart,
# 0.5 s to settle, until t=100): the board the felt shows, by when each street has landed.
STAGES_JS = """async () => {
  const {liveRunOut} = await import('/static/js/runoutodds.js');
  const model = {seats: [{seat: 0, cards: ['Ah', 'Ad'], up: [true, true]}, {seat: 1, cards: ['Kc', 'Ks'], up: [true, true]}],
    board: ['2c', '7d', '9h', 'Js', '3c'], view: {hand_over: true}};
  const events = [{type: 'action_taken'}, {type: 'hand_turned_up', seat: 0}, {type: 'hand_turned_up', seat: 1},
    {type: 'street_dealt', cards: '2c7d9h'}, {type: 'street_dealt', cards: 'Js'}, {type: 'street_dealt', cards: '3c'}];
  return [98.6, 99.1, 99.35, 99.6, 100].map(now => { const m = liveRunOut(model, events, now, 100, 0.2, 0.5);
    return m && m.board.join(''); });
}"""


def test_a_live_table_shows_the_shares_while_the_run_out_is_dealt(new_page) -> None:
    from scripted import dealt

    page = new_page(width=360, height=640)
    s = dealt(page, ["alice_ux", "bot-station-1"], HOLES, BOARD, bots={1: "station"})
    assert page.evaluate(STAGES_JS) == ["", "2c7d9h", "2c7d9hJs", "2c7d9hJs3c", None]
    assert page.evaluate(SHARES_JS.replace("window.__fzReplayer.el", "document")) == [None, None]
    events = s.act(s.t.to_act, "raise", s.t.legal_actions().max_to)
    events += s.act(s.t.to_act, "call")
    s.feed(page, s.update(events))
    # the run-out is being dealt (held there: a machine slower than the deal sees the same)
    # (the game's last hand stays on the table meanwhile: R30's pause after the last card)
    page.evaluate("() => { const t = window.__fzTable; t.settleUntil = t.finalUntil = t.now() + 3600; t.render(); }")
    answer = compute("NT", ("AhAd", "KcKs"), "", "")
    want = [f"{100 * hand['equity']:.1f} %" for hand in answer["hands"]]
    page.wait_for_function(f"want => JSON.stringify(({SHARES_JS.replace('window.__fzReplayer.el', 'document')})()) "
                           "=== JSON.stringify(want)", arg=want)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.runout-eq:not([hidden])')].map(el => {
      const b = el.getBoundingClientRect(); return [b.left, b.right]; })""")
    assert len(boxes) == 2 and all(0 <= left < right <= 360 for left, right in boxes), boxes
    # the last card is down: the result, and no share any more
    page.evaluate("() => { const t = window.__fzTable; t.settleUntil = t.now() - 1; t.render(); }")
    page.locator(".winbadge.on").first.wait_for()
    assert page.evaluate(SHARES_JS.replace("window.__fzReplayer.el", "document")) == [None, None]
    assert not page.errors, page.errors
