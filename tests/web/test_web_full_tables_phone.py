"""An empty seat reads whole on a phone at a full table (issue #34 "The page").

A 6-, 9- or 10-seat cash table on a 360x640 or 375x667 phone has small seats; an empty one
said "Fre…" ("Free seat" cut by the ellipsis).  Every word an empty seat draws (its label,
and "Sit here" for a watcher) must fit its box, in Czech and in English, and the seat keeps
the full words as its accessible name and its title: where a seat is too small for them (a
grid of five seats or more) it draws its dashed "+" instead.  The tables are the server's own cash games
(``scripted_cash``) fed to the real page.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_cash import CashScript
from test_web_seats import _mid_hand

pytestmark = pytest.mark.browser

EMPTY_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat.empty')].map(seat => {
  const words = [...seat.querySelectorAll('.pname, .state')].filter(el => el.textContent && el.offsetParent)
    .map(el => ({cls: el.className, text: el.textContent, sw: el.scrollWidth, cw: el.clientWidth}));
  const plus = seat.querySelector('.avatar'), box = plus.getBoundingClientRect();
  const mark = plus.offsetParent && plus.textContent === '+' ? {w: box.width, h: box.height} : null;
  return {seat: +seat.dataset.seat, label: seat.getAttribute('aria-label'), title: seat.title, words, mark,
          named: words.some(w => w.cls === 'pname')};
})"""
CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""


def _table(page: Any, n: int, viewer: int | None, *, mounted: bool) -> None:
    """A cash hold'em table of ``n`` seats with three players (seats 0, 2 and 4), the rest free."""
    if mounted:
        page.evaluate(MOUNT_JS)
    else:
        mount(page)
    s = CashScript("NT", {0: ("ana", 1000), 2: ("bo", 3000), 4: ("cy", 5000)}, seats=n, viewer=viewer)
    s.feed(page, s.snapshot())


@pytest.mark.parametrize("locale", ["cs-CZ", "en-US"], ids=["cs", "en"])
@pytest.mark.parametrize("size", [(360, 640), (375, 667)], ids=["360x640", "375x667"])
def test_an_empty_seat_reads_whole_on_a_phone_at_6_9_and_10_seats(new_page, size: tuple[int, int], locale: str) -> None:
    page = new_page(width=size[0], height=size[1], locale=locale)
    page.emulate_media(reduced_motion="reduce")
    cut: dict[str, Any] = {}
    first = True
    catalog: dict[str, str] = {}
    for n in (6, 9, 10):
        # seated (the empty seats say only that they are free) and watching (they also say "Sit here")
        for viewer in (0, None):
            _table(page, n, viewer, mounted=not first)
            first = False
            catalog = catalog or page.evaluate(CATALOG_JS)
            seats = page.evaluate(EMPTY_JS)
            assert len(seats) == n - 3
            for seat in seats:
                assert seat["label"].startswith(catalog["table.emptySeat"]), seat
                assert seat["title"] == seat["label"], seat
                # its words, or its "+" mark no smaller than a name is drawn (11 px)
                mark = seat["mark"]
                assert seat["named"] or (mark and min(mark["w"], mark["h"]) >= 11), f"{n} seats: {seat}"
                bad = [w for w in seat["words"] if w["sw"] > w["cw"]]
                if bad:
                    cut[f"{n} seats, viewer {viewer}, seat {seat['seat']}"] = bad
    assert not cut, cut


POS_TITLES_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(seat => {
  const pos = seat.querySelector('.pos');
  return {seat: +seat.dataset.seat, short: pos.hidden ? null : pos.textContent, title: pos.title,
          label: seat.getAttribute('aria-label')};
})"""


@pytest.mark.parametrize("locale", ["cs-CZ", "en-US"], ids=["cs", "en"])
def test_c12_each_position_is_spelled_out_in_czech_and_english(new_page, locale: str) -> None:
    """The pill shows the short name a regular knows (BTN, UTG+1, LJ, HJ, CO); its title and the
    seat's accessible name spell it out in the page's language, for a player who does not."""
    page = new_page(width=360, height=640, locale=locale)
    page.emulate_media(reduced_motion="reduce")
    seen: set[str] = set()
    for i, n in enumerate((6, 9, 10)):
        s = _mid_hand(page, "NT", n, mounted=i > 0)
        catalog = page.evaluate(CATALOG_JS)
        want = {seat["seat"]: seat.get("position") for seat in s.view()["seats"]}
        for seat in page.evaluate(POS_TITLES_JS):
            code = want[seat["seat"]]
            assert seat["short"] == code, (n, seat)
            spelled = catalog["table.position"].replace("{pos}", f"{code}, {catalog['pos.' + code]}")
            assert seat["title"] == spelled and spelled in seat["label"], (n, seat, spelled)
            seen.add(code)
    assert seen == {"BTN", "SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO"}


BETS_JS = """() => {
  const wrap = document.querySelector('.felt-wrap').getBoundingClientRect();
  const h = el => el.getBoundingClientRect().height;
  return {wrap: wrap.width, w: innerWidth,
          bets: [...document.querySelectorAll('.felt-wrap .bet:not(.off) .amount')].map(h),
          pots: [...document.querySelectorAll('.felt-wrap .pot .num')].map(h)};
}"""


@pytest.mark.parametrize("locale", ["cs-CZ", "en-US"], ids=["cs", "en"])
def test_a_full_cash_table_on_a_phone_draws_its_bets_and_pot_readable_across_the_screen(new_page, locale: str) -> None:
    """Under a cash table's controls the felt of 9 or 10 seats is shrunk a lot: it keeps the
    screen's width (it was a strip down the middle) and each bet and the pot are drawn as tall
    as the names nearly (they were 5-7 px)."""
    page = new_page(width=360, height=640, locale=locale)
    page.emulate_media(reduced_motion="reduce")
    for i, n in enumerate((9, 10)):
        if i:
            page.evaluate(MOUNT_JS)
        else:
            mount(page)
        s = CashScript("NT", {seat: (f"p{seat}", 2000 + seat) for seat in range(n)}, seats=n)
        s.deal(list(s.game.variant.deck))
        while s.game.in_hand and s.game.to_act != 0:
            legal = s.game.legal_actions()
            s.act(s.game.to_act, next(w for w in ("call", "check") if w in legal.moves))
        s.feed(page, s.snapshot())
        page.wait_for_function("() => !!document.querySelector('.felt-wrap').style.zoom")
        seen = page.evaluate(BETS_JS)
        assert seen["wrap"] >= seen["w"] * 0.9, (n, seen)
        assert len(seen["bets"]) >= n - 1 and seen["pots"], (n, seen)
        assert min(seen["bets"] + seen["pots"]) >= 10, (n, seen)
