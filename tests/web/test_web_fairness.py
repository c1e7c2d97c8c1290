"""The page's fairness check binds (issue #23 item 4; docs/protocol.md "Fairness"):
every revealed deck is checked against the commitment the page received *before*
that hand's first card, never against the reveal's own.  A deck re-committed after
the hand began fails; a hand whose commitment the page did not see before the deal
(it joined mid-hand, or the commitment came late) is "not verifiable", never
"fair".

The server's messages are scripted (tests/web/scripted.py) with real commitments
(``fairness.Deal``): the tampering is what a dishonest server would send."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from scripted import Script, mount

from freezeout.cards import parse_cards
from freezeout.server.fairness import Deal, Reveal, deal_positions, flop_hand_cards

pytestmark = pytest.mark.browser

HOLES = {0: "AsKs", 1: "QhQd"}
BOARD = "2c3d4h5s6c"


def deck(holes: dict[int, str], board: str) -> str:
    """A deck that deals ``holes`` and ``board`` by the documented positions (heads-up)."""
    hole, board_at = deal_positions([0, 1])
    cards: dict[int, str] = {}
    for seat, text in holes.items():
        for position, card in zip(hole[seat], parse_cards(text), strict=True):
            cards[position] = str(card)
    for position, card in zip(board_at, parse_cards(board), strict=True):
        cards[position] = str(card)
    used = set(cards.values())
    rest = [str(c) for c in parse_cards("".join(f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA")) if str(c) not in used]
    text = [cards.get(i) or rest.pop(0) for i in range(52)]
    return "".join(text)


def a_deal(seed: str, text: str) -> Deal:
    return Deal(1, tuple(parse_cards(text)), seed)


HONEST = a_deal("ab" * 32, deck(HOLES, BOARD))
# What a dishonest server makes after seeing the hand: the same cards where they were seen
# (ana's own), everything else swapped, a new seed and so a new commitment.
RECOMMITTED = a_deal("cd" * 32, deck({0: "AsKs", 1: "JhJd"}, "KdAd9h8h7h"))
NEXT = {"hand": 2, "commitment": "0" * 64}


def fairness(**fields: Any) -> dict[str, Any]:
    return {"next": None, "current": None, "revealed": [], **fields}


def opened(deal: Deal) -> dict[str, Any]:
    """What hand 1 opens to ana (seat 0) when she folds before the flop: her own cards only."""
    return Reveal.after_hand(deal, flop_hand_cards(deal.deck, (0, 1), board_dealt=0, shown=())).to_json(0)


def check_hand_one(page: Any) -> tuple[str, str]:
    page.locator(".table-head button[aria-label=Fairness]").click()
    hand = page.locator("dialog[open] .fair-hand[data-hand='1']")
    hand.locator("button").click()
    out = hand.locator("[role=status]")
    page.wait_for_function("el => el.textContent.length > 0", arg=out.element_handle())
    return str(out.get_attribute("class")), out.inner_text()


def play_hand_one(page: Any, *, committed: str | None, revealed: Deal, late: str | None = None) -> None:
    """Hand 1 as the page sees it: ``committed`` before the deal (None: the page joins after
    it), a ``late`` commitment for hand 1 sent after the deal, and ``revealed`` opened."""
    mount(page)
    s = Script(["ana", "bo"], button=0, viewer=0)
    if committed is not None:
        s.feed(page, {**s.snapshot(), "fairness": fairness(next={"hand": 1, "commitment": committed})})
        dealt = s.update(s.deal(HOLES, BOARD))
        s.feed(page, {**dealt, "fairness": fairness(current={"hand": 1, "commitment": HONEST.commitment})})
    else:
        s.deal(HOLES, BOARD)
        s.feed(page, {**s.snapshot(), "fairness": fairness(current={"hand": 1, "commitment": HONEST.commitment})})
    if late is not None:  # a commitment "for hand 1" after its first card: it must bind nothing
        s.feed(page, {**s.update([]), "fairness": fairness(next={"hand": 1, "commitment": late})})
    ended = s.update(s.act(0, "fold"))
    s.feed(page, {**ended, "fairness": fairness(next=NEXT, revealed=[opened(revealed)])})


def test_an_honest_hand_committed_before_the_deal_is_fair(new_page):
    page = new_page()
    play_hand_one(page, committed=HONEST.commitment, revealed=HONEST)
    status, text = check_hand_one(page)
    assert "fair-ok" in status and "Hand 1 is fair" in text
    assert page.locator("dialog[open] .fair-hand[data-hand='1'] details").text_content().count(HONEST.commitment) == 2
    assert not page.errors


def test_a_deck_recommitted_after_the_deal_fails(new_page):
    """The attack: the reveal is self-consistent (its deck, salts and leaves make its own
    commitment, and ana's cards are where she saw them), but it is not the deck committed
    before the deal.  Before the fix the page checked it against its own commitment: "fair"."""
    page = new_page()
    assert RECOMMITTED.commitment != HONEST.commitment
    assert opened(RECOMMITTED)["deck"][:4] == opened(HONEST)["deck"][:4] == "AsKs"
    play_hand_one(page, committed=HONEST.commitment, revealed=RECOMMITTED)
    status, text = check_hand_one(page)
    assert "fair-bad" in status and "does NOT match" in text
    assert not page.errors


def test_a_hand_whose_commitment_the_page_did_not_see_before_the_deal_is_not_verifiable(new_page):
    """ana joins mid-hand (the snapshot's ``current`` came after the deal), and then a
    commitment "for hand 1" arrives late: neither binds, so even an opening that matches
    them is "not verifiable", never "fair"."""
    page = new_page()
    play_hand_one(page, committed=None, revealed=RECOMMITTED, late=RECOMMITTED.commitment)
    status, text = check_hand_one(page)
    assert "fair-ok" not in status and "fair-unverifiable" in status
    assert "not verifiable" in text and "✓" not in text
    assert "not received" in page.locator("dialog[open] .fair-hand[data-hand='1'] details").text_content()
    assert not page.errors


def test_a_commitment_seen_before_the_deal_survives_a_reload(new_page):
    """The page keeps the commitments it received (localStorage, per game): after a reload
    mid-game the hand it saw committed still checks against that commitment."""
    page = new_page()
    play_hand_one(page, committed=HONEST.commitment, revealed=RECOMMITTED)
    kept = page.evaluate("JSON.parse(localStorage.getItem('fz-commit-scripted-1')).byHand")
    assert kept == {"1": HONEST.commitment, "2": NEXT["commitment"]}
    page.reload()
    mount(page)
    s = Script(["ana", "bo"], button=0, viewer=0)
    s.deal(HOLES, BOARD)
    s.act(0, "fold")
    s.feed(page, {**s.snapshot(), "fairness": fairness(next=NEXT, revealed=[opened(RECOMMITTED)])})
    status, _ = check_hand_one(page)
    assert "fair-bad" in status


def recommitted(reveal: dict[str, Any]) -> dict[str, Any]:
    """A dishonest server's reveal: the same opened cards at the same positions, every other
    position refilled, a new seed: self-consistent, but not the deck committed before the deal."""
    text = reveal["deck"]
    opened = {i: text[2 * i: 2 * i + 2] for i in range(52) if text[2 * i: 2 * i + 2] != "??"}
    rest = [f"{r}{s}" for s in "shdc" for r in "AKQJT98765432" if f"{r}{s}" not in opened.values()]
    full = "".join(opened.get(i) or rest.pop(0) for i in range(52))
    forged = Deal(int(reveal["hand"]), tuple(parse_cards(full)), "ef" * 32)
    return {**reveal, **forged.opening(opened)}


def test_a_live_table_whose_reveal_is_tampered_on_the_wire_fails_that_hand(new_page, ui):
    """The real server and a bot; the WebSocket is intercepted and hand 2's reveal replaced by
    a re-committed deck that still shows every card the page saw.  Hand 2 fails, hand 3 (not
    touched) is fair."""
    page = new_page()
    tampered: list[int] = []

    def intercept(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and '"revealed":[{' in message:
                msg = json.loads(message)
                reveals = msg["fairness"]["revealed"]
                if any(r["hand"] == 2 and "leaves" in r for r in reveals):
                    msg["fairness"]["revealed"] = [recommitted(r) if r["hand"] == 2 else r for r in reveals]
                    tampered.append(msg["version"])
                    message = json.dumps(msg)
            ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    page.route_web_socket(re.compile(r".*/ws$"), intercept)
    page.goto("/")
    page.locator("label[for=qbots-1]").click()
    page.locator("label[for=qlevel-station]").click()
    page.locator("#quickplay").click()
    page.wait_for_url("**/#/table/*")
    revealed = "() => (window.__fzTable && window.__fzTable.log ? window.__fzTable.log.hands : []).filter(h => h.revealed).map(h => h.number)"

    def hands_revealed() -> bool:
        if ui.my_turn(page):
            ui.passive(page)
        return {2, 3} <= set(page.evaluate(revealed))

    ui.wait_for(page, hands_revealed, timeout=90)
    assert tampered
    page.locator(".table-head button[aria-label=Fairness]").click()
    results = {}
    for hand in (2, 3):
        row = page.locator(f"dialog[open] .fair-hand[data-hand='{hand}']")
        row.locator("button").click()
        out = row.locator("[role=status]")
        page.wait_for_function("el => el.textContent.length > 0", arg=out.element_handle())
        results[hand] = (out.get_attribute("class"), out.inner_text())
    assert "fair-bad" in results[2][0] and "does NOT match" in results[2][1], results
    assert "fair-ok" in results[3][0], results
