"""C11: once the turn's clock has run out, the acting seat counts down its time bank (the
clock's ``bank_deadline``), never showing more than the seat's bank; the ring runs the bank.

The page's own cashModel and Felt draw a cash view at a moment the test gives (cashModel's
``now``): no clock of the machine is read.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_small_things import _cash_view

pytestmark = pytest.mark.browser

START = 1_700_000_000.0
TURN_DEADLINE = START + 30

BANK_JS = """async ([view, clock, now]) => {
  const {cashModel} = await import('/static/js/cashview.js');
  const {Felt} = await import('/static/js/felt.js');
  document.querySelector('#test-felt')?.remove();
  const felt = new Felt();
  felt.el.id = 'test-felt';
  document.body.prepend(felt.el);
  const model = cashModel({view, events: [], clock}, now);
  felt.render({...model, animate: false});
  const seat = felt.el.querySelector('.seat[data-seat="0"]');
  const ring = getComputedStyle(seat);
  return {text: seat.querySelector('.state').textContent, banking: seat.classList.contains('banking'),
          turn: ring.getPropertyValue('--turn'), elapsed: ring.getPropertyValue('--elapsed'),
          shown: seat.querySelector('.state').getBoundingClientRect().width > 0};
}"""


def _clock(bank_deadline: float | None) -> dict[str, Any]:
    return {"now": START, "to_act": 0, "turn_started": START, "turn_deadline": TURN_DEADLINE,
            "bank_deadline": bank_deadline, "expired": False, "next_hand_at": None}


@pytest.mark.parametrize(("locale", "word"), [("en-US", "Bank"), ("cs-CZ", "Rezerva")])
def test_the_acting_seat_counts_down_its_bank_in_use(new_page, locale, word):
    page = new_page(width=375, height=667, locale=locale)
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    view = _cash_view(straddled=None, straddle_next=None)  # seat 0 acts, its bank 30 s
    bank_deadline = TURN_DEADLINE + 30
    # within the turn's own clock: "to act", no bank
    before = page.evaluate(BANK_JS, [view, _clock(bank_deadline), TURN_DEADLINE - 5])
    assert not before["banking"] and word not in before["text"], before
    # 5 s into the bank: 25 s left, the ring runs the bank's 30 s from its start
    seen = page.evaluate(BANK_JS, [view, _clock(bank_deadline), TURN_DEADLINE + 5])
    assert seen["banking"] and seen["shown"], seen
    assert seen["text"].replace("\u00a0", " ") == f"{word} 25 s", seen
    assert seen["turn"].strip() == "30s" and seen["elapsed"].strip() == "-5s", seen
    # 12.2 s in: 18 s (whole seconds, rounded up)
    later = page.evaluate(BANK_JS, [view, _clock(bank_deadline), TURN_DEADLINE + 12.2])
    assert later["text"].replace("\u00a0", " ") == f"{word} 18 s", later
    # never more than the seat's bank (the view's time_bank), never below 0
    view["seats"][0]["time_bank"] = 10
    capped = page.evaluate(BANK_JS, [view, _clock(bank_deadline), TURN_DEADLINE + 1])
    assert capped["text"].replace("\u00a0", " ") == f"{word} 10 s", capped
    done = page.evaluate(BANK_JS, [view, _clock(bank_deadline), bank_deadline + 3])
    assert done["text"].replace("\u00a0", " ") == f"{word} 0 s", done


def test_no_bank_deadline_no_bank(new_page):
    page = new_page(width=375, height=667)
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    view = _cash_view(straddled=None, straddle_next=None)
    seen = page.evaluate(BANK_JS, [view, _clock(None), TURN_DEADLINE + 5])
    assert not seen["banking"] and "Bank" not in seen["text"], seen
