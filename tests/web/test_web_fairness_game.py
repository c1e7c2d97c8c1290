"""The page's fair-dealing check is given the game of the hand it checks (issue #34): the view's
``dealing`` (deck positions, hole cards, fixed positions) noted while the hand was on, passed by
table.js to fairness.js ``verifyHand``.

A reveal of 52 leaves checked as a 36-card game's fails on its hash (leaves must list 36 digests);
checked as the 52-card game it is, the hash passes (here the deal then fails: the reveal is of
another deck than the hand the page saw, so a different, later verdict shows the game was read).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_games import GameScript

pytestmark = pytest.mark.browser

def _reveal() -> dict[str, Any]:
    import random

    from freezeout.server.fairness import Reveal, flop_hand_cards, new_deal

    deal = new_deal(1, random.Random(34))
    cards = flop_hand_cards(deal.deck, [0, 1], 5, shown=[0, 1])
    return {**Reveal.after_hand(deal, cards).to_json(0), "hand": 1}


def _check(page: Any, dealing: dict[str, Any] | None, *, mounted: bool = False) -> str:
    if mounted:
        page.keyboard.press("Escape")
        page.locator(".fair-list").wait_for(state="detached")
        page.evaluate(MOUNT_JS)
    else:
        mount(page)
    s = GameScript("PO", ["alice_ux", "bot-station-1"], bots={1: "station"})
    s.deal_seeded(3)
    msg = s.snapshot()
    assert msg["view"]["dealing"] == {"deck": 52, "hole": 4, "fixed": True}  # the server's own view says it
    msg = copy.deepcopy(msg)
    if dealing is not None:
        msg["view"]["dealing"] = dealing
    msg["fairness"] = {"next": None, "current": None, "revealed": [_reveal()]}
    s.feed(page, msg)
    page.evaluate("() => window.__fzTable.openFairness()")
    page.get_by_role("button", name="Check hand 1").click()
    out = page.locator(".fair-hand[data-hand='1'] [role=status]")
    page.wait_for_function("el => el.textContent.length > 0", arg=out.element_handle())
    return str(out.text_content())


def test_the_check_reads_the_hands_game_from_the_view(new_page):
    page = new_page(width=1366, height=900)
    as_short = _check(page, {"deck": 36, "hole": 4, "fixed": True})
    assert as_short.startswith("✗") and "hash does NOT match" in as_short, as_short
    as_dealt = _check(page, None, mounted=True)  # the view's own: 52 cards
    assert "hash does NOT match" not in as_dealt, as_dealt
    assert "do not match the opened cards" in as_dealt, as_dealt


def test_a_short_deck_view_says_36():
    """(The house game's view stays as it was: no ``dealing``; the page then reads the reveal.)"""
    s = GameScript("NS", ["alice_ux", "bot-station-1"], bots={1: "station"})
    s.deal_seeded(3)
    assert s.snapshot()["view"]["dealing"] == {"deck": 36, "hole": 2, "fixed": True}
    stud = GameScript("F7S", ["alice_ux", "bot-station-1"], bots={1: "station"})
    stud.deal_seeded(3)
    assert stud.snapshot()["view"]["dealing"] == {"deck": 52, "hole": 3, "fixed": False}
