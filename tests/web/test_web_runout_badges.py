"""Run-out shares on a phone (issue #36): with more than one pot each seat's badge has a line
per pot ("Main 30.7 %", "Side 1 39.1 %"), and it covers nothing — no seat's name, stack or
cards (a stack is always visible, issues #31/#34, also during the run-out), no board card, no
pot — at 360x640, 375x667 and 1366x900, in English and Czech, at 2, 4, 6 and 9 seats.

The felt is a live table page in the middle of a hand; its badges are drawn by
``showRunOutOdds`` itself for a run-out with a main and a side pot, the odds calculator's
batch answered by the test (the layout, not the numbers, is under test here).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from scripted import MOUNT_JS, Script, mount

pytestmark = pytest.mark.browser

CARDS = ["AhKh", "7c2d", "KsKd", "9d9c", "QcJc", "5s5h", "Ad3d", "Th9h", "6c6d"]
NAMES = ["alice_ux", "bot-station", "bot-medium", "bot-hard", "bo_longer_name", "cy", "dee_dee_de", "ed", "fi_fi"]

# every hand turned up; with three or more, two pots: the main among all, the side pot among all
# but the first (the others' badges have two lines; two hands contend one pot only, an uncalled
# excess goes back); the batch answered by the test
BADGES_JS = """async () => {
  const {showRunOutOdds} = await import('/static/js/runoutodds.js');
  const page = window.__fzTable;
  page.render = () => {};  // the felt as it is: no re-render of the hand (not a run-out) clears the badges
  const seats = page.model.seats.filter(s => !s.empty).map(s => s.seat);
  const model = {seats: seats.map((seat, i) => ({seat, dealtIn: true, stack: 0, flags: {},
      cards: [['Ah', 'Kh'], ['7c', '2d'], ['Ks', 'Kd'], ['9d', '9c'], ['Qc', 'Jc'], ['5s', '5h'], ['Ad', '3d'], ['Th', '9h'], ['6c', '6d']][i],
      up: [true, true]})),
    board: ['Qh', '9s', '4h'], view: {},
    runOutPots: seats.length > 2 ? [{pot: 0, seats}, {pot: 1, seats: seats.slice(1)}] : [{pot: 0, seats}]};
  await showRunOutOdds(page.felt, model, 'NT');
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return [...document.querySelectorAll('.runout-eq:not([hidden])')].map(el => el.textContent);
}"""

RECTS_JS = """() => {
  const wrap = document.querySelector('.felt-wrap');
  const r = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const shown = el => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden' && el.getBoundingClientRect().width > 0; };
  const parts = [];
  wrap.querySelectorAll(':scope > .seat').forEach(seat => {
    const n = 'seat ' + seat.dataset.seat;
    seat.querySelectorAll('.pname').forEach(el => shown(el) && parts.push({name: n + ' name', rect: r(el), seat: seat.dataset.seat}));
    seat.querySelectorAll('.stack').forEach(el => shown(el) && parts.push({name: n + ' stack', rect: r(el), seat: seat.dataset.seat}));
    seat.querySelectorAll('.hole .card:not(.slot)').forEach((el, i) => shown(el) && parts.push({name: n + ' card ' + i, rect: r(el), seat: seat.dataset.seat}));
  });
  wrap.querySelectorAll('.board .card').forEach((el, i) => shown(el) && parts.push({name: 'board ' + i, rect: r(el)}));
  wrap.querySelectorAll('.pots .pot').forEach((el, i) => shown(el) && parts.push({name: 'pot ' + i, rect: r(el)}));
  const badges = [...wrap.querySelectorAll('.seat .runout-eq:not([hidden])')].map(el => ({seat: el.closest('.seat').dataset.seat, rect: r(el)}));
  return {parts, badges, width: document.documentElement.clientWidth, height: window.innerHeight};
}"""


# every badge shown has found its place (runoutodds.js nudge(), a frame after it is drawn)
PLACED_JS = "() => [...document.querySelectorAll('.felt-wrap .runout-eq:not([hidden])')].every(el => el.style.translate)"


def _answer(route) -> None:
    questions = parse_qs(urlsplit(route.request.url).query)["q"]
    answers = []
    for q in questions:
        n = len(parse_qs(q)["hand"])
        answers.append({"exact": True, "hands": [{"equity": 1 / n, "error": 0} for _ in range(n)]})
    route.fulfill(json={"answers": answers})


def _covered(page) -> list[str]:
    data = page.evaluate(RECTS_JS)
    found = []
    for badge in data["badges"]:
        b = badge["rect"]
        if b[0] < -0.5 or b[2] > data["width"] + 0.5:
            found.append(f"the badge of seat {badge['seat']} {b} leaves the screen")
        for part in data["parts"]:
            p = part["rect"]
            if b[0] < p[2] - 0.5 and p[0] < b[2] - 0.5 and b[1] < p[3] - 0.5 and p[1] < b[3] - 0.5:
                found.append(f"the badge of seat {badge['seat']} {[round(x) for x in b]} covers {part['name']} {[round(x) for x in p]}")
    return found


SIZES = [(360, 640), (375, 667), (1366, 900)]


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_run_out_badge_with_several_pots_covers_no_name_stack_card_board_or_pot(new_page, size, locale):
    page = new_page(width=size[0], height=size[1], locale=locale)
    page.emulate_media(reduced_motion="reduce")
    page.route("**/api/odds/batch?*", _answer)
    mount(page)
    problems = {}
    for seats in (2, 4, 6, 9):
        if seats > 2:
            page.evaluate(MOUNT_JS)
        s = Script(NAMES[:seats], button=0, bots={i: "station" for i in range(1, seats)})
        s.deal({i: CARDS[i] for i in range(seats)}, "Qh9s4h8s2c")
        s.feed(page, s.snapshot())
        shown = page.evaluate(BADGES_JS)
        assert len(shown) == seats and all(("%" in text) for text in shown), shown
        page.wait_for_function(PLACED_JS)
        lines = page.locator(".runout-eq .runout-pot").count()
        assert lines == (0 if seats == 2 else 2 * seats - 1), lines  # a line per pot each seat contends
        if found := _covered(page):
            problems[seats] = found
    assert not problems, problems
    assert not page.errors, page.errors


def test_a_side_pot_run_twice_asks_once_per_moment_and_shows_every_badge(new_page) -> None:
    """Main and side pot, each run twice: every question in one request (GET /api/odds/batch);
    every seat's badge is shown (the side pot's two hands with two lines)."""
    from test_web_cash_runout import _all_in

    page = new_page(360, 640)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/odds" in request.url else None)
    mount(page)
    # the page's clock stands still from before the all-in: the run-out stays at its start however
    # slowly the machine feeds the hand (pinning it after the feed let a busy machine's page ask
    # at a later moment first, CI of stop 42)
    page.evaluate("() => { const t = window.__fzTable; const t0 = t.now(); t.now = () => t0; t.settleUntil = null; }")
    _all_in(page)
    assert page.evaluate("() => window.__fzTable.settling()")
    page.wait_for_function("() => document.querySelectorAll('.felt-wrap > .seat .runout-eq:not([hidden]):not(.refused)').length === 3")
    assert page.locator(".felt-wrap .runout-eq .runout-pot").count() == 5
    assert len(asked) == 1 and "/api/odds/batch?" in asked[0], asked
    # before either run has a card the two runs ask the same: asked once
    assert len(parse_qs(urlsplit(asked[0]).query)["q"]) == 2
    page.wait_for_function(PLACED_JS)
    assert not _covered(page)
    assert not page.errors, page.errors


@pytest.mark.parametrize(("status", "lang"), [(429, "en"), (503, "cs")])
def test_a_refused_batch_says_so_instead_of_hiding(new_page, status: int, lang: str) -> None:
    page = new_page(width=375, height=667, locale="cs-CZ" if lang == "cs" else "en-US")
    page.route("**/api/odds/batch?*", lambda route: route.fulfill(
        status=status, json={"error": {"code": "rate_limited" if status == 429 else "busy", "message": "no"}}))
    mount(page)
    s = Script(NAMES[:4], button=0, bots={i: "station" for i in range(1, 4)})
    s.deal({i: CARDS[i] for i in range(4)}, "Qh9s4h8s2c")
    s.feed(page, s.snapshot())
    page.evaluate(BADGES_JS)
    catalog = page.evaluate("""async () => { const lang = (await import('/static/js/i18n.js')).getLang();
      return (await import(`/static/i18n/${lang}.js`)).default; }""")
    badges = page.locator(".felt-wrap .runout-eq.refused:not([hidden])")
    assert badges.count() == 4
    page.wait_for_function(PLACED_JS)
    assert set(badges.all_text_contents()) == {catalog["runout.refused"]}
    assert badges.first.get_attribute("title") == catalog["runout.rateLimited" if status == 429 else "runout.busy"]
    assert not _covered(page)


# the felt's width and each seat's name and stack: the computed font size and the drawn height
SIZE_JS = """async () => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const wrap = document.querySelector('.felt-wrap');
  const texts = [...wrap.querySelectorAll(':scope > .seat:not(.empty) .pname, :scope > .seat:not(.empty) .stack')];
  return {felt: wrap.getBoundingClientRect().width, zoom: wrap.style.zoom,
    fonts: texts.map(el => getComputedStyle(el).fontSize), heights: texts.map(el => el.getBoundingClientRect().height)};
}"""


@pytest.mark.parametrize(("size", "seats"), [((360, 640), 9), ((1366, 900), 6)], ids=["360x640-9", "1366x900-6"])
def test_a_run_out_badge_leaves_the_felt_and_its_names_as_they_were(new_page, size, seats) -> None:
    """The badges take no room the felt fits itself to: the table does not shrink while the run-out
    is dealt, and the names and stacks keep their size (at least 11 px drawn on a phone)."""
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    page.route("**/api/odds/batch?*", _answer)
    mount(page)
    s = Script(NAMES[:seats], button=0, bots={i: "station" for i in range(1, seats)})
    s.deal({i: CARDS[i] for i in range(seats)}, "Qh9s4h8s2c")
    s.feed(page, s.snapshot())
    before = page.evaluate(SIZE_JS)
    shown = page.evaluate(BADGES_JS)
    assert len(shown) == seats
    during = page.evaluate(SIZE_JS)
    assert during["felt"] == pytest.approx(before["felt"], abs=0.5), (before, during)
    assert during["fonts"] == before["fonts"], (before, during)
    if size[0] < 700:
        assert min(before["heights"] + during["heights"]) >= 11, (before, during)
    assert not page.errors, page.errors
