"""V7 at eight players: when the deck cannot give every player still in a seventh-street card,
one card is dealt face up in the middle for everyone.  The page draws it on the felt's board, in
the middle, clear of every seat, bet and card, on a phone and the desktop (the server's own view
of an 8-handed seven-card stud hand, scripted_games.GameScript).
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_games import GameScript
from test_web_phone_layout import _overlaps

pytestmark = pytest.mark.browser

BOARD_JS = """() => {
  const wrap = document.querySelector('.felt-wrap');
  const w = wrap.getBoundingClientRect();
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const board = document.querySelector('.felt-wrap .board');
  const cards = [...board.querySelectorAll('.card')].filter(c => c.getBoundingClientRect().width > 0)
    .map(c => ({card: c.dataset.card, rect: r(c)}));
  return {cards, wrap: r(wrap), hidden: board.hidden, w: innerWidth, h: innerHeight};
}"""


def _to_seventh_street(code: str, seed: int) -> GameScript:
    """Eight players who all call or check to seventh street: the shared card is out."""
    names = ["alice_ux"] + [f"bot-station-{i}" for i in range(1, 8)]
    s = GameScript(code, names, button=7, bots={i: "station" for i in range(1, 8)})
    s.deal_seeded(seed)
    while s.game.in_hand and not s.t.hand.board:
        legal = s.game.legal_actions()
        s.act(s.game.to_act, next(w for w in ("check", "call", "bringin") if w in legal.moves))
    assert s.game.in_hand and len(s.t.hand.board) == 1
    return s


@pytest.mark.parametrize("size", [(360, 640), (1366, 900)], ids=["360x640", "1366x900"])
def test_the_shared_seventh_street_card_is_drawn_in_the_middle(new_page, size: tuple[int, int], artifacts) -> None:
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    for i, code in enumerate(("F7S", "F7S/8")):
        if i:
            page.evaluate(MOUNT_JS)
        else:
            mount(page)
        s = _to_seventh_street(code, 5 + i)
        msg: dict[str, Any] = s.snapshot()
        assert len(msg["view"]["board"]) == 2 and msg["view"]["board_size"] == 0
        s.feed(page, msg)
        problems = _overlaps(page)
        seen = page.evaluate(BOARD_JS)
        assert not seen["hidden"] and [c["card"] for c in seen["cards"]] == [msg["view"]["board"]], seen
        (left, top, right, bottom) = seen["cards"][0]["rect"]
        wl, wt, wr, wb = seen["wrap"]
        centre = (left + right) / 2
        assert abs(centre - (wl + wr) / 2) < (wr - wl) * 0.1, (code, seen)  # in the middle across
        assert wt < top and bottom < wb and left >= 0 and right <= seen["w"], (code, seen)
        assert right - left >= 20, (code, seen)  # a card, not a dot
        page.screenshot(path=str(artifacts / f"stud8-{code.replace('/', '')}-{size[0]}x{size[1]}.png"))
        assert not problems, (code, problems)
