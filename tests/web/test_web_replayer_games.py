"""The page holds no poker (issue #22 step 4, "The page").

* The replayer draws a finished hand of every family (hold'em, Omaha Hi/Lo,
  stud with its up-cards, razz, draw with discards, 2-7 triple draw, badugi,
  short-deck, and the HORSE and 8-game mixes) from the server's steps: each step
  is the viewer's view, built by the rules (server/table/replaysteps.py), so the page
  needs no chip reducer and no rules of any game.
* A split pot reads "High 30 — ana (…); Low 30 — bo (8-7-4-3-2 …)" (V6), in English and
  Czech, with the hands' names as the server says them in each language.
* Stud and draw games draw no empty board slots (the view's ``board_size``) and
  stud shows no dealer button (V7); hold'em has its five slots and the button.
* The fixed-limit bar shows the cap (V3): the bets left this round, then
  "Capped" on a disabled raise button.
* End to end: a stud table against bots on the real server, its history.

Scripted tables (tests/web/scripted.py) get the server's own messages for hands
whose cards the test chooses; waits are for conditions, never for a time.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from scripted import Script, mount

from freezeout.formats.record import RecordWriter
from freezeout.rules import games
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.games import Mix
from freezeout.rules.tournament import Tournament
from freezeout.server.table.replaysteps import hand_steps

pytestmark = pytest.mark.browser


class GameScript(Script):
    """A :class:`Script` of any game (V18) or mix (V19) instead of the house game."""

    def __init__(self, code: str, players: list[str], **options: Any) -> None:
        super().__init__(players, **options)
        self.t = Tournament.start(games.tournament_config(games.parse_game(code), tuple(players), button=options.get("button", 0)))
        game = games.parse_game(code)
        self.writer = RecordWriter(tuple(players), players[options.get("button", 0)], variant=self.t.variant,
                                   levels=self.t.config.levels, mix=game if isinstance(game, Mix) else None)


def _play_to_showdown(page: Any, s: Script) -> None:
    """Check or call every turn to the end of the hand, each update fed to the page."""
    while s.t.in_hand:
        moves = s.t.legal_actions().moves
        s.feed(page, s.update(s.act(s.t.to_act, "check" if "check" in moves else "call")))


# -- results: a split pot's halves (V6) --------------------------------------------
@pytest.mark.parametrize(("locale", "high_word"), [("en-US", "Three of a kind"), ("cs-CZ", "Tři králové")])
def test_a_split_pot_names_each_half_its_hand_and_winner(new_page, locale: str, high_word: str) -> None:
    page = new_page(locale=locale)
    mount(page)
    s = GameScript("FO/8", ["ana", "bo"], viewer=None)
    # ana: trips kings for high, no low; bo: 8-7-4-3-2 for low (two hole cards, three board, V5)
    s.deal({0: "AhKdQsJc", 1: "3c8d9hTs"}, "2c4d7hKcKs")
    s.feed(page, s.snapshot())
    _play_to_showdown(page, s)
    result = page.locator(".actionbar .hand-result")
    result.wait_for()
    text = result.inner_text()
    view = s.view()
    low = next(p for p in view["result"] if p["half"] == "low")
    high = next(p for p in view["result"] if p["half"] == "high")
    lang = locale[:2]
    assert high_word in high["names"][lang]
    words = {"en": ("High", "Low"), "cs": ("Vysoká", "Nízká")}[lang]
    assert f"{words[0]} {high['amount']} — ana ({high['names'][lang]})" in text, text
    assert f"{words[1]} {low['amount']} — bo ({low['names'][lang]})" in text, text
    assert "8-7-4-3-2" in low["names"][lang]
    assert not page.errors, page.errors


# -- the board and the button follow the game --------------------------------------
BOARD_JS = """() => { const b = document.querySelector('.felt-wrap .board');
  const d = document.querySelector('.felt-wrap .marker.dealer');
  return {slots: b.querySelectorAll('.card').length, hidden: b.hidden, dealer: !d.hidden}; }"""


@pytest.mark.parametrize(("code", "holes", "slots", "button"), [
    ("FT", {0: "AsKd", 1: "QcQh"}, 5, True),
    ("F7S", {0: "AsKsQs2h3h4h5h", 1: "2c3c4d9h9d9c9s"}, 0, False),
    ("F5CD", {0: "AsKsQs2h3h4h5h6h7h8h", 1: "2c3c4d9h9d9c9sTcTdTh"}, 0, True),
])
def test_stud_and_draw_games_draw_no_empty_board_and_stud_no_button(new_page, code, holes, slots, button) -> None:
    page = new_page(375, 667)
    mount(page)
    s = GameScript(code, ["ana", "bo"])
    s.deal(holes, "Qs9h4c8h3d" if slots else "")
    s.feed(page, s.snapshot())
    look = page.evaluate(BOARD_JS)
    assert look["slots"] == slots and look["hidden"] == (slots == 0), look
    assert look["dealer"] is button, f"{code}: the dealer button is {'shown' if look['dealer'] else 'hidden'} (V7)"
    assert not page.errors, page.errors


# -- the fixed-limit cap on the bar (V3) --------------------------------------------
def test_the_fixed_limit_bar_counts_the_bets_left_and_says_capped(new_page) -> None:
    page = new_page(375, 667)
    mount(page)
    s = GameScript("FT", ["ana", "bo", "cy"], button=0)  # three players: a bet and three raises (V3)
    s.deal({0: "AsKd", 1: "QcQh", 2: "7c2d"}, "Qs9h4c8h3d")
    s.feed(page, s.snapshot())
    raise_btn = page.locator(".actionbar .moves .btn.raise")
    raise_btn.locator(".cap", has_text="3 bets left").wait_for()  # the big blind was the bet
    assert raise_btn.is_enabled()
    bar = page.locator(".actionbar").bounding_box()
    assert bar is not None and bar["y"] >= 0 and bar["y"] + bar["height"] <= 667 + 0.5, f"the bar is on screen: {bar}"
    page.screenshot(path="artifacts/fixed-limit-cap-375x667.png")
    for seat in (0, 1, 2):
        legal = s.t.legal_actions()
        assert legal.seat == seat
        s.feed(page, s.update(s.act(seat, "raise", legal.sizes[0])))
    assert s.view()["limit"]["capped"]
    raise_btn.locator(".lbl", has_text="Capped: 4 bets").wait_for()
    assert raise_btn.is_disabled() and raise_btn.is_visible()
    page.screenshot(path="artifacts/fixed-limit-capped-375x667.png")
    assert page.locator(".sizer").is_hidden(), "fixed limit: no slider"
    assert not page.errors, page.errors


# -- the replayer: a finished hand of every family, from the server's steps ---------------
FAMILIES = ["FT", "FO/8", "F7S", "FR", "F5CD", "F2L3D", "FB", "NS", "HORSE", "8GAME"]


def _move(t: Tournament, rng: random.Random) -> Action:
    legal = t.legal_actions()
    assert legal is not None and t.hand is not None
    word = rng.choice([m for m in legal.moves if m != "fold"])
    if word in ("bet", "raise", "complete"):
        return Action(legal.seat, ActionKind(word), rng.choice(legal.sizes) if legal.sizes else legal.min_to)
    if word == "discard":
        held = t.hand.cards[t.seats.index(legal.seat)]
        return Action(legal.seat, ActionKind.DISCARD, cards=tuple(rng.sample(held, min(2, legal.draw))))
    return Action(legal.seat, ActionKind(word))


def _record(code: str, hands: int) -> dict[str, Any]:
    """``hands`` hands of ``code`` played with random legal moves (no folds: showdowns), as its record."""
    rng = random.Random(code)
    names = ("ana", "bo", "cy")
    game = games.parse_game(code)
    t = Tournament.start(games.tournament_config(game, names, button=0, starting_stack=5000))
    writer = RecordWriter(names, names[0], variant=t.variant, levels=t.config.levels, starting_stack=5000,
                          mix=game if isinstance(game, Mix) else None)
    for _ in range(hands):
        if t.finished:
            break
        variant = t.variant_for_hand(t.hand_number + 1)
        deck, again = list(variant.deck), list(variant.deck)
        rng.shuffle(deck)
        rng.shuffle(again)
        t, events = t.deal_deck(deck, again)
        writer.observe(events)
        while t.in_hand:
            action = _move(t, rng)
            t, events = t.act(action)
            writer.act(names[action.seat], action)
            writer.observe(events)
    return writer.to_json()


REPLAYER_JS = """async ([hands, viewer]) => {
  const {Replayer, stepsOfGame} = await import('/static/js/replayer.js');
  document.querySelector('#test-replayer')?.remove();
  const box = document.createElement('div');
  box.id = 'test-replayer';
  document.body.prepend(box);
  const r = new Replayer({hands: hands.map(number => ({number})), players: [], viewer, source: stepsOfGame('g1')});
  box.append(r.el);
  window.__fzReplayer = r;
}"""

LOOK_JS = """() => {
  const r = window.__fzReplayer; const el = r.el;
  const seats = [...el.querySelectorAll('.felt-wrap > .seat')].map(s => ({
    seat: Number(s.dataset.seat),
    cards: [...s.querySelectorAll('.hole .card:not(.slot)')].map(c => c.classList.contains('back') ? 'back' : c.dataset.card),
    up: [...s.querySelectorAll('.hole .card.up')].length, won: s.querySelector('.winbadge').classList.contains('on')}));
  const board = el.querySelector('.board');
  return {i: r.i, n: r.steps.length, at: r.steps[r.i].at, seats, text: el.querySelector('.step-text').textContent,
    board: [...board.querySelectorAll('.card:not(.slot)')].map(c => c.dataset.card), boardSlots: board.querySelectorAll('.card').length,
    boardHidden: board.hidden, dealer: !el.querySelector('.marker.dealer').hidden, log: [...el.querySelectorAll('.log li')].map(li => li.textContent)};
}"""


@pytest.mark.parametrize("code", FAMILIES)
def test_the_replayer_shows_a_finished_hand_of_every_family(new_page, code: str) -> None:
    # a mix: into its second game (V19: the game changes with the level, every 6 hands)
    mix = code in ("HORSE", "8GAME")
    record = _record(code, hands=7 if mix else 2)
    hands = len(record["hands"])
    served: dict[int, dict[str, Any]] = {n: hand_steps(record, n, "ana") for n in range(1, hands + 1)}
    if mix:
        assert hands == 7 and served[1]["game"] != served[7]["game"], "the replayer shows both games of the mix"

    def fulfil(route: Any) -> None:
        number = int(route.request.url.rsplit("/hands/", 1)[1].split("/")[0])
        route.fulfill(json=served[number])

    for width, height in ((1366, 900), (375, 667)):
        page = new_page(width, height)
        page.route("**/api/games/g1/hands/*/steps", fulfil)
        page.goto("/#/rules")
        page.locator("#rule-R1").wait_for()
        page.evaluate(REPLAYER_JS, [list(range(1, hands + 1)), 0])
        page.wait_for_function("() => window.__fzReplayer && window.__fzReplayer.steps.length > 0")
        for number in sorted({1, hands}):
            page.locator(f"#test-replayer .hands button[data-hand='{number}']").click()
            page.wait_for_function("n => window.__fzReplayer.el.dataset.hand === String(n)", arg=number)
            steps = served[number]["steps"]
            look = page.evaluate(LOOK_JS)
            assert look["n"] >= len(steps) and len(look["log"]) == look["n"], "a line for each thing that happened"
            drawn_steps = set()
            for i in range(look["n"]):
                page.evaluate("i => window.__fzReplayer.go(i)", i)
                look = page.evaluate(LOOK_JS)
                drawn_steps.add(look["at"])
                view = steps[look["at"]]["view"]
                # every seat draws exactly the view's slots: its own cards, backs, up-cards for all
                for drawn in look["seats"]:
                    seat = view["seats"][drawn["seat"]]
                    slots = seat.get("slots") or []
                    assert len(drawn["cards"]) == len(slots), (code, i, seat, drawn)
                    for card, slot in zip(drawn["cards"], slots, strict=True):
                        assert (card == "back") == (slot == "unknown"), (code, i, seat, drawn)
                    assert drawn["up"] == slots.count("up")
                # the board: the game's own size, never empty slots in stud or draw games
                board = [view["board"][k : k + 2] for k in range(0, len(view["board"]), 2)]
                assert look["board"] == board
                assert look["boardSlots"] == max(view["board_size"], len(board))
                assert look["boardHidden"] == (look["boardSlots"] == 0)
                assert look["dealer"] == (view["dealer_button"] is not None), "no button in stud (V7)"
            assert drawn_steps == set(range(len(steps))), "every server step is drawn, in order"
            # the last step: the finished hand, its winners marked, the result in words
            last = steps[-1]["view"]
            winners = {w["seat"] for pot in last["result"] for w in pot["winners"] if w["chips"] > 0}
            assert {s["seat"] for s in look["seats"] if s["won"]} == winners
            assert look["text"], "the last step says what happened"
            if any(e["type"] == "drew" for step in steps for e in step["events"]):
                assert any(("draws" in line or "stands pat" in line) for line in look["log"]), look["log"]
        if width == 375:
            page.screenshot(path=f"artifacts/replayer-{code.replace('/', '')}-375x667.png")
        assert not page.errors, page.errors


# -- end to end: a stud table on the real server ------------------------------------------
CREATE_JS = """async (game) => {
  const api = await import('/static/js/api.js');
  await api.loadSession();
  await api.ensureGuest();
  const data = await api.post('/api/tables', {slots: [null, 'station'], ranked: false, sit: true, game});
  return data.table.id;
}"""


def test_the_history_of_a_stud_table_replays_its_first_hand(new_page, ui) -> None:
    page = new_page(375, 667)
    page.goto("/")
    table = page.evaluate(CREATE_JS, "F7S")
    page.goto(f"/#/table/{table}")
    page.wait_for_function("() => window.__fzTable && window.__fzTable.state.view && window.__fzTable.state.view.hand_number >= 1",
                           timeout=120_000)  # a condition; the long fail-safe is for a busy machine
    while page.evaluate("window.__fzTable.state.view.hand_number") < 2 and not ui.ended(page):
        if ui.my_turn(page):
            version = page.evaluate("window.__fzTable.state.version")
            ui.passive(page)
            page.wait_for_function("v => window.__fzTable.state.version !== v", arg=version, timeout=60_000)
        else:
            version = page.evaluate("window.__fzTable.state.version")
            page.wait_for_function(
                "v => window.__fzTable.state.version !== v || document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null",
                arg=version, timeout=60_000)
    page.locator(".table-head button[aria-keyshortcuts=H]").click()
    dialog = page.locator("dialog[open]")
    dialog.locator(".replayer .log li").first.wait_for()
    dialog.locator(".replayer .controls button[aria-label='Start']").click()
    first = dialog.locator(".replayer .stage .seat").first
    first.wait_for()
    assert dialog.locator(".replayer .stage .card.up").count() >= 2, "both seats' up-cards on third street (V7)"
    assert dialog.locator(".replayer .stage .board").is_hidden(), "stud: no empty board"
    assert not page.errors, page.errors
