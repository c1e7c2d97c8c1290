"""The small print of a full table on a phone (issue #34 "The page": names and stacks at least
11 px tall on phones, cards readable).

Measured at 360x640 before this test: an 8-seat stud table drew the others' up-card ranks
about 6 px tall, a 9-10 seat table's empty seats said "Sit here" in under 11 px and drew its
empty board slots tiny.  Here, on each phone size, at 8-seat stud (a freezeout's hand on
sixth street and a cash table's) and 9- and 10-seat hold'em (a watcher, empty seats, an empty
board and then the flop): every rank of a card anyone can see — your own, the others' up-cards,
the board — is drawn at least :data:`RANK_MIN` px tall, every name, stack and empty seat's
words at least 11 px, every board slot as big as a board card, and nothing covers anything
(test_web_phone_layout's rectangles).  The tables are the server's own games fed to the real page.
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_cash import CashScript
from scripted_games import GameScript
from test_web_phone_layout import _overlaps

pytestmark = pytest.mark.browser

PHONES = [(360, 640), (375, 667), (390, 844)]
PHONE_IDS = ["360x640", "375x667", "390x844"]
TEXT_MIN = 11.0  # px, as drawn: the names and stacks on phones
RANK_MIN = 11.0  # px, as drawn: a card's rank reads as well as a name

# What the felt draws, as drawn (bounding boxes, so the felt's zoom counts), and each glyph's
# computed font size times that zoom (the two must agree: a box may not be stretched text).
SIZES_JS = """() => {
  const wrap = document.querySelector('.felt-wrap');
  const zoom = parseFloat(wrap.style.zoom || '1') || 1;
  const shown = el => el.offsetParent !== null && el.getBoundingClientRect().height > 0;
  const glyph = el => ({h: el.getBoundingClientRect().height, font: parseFloat(getComputedStyle(el).fontSize) * zoom,
                        text: el.textContent});
  const seat = el => +el.closest('.seat').dataset.seat;
  const q = sel => [...wrap.querySelectorAll(sel)].filter(shown);
  return {
    zoom,
    names: q('.seat:not(.empty) .pname, .seat:not(.empty) .stack').map(el => ({seat: seat(el), ...glyph(el)})),
    emptyWords: q('.seat.empty .state').filter(el => el.textContent).map(el => ({seat: seat(el), ...glyph(el)})),
    ranks: q('.seat .hole .card:not(.back):not(.slot) .r').map(el => ({seat: seat(el), me: !!el.closest('.seat.me'),
      up: !!el.closest('.card.up'), ...glyph(el)})),
    boardRanks: q('.board .card:not(.slot) .r').map(glyph),
    boardSlots: q('.board .card').map(el => { const b = el.getBoundingClientRect();
      return {slot: el.classList.contains('slot'), w: b.width, h: b.height}; }),
    screen: {w: innerWidth, h: innerHeight},
  };
}"""


def _stud_on_sixth(page: Any, *, mounted: bool) -> GameScript:
    """Eight players, all calling, on sixth street: every seat shows four up-cards."""
    if mounted:
        page.evaluate(MOUNT_JS)
    else:
        mount(page)
    names = ["alice_ux"] + [f"bot-station-{i}" for i in range(1, 8)]
    s = GameScript("F7S", names, button=7, bots={i: "station" for i in range(1, 8)})
    s.deal_seeded(5)
    while s.game.in_hand and len(s.cards_of(0)) < 6:
        legal = s.game.legal_actions()
        s.act(s.game.to_act, next(w for w in ("check", "call", "bringin") if w in legal.moves))
    assert s.game.in_hand
    s.feed(page, s.snapshot())
    return s


def _holdem_watched(page: Any, n: int, *, flop: bool, mounted: bool) -> CashScript:
    """A 9- or 10-seat cash hold'em table with two seats free, watched (the free seats say "Sit
    here"); before the flop (an empty board: five slots) or on it."""
    if mounted:
        page.evaluate(MOUNT_JS)
    else:
        mount(page)
    players = {seat: (f"player{seat}", 2000 + 10 * seat) for seat in range(n) if seat not in (3, n - 2)}
    s = CashScript("NT", players, seats=n, viewer=None)
    s.deal(list(s.game.variant.deck))
    while s.game.in_hand and (flop and not s.game.board):
        legal = s.game.legal_actions()
        s.act(s.game.to_act, next(w for w in ("check", "call") if w in legal.moves))
    s.feed(page, s.snapshot())
    return s


def _wait_fit(page: Any) -> None:
    """Until the felt has been fitted into the room the head and the bar leave it (tablefit.js)."""
    # fit() caps the room at the felt's natural height first, then shrinks it, in one go
    page.wait_for_function("""() => { const w = document.querySelector('.felt-wrap'), box = w && w.parentElement;
      return !!box && !!box.style.maxHeight && w.getBoundingClientRect().height > 0; }""")


def _small(items: list[dict[str, Any]], least: float, line: float = 1.0) -> list[dict[str, Any]]:
    """The glyphs drawn smaller than ``least`` px: their box, or their computed font size (times the
    felt's zoom) times their ``line`` height (a card's rank 1: its box is its font; a seat's words
    1.15, the seats' line, as tablefit.js measures them)."""
    return [i for i in items if min(i["h"], i["font"] * line) < least - 0.05]


@pytest.mark.parametrize("size", PHONES, ids=PHONE_IDS)
def test_eight_seat_stud_draws_every_up_card_name_and_stack_readable_on_a_phone(new_page, size: tuple[int, int],
                                                                                artifacts) -> None:
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    _stud_on_sixth(page, mounted=False)
    _wait_fit(page)
    problems = _overlaps(page)
    seen = page.evaluate(SIZES_JS)
    page.screenshot(path=str(artifacts / f"full-stud8-{size[0]}x{size[1]}.png"))
    others_up = [r for r in seen["ranks"] if r["up"] and not r["me"]]
    assert len(others_up) == 7 * 4, seen  # seven others, four up-cards each on sixth street
    assert not _small(seen["ranks"], RANK_MIN), _small(seen["ranks"], RANK_MIN)
    assert len(seen["names"]) == 16 and not _small(seen["names"], TEXT_MIN, 1.15), _small(seen["names"], TEXT_MIN, 1.15)
    assert not problems, problems


@pytest.mark.parametrize("size", PHONES, ids=PHONE_IDS)
def test_nine_and_ten_seat_holdem_draws_sit_here_and_the_board_readable_on_a_phone(new_page, size: tuple[int, int],
                                                                                    artifacts) -> None:
    page = new_page(width=size[0], height=size[1])
    page.emulate_media(reduced_motion="reduce")
    first = True
    for n in (9, 10):
        for flop in (False, True):
            _holdem_watched(page, n, flop=flop, mounted=not first)
            first = False
            _wait_fit(page)
            problems = _overlaps(page)
            seen = page.evaluate(SIZES_JS)
            page.screenshot(path=str(artifacts / f"full-holdem{n}-{'flop' if flop else 'preflop'}-{size[0]}x{size[1]}.png"))
            assert len(seen["emptyWords"]) == 2 and not _small(seen["emptyWords"], TEXT_MIN, 1.15), (n, seen["emptyWords"])
            assert len(seen["names"]) == 2 * (n - 2) and not _small(seen["names"], TEXT_MIN, 1.15), (n, seen["names"])
            slots = seen["boardSlots"]
            assert len(slots) == 5, (n, slots)
            # an empty slot is drawn as big as the card that will take it, and a card's rank reads
            assert min(b["w"] for b in slots) >= 27 - 0.5 and max(b["w"] for b in slots) - min(b["w"] for b in slots) < 0.5, (n, slots)
            assert len(seen["boardRanks"]) == (3 if flop else 0) and not _small(seen["boardRanks"], RANK_MIN), (n, seen)
            assert not problems, (n, flop, problems)
