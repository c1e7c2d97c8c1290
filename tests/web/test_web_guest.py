"""A guest plays a heads-up freezeout against a bot to the very end by
clicking, checks a hand's fairness commitment in the browser and steps
through the replayer; screenshots of the lobby, a table mid-hand, a
showdown and the end screen go to artifacts/."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_guest_plays_bot_to_the_end(new_page, ui, artifacts, patient_server):
    # the patient server's turn clock: the looks at the first turn below take their time on a
    # busy machine, and a 5-second clock folded for the guest while they looked (R26)
    page = new_page(server=patient_server)
    page.goto("/")
    page.locator("#quickplay").wait_for()
    page.locator(".leader h2").wait_for()
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)

    # one click: choose 1 bot, the calling station, and play
    page.locator("label[for=qbots-1]").click()
    page.locator("label[for=qlevel-station]").click()
    page.locator("#quickplay").click()
    page.wait_for_url("**/#/table/*")
    ui.wait_for(page, ui.MY_TURN)
    state = ui.state(page)
    me = state["you"]["seat"]
    assert me is not None
    assert state["view"]["seats"][me]["cards"], "a player sees their own hole cards"
    # exactly the legal moves: fold is offered, and check xor call
    labels = page.locator(".actionbar .moves .btn:not(.gone)").all_inner_texts()
    assert any(text.startswith("Fold") for text in labels), (labels, state["view"].get("legal"))
    assert sum(text.startswith(("Check", "Call")) for text in labels) == 1
    assert page.locator(".seat.acting, .seat.expired").count() == 1
    assert page.locator(".marker.dealer:not([hidden])").count() == 1
    page.screenshot(path=str(artifacts / "table-midhand.png"))

    # play calmly until a showdown shows the hands in words, then shove
    showdown_seen = False

    def look_for_showdown(_page):
        nonlocal showdown_seen
        if not showdown_seen and page.locator(".hand-result .hand").count() and page.locator(".seat .handname.on").count():
            showdown_seen = True
            page.screenshot(path=str(artifacts / "showdown.png"))

    hands_before_shoving = 0
    while not showdown_seen and hands_before_shoving < 400 and not ui.ended(page):
        version = ui.version(page)  # before looking for the turn (Ui.await_news)
        look_for_showdown(page)
        if ui.my_turn(page):
            ui.passive(page)
        ui.moved_on(page, version)  # the next update, turn or end screen: a state, not a time
        hands_before_shoving += 1
    ui.play_to_end([page], on_turn=look_for_showdown)

    end = page.locator(".endscreen")
    end.locator("h1").wait_for()
    assert "win" in end.locator("h1").inner_text()
    assert end.locator(".standings table.grid tbody tr").count() == 2
    assert end.locator(".stack-chart svg.chart path.line").count() == 2, "one stack line per player"
    assert end.locator("a[href$='/record']").count() == 1
    # the game's review (issue #36): result, all-in EV and luck per player, luck in one's own seat only
    review = end.locator(".review-panel .review")
    review.locator("table").wait_for()
    assert review.locator("tbody tr").count() == 2
    mine = state["view"]["seats"][me]["player"]
    for row in review.locator("tbody tr").all():
        luck = row.locator("td.rv-luck").inner_text()
        assert (luck == "—") == (row.get_attribute("data-player") != mine), luck
    assert review.locator("svg.chart path.line[stroke-dasharray]").count() == 2, "all-in EV per player, dashed"
    page.screenshot(path=str(artifacts / "end-screen.png"), full_page=True)

    # the record of the finished game downloads as JSON
    game_id = ui.state(page)["table"]["game_id"]
    record = page.evaluate(f"fetch('/api/games/{game_id}/record').then(r => r.json())")
    assert record["format"] == "freezeout.record/1"

    # fairness: check the last revealed hand with crypto.subtle
    page.locator(".table-head button[aria-label=Fairness]").click()
    dialog = page.locator("dialog[open]")
    dialog.locator(".fair-hand button").first.click()
    dialog.locator(".fair-ok").wait_for()
    assert "is fair" in dialog.locator(".fair-ok").inner_text()
    dialog.locator(".close-x").click()

    # the replayer steps through the last hand
    page.locator(".end-actions button", has_text="Hand history").click()
    dialog = page.locator("dialog[open]")
    dialog.locator(".replayer .stage .seat").first.wait_for()
    steps = dialog.locator(".replayer .log li").count()
    assert steps >= 3
    dialog.locator(".replayer .controls button[aria-label='Start']").click()
    assert "button" in dialog.locator(".step-text").inner_text()
    dialog.locator(".replayer .controls button[aria-label='Step']").click()
    assert dialog.locator(".replayer .log li.cur").count() == 1
    dialog.locator(".replayer .controls button[aria-label='End']").click()
    page.screenshot(path=str(artifacts / "replayer.png"))
    assert not [e for e in page.errors if "pageerror" in e], page.errors
