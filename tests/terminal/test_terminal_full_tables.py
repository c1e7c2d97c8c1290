"""Full tables at the terminal (issue #34, C12, V7): ``freezeout play
--players N`` and ``--cash`` seat up to the game's maximum (the house game's
freezeout 2-4), a 9-handed cash table deals and keeps every chip, the seats
show the positions the view names, and 8-handed stud draws the shared card
on the board."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_terminal_app import run, text_of
from test_terminal_cash import Station, everyone, shove_or_call
from test_terminal_games import assert_nothing_hidden_shows, make_app, press_and_wait

from freezeout import cli
from freezeout.terminal import cashapp as cashapp_module
from freezeout.terminal import render
from freezeout.terminal import session as session_module
from freezeout.terminal.app import PokerApp
from freezeout.terminal.cash import CashSession
from polling import eventually


def test_c12_nine_handed_cash_deals_everyone_in_and_loses_no_chip() -> None:
    s = CashSession(Station(), game="NT", players=9, big_blind=20, seed=3)
    assert len(s.table.seats) == 9 and all(seat is not None for seat in s.table.seats)
    total = everyone(s)
    for _ in range(4):
        s.deal_next()
        assert len(s.table.hand_seats) == 9
        while s.in_hand:
            if s.human_to_act:
                shove_or_call(s)
            else:
                s.bot_step()
        s.bots_between_hands()
        if s.stack < s.config.min_buy_in and s.balance:
            s.top_up()
    assert everyone(s) >= total and not s.bot_errors  # nothing lost (a bust bot rebuys from its own purse)


@pytest.mark.parametrize(("game", "players"), [("NT", 10), ("PO", 10), ("F7S", 8), ("F2L3D", 6), ("NS", 6)])
def test_c12_a_cash_table_seats_up_to_the_games_maximum(game: str, players: int) -> None:
    s = CashSession(Station(), game=game, players=players, big_blind=20, seed=1)
    assert len(s.table.seats) == players
    with pytest.raises(Exception, match=f"seats 2 to {players}"):
        CashSession(Station(), game=game, players=players + 1, big_blind=20, seed=1)


def test_c12_the_seats_show_the_positions_the_view_names(tmp_path: Path) -> None:
    async def played() -> None:
        app = make_app(tmp_path, "NS", players=6)
        async with app.run_test(size=(110, 40)) as pilot:
            await eventually(lambda: app.game.phase == "human", "the human's turn", pause=pilot.pause)
            seats = text_of(app, "#seats")
            for name in ("BTN", "SB", "BB", "UTG", "HJ", "CO"):
                assert name in seats
            named = {seat.position for seat in app.session.view().seats}
            assert named == {"BTN", "SB", "BB", "UTG", "HJ", "CO"}
            await pilot.press("q", "y")

    run(played)


def test_v7_eight_handed_stud_draws_the_shared_card_on_the_board(tmp_path: Path) -> None:
    async def played() -> None:
        app: PokerApp = make_app(tmp_path, "F7S", players=8, seed=2)
        async with app.run_test(size=(120, 44)) as pilot:
            for _ in range(400):
                await eventually(lambda: app.game.phase in ("human", "between", "over"), "the human's turn", pause=pilot.pause)
                view = app.session.view()
                if view.board:
                    break
                assert app.game.phase == "human", "the hand ended before seventh street"
                legal = view.legal
                assert legal is not None
                await press_and_wait(pilot, app, "b" if legal.bring_in else "c")
            view = app.session.view()
            assert len(view.board) == 1 and view.board_size == 0  # V7: one card for everyone, stud deals no board
            board = text_of(app, "#board")
            assert "Board" in board and render.card_label(view.board[0]) in board
            assert_nothing_hidden_shows(app)
            await pilot.press("q", "y")

    run(played)


def test_play_players_up_to_the_maximum_and_the_house_game_2_to_4(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", "--players", "5"]) == 2  # the house game: 2 to 4 (R1)
    assert "2 to 4 players, not 5" in capsys.readouterr().err
    assert cli.main(["play", "--game", "F7S", "--players", "9"]) == 2
    assert "2 to 8 players, not 9" in capsys.readouterr().err
    monkeypatch.setattr(session_module, "load_bot", lambda level, game="NT": Station())
    monkeypatch.setattr(cashapp_module.CashApp, "run", lambda self: None)
    assert cli.main(["play", "--cash", "--players", "9", "--seed", "1"]) == 0  # the house game's cash table: up to 10
    assert capsys.readouterr().out.startswith("you left with")
    assert cli.main(["play", "--cash", "--game", "F2L3D", "--players", "7"]) == 2
    assert "seats 2 to 6, got 7" in capsys.readouterr().err
