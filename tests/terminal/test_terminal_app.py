"""The real textual app driven by key presses through textual's pilot.

Delays are zero, the bot is a tiny fake (a calling station) so the games are
short and deterministic; the rules engine, session and record are the real
ones.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import ActionTaken, Resigned
from freezeout.rules.tournament import rematch_players
from freezeout.rules.views import TableView
from freezeout.terminal.app import AmountScreen, ConfirmScreen, PokerApp
from freezeout.terminal.session import BotUnavailable, GameSession, load_bot
from polling import eventually


class Station:
    """Checks or calls every time: the simplest bot that never folds."""

    def act(self, view: TableView, rng: random.Random) -> Action:
        assert view.viewer is not None and view.legal is not None
        kind = ActionKind.CHECK if "check" in view.legal.moves else ActionKind.CALL
        return Action(view.viewer, kind)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def make_app(tmp_path: Path, *, players: int = 2, seed: int = 7) -> PokerApp:
    session = GameSession(
        Station(), players=players, seed=seed, bot_level="station", record_path=tmp_path / "game.json"
    )
    return PokerApp(session, bot_delay=0, pause=0)


async def play_to_the_end(pilot: Pilot[None], app: PokerApp) -> None:
    """Shove when the rules allow it, else check/call, until the game is over."""
    game = app.game
    for _ in range(500):
        await eventually(lambda: game.phase in ("human", "over"), "the human's turn or the end", pause=pilot.pause)
        if game.phase == "over":
            return
        legal = app.session.view().legal
        assert legal is not None
        await pilot.press("a" if "allin" in legal.moves else "c")
    raise AssertionError("the game did not end")


def text_of(app: PokerApp, widget: str) -> str:
    """The plain text a Static widget shows (its rich content, rendered)."""
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(app.game.query_one(widget, Static).content)
    return console.export_text()


def test_heads_up_tournament_rematch_and_records(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 32)) as pilot:
            session = app.session
            first_players = session.players
            await play_to_the_end(pilot, app)
            assert session.finished and session.game_number == 1
            first = {row.player: row.place for row in session.standings()}
            assert sorted(first.values()) == [1, 2]
            assert "Final standings" in text_of(app, "#prompt")
            assert "replays to the same result" in text_of(app, "#prompt")

            await pilot.press("n")  # rematch: everyone one seat on (R3)
            await eventually(lambda: session.game_number == 2 and app.game.phase != "over", "the rematch", pause=pilot.pause)
            assert session.players == rematch_players(first_players)
            await play_to_the_end(pilot, app)
            second = {row.player: row.place for row in session.standings()}
            await pilot.press("q")
            await eventually(lambda: not app.is_running, "the app to exit", pause=pilot.pause)

        for number, expected in ((1, first), (2, second)):
            path = session.record_path_for(number)
            assert path is not None and path.exists()
            result = replay_record(parse_record(path.read_text()))
            assert result.finished
            assert dict(result.standings) == expected

    run(scenario)


def test_raise_to_amount_dialog(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, seed=3)
        async with app.run_test(size=(100, 32)) as pilot:
            session = app.session
            game = app.game
            await eventually(lambda: game.phase == "human", "the human's turn", pause=pilot.pause)
            legal = session.view().legal
            assert legal is not None and legal.can_raise
            low, high = legal.min_to, legal.max_to

            await pilot.press("r")
            await eventually(lambda: isinstance(app.screen, AmountScreen), "the amount dialog", pause=pilot.pause)
            field = app.screen.query_one("#amount", Input)
            assert field.value == str(low)
            await pilot.press("escape")  # cancel: nothing happens
            await eventually(lambda: not isinstance(app.screen, AmountScreen), "the dialog to close", pause=pilot.pause)
            assert session.human_to_act

            await pilot.press("r")
            await eventually(lambda: isinstance(app.screen, AmountScreen), "the amount dialog", pause=pilot.pause)
            field = app.screen.query_one("#amount", Input)
            field.value = str(high + 1)
            await pilot.press("enter")  # too much: refused with the reason
            assert isinstance(app.screen, AmountScreen)
            assert "all-in" in str(app.screen.query_one("#error", Static).content)
            field.value = str(low)
            await pilot.press("up", "up", "down")  # one big blind more than the minimum
            target = min(low + session.view().big_blind, high)
            assert field.value == str(target)
            await pilot.press("enter")
            await eventually(lambda: not isinstance(app.screen, AmountScreen), "the dialog to close", pause=pilot.pause)
            mine = [
                e
                for e in session.tournament.hand_log
                if isinstance(e, ActionTaken) and e.seat == session.human_seat
            ]
            assert mine and mine[-1].kind in ("bet", "raise") and mine[-1].total == target

    run(scenario)


def test_resign_needs_confirmation(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, seed=11)
        async with app.run_test(size=(100, 32)) as pilot:
            session = app.session
            game = app.game
            await eventually(lambda: game.phase == "human", "the human's turn", pause=pilot.pause)
            await pilot.press("x")
            await eventually(lambda: isinstance(app.screen, ConfirmScreen), "the confirmation", pause=pilot.pause)
            await pilot.press("n")
            await eventually(lambda: not isinstance(app.screen, ConfirmScreen), "the dialog to close", pause=pilot.pause)
            assert session.human_in and not session.finished

            await pilot.press("x")
            await eventually(lambda: isinstance(app.screen, ConfirmScreen), "the confirmation", pause=pilot.pause)
            await pilot.press("y")
            await eventually(lambda: game.phase == "over", "the end of the game", pause=pilot.pause)
            assert session.finished and not session.human_in
            places = {row.player: row.place for row in session.standings()}
            assert places[session.human] == 2
            assert any(isinstance(e, Resigned) for e in session.tournament.hand_log)
        path = session.current_record_path
        assert path is not None
        result = replay_record(parse_record(path.read_text()))
        assert dict(result.standings) == places

    run(scenario)


def test_three_players_human_out_then_bots_finish(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, players=3, seed=5)
        async with app.run_test(size=(100, 32)) as pilot:
            session = app.session
            game = app.game
            await eventually(lambda: game.phase == "human", "the human's turn", pause=pilot.pause)
            seats = text_of(app, "#seats")
            for player in session.players:
                assert player in seats
            await pilot.press("x", "y")
            await eventually(lambda: game.phase == "over", "the bots to finish", pause=pilot.pause)
            places = {row.player: row.place for row in session.standings()}
            assert places[session.human] == 3
            assert sorted(places.values()) == [1, 2, 3]

    run(scenario)


def test_quit_mid_game_resigns_and_completes_the_record(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, seed=2)
        async with app.run_test(size=(100, 32)) as pilot:
            await eventually(lambda: app.game.phase == "human", "the human's turn", pause=pilot.pause)
            await pilot.press("q")
            await eventually(lambda: isinstance(app.screen, ConfirmScreen), "the confirmation", pause=pilot.pause)
            await pilot.press("y")
            await eventually(lambda: not app.is_running, "the app to exit", pause=pilot.pause)
        session = app.session
        assert session.finished
        path = session.current_record_path
        assert path is not None
        result = replay_record(parse_record(path.read_text()))
        assert result.finished and dict(result.standings)[session.human] == 2

    run(scenario)


def test_clock_forfeits_the_turn_and_two_in_a_row_eliminate(tmp_path: Path) -> None:
    """R15/R26/R27 with a tiny clock: nobody presses a key."""

    async def scenario() -> None:
        session = GameSession(Station(), players=2, seed=7, record_path=tmp_path / "clock.json")
        app = PokerApp(session, bot_delay=0, pause=0, clock=0.01, dont_wait=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await eventually(lambda: app.game.phase == "over", "two forfeits", pause=pilot.pause)
        assert not session.human_in
        assert {row.player: row.place for row in session.standings()}[session.human] == 2
        path = session.current_record_path
        assert path is not None and '"timeout"' in path.read_text()
        assert replays_to_standings(session)

    run(scenario)


def replays_to_standings(session: GameSession) -> bool:
    path = session.current_record_path
    assert path is not None
    result = replay_record(parse_record(path.read_text()))
    return dict(result.standings) == {r.player: r.place for r in session.standings()}


@pytest.mark.parametrize("level", ["station", "hard"])
def test_whole_game_against_a_real_bot(tmp_path: Path, level: str) -> None:
    """The same key-driven game against freezeout.bots (skipped without them)."""
    try:
        bot = load_bot(level)
    except BotUnavailable as error:
        pytest.skip(str(error))

    async def scenario() -> None:
        session = GameSession(bot, players=2, seed=21, bot_level=level, record_path=tmp_path / "real.json")
        app = PokerApp(session, bot_delay=0, pause=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await play_to_the_end(pilot, app)
        assert session.finished and session.bot_errors == [] and session.record_verified
        assert replays_to_standings(session)

    run(scenario)
