"""Showdowns on phones (issue #31 item 8).

At the result every seat's stack stays in sight (the hand's name takes the state line, not
the stack's), stud's seven-card fans show a 10 whole (not "1"), the win badge covers no
card, the pots do not touch the board, and your own small-blind mark does not cover your
cards.  Checked on rectangles at 360x640 and 375x667, in hold'em, Omaha and stud.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from test_web_phone_layout import _overlaps
from test_web_replayer_games import GameScript

pytestmark = pytest.mark.browser

LOOK_JS = """() => {
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const shown = el => { const s = getComputedStyle(el); const b = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && +s.opacity > 0 && b.width > 0; };
  const seats = [...document.querySelectorAll('.felt-wrap > .seat')].map(seat => {
    const cards = [...seat.querySelectorAll('.hole .card:not(.slot)')];
    return {seat: +seat.dataset.seat, me: seat.classList.contains('me'),
      stack: {shown: shown(seat.querySelector('.stack')), rect: r(seat.querySelector('.stack')), text: seat.querySelector('.stack').textContent},
      hand: seat.querySelector('.handname.on') ? r(seat.querySelector('.handname.on')) : null,
      cards: cards.map(r),
      ranks: cards.map((c, i) => ({rank: (c.querySelector('.r') || {}).textContent || '', rect: c.querySelector('.r') ? r(c.querySelector('.r')) : null,
                                   next: cards[i + 1] ? r(cards[i + 1]) : null})),
      badge: seat.querySelector('.winbadge.on') ? r(seat.querySelector('.winbadge.on')) : null,
      marks: [...seat.querySelectorAll('.mark.on')].filter(shown).map(r)};
  });
  return {seats, pots: [...document.querySelectorAll('.felt-wrap .pots .pot')].map(r),
          board: [...document.querySelectorAll('.felt-wrap .board .card')].map(r)};
}"""


def _meet(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _problems(look: dict[str, Any], *, showdown: bool) -> list[str]:
    found = []
    all_cards = [(x["seat"], c) for x in look["seats"] for c in x["cards"]]
    for x in look["seats"]:
        name = f"seat {x['seat']}"
        if x["stack"]["text"] and not x["stack"]["shown"]:
            found.append(f"{name}: the stack is hidden")
        if x["hand"] and _meet(x["hand"], x["stack"]["rect"]):
            found.append(f"{name}: the hand's name covers the stack")
        for rank in x["ranks"]:
            if rank["rect"] and rank["next"] and rank["rect"][2] > rank["next"][0] + 0.5:
                found.append(f"{name}: the rank {rank['rank']!r} is cut by the next card ({rank['rect'][2]:.1f} > {rank['next'][0]:.1f})")
        if x["badge"]:
            found += [f"{name}: the win badge covers seat {s}'s card" for s, c in all_cards if _meet(x["badge"], c)]
        for mark in x["marks"]:
            found += [f"{name}: a blind/button mark covers its card" for c in x["cards"] if _meet(mark, c)]
    for pot in look["pots"]:
        found += ["a pot covers the board" for c in look["board"] if _meet(pot, c)]
    if showdown and not any(x["badge"] for x in look["seats"]):
        found.append("no win badge at the showdown")
    return found


CASES = [
    # your own small blind (button 3: seat 0 posts it), a board that wins for the winner
    ("NT", {0: "AhKh", 1: "7c2d", 2: "KsKd", 3: "9d9c"}, "Qh9s4h8s3d", 3),
    ("PO", {0: "AhKhQhJh", 1: "7c2d3s4s", 2: "KsKdTsTd", 3: "9d9c5c6c"}, "Qd9s4h8s3d", 3),
    # stud: tens in every fan, seven cards each
    ("F7S", {0: "ThTs2h3h4h5h6h", 1: "TdTc2d3d4d5d6d", 2: "7c8c9cJcQcKcAc", 3: "7s8s9sJsQsKsAs"}, "", 0),
]


@pytest.mark.parametrize("size", [(360, 640), (375, 667)], ids=["360x640", "375x667"])
def test_a_showdown_on_a_phone_keeps_stacks_cards_and_board_clear(new_page, size):
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    problems = {}
    for i, (code, holes, board, button) in enumerate(CASES):
        if i:
            page.evaluate(MOUNT_JS)
        else:
            mount(page)
        s = GameScript(code, ["alice_ux", "bot-station", "bot-medium", "bot-hard"], button=button)
        s.deal(holes, board)
        s.feed(page, s.snapshot())
        found = [f"dealt: {p}" for p in _problems(page.evaluate(LOOK_JS), showdown=False)]
        s.pause = 3600
        events = []
        while s.t.in_hand:
            moves = s.t.legal_actions().moves
            events += s.act(s.t.to_act, next(w for w in ("check", "bringin", "call") if w in moves))
        s.feed(page, s.update(events))
        page.locator(".felt-wrap .seat .handname.on").first.wait_for()
        found += [f"showdown: {p}" for p in _problems(page.evaluate(LOOK_JS), showdown=True)]
        found += [f"showdown: {p}" for p in _overlaps(page)]
        if found:
            problems[code] = found
    assert not problems, problems
