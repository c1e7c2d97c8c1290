"""Issue #11 at the live table, on the server's own messages for chosen cards
(tests/web/scripted.py): the final hand before the end screen, busted players'
cards, timeouts in the right words, bot names, the fold guard and kickers.

Every wait is on the page's state (a version drawn, an element shown), never
on time; no test reads a clock value back."""

from __future__ import annotations

import pytest
from scripted import Script, dealt, mount, sent

pytestmark = pytest.mark.browser

HOLE_CARDS = ".hole .card:not(.slot):not(.back)"


def _seat(page, seat: int):
    return page.locator(f".felt-wrap .seat[data-seat='{seat}']")


def _final_hand(page, pause: float) -> Script:
    """Heads-up: ana shoves, bo calls with the better hand: the game's last hand."""
    s = dealt(page, ["ana", "bo"], {0: "AsKd", 1: "QcQh"}, "Qs9h4c8h3d", button=0)
    s.feed(page, s.update(s.act(0, "allin")))
    s.pause = pause
    s.feed(page, s.update(s.act(1, "call")))
    return s


def test_final_hand_is_played_out_before_the_end_screen(new_page):
    page = new_page()
    _final_hand(page, pause=3600)
    assert page.locator(".endscreen").is_hidden(), "the end screen waits for the pause (R30)"
    assert page.locator(".felt-wrap").is_visible()
    assert page.locator(".board .card:not(.slot)").count() == 5, "the run-out is on the table"
    assert _seat(page, 1).locator(HOLE_CARDS).count() == 2, "the winner's cards are shown"
    result = page.locator(".actionbar .hand-result")
    assert "bo wins 2,000" in result.inner_text()
    assert "Three of a kind, queens" in result.inner_text()
    assert "You are out in 2nd place" in result.inner_text()
    assert page.locator(".table-head .info").inner_text().startswith("Game over")
    page.locator(".actionbar .see-results").click()
    page.locator(".endscreen:not([hidden]) h1").wait_for()
    assert page.locator(".felt-wrap").is_hidden()
    # the end screen offers the final hand: the replayer opens at its showdown
    page.locator(".end-actions .final-hand").click()
    dialog = page.locator("dialog[open]")
    dialog.locator(".replayer .log li.cur").wait_for()
    assert dialog.locator(".replayer .log li").last.get_attribute("class") == "cur"
    assert dialog.locator(f".replayer .stage .seat[data-seat='0'] {HOLE_CARDS}").count() == 2


def test_an_all_in_run_out_is_dealt_before_anyone_is_named_winner(new_page):
    """The board of an all-in is dealt card by card; the winner, the hand
    names, the result and "Game over" wait for the last card (checked on the
    page's first drawing of the update, whatever the machine's speed)."""
    page = new_page()
    s = dealt(page, ["ana", "bo"], {0: "AsKd", 1: "QcQh"}, "Qs9h4c8h3d", button=0)
    s.feed(page, s.update(s.act(0, "allin")))
    page.evaluate("""() => {
      window.__atRunOut = null;
      const observer = new MutationObserver(() => {
        if (document.querySelectorAll('.board .card:not(.slot)').length < 5) return;
        window.__atRunOut = {
          result: document.querySelectorAll('.actionbar .hand-result, .felt-wrap .result:not([hidden])').length,
          names: document.querySelectorAll('.felt-wrap .seat .handname.on').length,
          winners: document.querySelectorAll('.felt-wrap .seat.winner, .felt-wrap .winbadge.on').length,
          stack: document.querySelector(".felt-wrap .seat[data-seat='1'] .stack").textContent,
          head: document.querySelector('.table-head .info').innerText,
        };
        observer.disconnect();
      });
      observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    }""")
    s.pause = 3600
    s.feed(page, s.update(s.act(1, "call")))
    at_run_out = page.evaluate("window.__atRunOut")
    assert at_run_out["result"] == at_run_out["names"] == at_run_out["winners"] == 0, at_run_out
    assert at_run_out["stack"] == "0", "bo's stack is all in the pot until the pot is won"
    assert not at_run_out["head"].startswith("Game over")
    assert _seat(page, 0).locator(HOLE_CARDS).count() == _seat(page, 1).locator(HOLE_CARDS).count() == 2, "hands are tabled"
    assert "bo wins 2,000" in page.locator(".actionbar .hand-result").inner_text()
    assert _seat(page, 1).locator(".handname.on").inner_text().startswith("Three of a kind")
    assert _seat(page, 1).locator(".stack").inner_text() == "2,000"
    assert page.locator(".table-head .info").inner_text().startswith("Game over")


def test_final_hand_gives_way_to_the_end_screen_by_itself(new_page):
    page = new_page()
    _final_hand(page, pause=0.3)
    page.locator(".endscreen:not([hidden]) h1").wait_for()
    assert "bo wins the freezeout" in page.locator(".endscreen h1").inner_text()


def test_busted_players_cards_are_shown_live_and_in_the_replayer(new_page):
    page = new_page()
    s = dealt(page, ["ana", "bo", "cy"], {0: "AsAd", 1: "7c2d", 2: "KsKd"}, "Ah9s4c8h3d", button=0, viewer=2)
    s.pause = 3600
    s.feed(page, s.update(s.act(0, "allin") + s.act(1, "fold") + s.act(2, "call")))
    page.locator(".actionbar .hand-result").wait_for()  # once the run-out is dealt
    busted = _seat(page, 2)
    assert busted.locator(".state").inner_text().lower().startswith("out")
    cards = busted.locator(HOLE_CARDS)
    assert cards.count() == 2 and all(cards.nth(i).is_visible() for i in range(2)), "R17: every hand in a showdown is shown"
    assert busted.locator(".handname.on").inner_text() == "One pair, kings"
    page.keyboard.press("h")
    dialog = page.locator("dialog[open]")
    dialog.locator(".replayer .log li").first.wait_for()
    page.keyboard.press("End")
    stage_cards = dialog.locator(f".replayer .stage .seat[data-seat='2'] {HOLE_CARDS}")
    assert stage_cards.count() == 2 and stage_cards.first.is_visible()
    log = dialog.locator(".replayer .log").inner_text()
    assert "cy shows K♠ K♦: one pair, kings" in log, log
    assert "River: 3♦" in log


def test_timeouts_in_the_right_words(new_page):
    page = new_page()
    s = dealt(page, ["ana", "bo", "cy"], {0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s", button=2, viewer=0)
    s.feed(page, s.update(s.act(2, "call")))
    s.feed(page, s.update(s.act(0, "timeout")))  # ana's own time runs out: a fold
    toast = page.locator(".toast", has_text="Your time ran out, so you folded")
    toast.wait_for()
    assert "One more timeout in a row and you are out" in toast.inner_text()
    state = _seat(page, 0).locator(".state")
    assert state.inner_text().lower() == "folded"
    s.feed(page, s.update(s.act(1, "timeout")))  # bo: a check
    s.feed(page, s.update(s.act(1, "timeout")))  # bo again, in a row: out (R27)
    page.locator(".toast", has_text="bo ran out of time twice in a row and is out").wait_for()
    assert not page.locator(".toast", has_text="resigned").count()
    assert "bo is out in 3rd place: two timeouts in a row" in page.locator(".actionbar .hand-result").inner_text()  # one line (#21)
    label = _seat(page, 0).locator(".state")
    assert label.inner_text().lower() == "1 timeout", "said in full, not cut"
    assert page.evaluate("el => el.scrollWidth <= el.clientWidth", label.element_handle())
    assert "one more timeout in a row and you are out" in label.get_attribute("title")
    # the next hand: ana's seat says 1 timeout in full, and her turn warns at 10 s left
    s.pause = 4
    s.feed(page, s.update(s.deal({0: "Kc2d", 2: "AsAd"}, "Ah9s4c8h3d")))
    assert s.t.to_act == 0
    s.feed(page, s.update([], left=8))
    bar = page.locator(".actionbar.hurry")
    bar.wait_for()
    assert "one more timeout and you are out" in bar.locator(".status").inner_text()
    s.feed(page, s.update([], left=-1))
    page.locator(".actionbar .status", has_text="Your time is up").wait_for()


def test_resigning_mid_hand_in_the_first_person(new_page):
    page = new_page()
    s = dealt(page, ["ana", "bo", "cy"], {0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s", button=2, viewer=0)
    assert page.locator(".table-head button.danger").inner_text() == "Resign"
    s.feed(page, s.update(s.act(2, "call") + s.act(0, "resign")))
    page.locator(".toast", has_text="You resigned: your 990 chips left the game").wait_for()
    status = page.locator(".actionbar .status").inner_text()
    assert status == "You are out (3rd) · you are watching the rest of the game", status


def test_bots_have_short_distinct_names_and_avatars(new_page):
    page = new_page(width=390, height=844)
    mount(page)
    names = ["alice_ux", "bot-station", "bot-station-2", "bot-station-3"]
    s = Script(names, button=0, bots={1: "station", 2: "station", 3: "station"})
    s.deal({0: "AhKh", 1: "7c2d", 2: "KsKd", 3: "9d9c"}, "Qh9s4h8s3d")
    s.feed(page, s.snapshot())
    shown = page.locator(".felt-wrap .seat .pname").all_inner_texts()
    assert len(set(shown)) == 4 and not any(n.startswith("bot-") for n in shown), shown
    initials = page.locator(".felt-wrap .seat .initial").all_inner_texts()
    assert len(set(initials)) == 4, initials
    assert page.locator(".felt-wrap .seat.bot").count() == 3
    for handle in page.locator(".felt-wrap .seat .pname").element_handles():
        assert page.evaluate("el => el.scrollWidth <= el.clientWidth", handle), "names fit their seat"
    # the result names a player the way a seat shows them
    s.pause = 3600
    moves = []
    while s.t.in_hand:
        seat = s.t.to_act
        moves += s.act(seat, "fold" if seat != 2 else "call")
    s.feed(page, s.update(moves))
    winner = page.locator(".actionbar .hand-result b").first.inner_text().split(" wins")[0]
    assert winner in shown


def test_folding_when_checking_is_free_asks_first(new_page):
    page = new_page()
    s = dealt(page, ["ana", "bo"], {0: "7c2d", 1: "8c3d"}, "Ah9s4c8h5s", button=1, viewer=0)  # bo has the button: ana is the big blind
    s.feed(page, s.update(s.act(1, "call")))
    assert "check" in s.view()["legal"]["moves"]
    page.keyboard.press("f")
    guard = page.locator("dialog[open].fold-guard")
    guard.wait_for()
    assert sent(page) == [], "F folds nothing while checking is free"
    guard.locator("button", has_text="Check").click()
    assert [m["move"] for m in sent(page)] == ["check"]
    # the button asks the same; a fold that is meant is one more click
    s.feed(page, s.update([]))
    page.locator(".actionbar .btn.fold").click()
    page.locator("dialog[open].fold-guard button", has_text="Fold anyway").click()
    assert [m["move"] for m in sent(page)] == ["check", "fold"]
    # facing a bet, Fold folds at once
    s.feed(page, s.update(s.act(0, "check") + s.act(0, "check") + s.act(1, "bet", 40)))
    page.keyboard.press("f")
    assert [m["move"] for m in sent(page)] == ["check", "fold", "fold"]


def test_kickers_that_decide_are_on_the_seats_and_the_winner_is_marked(new_page):
    page = new_page()
    s = dealt(page, ["ana", "bo"], {0: "3hKc", 1: "3sQc"}, "6d6h3c9s2d", button=0)
    moves = s.act(0, "call") + s.act(1, "check")
    while s.t.in_hand:
        moves += s.act(s.t.to_act, "check")
    s.pause = 3600
    s.feed(page, s.update(moves))
    assert _seat(page, 0).locator(".handname.on").inner_text() == "Two pair, sixes and threes; kicker king"
    assert _seat(page, 1).locator(".handname.on").inner_text() == "Two pair, sixes and threes; kicker queen"
    assert _seat(page, 0).locator(".winbadge.on").inner_text() == "+40"
    assert not _seat(page, 1).locator(".winbadge.on").count()
    # the winning five are the server's (kicker included), highlighted
    assert sorted(page.locator(".felt-wrap .card.win").evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
        ["6d", "6h", "3c", "3h", "Kc"])


def test_pre_actions_act_when_the_turn_comes(new_page):
    page = new_page()
    s = dealt(page, ["ana", "bo", "cy"], {0: "7c2d", 1: "8c3d", 2: "AsAd"}, "Ah9s4c8h5s", button=2, viewer=0)  # pre-flop: cy, ana, bo; on the flop ana first
    pre = page.locator(".actionbar .pre")
    assert pre.is_visible(), "while others act"
    pre.locator("button", has_text="Call any").click()
    s.feed(page, s.update(s.act(2, "raise", 60)))  # ana's turn, facing a raise: Call any calls
    assert [m["move"] for m in sent(page)] == ["call"]
    assert pre.is_hidden(), "not on your own turn"
    s.feed(page, s.update(s.act(0, "call")))
    pre.locator("button", has_text="Check/Fold").click()
    s.feed(page, s.update(s.act(1, "call")))  # the flop, ana first: Check/Fold checks when it is free
    assert [m["move"] for m in sent(page)] == ["call", "check"]
    s.feed(page, s.update(s.act(0, "check")))
    pre.locator("button", has_text="Check/Fold").click()
    s.feed(page, s.update(s.act(1, "bet", 40) + s.act(2, "call")))  # facing a bet: it folds
    assert [m["move"] for m in sent(page)] == ["call", "check", "fold"]
