"""A freezeout table's side pot while the run-out is dealt (issue #36): three players, the short
stack all in, the other two all in over it.  Each seat's badge has a line per pot it contends —
the short stack's the main pot only, the others' the main and the side pot, where the short
stack's cards are dead — and the shares are exact, as PokerKit's enumeration counts them
(tests/equity_reference.py).

The table is the house game's own tournament fed to the real page (``scripted.Script``).  The
page's clock stands still from before the all-in is fed (never pinned after the feed: a busy
machine would race it) and is then moved to the moment the flop has landed.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import Script, mount
from test_web_runout_badges import PLACED_JS, _covered

from freezeout.analysis.games import game_for

pytestmark = pytest.mark.browser
pytest.importorskip("pokerkit")

from equity_reference import reference  # noqa: E402 - after the skip: it imports PokerKit

NAMES = ["alice_ux", "bot-station-1", "bot-station-2"]
SHARES_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(s => {
  const el = s.querySelector('.runout-eq');
  return el && !el.hidden ? [...el.childNodes].map(n => n.textContent) : null; })"""
CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""
PCT_JS = """async x => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang(),
  {minimumFractionDigits: 1, maximumFractionDigits: 1}).format(x)"""
# the page's clock at `cards` run-out cards before the last one is down
MOMENT_JS = """async cards => {
  const {DEAL_STAGGER} = await import('/static/js/cards.js');
  const {DEAL_SETTLE} = await import('/static/js/tablerunout.js');
  const t = window.__fzTable;
  const at = t.settleUntil - DEAL_SETTLE - cards * DEAL_STAGGER + DEAL_STAGGER / 4;
  t.now = () => at;
  t.render();
}"""
HOLES = {0: "KhKd", 1: "AhAd", 2: "9s8s"}
BOARD = "Qs7s2c5h3d"


def _short_stack() -> Script:
    """A first hand where Ana (seat 0) raises, Bo calls and wins at the showdown, Cy folds:
    Ana is the short stack of the second hand."""
    s = Script(NAMES, button=0, bots={1: "station", 2: "station"})
    s.deal({0: "7c2d", 1: "AsAc", 2: "8h3h"}, "KcQd9h4s2s")
    while s.t.in_hand:
        legal = s.t.legal_actions()
        assert legal is not None
        seat = s.t.to_act
        if seat == 2 and "fold" in legal.moves:
            s.act(seat, "fold")
        elif seat == 0 and "raise" in legal.moves:
            s.act(seat, "raise", 300)
        else:
            s.act(seat, next(w for w in ("check", "call") if w in legal.moves))
    return s


def _all_in(page: Any, s: Script) -> list[dict[str, Any]]:
    """The second hand fed move by move, every player raising as far as they may or calling: all
    three all in before the flop.  The last move's events, not yet fed."""
    s.deal(HOLES, BOARD)
    s.feed(page, s.snapshot())
    while True:
        legal = s.t.legal_actions()
        assert legal is not None
        seat = s.t.to_act
        events = s.act(seat, "raise", legal.max_to) if "raise" in legal.moves else s.act(seat, "call")
        if not s.t.in_hand:
            return events
        s.feed(page, s.update(events))
        assert page.evaluate(SHARES_JS) == [None, None, None]  # a decision remains: nothing shown


@pytest.mark.parametrize(("lang", "size"), [("en", (360, 640)), ("cs", (1366, 900))], ids=["en-360", "cs-1366"])
def test_a_freezeout_side_pot_shows_each_hands_share_of_each_pot(new_page, lang: str, size: tuple[int, int]) -> None:
    page = new_page(*size, locale="cs-CZ" if lang == "cs" else "en-US")
    mount(page)
    s = _short_stack()
    stacks = list(s.t.current_stacks())
    assert stacks[0] < min(stacks[1], stacks[2]) and stacks[1] != stacks[2], stacks
    events = _all_in(page, s)
    page.evaluate("() => { const t = window.__fzTable; const t0 = t.now(); t.now = () => t0; }")
    s.feed(page, s.update(events))
    assert page.evaluate("() => window.__fzTable.settling()")
    pots = {e["pot"]: sorted(e["eligible"]) for e in events if e["type"] == "pot_awarded"}
    assert pots == {0: [0, 1, 2], 1: [1, 2]}, pots

    # the flop is down, the turn and the river still to come
    page.evaluate(MOMENT_JS, 2)
    game = game_for("NT")
    flop = BOARD[:6]
    main = reference(game, [HOLES[0], HOLES[1], HOLES[2]], flop)
    side = reference(game, [HOLES[1], HOLES[2]], flop, HOLES[0])  # Ana's cards are dead to it
    catalog = page.evaluate(CATALOG_JS)

    def line(pot: int, share: Any) -> str:
        label = catalog["runout.mainPot" if pot == 0 else "runout.sidePot"]
        return label.replace("{n}", str(pot)).replace("{pct}", page.evaluate(PCT_JS, 100 * float(share)) + " %")

    want = [[line(0, main[0])], [line(0, main[1]), line(1, side[0])], [line(0, main[2]), line(1, side[1])]]
    assert want[1][1] != line(1, reference(game, [HOLES[1], HOLES[2]], flop)[0])  # the dead cards count
    page.wait_for_function(f"want => JSON.stringify(({SHARES_JS})()) === JSON.stringify(want)", arg=want)
    page.wait_for_function(PLACED_JS)
    assert not _covered(page)

    # the last card is down: no share any more, and the result once the deal has settled
    page.evaluate("() => { const t = window.__fzTable; t.now = () => t.settleUntil + 1; t.render(); }")
    page.locator(".winbadge.on").first.wait_for()
    assert page.evaluate(SHARES_JS) == [None, None, None]
    assert not page.errors, page.errors
