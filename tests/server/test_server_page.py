"""The page under the server's headers, in Debian's chromium (issue #10):
the strict Content-Security-Policy blocks nothing the page needs, and the
fairness panel's check (web/js/fairness.js) accepts the server's openings and
catches a doctored one.  Skipped with a reason without chromium or Playwright."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from freezeout.cards import format_cards
from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.events import CardsDealt
from freezeout.server.clock import FakeClock
from freezeout.server.fairness import Reveal, deal_cards, flop_hand_cards, new_deal
from freezeout.server.transport.protocol import event_to_json

from serverkit import Harness, fast_settings, serve

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.browser


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


@pytest.fixture
async def page_at(tmp_path: Path) -> AsyncIterator[tuple[Harness, Any]]:
    """The real app with the real page (the package's web/), and a chromium page on it."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with serve(fast_settings(tmp_path, web_dir=None, bot_delay_min=0.05, bot_delay_max=0.1), FakeClock()) as h, \
            async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            context = await browser.new_context(base_url=h.base_url, locale="en-US")
            page = await context.new_page()
            page.messages = []
            page.on("console", lambda m: page.messages.append(m.text))
            await page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation', "
                                       "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
            yield h, page
        finally:
            await browser.close()


async def test_the_strict_csp_blocks_nothing_the_page_needs(page_at):
    _, page = page_at
    await page.goto("/")
    await page.locator("#quickplay").wait_for()
    await page.locator("#quickplay").click()
    await page.wait_for_url("**/#/table/*")
    await page.wait_for_function("() => window.__fzTable && window.__fzTable.state.view")  # the WebSocket works
    await page.locator(".table-head button[aria-label=Fairness]").click()
    await page.locator("dialog[open]").wait_for()
    assert await page.evaluate("window.__csp") == []
    assert not [m for m in page.messages if "Content Security Policy" in m], page.messages


def _hand(seed: int, actions: list[list[Any]]) -> tuple[dict[str, Any], Any, list[dict[str, Any]]]:
    """A full one-hand record, its deal, and the hand's public events as the page keeps them."""
    deal = new_deal(1, random.Random(seed))
    hole, board = deal_cards(deal.deck, [0, 1])
    record = {"format": "freezeout.record/1", "players": ["a", "b"], "button": "a", "hands": [
        {"hole": {"a": format_cards(hole[0]), "b": format_cards(hole[1])}, "board": format_cards(board), "actions": actions}]}
    played = replay_record(parse_record(record)).hands[0]
    return record, deal, [event_to_json(e) for e in played.events if not isinstance(e, CardsDealt)]


async def verify(page: Any, revealed: dict[str, Any], events: list[dict[str, Any]], commitment: str, seat: int | None,
                 cards: list[str] | None) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(
        "async ([r, hand, seat, cards]) => (await import('/static/js/fairness.js')).verifyHand(r, hand, seat, cards)",
        [revealed, {"events": events, "commitment": commitment}, seat, cards])
    return result


async def test_the_pages_fairness_check_accepts_honest_openings_and_catches_doctored_ones(page_at):
    _, page = page_at
    await page.goto("/")
    checks = [("a showdown", [["a", "call"], ["b", "check"], ["b", "check"], ["a", "check"], ["b", "check"],
                              ["a", "check"], ["b", "check"], ["a", "check"]], (0, 1)),
              ("no showdown", [["a", "call"], ["b", "check"], ["b", "bet", 20], ["a", "fold"]], ())]
    for what, actions, shown in checks:
        _, deal, events = _hand(21, actions)
        board_dealt = sum(len(e["cards"]) // 2 for e in events if e["type"] == "street_dealt")
        reveal = Reveal.after_hand(deal, flop_hand_cards(deal.deck, (0, 1), board_dealt, shown))
        mine = reveal.to_json(1)
        cards = [mine["deck"][4:6], mine["deck"][6:8]]
        honest = await verify(page, mine, events, deal.commitment, 1, cards)
        assert honest["ok"] and honest["opened"] == 2 + board_dealt + 2 * len(shown) - (2 if 1 in shown else 0), what
        spectator = await verify(page, reveal.to_json(None), events, deal.commitment, None, None)
        assert spectator["ok"], what
        tampered = {**mine, "deck": mine["deck"][:8] + "2c" + mine["deck"][10:]} if board_dealt else \
            {**mine, "salts": [*mine["salts"][:2], "0" * 32, *mine["salts"][3:]]}
        assert not (await verify(page, tampered, events, deal.commitment, 1, cards))["ok"], what
        wrong_salt = {**mine, "salts": [*mine["salts"][:4], "0" * 32, *mine["salts"][5:]]}  # the first board card's
        result = await verify(page, wrong_salt, events, deal.commitment, 1, cards)
        assert not result["ok"] and not result["hashOk"], what  # only its leaf tells: the card is the right one
        other = new_deal(1, random.Random(99))
        assert not (await verify(page, mine, events, other.commitment, 1, cards))["ok"], what  # not the committed deck
        wrong_cards = [cards[1], cards[0]]
        assert not (await verify(page, mine, events, deal.commitment, 1, wrong_cards))["ok"], what
