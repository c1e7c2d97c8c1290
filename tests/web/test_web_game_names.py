"""Which game is this? (issue #31 item 5)

The table's header names the game by its short name (Hold'em, Limit Hold'em, PLO, PLO Hi/Lo,
Stud, Stud Hi/Lo, Razz, 5-Card Draw, 2-7 Single, 2-7 Triple, Badugi, Short Deck ...) with the
stakes, each whole and on the screen on a phone (they were cut to "Fixed-Limit S..."), in
English and Czech; in a mix also the next game by its short name (not its code).
"""

from __future__ import annotations

from typing import Any

import pytest
from scripted import MOUNT_JS, mount
from scripted_games import GameScript

pytestmark = pytest.mark.browser

GAMES = [("NT", "Hold'em"), ("FT", "Limit Hold'em"), ("PO", "PLO"), ("PO/8", "PLO Hi/Lo"), ("F7S", "Stud"),
         ("F7S/8", "Stud Hi/Lo"), ("FR", "Razz"), ("N5CD", "5-Card Draw"), ("N2L1D", "2-7 Single"),
         ("F2L3D", "2-7 Triple"), ("FB", "Badugi"), ("NS", "Short Deck"), ("HORSE", "HORSE: Limit Hold'em")]

HEAD_JS = """() => {
  const w = window.innerWidth;
  const look = el => { if (!el) return null; const b = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return {text: el.textContent, shown: s.display !== 'none' && b.width > 0, inside: b.left >= -0.5 && b.right <= w + 0.5,
            whole: el.scrollWidth <= el.clientWidth + 0.5 || s.display === 'inline'}; };
  const next = document.querySelector('.table-head .nextgame');
  const shownNext = next && [...next.children].find(c => getComputedStyle(c).display !== 'none');
  return {game: look(document.querySelector('.table-head .game')), stakes: look(document.querySelector('.table-head .stakes')),
          next: look(shownNext)};
}"""


@pytest.mark.parametrize("locale", ["en-US", "cs-CZ"])
@pytest.mark.parametrize("size", [(360, 640), (1366, 900)], ids=["360x640", "1366x900"])
def test_the_header_names_every_game_whole_with_its_stakes(new_page, size, locale):
    page = new_page(width=size[0], height=size[1], locale=locale)
    problems: dict[str, Any] = {}
    for i, (code, short) in enumerate(GAMES):
        if i:
            page.evaluate(MOUNT_JS)
        else:
            mount(page)
        s = GameScript(code, ["alice_ux", "bot-station", "bot-medium"], bots={1: "station", 2: "medium"})
        s.deal_seeded(5)
        s.feed(page, s.snapshot())
        look = page.evaluate(HEAD_JS)
        wrong = []
        if look["game"]["text"] != short:
            wrong.append(f"named {look['game']['text']!r}")
        for part in ("game", "stakes"):
            if not (look[part] and look[part]["shown"] and look[part]["inside"] and look[part]["whole"]):
                wrong.append(f"{part}: {look[part]}")
        nxt = look["next"]
        if code == "HORSE" and not (nxt and nxt["shown"] and nxt["inside"] and "Omaha Hi/Lo" in nxt["text"]):
            wrong.append(f"next game: {nxt}")
        if wrong:
            problems[code] = wrong
    assert not problems, problems
