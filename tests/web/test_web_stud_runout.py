"""Equity on a live stud table's run-out (issue #36): an all-in before 7th street in Stud, Stud
Hi/Lo, Razz and a mix's stud hand.  The hands are turned up (V20) and the streets to come are
dealt street by street over the seats; while they are, each hand's share of the pot is drawn by
its seat, the up cards of a player who folded dead to it; nothing once the last card is down.

The table is the server's own game fed to the real page (``scripted_games.GameScript``); the
page's clock stands still from before the all-in is fed and is then moved to chosen moments of
the run-out, so no wait is for a time.  With one card to come to each hand, the shown share is
checked against an independent enumeration with PokerKit (tests/equity_reference.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from scripted import mount
from scripted_games import GameScript

from freezeout.analysis.games import game_for
from freezeout.server.oddsdesk import compute
from freezeout.server.table.freezeout import FreezeoutGame

pytestmark = pytest.mark.browser
pytest.importorskip("pokerkit")

from equity_reference import reference  # noqa: E402 - after the skip: it imports PokerKit

NAMES = ["alice_ux", "bot-station-1", "bot-station-2"]
SHARES_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(s => {
  const el = s.querySelector('.runout-eq'); return el && !el.hidden ? el.textContent : null; })"""
PCT_JS = """async x => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang(),
  {minimumFractionDigits: 1, maximumFractionDigits: 1}).format(x)"""
# each card on the felt's seats: the delay of its deal
DELAYS_JS = """() => Object.fromEntries([...document.querySelectorAll('.felt-wrap > .seat .hole .card[data-card]')]
  .map(c => [c.dataset.card, c.style.animationDelay]))"""
STAGGER_JS = """async k => `${k * (await import('/static/js/cards.js')).DEAL_STAGGER}s`"""
# the page's clock at `cards` run-out cards before the last one is down (0: all of them are)
MOMENT_JS = """async cards => {
  const {DEAL_STAGGER} = await import('/static/js/cards.js');
  const {DEAL_SETTLE} = await import('/static/js/tablerunout.js');
  const t = window.__fzTable;
  const at = t.settleUntil - DEAL_SETTLE - cards * DEAL_STAGGER + DEAL_STAGGER / 4;
  t.now = () => at;
  t.render();
}"""


def _stud_game(code: str, variant: str, stack: int) -> GameScript:
    """A freezeout of ``code`` at ``stack`` chips a seat, its folded-around hands played until
    the hand to come is one of ``variant`` (a mix's stud hand)."""
    s = GameScript(code, NAMES, bots={1: "station", 2: "station"})
    s.spec = dataclasses.replace(s.spec, starting_stack=stack)
    s.game = FreezeoutGame.start(s.spec, tuple(NAMES), 0)
    seed = 100
    while s.game.variant.code != variant:
        s.deal_seeded(seed)
        seed += 1
        while s.game.in_hand:
            legal = s.game.legal_actions()
            assert legal is not None
            s.act(s.game.to_act, next(w for w in ("check", "fold", "bringin") if w in legal.moves))
    return s


def _all_in(page: Any, s: GameScript, seed: int) -> list[dict[str, Any]]:
    """The hand dealt from ``seed``, fed to the page move by move: the third seat folds its first
    up card; the other two raise as far as they may and call, all in on third street.  The last
    move's events (the all-in called, the run-out, the result) are returned, not yet fed."""
    s.deal_seeded(seed)
    s.feed(page, s.snapshot())
    while True:
        legal = s.game.legal_actions()
        assert legal is not None
        seat = s.game.to_act
        if seat == 2 and "fold" in legal.moves:
            events = s.act(seat, "fold")
        elif "raise" in legal.moves or "complete" in legal.moves:
            move = "raise" if "raise" in legal.moves else "complete"
            events = s.act(seat, move, legal.max_to if move == "raise" else None)
        else:
            events = s.act(seat, next(w for w in ("call", "check", "bringin") if w in legal.moves))
        if not s.game.in_hand:
            return events
        s.feed(page, s.update(events))
        assert page.evaluate(SHARES_JS) == [None, None, None]  # a decision remains: nothing shown


def _text(page: Any, answer: dict[str, Any], index: int) -> str:
    hand = answer["hands"][index]
    shown = page.evaluate(PCT_JS, 100 * hand["equity"]) + " %"
    return shown if answer["exact"] else shown + " ±" + page.evaluate(PCT_JS, 100 * hand["error"])


@pytest.mark.parametrize(("code", "variant", "seed", "lang", "size"), [
    ("F7S", "F7S", 11, "en", (360, 640)),
    ("F7S/8", "F7S/8", 12, "cs", (1366, 900)),
    ("FR", "FR", 14, "en", (1366, 900)),
    ("HORSE", "F7S", 14, "cs", (360, 640)),
], ids=["stud-en-360", "stud8-cs-1366", "razz-en-1366", "horse-stud-cs-360"])
def test_a_live_stud_run_out_shows_each_hands_share_street_by_street(new_page, code: str, variant: str, seed: int,
                                                                     lang: str, size: tuple[int, int]) -> None:
    page = new_page(*size, locale="cs-CZ" if lang == "cs" else "en-US")
    mount(page)
    s = _stud_game(code, variant, 60)
    events = _all_in(page, s, seed)
    # the page's clock stands still from before the all-in: the run-out stays at its start
    page.evaluate("() => { const t = window.__fzTable; const t0 = t.now(); t.now = () => t0; }")
    s.feed(page, s.update(events))
    assert page.evaluate("() => window.__fzTable.settling()")
    turned = {e["seat"]: e["cards"] for e in events if e["type"] == "hand_turned_up"}
    assert sorted(turned) == [0, 1] and all(len(cards) == 6 for cards in turned.values()), turned
    folded = s.view()["seats"][2]
    dead = "".join(folded["cards"][2 * i:2 * i + 2] for i, slot in enumerate(folded["slots"]) if slot == "up")
    assert len(dead) == 2, folded  # the folded hand's up card, dead to the run-out
    # the felt deals the run-out street by street over the seats, as the events come
    order = [c for e in events if e["type"] == "hole_dealt" for c in (e["cards"][i:i + 2] for i in range(0, len(e["cards"]), 2))]
    assert len(order) == 8
    delays = page.evaluate(DELAYS_JS)
    assert [delays[card] for card in order] == [page.evaluate(STAGGER_JS, k) for k in range(8)], (order, delays)

    # third street: four cards to come to each hand (Monte Carlo with its ±, the server's own)
    start = compute(variant, (turned[0], turned[1]), "", dead)
    want = [_text(page, start, 0), _text(page, start, 1), None]
    page.wait_for_function(f"want => JSON.stringify(({SHARES_JS})()) === JSON.stringify(want)", arg=want)

    # sixth street is down, seventh (a card to each) is still to come: exact, as PokerKit counts it
    dealt = {seat: turned[seat] + "".join(e["cards"] for e in events if e["type"] == "hole_dealt" and e["seat"] == seat)
             for seat in (0, 1)}
    sixth = [dealt[0][:12], dealt[1][:12]]
    exact = reference(game_for(variant), sixth, "", dead)
    alive = reference(game_for(variant), sixth, "", "")
    want = [page.evaluate(PCT_JS, 100 * float(share)) + " %" for share in exact] + [None]
    assert want[:2] != [page.evaluate(PCT_JS, 100 * float(share)) + " %" for share in alive]  # the dead card counts
    page.evaluate(MOMENT_JS, 2)
    page.wait_for_function(f"want => JSON.stringify(({SHARES_JS})()) === JSON.stringify(want)", arg=want)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.runout-eq:not([hidden])')].map(el => {
      const b = el.getBoundingClientRect(); return [b.left, b.right]; })""")
    assert len(boxes) == 2 and all(0 <= left < right <= size[0] for left, right in boxes), boxes

    # the last card is down: no share any more, and the result once the deal has settled
    page.evaluate(MOMENT_JS, 0)
    page.wait_for_function(f"() => JSON.stringify(({SHARES_JS})()) === JSON.stringify([null, null, null])")
    page.evaluate("() => { const t = window.__fzTable; t.now = () => t.settleUntil + 1; t.render(); }")
    page.locator(".winbadge.on").first.wait_for()
    assert page.evaluate(SHARES_JS) == [None, None, None]
    assert not page.errors, page.errors
