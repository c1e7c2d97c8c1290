"""The textual front end of ``freezeout play``.

The screen holds no game state of its own: one asyncio worker (``_drive``)
walks the :class:`~freezeout.terminal.session.GameSession` forward — a bot's
move after ``bot_delay`` seconds, the result of a hand for ``pause`` seconds
(R30), then the next deal — and waits on an event whenever the human must
act.  Key handlers only call the session and wake that worker, and every
redraw is rebuilt from ``session.view()``, so what is on screen is always
what the rules say.  Delays are constructor arguments so tests run at zero.

Every game plays with the same keys (f c r a), plus ``b`` to bring in and
``r`` to complete in stud (V7), ``R`` for the bigger of two fixed sizes
(V7's open pair), ``p`` for the pot in a pot-limit amount (V2), and in a
draw (V11) ``1``–``5`` to pick cards, ``d`` to draw them and ``s`` to stand
pat.  The only state the screen keeps is the draw picker's selection.
"""


from __future__ import annotations

import asyncio
import contextlib
import time
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from freezeout.terminal.dialogs import AmountScreen, ConfirmScreen
from freezeout.terminal.drawing import HandLog, Phase
from freezeout.terminal.keys import KeyActions
from freezeout.terminal.session import GameSession

__all__ = ["AmountScreen", "ConfirmScreen", "GameScreen", "PokerApp"]


#: The keys of a hand in any game, at a freezeout and at a cash table (the cash screen adds its own).
GAME_KEYS: list[BindingType] = [
    Binding("f", "fold", "Fold"),
    Binding("c", "check_call", "Check/Call"),
    Binding("r", "raise", "Bet/Raise"),
    Binding("a", "allin", "All-in"),
    Binding("b", "bring_in", "Bring in"),
    Binding("R", "raise_big", "Big bet"),
    Binding("d", "draw", "Draw", show=False),
    Binding("s", "stand_pat", "Stand pat", show=False),
    *(Binding(str(n), f"pick({n - 1})", f"Card {n}", show=False) for n in range(1, 6)),
    Binding("space", "next_hand", "Deal now"),
]


class GameScreen(KeyActions):
    """The table: seats, board, pots, your cards, the moves, the hand's log.

    The drawing (:mod:`.drawing`) and the keys (:mod:`.keys`) are its base
    classes; here are its layout and the game loop."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *GAME_KEYS,
        Binding("n", "rematch", "Rematch"),
        Binding("x", "resign", "Resign"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(
        self,
        session: GameSession,
        *,
        bot_delay: float,
        pause: float,
        clock: float | None = None,
        dont_wait: float = 3.0,
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.pause = pause
        self.clock = clock if clock else None  # R15 turn limit; None: no clock
        self.dont_wait = dont_wait  # R26: how long the bot lets the late human be
        self.phase: Phase = "start"
        self._wake = asyncio.Event()
        self._result_for = 0  # hand number whose result has had its pause
        self._playing_out = False
        self._deadline = 0.0
        self.selected: set[int] = set()  # the draw picker: indexes of the cards to throw away
        self._picking_for: tuple[int, int] = (0, -1)  # (hand, draw) the selection belongs to

    # -- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="seats")
        yield Static(id="board")
        yield Static(id="hand")
        yield Static(id="prompt")
        yield HandLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.render_table()
        self.run_worker(self._drive(), exclusive=True, name="game")
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        if self.phase == "between" or (self.phase == "human" and self.clock):
            self.render_table()

    # -- the game loop -------------------------------------------------------
    async def _wait(self, timeout: float | None) -> bool:
        """Sleep until woken by a key (returns ``True``), or ``timeout``
        seconds (``None``: forever)."""
        self._wake.clear()
        if timeout is not None and timeout <= 0:
            await asyncio.sleep(0)
            return self._wake.is_set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)
        return self._wake.is_set()

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self.render_table()
        self.refresh_bindings()

    async def _drive(self) -> None:
        s = self.session
        while True:
            t = s.tournament
            if s.finished:
                self._set_phase("over")
                await self._wait(None)  # a rematch wakes us
            elif s.in_hand and s.human_in:
                if s.bot_to_act:
                    self._set_phase("bot")
                    await self._wait(self.bot_delay)
                    if s.bot_to_act:
                        s.bot_step()
                else:
                    await self._human_turn()
            elif not s.in_hand and not self._playing_out and self._result_for != t.hand_number:
                self._deadline = time.monotonic() + self.pause
                self._set_phase("between")  # R30: the result stays on the table
                await self._wait(self.pause)
                self._result_for = t.hand_number
            elif s.human_in:
                s.deal_next()
            else:
                # The human is out (bust or resigned): the bots finish the
                # tournament at full speed so the standings are final.
                if not self._playing_out:
                    self._playing_out = True
                    self._set_phase("playout")
                s.advance()
                self.render_table()
                await asyncio.sleep(0)

    async def _human_turn(self) -> None:
        """Wait for the human's move.  With a clock (R15) the turn runs out
        after ``clock`` seconds; the bot then presses Don't wait after
        ``dont_wait`` more (R26) and the turn is forfeited: a check when
        possible, else a fold (two in a row eliminate, R27)."""
        s = self.session
        self._deadline = time.monotonic() + (self.clock or 0.0)
        self._set_phase("human")
        if self.clock is None:
            await self._wait(None)
            return
        woken = await self._wait(self.clock + self.dont_wait)
        if not woken and s.human_to_act:
            if isinstance(self.app.screen, AmountScreen):
                self.app.pop_screen()
            # R26; V12 keeps the cards of a draw's rule; V7 posts a due bring-in.
            self.selected.clear()
            s.timeout()


class PokerApp(App[None]):
    """``freezeout play``: one :class:`GameScreen` over a :class:`GameSession`."""

    TITLE = "Freezeout"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    GameScreen { layout: vertical; }
    #title { height: auto; background: $primary-background; padding: 0 1; }
    #seats { height: auto; padding: 1 1 0 1; }
    #board { height: auto; padding: 1 1 0 1; }
    #hand { height: auto; padding: 0 1; }
    #prompt { height: auto; min-height: 3; padding: 0 1; margin-top: 1; border-top: solid $secondary; }
    #log { height: 1fr; padding: 0 1; color: $text-muted; }
    ConfirmScreen, AmountScreen { align: center middle; }
    #dialog { width: 64; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    #dialog Label { width: 100%; }
    #error { height: auto; }
    """

    def __init__(
        self,
        session: GameSession,
        *,
        bot_delay: float = 0.6,
        pause: float = 4.0,
        clock: float | None = None,
        dont_wait: float = 3.0,
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.pause = pause
        self.clock = clock
        self.dont_wait = dont_wait

    def get_default_screen(self) -> GameScreen:
        return GameScreen(
            self.session,
            bot_delay=self.bot_delay,
            pause=self.pause,
            clock=self.clock,
            dont_wait=self.dont_wait,
        )

    @property
    def game(self) -> GameScreen:
        """The table screen (also when a dialog is on top of it)."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the game screen is not mounted")
