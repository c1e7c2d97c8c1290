"""``freezeout play --cash``: a cash table in the terminal (C1-C4, C9, issue #25).

The session first (the rules' cash table, a local balance, bots that rebuy),
then the real textual app driven by key presses through textual's pilot,
then the command line.  Delays are zero; the bots are a calling station so
hands are short and deterministic; every chip is accounted for.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from freezeout import cli
from freezeout.bots.registry import get_bot
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction
from freezeout.rules.views import TableView
from freezeout.terminal import cashapp as cashapp_module
from freezeout.terminal import session as session_module
from freezeout.terminal.cash import CashSession
from freezeout.terminal.cashapp import CashApp
from freezeout.terminal.dialogs import ConfirmScreen
from polling import eventually


class Station:
    """Checks or calls every time (a draw: stands pat; stud: brings in)."""

    def act(self, view: TableView, rng: random.Random) -> Action:
        assert view.viewer is not None and view.legal is not None
        legal = view.legal
        if legal.draw:
            return Action(view.viewer, ActionKind.STANDPAT)
        if legal.bring_in:
            return Action(view.viewer, ActionKind.BRINGIN)
        return Action(view.viewer, ActionKind.CHECK if "check" in legal.moves else ActionKind.CALL)


def everyone(session: CashSession) -> int:
    """The human's balance and every seat's chips (their part in a pot counted where it came from)."""
    return session.balance + sum(seat.stack for seat in session.table.seats if seat is not None)


def shove_or_call(session: CashSession) -> None:
    legal = session.table.legal_actions()
    assert legal is not None
    if legal.draw:
        session.act(ActionKind.STANDPAT)
    elif legal.bring_in:
        session.act(ActionKind.BRINGIN)
    else:
        session.act(ActionKind.ALLIN if "allin" in legal.moves else ActionKind.CALL if "call" in legal.moves
                    else ActionKind.CHECK)


# -- the session ---------------------------------------------------------------------------
def test_the_human_buys_in_from_the_balance_and_the_bots_for_the_maximum() -> None:  # C1
    s = CashSession(Station(), players=3, big_blind=20, seed=1)
    assert (s.config.min_buy_in, s.config.max_buy_in) == (400, 2000)  # 20 to 100 big blinds
    assert s.stack == 2000 and s.balance == 8000 and s.chips == 10_000
    assert [seat.stack for seat in s.table.seats if seat is not None] == [2000, 2000, 2000]
    with pytest.raises(ValueError, match="cannot buy in"):
        CashSession(Station(), balance=100, big_blind=20)
    with pytest.raises(IllegalAction, match="400 to 2000"):
        CashSession(Station(), buy_in=100, big_blind=20)


def test_hands_move_chips_and_none_is_made_or_lost_and_a_bust_bot_rebuys() -> None:  # C2, C9
    s = CashSession(Station(), players=3, big_blind=20, seed=3, balance=200_000)
    total = everyone(s)
    added = 0
    bust = False
    for _ in range(60):
        bots_before = sum(seat.stack for seat in s.table.seats[1:] if seat is not None)
        bust = bust or any(seat is not None and seat.stack == 0 for seat in s.table.seats[1:])
        s.bots_between_hands()  # a bot that lost everything buys in again (C2)
        added += sum(seat.stack for seat in s.table.seats[1:] if seat is not None) - bots_before
        if s.stack < s.config.max_buy_in and s.balance:
            s.top_up()
        assert s.can_deal
        s.deal_next()
        while s.in_hand:
            if s.human_to_act:
                shove_or_call(s)
            else:
                s.bot_step()
        assert everyone(s) == total + added  # the bots' rebuys are the only chips that came in
    assert bust and added > 0 and not s.bot_errors


def test_top_up_sit_out_and_leave_follow_the_cash_rules() -> None:  # C2, C3, C4
    s = CashSession(Station(), players=2, big_blind=20, buy_in=1000, seed=5)
    assert s.top_up() == 1000 and s.stack == 2000 and s.balance == 8000  # back to the maximum
    with pytest.raises(IllegalAction, match="the most chips"):
        s.top_up()
    s.deal_next()
    with pytest.raises(IllegalAction, match="between hands"):
        s.top_up(10)
    with pytest.raises(IllegalAction, match="leave when it is over"):
        s.leave()
    s.sit_out()  # from the next hand on
    while s.in_hand:
        if s.human_to_act:
            s.act(ActionKind.FOLD)
        else:
            s.bot_step()
    assert not s.can_deal and s.advance() == []  # the bots do not play alone
    s.sit_in()
    assert s.can_deal
    chips = s.chips
    assert s.leave() == s.left_with and s.balance == chips and not s.seated


def test_closing_mid_hand_folds_it_out_and_puts_the_chips_back() -> None:
    s = CashSession(Station(), players=3, big_blind=20, seed=8)
    s.deal_next()
    s.play_out()
    before = everyone(s)
    balance = s.close()
    assert not s.seated and balance == s.balance
    assert everyone(s) == before  # bots' chips plus the balance: nothing lost


def test_hard_plays_its_deep_game_at_a_terminal_cash_table() -> None:
    s = CashSession(get_bot("hard"), players=3, big_blind=20, seed=2, bot_level="hard", balance=100_000)
    for _ in range(5):
        if s.stack < s.config.max_buy_in:
            s.top_up()
        s.bots_between_hands()
        s.deal_next()
        while s.in_hand:
            if s.human_to_act:
                shove_or_call(s)
            else:
                s.bot_step()
    assert not s.bot_errors  # hard's own moves, all legal


@pytest.mark.parametrize("game", ["PO", "F7S", "F2L3D", "HORSE"])
def test_every_kind_of_game_deals_at_a_terminal_cash_table(game: str) -> None:
    s = CashSession(Station(), game=game, players=3, big_blind=20, seed=4)
    total = everyone(s)
    for _ in range(3):
        s.deal_next()
        while s.in_hand:
            if s.human_to_act:
                shove_or_call(s)
            else:
                s.bot_step()
        s.bots_between_hands()
        if s.stack < s.config.min_buy_in and s.balance:
            s.top_up()
    assert everyone(s) >= total and not s.bot_errors


# -- the app -------------------------------------------------------------------------------
def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def text_of(app: CashApp, widget: str) -> str:
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(app.game.query_one(widget, Static).content)
    return console.export_text()


def test_the_app_shows_stakes_stacks_and_balance_and_tops_up_sits_out_and_leaves() -> None:
    async def scenario() -> None:
        session = CashSession(Station(), players=3, big_blind=20, buy_in=1000, seed=6, bot_level="station")
        app = CashApp(session, bot_delay=0, pause=0)
        async with app.run_test(size=(120, 36)) as pilot:
            game = app.game
            await eventually(lambda: game.phase == "human", "the human's turn", pause=pilot.pause)
            title = text_of(app, "#title")
            assert "blinds 10/20" in title and "buy-in 400-2000" in title and "Balance 9000" in title
            assert "on the table" in title
            seats = text_of(app, "#seats")
            assert "bot1 (station)" in seats and "1990" in seats and "1000" in seats  # the blinds are posted
            prompt = text_of(app, "#prompt")
            assert " f " in prompt or " c " in prompt
            assert "sit out" in prompt and "leave" in prompt
            await pilot.press("o")  # sit out from the next hand (C3)
            for _ in range(5000):  # fold this hand out; no new hand deals the human in
                if game.phase == "waiting":
                    break
                if game.phase == "human":
                    await pilot.press("f")
                await pilot.pause()
            else:
                raise AssertionError("the table never waited for the human")
            assert "sitting out" in text_of(app, "#prompt")
            assert not session.in_hand  # the bots do not play alone
            chips = session.chips
            await pilot.press("t")  # C2: top up between hands, back to the maximum
            await eventually(lambda: session.stack == 2000, "the top-up", pause=pilot.pause)
            assert session.chips == chips and f"Balance {session.balance} · on the table 2000" in text_of(app, "#title")
            await pilot.press("o")  # back in
            await eventually(lambda: game.phase == "human", "a hand with the human", pause=pilot.pause)
            await pilot.press("q")
            await eventually(lambda: isinstance(app.screen, ConfirmScreen), "the confirmation", pause=pilot.pause)
            await pilot.press("y")
            await eventually(lambda: not app.is_running, "the app to exit", pause=pilot.pause)
        assert not session.seated and session.left_with is not None
        assert session.balance == session.chips

    run(scenario)


# -- the command line ------------------------------------------------------------------------
def test_play_cash_takes_its_options_and_prints_the_balance(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(session_module, "load_bot", lambda level, game="NT": Station())
    monkeypatch.setattr(cashapp_module.CashApp, "run", lambda self: None)
    assert cli.main(["play", "--cash", "--game", "PO", "--players", "3", "--stakes", "50", "--buy-in", "3000",
                     "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out == "you left with 3000 chips; balance 10000 (+0)\n"


@pytest.mark.parametrize(("argv", "why"), [
    (["--stakes", "50"], "add --cash"),
    (["--cash", "--record", "x.json"], "keeps none"),
    (["--cash", "--clock", "30"], "no clock"),
    (["--cash", "--buy-in", "50"], "may buy in for"),
    (["--cash", "--balance", "100"], "cannot buy in"),
    (["--cash", "--game", "NOPE"], "unknown game"),
    (["--cash", "--game", "PO", "--bot", "easy"], "does not play"),
])
def test_bad_cash_options_are_one_line_and_exit_2(argv: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert why in err and err.count("\n") == 1
