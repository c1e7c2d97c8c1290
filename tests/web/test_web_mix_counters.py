"""Mix counters and the draw hint, counted in each language (issue #31 item 6).

HORSE's header counts the hands to the next game with the language's plural rules ("in 1
hand", "za 2 ruce", "za 6 rukou": never "in 1 hands" or "in 0 hands") and keeps naming the
game of the hand just played over its showdown: the new game shows when its first hand
starts.  The draw picker's hint counts cards the same way ("až na 4 karty", "až na 5 karet"),
and Czech speaks informally there ("Klepni", "Tvoje karty"), as everywhere on the page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_games import GameScript

pytestmark = pytest.mark.browser

WORDS = {
    "en": {2: "Next: Omaha Hi/Lo in 2 hands", 1: "Next: Omaha Hi/Lo in 1 hand", 6: "Next: Omaha Hi/Lo in 6 hands"},
    "cs": {2: "Další: Omaha Hi/Lo za 2 ruce", 1: "Další: Omaha Hi/Lo za 1 ruku", 6: "Další: Omaha Hi/Lo za 6 rukou"},
}
HINTS = {"en": {4: "Tap up to 4 cards to throw away", 5: "Tap up to 5 cards to throw away"},
         "cs": {4: "Klepni až na 4 karty, které zahodíš", 5: "Klepni až na 5 karet, které zahodíš"}}
HEAD_JS = """() => ({game: document.querySelector('.table-head .game').textContent,
  next: (document.querySelector('.table-head .nextgame .long') || {}).textContent || null})"""


def _finish(s: GameScript) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while s.game.in_hand:
        moves = s.game.legal_actions().moves
        events += s.act(s.game.to_act, next(w for w in ("check", "call", "bringin") if w in moves))
    return events


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_horse_counts_the_hands_to_the_next_game_and_switches_when_its_hand_starts(new_page, locale):
    page = new_page(width=1366, height=900, locale=locale)
    words = WORDS[locale[:2]]
    mount(page)
    s = GameScript("HORSE", ["alice_ux", "bot-station", "bot-medium"], bots={1: "station", 2: "medium"})
    s.deal_seeded(1)
    s.feed(page, s.snapshot())
    assert page.evaluate(HEAD_JS) == {"game": "HORSE: Limit Hold'em", "next": words[6]}
    for number in range(1, 7):
        if number > 1:
            s.feed(page, s.update(s.deal_seeded(number)))
        look = page.evaluate(HEAD_JS)
        assert look["next"] == words.get(7 - number, look["next"]), (number, look)
        assert "{n}" not in look["next"] and " 0 " not in look["next"], look
        s.pause = 3600
        s.feed(page, s.update(_finish(s)))
        page.locator(".actionbar .hand-result").wait_for()
        # over the result: still the hand's game (the view already names the next hand's)
        assert page.evaluate(HEAD_JS)["game"] == "HORSE: Limit Hold'em", (number, s.view()["game"])
    assert s.view()["game"] == "FO/8", "the case: the view names the next game over the last hand's result"
    s.feed(page, s.update(s.deal_seeded(7)))
    assert page.evaluate(HEAD_JS)["game"] == "HORSE: Omaha Hi/Lo"


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
def test_the_draw_hint_counts_cards_in_each_language(new_page, locale):
    page = new_page(width=375, height=667, locale=locale)
    lang = locale[:2]
    for i, (code, most) in enumerate((("FB", 4), ("F2L3D", 5))):
        if i:
            page.evaluate(MOUNT_JS)
        else:
            mount(page)
        s = GameScript(code, ["alice_ux", "bot-station"], bots={1: "station"}, button=1)
        s.deal_seeded(3)
        while True:
            legal = s.game.legal_actions()
            if s.game.to_act == 0 and ("discard" in legal.moves or "standpat" in legal.moves):
                break
            if "discard" in legal.moves:
                s.draw(s.game.to_act, 0)
            else:
                s.act(s.game.to_act, next(w for w in ("check", "call") if w in legal.moves))
        assert legal.draw == most
        s.feed(page, s.snapshot())
        page.locator(".actionbar .drawpick:not([hidden])").wait_for()
        label = page.locator(".actionbar .moves .btn.raise .lbl").inner_text()
        assert label == HINTS[lang][most], label


def test_czech_speaks_informally_everywhere():
    """No formal address in the Czech catalogues (the page says "ty" everywhere)."""
    root = Path(__file__).resolve().parents[2] / "src/freezeout/web/i18n"
    formal = re.compile(r"\b(Vaš\w*|vaš\w*|Váš|váš|Vás|vás|Vám|vám|\w+(?:ěte|ejte|ujte|íte|ete|áte)\b)")
    allowed = {"dělíte"}  # "Ty a Eli si dělíte": you and someone, two people
    found = {}
    for path in root.glob("*cs.js"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            said = line.split("':", 1)[-1]  # the words, not the key
            hits = [m for m in formal.findall(said) if m not in allowed]
            if hits:
                found[f"{path.name}:{number}"] = hits
    assert not found, found
