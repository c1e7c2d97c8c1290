"""The page draws any game (issue #22 "The page").

A table of four (you and three bots that play every game) in Fixed-Limit
Omaha Hi/Lo, Seven-Card Stud and Five-Card Draw, played for a whole hand
through the page on a 375x667 phone, with a desktop spectator beside it:
- every seat draws as many card slots as the view gives it (Omaha 4, draw 5,
  stud up to 7), and no other seat's down cards are ever drawn face up
  before a showdown (R17; stud's up-cards are for everyone, V7);
- on your turn the whole action bar (and in a draw the picker) is inside the
  window with the page unscrolled; the draw is made by tapping cards and
  pressing "Draw n" (V11), the server's `draw` intent;
- fixed limit shows no slider (legal.sizes), the header names the game.
Waits are for conditions (a turn, a new hand), never for a time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_phone_layout import SETTLED_JS, _overlaps

pytestmark = pytest.mark.browser

SHOTS = Path("/work/shots/page")

CREATE_JS = """async (game) => {
  const api = await import('/static/js/api.js');
  await api.loadSession();  // the CSRF token first (the app may still be loading it)
  await api.ensureGuest();
  const data = await api.post('/api/tables', {slots: [null, 'station', 'random', 'station'], ranked: false, sit: true, game});
  return data.table.id;
}"""

# One look at the page and its state at the same instant (the page renders each message at once).
LOOK_JS = """() => {
  const t = window.__fzTable; const v = t && t.state.view; if (!v) return null;
  const seats = [...document.querySelectorAll('.felt-wrap > .seat')].map(el => ({
    seat: Number(el.dataset.seat),
    drawn: el.querySelectorAll('.hole .card:not(.slot)').length,
    faces: [...el.querySelectorAll('.hole .card:not(.slot)')].map(c => c.classList.contains('back') ? 'back' : c.classList.contains('up') ? 'up' : 'face'),
  }));
  const bar = document.querySelector('.actionbar').getBoundingClientRect();
  const picker = document.querySelector('.drawpick');
  const pr = picker.getBoundingClientRect();
  return {view: v, seats, me: t.state.you && t.state.you.seat, scrollY: window.scrollY, height: window.innerHeight, width: window.innerWidth,
    bar: [bar.left, bar.top, bar.right, bar.bottom], picker: picker.hidden ? null : [pr.left, pr.top, pr.right, pr.bottom],
    slider: !document.querySelector('.sizer').hidden, head: document.querySelector('.table-head .info').textContent};
}"""

FAMILIES = [("FO/8", 4), ("F7S", 7), ("F5CD", 5)]


def _check_cards(look: dict[str, Any]) -> int:
    """Each seat draws its slots; no other seat's down card is face up before a showdown. Returns the most slots seen."""
    view = look["view"]
    most = 0
    for drawn in look["seats"]:
        seat = view["seats"][drawn["seat"]]
        slots = seat.get("slots") or []
        most = max(most, len(slots))
        if slots:
            assert drawn["drawn"] == len(slots), (seat, drawn)
        if drawn["seat"] != look["me"] and not view["showdown"]:
            assert "down" not in slots, seat
            for face, slot in zip(drawn["faces"], slots, strict=False):
                assert face == ("up" if slot == "up" else "back"), (seat, drawn)
    return most


def _check_bar(look: dict[str, Any]) -> None:
    """On a phone the whole bar (and the picker) is on screen, the page unscrolled."""
    assert look["scrollY"] == 0, look["scrollY"]
    for rect in [look["bar"], look["picker"]]:
        if rect is None:
            continue
        assert rect[0] >= -0.5 and rect[1] >= -0.5, rect
        assert rect[2] <= look["width"] + 0.5 and rect[3] <= look["height"] + 0.5, (rect, look["height"])


@pytest.mark.parametrize(("game", "cards"), FAMILIES)
def test_a_whole_hand_of_each_family(new_page, ui, game: str, cards: int) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = game.replace("/", "")
    page = new_page(375, 667)
    page.goto("/")
    table = page.evaluate(CREATE_JS, game)
    page.goto(f"/#/table/{table}")
    desk = new_page(1366, 900)  # a spectator on the desktop: sees no down card either
    desk.goto(f"/#/table/{table}")
    ui.wait_for(page, lambda: (page.evaluate(LOOK_JS) or {}).get("view", {}).get("hand_number", 0) >= 1)
    first = page.evaluate(LOOK_JS)["view"]["hand_number"]
    most = 0
    drew = False
    shot = {"turn": False, "draw": False}
    while True:
        look = page.evaluate(LOOK_JS)
        view = look["view"]
        if view["hand_number"] > first or view["finished"]:
            break
        seen = _check_cards(look)
        if seen > most and seen == cards:
            page.evaluate(SETTLED_JS)
            desk.evaluate(SETTLED_JS)
            page.screenshot(path=str(SHOTS / f"{tag}-full-375x667.png"))
            desk.screenshot(path=str(SHOTS / f"{tag}-full-1366x900.png"))
        most = max(most, seen)
        _check_cards(desk.evaluate(LOOK_JS) or look)
        assert view["game"] == game and view["game_name"] in look["head"], look["head"]
        if not ui.my_turn(page):
            # the next update (a new version) or the turn: a condition, never a time
            page.wait_for_function(
                "([v]) => { const t = window.__fzTable; return t && (t.state.version !== v"
                " || document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null); }",
                arg=[page.evaluate("window.__fzTable.state.version")],
                timeout=120_000,
            )
            continue
        look = page.evaluate(LOOK_JS)  # the turn's own state (the look above may predate it)
        view = look["view"]
        _check_bar(look)
        legal = view["legal"] or {}
        if "discard" in legal.get("moves", []):
            assert look["picker"] is not None, "the draw picker is shown on a draw turn"
            picks = page.locator(".drawpick .pick")
            assert picks.count() == cards
            picks.nth(0).click()
            page.keyboard.press("2")  # keys too: a digit marks a card
            page.locator(".actionbar .drawbtn", has_text="Draw 2").wait_for()
            _check_bar(page.evaluate(LOOK_JS))
            if not shot["draw"]:
                page.evaluate(SETTLED_JS)
                desk.evaluate(SETTLED_JS)
                page.screenshot(path=str(SHOTS / f"{tag}-draw-375x667.png"))
                desk.screenshot(path=str(SHOTS / f"{tag}-draw-1366x900.png"))
                shot["draw"] = True
            before = view["seats"][look["me"]]["cards"]
            page.locator(".actionbar .drawbtn").click()
            ui.wait_for(page, lambda b=before, me=look["me"]: page.evaluate(LOOK_JS)["view"]["seats"][me]["cards"] != b)
            drew = True
            continue
        if legal.get("sizes"):
            assert not look["slider"], "fixed limit: the fixed size, no slider"
        if not shot["turn"]:
            assert not _overlaps(page) and not _overlaps(desk), (_overlaps(page), _overlaps(desk))
            page.screenshot(path=str(SHOTS / f"{tag}-375x667.png"))  # once the cards are dealt (_overlaps waits)
            desk.screenshot(path=str(SHOTS / f"{tag}-1366x900.png"))
            shot["turn"] = True
        version = look["view"]["hand_number"], page.evaluate("() => window.__fzTable.state.version")
        ui.passive(page)
        ui.wait_for(page, lambda v=version: page.evaluate("() => window.__fzTable.state.version") != v[1])
    assert most == cards, f"{game}: at most {most} card slots per seat, expected {cards}"
    if game == "F5CD":
        assert drew, "the hand had a draw made through the picker"
    assert not page.errors and not desk.errors, page.errors + desk.errors
