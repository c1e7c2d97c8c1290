"""The page draws any game (issue #22 "The page").

A table of four (you and three bots that play every game) in each family
(limit hold'em, Omaha Hi/Lo, Seven-Card Stud, Razz, Five-Card Draw, 2-7
triple draw, Badugi), played for a whole hand through the page on a 375x667
phone, with a desktop spectator beside it:
- every seat draws as many card slots as the view gives it (Omaha 4, draw 5,
  stud up to 7), and no other seat's down cards are ever drawn face up
  before a showdown (R17; stud's up-cards are for everyone, V7);
- on your turn the whole action bar (and in a draw the picker) is inside the
  window with the page unscrolled; the draw is made by tapping cards and
  pressing "Draw n", by keys (digits mark, R draws, S stands pat) or
  pressing "Stand pat" (V11), the server's `draw` intent: every draw of the
  hand (three in triple draw and Badugi);
- fixed limit shows no slider (legal.sizes), the header names the game;
- no seat covers the board or the pots at your turns, at the most cards too;
- HORSE (V19): the header names the mix, this game and the next; after the
  level's last hand the game changes (hold'em to Omaha Hi/Lo) and that
  hand is played through too.
The server's turn clock is long (``patient_server``): a move is never made
for the test by a timeout (R26) while it looks at the page, however busy
the machine.  Waits are for conditions (a turn, a version, a new hand),
never for a time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_phone_layout import SETTLED_JS, _overlaps

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "page"  # the tests' artifacts folder (conftest.ARTIFACTS)

CREATE_JS = """async ([game, slots]) => {
  const api = await import('/static/js/api.js');
  await api.loadSession();  // the CSRF token first (the app may still be loading it)
  await api.ensureGuest();
  const data = await api.post('/api/tables', {slots, ranked: false, sit: true, game});
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
  return {view: v, version: t.state.version, seats, me: t.state.you && t.state.you.seat, scrollY: window.scrollY, height: window.innerHeight, width: window.innerWidth,
    bar: [bar.left, bar.top, bar.right, bar.bottom], picker: picker.hidden ? null : [pr.left, pr.top, pr.right, pr.bottom],
    slider: !document.querySelector('.sizer').hidden, head: document.querySelector('.table-head .info').textContent + ' | ' + [...document.querySelectorAll('.table-head .info [title]')].map(e => e.title).join(' | ')};
}"""

FAMILIES = [("FT", 2), ("FO/8", 4), ("F7S", 7), ("FR", 7), ("F5CD", 5), ("F2L3D", 5), ("FB", 4)]
# How each draw of a hand is made (V11): taps then "Draw n", keys, or standing pat.
DRAW_WAYS = {"F5CD": ["tap+key"], "F2L3D": ["tap", "keys", "tap+key"], "FB": ["tap", "standpat", "key-s"]}


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


def _draw(page: Any, ui: Any, way: str, look: dict[str, Any], cards: int) -> None:
    """Make one draw through the picker, ``way``: tap two cards then press "Draw 2"; tap one and
    mark one by its digit key; mark three by keys then draw by R; press "Stand pat"; or key S."""
    assert look["picker"] is not None, "the draw picker is shown on a draw turn"
    picks = page.locator(".drawpick .pick")
    assert picks.count() == cards
    legal = look["view"]["legal"]
    throw = 0
    if way == "tap":
        throw = min(2, legal["draw"])
        for i in range(throw):
            picks.nth(i).click()
    elif way == "tap+key":
        picks.nth(0).click()
        page.keyboard.press("2")  # keys too: a digit marks a card
        throw = 2
    elif way == "keys":
        throw = min(3, legal["draw"])
        for i in range(throw):
            page.keyboard.press(str(i + 1))
    if throw:
        page.locator(".actionbar .drawbtn", has_text=f"Draw {throw}").wait_for()
        assert page.locator(".drawpick .pick[aria-pressed=true]").count() == throw
    _check_bar(page.evaluate(LOOK_JS))
    me = look["me"]
    before = look["view"]["seats"][me]["cards"]
    version = ui.version(page)
    if way == "keys":
        page.keyboard.press("r")
    elif way == "standpat":
        page.locator(".actionbar .standpat", has_text="Stand pat").click()
    elif way == "key-s":
        page.keyboard.press("s")
    else:
        page.locator(".actionbar .drawbtn").click()
    ui.moved_on(page, version)
    if throw:  # the new cards come with the draw (V11)
        ui.wait_for(page, lambda: page.evaluate(LOOK_JS)["view"]["seats"][me]["cards"] != before)
    else:
        ui.wait_for(page, lambda: page.evaluate(LOOK_JS)["view"]["seats"][me]["cards"] == before
                    and "discard" not in ((page.evaluate(LOOK_JS)["view"]["legal"] or {}).get("moves") or []))


def _open(new_page: Any, server: Any, game: str, slots: list[str | None]) -> tuple[Any, Any, str]:
    """Your phone at a new table of ``game`` and a desktop spectator beside it."""
    page = new_page(375, 667, server=server)
    page.goto("/")
    table = page.evaluate(CREATE_JS, [game, slots])
    page.goto(f"/#/table/{table}")
    desk = new_page(1366, 900, server=server)  # a spectator on the desktop: sees no down card either
    desk.goto(f"/#/table/{table}")
    for shown in (page, desk):  # both draw the table before anything is measured
        shown.wait_for_function("() => !!document.querySelector('.felt-wrap') && !!window.__fzTable")
    return page, desk, table


def _first_hand(page: Any) -> None:
    """The first hand is dealt (a fresh server on a busy machine may take a while: a condition)."""
    page.wait_for_function("() => { const t = window.__fzTable; return !!(t && t.state.view && t.state.view.hand_number >= 1); }",
                           timeout=180_000)


def _wait_for_news(page: Any, ui: Any) -> None:
    """The next update (a new version) or your turn: a condition, never a time."""
    ui.moved_on(page, ui.version(page), timeout=120)


@pytest.mark.parametrize(("game", "cards"), FAMILIES)
def test_a_whole_hand_of_each_family(new_page, ui, patient_server, game: str, cards: int) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = game.replace("/", "")
    page, desk, _ = _open(new_page, patient_server, game, [None, "station", "random", "station"])
    _first_hand(page)
    first = page.evaluate(LOOK_JS)["view"]["hand_number"]
    most = 0
    ways = list(DRAW_WAYS.get(game, []))
    drawn: list[str] = []
    shot = {"turn": False, "draw": False}
    trace: list[tuple[Any, ...]] = []  # each look: hand, version, most slots, to act, over, slots, your moves
    while True:
        look = page.evaluate(LOOK_JS)
        view = look["view"]
        if view["hand_number"] > first or view["finished"]:
            break
        seen = _check_cards(look)
        trace.append((view["hand_number"], look["version"], seen, view["to_act"], view["hand_over"],
                      [len(x.get("slots") or []) for x in view["seats"]], (view["legal"] or {}).get("moves")))
        if seen > most and seen == cards:
            # the most cards: no seat covers the board or the pots (measured at rest, in one task)
            assert not _overlaps(page) and not _overlaps(desk), (_overlaps(page), _overlaps(desk))
            page.screenshot(path=str(SHOTS / f"{tag}-full-375x667.png"))
            desk.screenshot(path=str(SHOTS / f"{tag}-full-1366x900.png"))
        most = max(most, seen)
        _check_cards(desk.evaluate(LOOK_JS) or look)
        assert view["game"] == game and view["game_name"] in look["head"], look["head"]
        if not ui.my_turn(page):
            _wait_for_news(page, ui)
            continue
        look = page.evaluate(LOOK_JS)  # the turn's own state (the look above may predate it)
        view = look["view"]
        _check_bar(look)
        # no seat covers the board or the pots, at the most cards too (measured at rest)
        assert not _overlaps(page) and not _overlaps(desk), (_overlaps(page), _overlaps(desk))
        legal = view["legal"] or {}
        if "discard" in legal.get("moves", []):
            assert ways, f"{game}: more draws than the game has"
            way = ways.pop(0)
            if not shot["draw"]:
                page.evaluate(SETTLED_JS)
                desk.evaluate(SETTLED_JS)
                page.screenshot(path=str(SHOTS / f"{tag}-draw-375x667.png"))
                desk.screenshot(path=str(SHOTS / f"{tag}-draw-1366x900.png"))
                shot["draw"] = True
            _draw(page, ui, way, look, cards)
            drawn.append(way)
            continue
        if legal.get("sizes"):
            assert not look["slider"], "fixed limit: the fixed size, no slider"
        if not shot["turn"]:
            page.screenshot(path=str(SHOTS / f"{tag}-375x667.png"))  # once the cards are dealt (_overlaps waits)
            desk.screenshot(path=str(SHOTS / f"{tag}-1366x900.png"))
            shot["turn"] = True
        version = ui.version(page)
        ui.passive(page)
        ui.moved_on(page, version)
    assert most == cards, f"{game}: at most {most} card slots per seat, expected {cards}; looks: {trace}"
    assert drawn == DRAW_WAYS.get(game, []), f"{game}: the draws made through the picker: {drawn}"
    assert not page.errors and not desk.errors, page.errors + desk.errors


def test_horse_changes_the_game_after_the_level(new_page, ui, patient_server) -> None:
    """V19: HORSE deals fixed-limit hold'em for the first level (6 hands), then Omaha Hi/Lo;
    the header names the mix, the game dealt and the next one, with the hands left."""
    page, desk, _ = _open(new_page, patient_server, "HORSE", [None, "station"])
    _first_hand(page)
    seen: dict[int, tuple[str, str]] = {}
    while True:
        look = page.evaluate(LOOK_JS)
        view = look["view"]
        assert not view["finished"], "the freezeout ended before the game changed"
        number = view["hand_number"]
        mix = view["mix"]
        assert mix["code"] == "HORSE" and mix["name"] in look["head"], look["head"]
        assert view["game_name"] in look["head"] and mix["next_game_name"] in look["head"], (look["head"], mix)
        for other in (look, desk.evaluate(LOOK_JS) or look):
            _check_cards(other)
        seen.setdefault(number, (view["game"], mix["next_game"]))
        if number >= 7:  # the second level: played through below
            break
        if ui.my_turn(page):
            version = ui.version(page)
            ui.passive(page)
            ui.moved_on(page, version)
        else:
            _wait_for_news(page, ui)
    assert [seen[n][0] for n in range(1, 8)] == ["FT"] * 6 + ["FO/8"], seen
    assert seen[6][1] == "FO/8" and seen[7][1] == "FR", seen
    # the first hand of Omaha Hi/Lo is played through: four cards each
    most = 0
    while True:
        look = page.evaluate(LOOK_JS)
        view = look["view"]
        if view["hand_number"] > 7 or view["finished"]:
            break
        most = max(most, _check_cards(look))
        assert "Omaha" in look["head"], look["head"]
        if ui.my_turn(page):
            _check_bar(look)
            version = ui.version(page)
            ui.passive(page)
            ui.moved_on(page, version)
        else:
            _wait_for_news(page, ui)
    assert most == 4
    page.screenshot(path=str(SHOTS / "HORSE-next-375x667.png"))
    assert not page.errors and not desk.errors, page.errors + desk.errors
