"""Every game at the terminal table, played by key presses through
textual's pilot against the real ``station`` bot (issue #22): a flop game
with four hole cards and fixed-limit sizes (FO/8), stud with up-cards and
the bring-in (F7S), a draw with the discard picker (F2L3D, badugi's four
cards), a pot-limit amount with its Pot key (PO) and HORSE changing game.
The screen draws what the seat's view says: no hidden card ever shows.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from test_terminal_app import run, text_of
from textual.pilot import Pilot
from textual.widgets import Input

from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.actions import ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import ActionTaken, Drew
from freezeout.terminal import render
from freezeout.terminal.app import AmountScreen, PokerApp
from freezeout.terminal.session import GameSession, load_bot
from polling import eventually

SCREEN = ("#title", "#seats", "#board", "#hand", "#prompt")


def make_app(tmp_path: Path, game: str, *, players: int = 3, seed: int = 1) -> PokerApp:
    session = GameSession(
        load_bot("station", game),
        players=players,
        seed=seed,
        bot_level="station",
        record_path=tmp_path / "game.json",
        game=game,
    )
    return PokerApp(session, bot_delay=0, pause=0)


def screen_text(app: PokerApp) -> str:
    return "\n".join(text_of(app, widget) for widget in SCREEN)


def hidden_cards(session: GameSession) -> list[str]:
    """Labels of the cards the human may not see now: the others' cards
    that their seat views do not show to the human (down cards, unshown hands)."""
    t = session.tournament
    if t.hand is None:
        return []
    seen = session.view()
    labels = []
    for hand_seat, seat in enumerate(t.seats):
        if seat == session.human_seat:
            continue
        shown = seen.seats[seat].cards or ()
        labels += [render.card_label(c) for c in t.hand.cards[hand_seat] if c is not None and c not in shown]
    return labels


def assert_nothing_hidden_shows(app: PokerApp) -> None:
    text = screen_text(app)
    mine = app.session.view().seats[app.session.human_seat].cards or ()
    board = app.session.view().board
    for label in hidden_cards(app.session):
        if label in {render.card_label(c) for c in (*mine, *board) if c is not None}:
            continue  # a draw game may deal the human a card another threw away (V13)
        assert label not in text, (label, text)


def at_the_table(tmp_path: Path, game: str, scenario: Callable[[PokerApp, Pilot[None]], Awaitable[None]],
                 *, players: int = 3, seed: int = 1) -> None:
    """Play ``scenario`` at a test screen of ``freezeout play --game GAME``, then leave (q, y)."""
    async def played() -> None:
        app = make_app(tmp_path, game, players=players, seed=seed)
        async with app.run_test(size=(110, 36)) as pilot:
            await scenario(app, pilot)
            await pilot.press("q", "y")

    run(played)


async def press_and_wait(pilot: Pilot[None], app: PokerApp, key: str) -> None:
    """Press ``key`` for a move and wait until the rules have taken it."""
    before = app.session.tournament
    await pilot.press(key)
    await eventually(lambda: app.session.tournament is not before, f"the move of {key!r}", pause=pilot.pause)


async def human_turn_or_end(pilot: Pilot[None], app: PokerApp) -> None:
    await eventually(lambda: app.game.phase in ("human", "between", "over"), "the human's turn or a result", pause=pilot.pause)


async def call_down_one_hand(pilot: Pilot[None], app: PokerApp) -> None:
    """Check or call (stand pat in a draw, bring in) until the hand is over."""
    number = app.session.tournament.hand_number
    for _ in range(100):
        await human_turn_or_end(pilot, app)
        if app.game.phase != "human" or app.session.tournament.hand_number != number:
            return
        assert_nothing_hidden_shows(app)
        legal = app.session.view().legal
        assert legal is not None
        await press_and_wait(pilot, app, "s" if legal.draw else "b" if legal.bring_in else "c")
    raise AssertionError("the hand did not end")


def told(app: PokerApp, message: str) -> bool:
    """Whether the app showed the player ``message`` (a notification)."""
    return any(message in note.message for note in app._notifications)


def human_moves(app: PokerApp) -> list[ActionTaken]:
    seat = app.session.human_seat
    return [e for e in app.session.view().history if isinstance(e, ActionTaken) and e.seat == seat]


def test_omaha_hi_lo_four_cards_fixed_limit_sizes_and_a_whole_hand(tmp_path: Path) -> None:
    async def scenario(app: PokerApp, pilot: Pilot[None]) -> None:
        await eventually(lambda: app.game.phase == "human", "the human's turn", pause=pilot.pause)
        view = app.session.view()
        assert len(view.seats[app.session.human_seat].cards or ()) == 4
        seats = text_of(app, "#seats")
        assert seats.count("▒▒") == 4 * 2  # two opponents, four face-down cards each
        assert "Fixed-Limit Omaha Hi/Lo · cap: a bet and 3 raises" in text_of(app, "#title")
        assert "blinds 10/20, limit 20/40 (level 1)" in text_of(app, "#title")
        assert_nothing_hidden_shows(app)
        legal = view.legal
        assert legal is not None and legal.sizes and legal.can_raise
        prompt = text_of(app, "#prompt")
        assert f"raise to {legal.sizes[0]}" in prompt and "–" not in prompt  # no range, no entry

        await pilot.press("r")  # fixed limit: the one size, at once, no dialog
        await eventually(lambda: bool(human_moves(app)), "the raise", pause=pilot.pause)
        assert not isinstance(app.screen, AmountScreen)
        assert human_moves(app)[-1].kind == "raise" and human_moves(app)[-1].total == legal.sizes[0]

        await call_down_one_hand(pilot, app)
        first = app.session.tournament.past_logs[0] if app.session.tournament.hand_number > 1 else ()
        lines = render.result_lines(first or app.session.view().history, app.session.players)
        assert any("pot" in line for line in lines)  # the hand was played to its result

    at_the_table(tmp_path, "FO/8", scenario)
    assert replay_record(parse_record((tmp_path / "game.json").read_text())).finished


def test_stud_up_cards_for_all_down_cards_for_no_one_and_the_bring_in(tmp_path: Path) -> None:
    async def scenario(app: PokerApp, pilot: Pilot[None]) -> None:
        session = app.session
        brought_in = False
        for _ in range(40):  # hands until the human has the lowest up-card
            await human_turn_or_end(pilot, app)
            if session.finished:
                break
            view = session.view()
            if app.game.phase == "human" and view.legal is not None and view.legal.bring_in:
                assert "bring in" in text_of(app, "#prompt") and "ante 2, bring-in 5" in text_of(app, "#title")
                await pilot.press("c")  # not a move here: a message, nothing changes
                assert session.human_to_act and told(app, "bring in 5 with b, or complete with r")
                await pilot.press("b")
                await eventually(lambda: bool(human_moves(app)), "the bring-in", pause=pilot.pause)
                assert human_moves(app)[0].kind == "bringin"
                brought_in = True
            if app.game.phase == "human":
                for seat in session.view().seats:  # the others' up-cards are on the table
                    if seat.seat != session.human_seat and seat.cards:
                        for card, up in zip(seat.cards, seat.up, strict=True):
                            assert up == (card is not None)
                            if card is not None:
                                assert render.card_label(card) in text_of(app, "#seats")
                mine = session.view().seats[session.human_seat]
                down = [c for c, up in zip(mine.cards or (), mine.up, strict=True) if not up]
                assert all(f"[{render.card_label(c)}]" in text_of(app, "#seats") for c in down if c)
                assert_nothing_hidden_shows(app)
            await call_down_one_hand(pilot, app)
            if brought_in:
                break
        assert brought_in

    at_the_table(tmp_path, "F7S", scenario, seed=2)


def test_draw_picker_discards_the_picked_cards_and_stands_pat(tmp_path: Path) -> None:
    async def scenario(app: PokerApp, pilot: Pilot[None]) -> None:
        session = app.session
        me = session.human_seat
        await eventually(lambda: app.game.phase == "human", "the human's turn", pause=pilot.pause)
        assert not session.view().legal.draw  # type: ignore[union-attr]
        before = session.tournament
        await pilot.press("d")  # a draw out of turn: a message, nothing changes
        await pilot.press("2")
        assert session.tournament is before and not app.game.selected
        assert told(app, "it is not your turn to draw") and told(app, "you pick cards only in a draw")
        for _ in range(20):  # to the human's first draw
            await human_turn_or_end(pilot, app)
            legal = session.view().legal
            if legal is not None and legal.draw:
                break
            await press_and_wait(pilot, app, "c")
        legal = session.view().legal
        assert legal is not None and legal.draw == 5
        held = session.view().seats[me].cards
        assert held is not None and len(held) == 5
        assert "pick the cards" in text_of(app, "#prompt") and "stand pat" in text_of(app, "#prompt")
        await pilot.press("1", "3", "3", "4")  # 3 picked twice: unpicked
        assert app.game.selected == {0, 3}
        assert "draw 2" in text_of(app, "#prompt") and text_of(app, "#hand").count("✕") == 2
        await pilot.press("d")
        await eventually(lambda: any(isinstance(e, Drew) and e.seat == me for e in session.view().history), "the draw", pause=pilot.pause)
        drew = next(e for e in session.view().history if isinstance(e, Drew) and e.seat == me)
        assert len(drew.drawn) == 2
        now = session.view().seats[me].cards
        assert now is not None and held[1] in now and held[2] in now and held[4] in now
        assert held[0] not in now and held[3] not in now
        assert "you draw 2 cards" in render.hand_lines(session.view().history, session.players)
        assert not app.game.selected

        for _ in range(20):  # the next draw: stand pat
            await human_turn_or_end(pilot, app)
            if app.game.phase != "human":
                break
            legal = session.view().legal
            assert legal is not None
            if legal.draw:
                kept = session.view().seats[me].cards
                await pilot.press("s")
                await eventually(lambda: any(isinstance(e, Drew) and e.seat == me and not e.drawn
                                                  for e in session.view().history), "standing pat", pause=pilot.pause)
                assert session.view().seats[me].cards == kept
                assert "you stand pat" in render.hand_lines(session.view().history, session.players)
                break
            await press_and_wait(pilot, app, "c")
        await call_down_one_hand(pilot, app)

    at_the_table(tmp_path, "F2L3D", scenario, seed=3)
    assert replay_record(parse_record((tmp_path / "game.json").read_text())).finished


def test_badugi_has_four_cards_to_pick_from(tmp_path: Path) -> None:
    async def scenario(app: PokerApp, pilot: Pilot[None]) -> None:
        session = app.session
        for _ in range(20):
            await human_turn_or_end(pilot, app)
            legal = session.view().legal
            if legal is not None and legal.draw:
                break
            await press_and_wait(pilot, app, "c")
        assert session.view().legal is not None and session.view().legal.draw == 4  # type: ignore[union-attr]
        assert text_of(app, "#seats").count("▒▒") == 4
        before = session.tournament
        await pilot.press("5")  # no fifth card: a message, nothing picked
        assert not app.game.selected and session.tournament is before
        assert told(app, "you hold 4 cards: there is no card 5")

    at_the_table(tmp_path, "FB", scenario, players=2, seed=4)


def test_pot_limit_amount_has_a_pot_key(tmp_path: Path) -> None:
    async def scenario(app: PokerApp, pilot: Pilot[None]) -> None:
        session = app.session
        await eventually(lambda: app.game.phase == "human", "the human's turn", pause=pilot.pause)
        legal = session.view().legal
        assert legal is not None and legal.can_raise and legal.min_to < legal.max_to
        assert "(p: pot)" in text_of(app, "#prompt")
        await pilot.press("r")
        await eventually(lambda: isinstance(app.screen, AmountScreen), "the amount dialog", pause=pilot.pause)
        await pilot.press("p")  # the pot: pot limit's largest bet (V2)
        assert app.screen.query_one("#amount", Input).value == str(legal.max_to)
        await pilot.press("enter")
        await eventually(lambda: bool(human_moves(app)), "the pot-sized raise", pause=pilot.pause)
        assert human_moves(app)[-1].total == legal.max_to

    at_the_table(tmp_path, "PO", scenario, players=2, seed=5)


def test_horse_shows_the_current_and_next_game_and_changes_game(tmp_path: Path) -> None:
    async def scenario(app: PokerApp, pilot: Pilot[None]) -> None:
        session = app.session
        await eventually(lambda: app.game.phase == "human", "the human's turn", pause=pilot.pause)
        title = text_of(app, "#title")
        assert "HORSE · now Fixed-Limit Texas Hold'em" in title
        assert "next Fixed-Limit Omaha Hi/Lo in 5 hands" in title
        for _ in range(12):
            if session.tournament.hand_number >= 7 or session.finished:
                break
            await call_down_one_hand(pilot, app)
            await eventually(lambda: app.game.phase in ("human", "over"), "the next hand", pause=pilot.pause)
        assert session.tournament.hand_number == 7 and session.view().game == "FO/8"
        title = text_of(app, "#title")
        assert "HORSE · now Fixed-Limit Omaha Hi/Lo" in title and "next Fixed-Limit Razz" in title
        assert len(session.view().seats[session.human_seat].cards or ()) == 4
        assert_nothing_hidden_shows(app)

    at_the_table(tmp_path, "HORSE", scenario, players=2, seed=6)
    result = replay_record(parse_record((tmp_path / "game.json").read_text()))
    assert [hand.game for hand in result.hands[5:7]] == ["FT", "FO/8"]


def test_bad_draws_are_refused_with_a_reason_and_change_nothing(tmp_path: Path) -> None:
    session = GameSession(load_bot("station", "F5CD"), players=2, seed=8, game="F5CD")
    rng = random.Random(0)
    while not (session.human_to_act and session.view().legal.draw):  # type: ignore[union-attr]
        if session.human_to_act:
            legal = session.view().legal
            assert legal is not None
            session.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        session.play_out()
    before = session.tournament
    held = session.view().seats[session.human_seat].cards or ()
    stranger = next(c for c in session.tournament.variant.deck if c not in held)
    for bad in (lambda: session.discard((stranger,)), lambda: session.act(ActionKind.CALL)):
        try:
            bad()
        except RulesError as error:
            assert str(error)
        else:
            raise AssertionError("a bad draw was accepted")
        assert session.tournament is before
    try:
        session.discard((stranger,))
    except RulesError as error:
        assert f"you do not hold {stranger}" in str(error)
    assert rng is not None
