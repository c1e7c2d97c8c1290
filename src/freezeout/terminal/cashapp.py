"""The textual front end of ``freezeout play --cash``: a cash table against bots.

The freezeout's table screen (terminal/app.py) with the cash table's own
title, prompt and loop: the title shows the game, the stakes, the buy-ins
and the balance; the game keys are the freezeout's (f c r a b R, 1-5 d s,
space), and ``t`` tops up between hands (C2, back to the maximum as far as
the balance goes), ``o`` sits out or back in (C3, C4) and ``q`` leaves the
table with the chips (C3; in a hand the hand is folded out first).  There
is no resign and no rematch: players come and go.  As in the freezeout the
screen keeps no game state: every redraw comes from the session's view.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType

from freezeout.rules.errors import RulesError
from freezeout.rules.views import TableView
from freezeout.terminal import render
from freezeout.terminal.app import GAME_KEYS, GameScreen, PokerApp
from freezeout.terminal.cash import CashSession
from freezeout.terminal.dialogs import ConfirmScreen

__all__ = ["CASH_KEYS", "CashApp", "CashScreen"]

#: The keys a cash table adds to the freezeout's (shown in the prompt and ``--help``).
CASH_KEYS = (("t", "top up"), ("o", "sit out / in"), ("q", "leave"))


class CashScreen(GameScreen):
    """A cash table: :class:`GameScreen`'s drawing and game keys over a :class:`CashSession`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *GAME_KEYS,
        Binding("t", "top_up", "Top up"),
        Binding("o", "sit_out_in", "Sit out/in"),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(self, session: CashSession, *, bot_delay: float, pause: float) -> None:
        # The freezeout screen's drawing and keys read only what both sessions have
        # (view, players, label, human_seat, human_in, act, discard).
        super().__init__(session, bot_delay=bot_delay, pause=pause)  # type: ignore[arg-type]
        self.cash = session

    # -- the loop ----------------------------------------------------------------
    async def _drive(self) -> None:
        s = self.cash
        while True:
            if not s.seated:
                self.app.exit()
                return
            if s.in_hand:
                if s.human_to_act:
                    await self._human_turn()
                else:
                    self._set_phase("bot")
                    await self._wait(self.bot_delay)
                    if s.bot_to_act:
                        s.bot_step()
                        self.render_table()
            elif self._result_for != s.table.hand_number and s.table.hand_number > 0:
                self._deadline = time.monotonic() + self.pause
                self._set_phase("between")  # R30: the result stays on the table
                await self._wait(self.pause)
                self._result_for = s.table.hand_number
            elif s.advance():  # the bots top up, the next hand is dealt
                self.render_table()
            else:
                self._set_phase("waiting")  # sitting out, or no chips: a key wakes us
                await self._wait(None)
            await asyncio.sleep(0)

    # -- drawing ---------------------------------------------------------------------
    def _title(self, view: TableView) -> Text:
        s = self.cash
        config = s.config
        title = Text("Freezeout cash", style="bold")
        title.append(f" · {s.game_name} · blinds {config.blinds[0]}/{config.blinds[1]}")
        title.append(f" · buy-in {config.min_buy_in}-{config.max_buy_in} · hand {view.hand_number}")
        title.append("\n")
        title.append(f"Balance {s.balance} · on the table {s.stack}", style="bold cyan")
        return title

    def _prompt(self, view: TableView) -> RenderableType:
        s = self.cash
        keys = Text()
        if self.phase == "human" and view.legal is not None:
            legal = view.legal
            head = Text("Your turn", style="bold yellow")
            if legal.call_amount:
                head.append(f": {legal.call_amount} to call", style="yellow")
            if legal.draw:
                head.append(": the draw — pick the cards to throw away", style="yellow")
            elif legal.bring_in:
                head.append(": you have the lowest up-card", style="yellow")
            structure = render.variant_of(view.game).betting
            summary = render.legal_summary(legal, selected=len(self._selection()), structure=structure)
            for key, label in [*summary, ("o", "sit out"), ("q", "leave")]:
                keys.append(f" {key} ", style="bold reverse")
                keys.append(f" {label}   ")
            return Group(head, keys)
        for key, label in CASH_KEYS:
            keys.append(f" {key} ", style="bold reverse")
            keys.append(f" {label}   ")
        if self.phase == "bot" and view.to_act >= 0:
            return Group(Text(f"{s.label(view.to_act)} is thinking…", style="dim"), keys)
        if self.phase == "between":
            lines = [Text(line, style="bold") for line in render.result_lines(view.history, s.players, view.result)]
            left = max(self._deadline - time.monotonic(), 0.0)
            lines.append(Text(f"Next hand in {left:.0f} s — press space to deal now", style="dim"))
            return Group(*lines, keys)
        if self.phase == "waiting":
            if s.sitting_out:
                why = "You are sitting out: press o to sit back in."
            elif s.stack == 0:
                why = f"You have no chips on the table: press t to top up (balance {s.balance}), or q to leave."
            else:
                why = "Waiting for the next hand."
            return Group(Text(why, style="bold"), keys)
        return keys

    # -- keys ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        s = self.cash
        if action == "top_up":
            return s.seated and not s.human_dealt and s.balance > 0 and s.stack < s.config.max_buy_in
        if action == "sit_out_in":
            return s.seated
        if action in ("resign", "rematch"):
            return False
        return super().check_action(action, parameters)

    def action_top_up(self) -> None:
        try:
            added = self.cash.top_up()
        except RulesError as error:
            self.notify(str(error), severity="error")
            return
        self.notify(f"topped up {added} chips")
        self._nudge()

    def action_sit_out_in(self) -> None:
        s = self.cash
        try:
            if s.sitting_out:
                s.sit_in()
            else:
                s.sit_out()
        except RulesError as error:
            self.notify(str(error), severity="error")
            return
        self.notify("you sit out from the next hand" if s.sitting_out else "you are back in")
        self._nudge()

    def action_resign(self) -> None:
        self.notify("at a cash table you fold, sit out (o) or leave (q)", severity="error")

    def action_rematch(self) -> None:
        return

    def action_leave(self) -> None:
        s = self.cash

        def answered(yes: bool | None) -> None:
            if yes:
                s.close()
                self.app.exit()

        where = " (this hand is folded first)" if s.human_dealt else ""
        self.app.push_screen(ConfirmScreen(f"Leave the table with your {s.stack} chips{where}?"), answered)


class CashApp(App[None]):
    """``freezeout play --cash``: one :class:`CashScreen` over a :class:`CashSession`."""

    TITLE = "Freezeout cash"
    ENABLE_COMMAND_PALETTE = False
    CSS = PokerApp.CSS

    def __init__(self, session: CashSession, *, bot_delay: float = 0.6, pause: float = 4.0) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.pause = pause

    def get_default_screen(self) -> CashScreen:
        return CashScreen(self.session, bot_delay=self.bot_delay, pause=self.pause)

    @property
    def game(self) -> CashScreen:
        for screen in self.screen_stack:
            if isinstance(screen, CashScreen):
                return screen
        raise LookupError("the cash table screen is not mounted")
