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
from typing import ClassVar, Literal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Label, Static

from freezeout.cards import Card
from freezeout.rules.actions import ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import PotAwarded, StreetDealt
from freezeout.rules.variant import BettingStructure
from freezeout.rules.views import TableView
from freezeout.terminal import render
from freezeout.terminal.session import GameSession

__all__ = ["AmountScreen", "ConfirmScreen", "GameScreen", "PokerApp"]

Phase = Literal["start", "bot", "human", "between", "playout", "over"]


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (resigning, leaving): answers ``True`` only on ``y``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="question")
            yield Label("[b]y[/b] yes   ·   [b]n[/b] / Esc no", id="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class AmountInput(Input):
    """The amount field: digits only, so that ``p`` (the pot, V2) is a key
    of the dialog rather than a character the field swallows."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character is not None and character.isalpha():
            return False
        return super().check_consume_key(key, character)


class AmountScreen(ModalScreen[int | None]):
    """Asks for a bet or raise-to amount within the legal range.

    The field starts at the minimum; ↑/↓ move by a big blind, Enter submits,
    Escape cancels.  An amount outside the range is refused here with the
    reason, so the rules engine only ever sees legal sizes from the human.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("up", "step(1)", "+ big blind"),
        Binding("down", "step(-1)", "- big blind"),
        Binding("p", "pot", "Pot", priority=True),
    ]

    def __init__(self, *, word: str, low: int, high: int, step: int, pot_limit: bool = False) -> None:
        super().__init__()
        self.word = word
        self.low = low
        self.high = high
        self.step = max(step, 1)
        self.pot_limit = pot_limit  # V2: the most is the pot, one key away

    def compose(self) -> ComposeResult:
        title = "Bet" if self.word == "bet" else "Raise to"
        most = "the pot" if self.pot_limit else "all-in"
        pot = " · p pot" if self.pot_limit else ""
        with Vertical(id="dialog"):
            yield Label(f"[b]{title}[/b]  (from {self.low} to {self.high}; {self.high} is {most})")
            yield AmountInput(value=str(self.low), type="integer", id="amount")
            yield Label("", id="error")
            yield Label(f"Enter confirm · ↑/↓ ± big blind{pot} · Esc cancel", id="hint")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.pot_limit if action == "pot" else True

    def action_pot(self) -> None:
        """V2: the largest pot-limit bet, the pot after the call."""
        field = self.query_one("#amount", Input)
        field.value = str(self.high)
        field.cursor_position = len(field.value)

    def _amount(self) -> int | None:
        try:
            return int(self.query_one("#amount", Input).value)
        except ValueError:
            return None

    def action_step(self, direction: int) -> None:
        current = self._amount() or self.low
        value = min(max(current + direction * self.step, self.low), self.high)
        field = self.query_one("#amount", Input)
        field.value = str(value)
        field.cursor_position = len(field.value)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        amount = self._amount()
        error = ""
        if amount is None:
            error = "Type a whole number of chips."
        elif amount < self.low:
            error = f"The minimum is {self.low}."
        elif amount > self.high:
            error = f"The most you can put in is {self.high} (all-in)."
        if error:
            self.query_one("#error", Label).update(f"[red]{error}[/red]")
            return
        self.dismiss(amount)


class HandLog(Widget):
    """The current hand's log, bottom-aligned: it keeps the newest lines that
    fit, measured when painted (the panels above change height as the
    prompt grows, so the room is only known at render time)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: list[str] = []

    def show(self, lines: list[str]) -> None:
        self._entries = lines
        self.refresh()

    def render(self) -> RenderResult:
        room = max(self.size.height, 1)
        return Text("\n".join(self._entries[-room:]))


class GameScreen(Screen[None]):
    """The table: seats, board, pots, your cards, the moves, the hand's log."""

    BINDINGS: ClassVar[list[BindingType]] = [
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

    def _nudge(self) -> None:
        self.render_table()
        self.refresh_bindings()
        self._wake.set()

    # -- keys ----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something now (the footer follows)."""
        s = self.session
        legal = s.view().legal if self.phase == "human" and s.human_to_act else None
        if action == "fold":
            return legal is not None and legal.can_fold
        if action == "check_call":
            return legal is not None  # in a draw or a bring-in, c says which keys to use
        if action == "raise":
            return legal is not None and legal.can_raise and not legal.draw
        if action == "raise_big":
            return legal is not None and legal.can_raise and len(legal.sizes) > 1
        if action == "bring_in":
            return legal is not None and legal.bring_in > 0
        if action == "allin":
            return legal is not None and "allin" in legal.moves
        # d, s and 1-5 stay bound (not shown in the footer; the prompt lists
        # them in a draw), so that a draw out of turn gets its message.
        if action == "next_hand":
            return self.phase == "between"
        if action == "rematch":
            return self.phase == "over"
        if action == "resign":
            return not s.finished and s.human_in
        return True

    def _move(self, kind: ActionKind, amount: int | None = None) -> None:
        try:
            self.session.act(kind, amount)
        except RulesError as error:
            self.notify(str(error), severity="error")
            return
        self._nudge()

    def _drawing(self) -> int:
        """How many cards the human may change now (0: not their draw)."""
        legal = self.session.view().legal if self.session.human_to_act else None
        return legal.draw if legal is not None else 0

    def _selection(self) -> set[int]:
        """The picked cards, forgotten when a new draw (or hand) begins."""
        view = self.session.view()
        draws = sum(1 for e in view.history if isinstance(e, StreetDealt))
        key = (view.hand_number, draws)
        if key != self._picking_for:
            self._picking_for = key
            self.selected.clear()
        return self.selected

    def action_pick(self, index: int) -> None:
        """V11: select (or unselect) card ``index + 1`` for the discard."""
        held = self._drawing()
        if not held:
            self.notify("you pick cards only in a draw, when it is your turn", severity="error")
            return
        if index >= held:
            self.notify(f"you hold {held} cards: there is no card {index + 1}", severity="error")
            return
        chosen = self._selection()
        chosen.symmetric_difference_update({index})
        self.render_table()
        self.refresh_bindings()

    def action_draw(self) -> None:
        """Throw away the picked cards and draw as many (none: stand pat)."""
        if not self._drawing():
            self.notify("it is not your turn to draw", severity="error")
            return
        me = self.session.view().seats[self.session.human_seat]
        held = me.cards or ()
        picked = sorted(self._selection())
        cards = tuple(card for index, card in enumerate(held) if index in picked and card is not None)
        self._draw(cards)

    def action_stand_pat(self) -> None:
        if not self._drawing():
            self.notify("it is not your turn to draw", severity="error")
            return
        self._draw(())

    def _draw(self, cards: tuple[Card, ...]) -> None:
        try:
            self.session.discard(cards)
        except RulesError as error:
            self.notify(str(error), severity="error")
            return
        self.selected.clear()
        self._nudge()

    def action_bring_in(self) -> None:
        """V7: the lowest up-card posts the bring-in (or completes with r)."""
        self._move(ActionKind.BRINGIN)

    def action_fold(self) -> None:
        self._move(ActionKind.FOLD)

    def action_check_call(self) -> None:
        legal = self.session.view().legal
        if legal is None:
            return
        if legal.draw:
            self.notify("it is the draw: pick cards and press d, or s to stand pat", severity="error")
        elif legal.bring_in:
            self.notify(f"bring in {legal.bring_in} with b, or complete with r", severity="error")
        else:
            self._move(ActionKind.CHECK if "check" in legal.moves else ActionKind.CALL)

    def action_allin(self) -> None:
        self._move(ActionKind.ALLIN)

    def action_raise(self) -> None:
        view = self.session.view()
        legal = view.legal
        if legal is None or not legal.can_raise or legal.draw:
            return
        word = legal.raise_word
        kind = ActionKind(word)
        if legal.sizes:  # V3, V7: fixed limit (or a complete) has one size to choose
            self._move(kind, legal.sizes[0])
            return

        def chosen(amount: int | None) -> None:
            if amount is not None and self.session.human_to_act:
                self._move(kind, amount)

        pot_limit = render.variant_of(view.game).betting is BettingStructure.POT_LIMIT
        screen = AmountScreen(
            word=word, low=legal.min_to, high=legal.max_to, step=view.big_blind, pot_limit=pot_limit
        )
        self.app.push_screen(screen, chosen)

    def action_raise_big(self) -> None:
        """V7: after an open pair on fourth street, the big bet."""
        legal = self.session.view().legal
        if legal is not None and legal.can_raise and len(legal.sizes) > 1:
            self._move(ActionKind(legal.raise_word), legal.sizes[-1])

    def action_next_hand(self) -> None:
        if self.phase == "between":
            self._wake.set()

    def action_rematch(self) -> None:
        if self.session.finished:
            self.session.rematch()
            self._result_for = 0
            self._playing_out = False
            self._nudge()

    def action_resign(self) -> None:
        if self.session.finished or not self.session.human_in:
            return

        def answered(yes: bool | None) -> None:
            if yes and not self.session.finished and self.session.human_in:
                self.session.resign()
                self._nudge()

        question = (
            "Resign? You are out at once, placed below everyone still in, "
            "and your chips leave the game (R28)."
        )
        self.app.push_screen(ConfirmScreen(question), answered)

    def action_leave(self) -> None:
        s = self.session
        if s.finished or not s.human_in:
            s.close()
            self.app.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                s.close()
                self.app.exit()

        self.app.push_screen(ConfirmScreen("Leave the game? Leaving counts as resigning (R28)."), answered)

    # -- drawing -------------------------------------------------------------
    def render_table(self) -> None:
        if not self.is_mounted:
            return
        s = self.session
        view = s.view()
        names = s.players
        self.query_one("#title", Static).update(self._title(view))
        self.query_one("#seats", Static).update(self._seats(view))
        self.query_one("#board", Static).update(self._board(view))
        self.query_one("#hand", Static).update(self._hand(view))
        self.query_one("#prompt", Static).update(self._prompt(view))
        self.query_one("#log", HandLog).show(render.hand_lines(view.history, names))

    def _title(self, view: TableView) -> Text:
        s = self.session
        title = Text("Freezeout", style="bold")
        title.append(f" · game {s.game_number} · hand {view.hand_number} · ")
        config = s.tournament.config
        number = max(view.hand_number, 1)
        upcoming = config.hand_level(number + view.hands_to_next_level + 1)
        title.append(render.level_line(view, config.levels, config.hands_per_level, upcoming=upcoming))
        title.append("\n")
        title.append(render.game_line(view), style="italic")
        return title

    def _seats(self, view: TableView) -> Table:
        s = self.session
        table = Table(box=None, show_edge=False, pad_edge=False, expand=False, header_style="dim")
        for column, justify in (
            ("", "left"),
            ("player", "left"),
            ("", "left"),
            ("stack", "right"),
            ("bet", "right"),
            ("cards", "left"),
            ("", "left"),
        ):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        blinds = render.blind_markers(view.history)
        moves = render.last_moves(view.history)
        shown = render.shown_hands(view.history)
        won: dict[int, int] = {}
        for event in view.history:
            if isinstance(event, PotAwarded):
                for winner, chips in event.shares:
                    won[winner] = won.get(winner, 0) + chips
        for seat in view.seats:
            mine = seat.seat == s.human_seat
            turn = Text("▶", style="bold yellow") if view.to_act == seat.seat else Text("")
            name = Text(s.label(seat.seat), style="bold cyan" if mine else "")
            dealer = "D" if view.button == seat.seat and render.variant_of(view.game).uses_button else ""  # V7
            marks = " ".join(m for m in (dealer, blinds.get(seat.seat, "")) if m)
            stack = Text(str(seat.stack), style="" if seat.in_tournament else "dim")
            bet = str(seat.bet) if seat.bet else ""
            cards = render.seat_cards(view, seat)
            status = Text()
            if not seat.in_tournament and seat.place is not None:
                status.append(f"out · {render.ordinal(seat.place)}", style="dim")
            elif view.finished and seat.place == 1:
                status.append("winner", style="bold green")
            elif seat.folded:
                status.append("folded", style="dim")
            elif seat.seat in shown:
                status.append(shown[seat.seat], style="italic")
            elif seat.seat in moves:
                status.append(moves[seat.seat])
            if view.hand_over and won.get(seat.seat):
                status.append(f"  +{won[seat.seat]}", style="bold green")
            table.add_row(turn, name, marks, stack, bet, cards, status)
        return table

    def _board(self, view: TableView) -> Group:
        slots = render.board_slots(view)
        pots = Text(render.pots_line(view, self.session.players))
        if not slots and not view.board:  # a draw game; stud shows its shared card if dealt
            return Group(pots)
        line = Text("Board  ", style="bold")
        line.append_text(render.cards_text(view.board, slots=slots))
        return Group(line, pots) if pots.plain else Group(line)

    def _hand(self, view: TableView) -> Text:
        me = view.seats[self.session.human_seat]
        line = Text("You    ", style="bold cyan")
        if me.cards is not None and self.session.human_in:
            picking = view.legal is not None and view.legal.draw > 0
            line.append_text(render.seat_cards(view, me, selected=self._selection() if picking else ()))
            if me.hand and not me.folded:
                line.append(f"  {me.hand}", style="italic")
            if picking:
                numbers = "".join(f" {n:^3} " for n in range(1, len(me.cards) + 1))
                line.append("\n       " + numbers, style="dim")
        elif not self.session.human_in and me.place is not None:
            line.append(f"out in {render.ordinal(me.place)} place", style="dim")
        return line

    def _prompt(self, view: TableView) -> RenderableType:
        s = self.session
        if self.phase == "human" and view.legal is not None:
            legal = view.legal
            head = Text("Your turn", style="bold yellow")
            if legal.call_amount:
                head.append(f": {legal.call_amount} to call", style="yellow")
            if self.clock is not None:
                left = self._deadline - time.monotonic()
                if left > 0:
                    head.append(f"   {left:.0f} s left", style="yellow")
                else:
                    head.append("   time is up: the bot may not wait for you", style="bold red")
            if legal.draw:
                head.append(": the draw — pick the cards to throw away", style="yellow")
            elif legal.bring_in:
                head.append(": you have the lowest up-card", style="yellow")
            keys = Text()
            structure = render.variant_of(view.game).betting
            summary = render.legal_summary(legal, selected=len(self._selection()), structure=structure)
            for key, label in [*summary, ("x", "resign")]:
                keys.append(f" {key} ", style="bold reverse")
                keys.append(f" {label}   ")
            if legal.no_raise_reason and not legal.can_raise and not legal.draw:
                return Group(head, keys, Text(f"No raise: {legal.no_raise_reason}", style="dim"))
            return Group(head, keys)
        if self.phase == "bot" and view.to_act >= 0:
            return Text(f"{s.label(view.to_act)} is thinking…", style="dim")
        if self.phase == "between":
            result = render.result_lines(view.history, s.players, view.result)
            lines = [Text(line, style="bold") for line in result]
            left = max(self._deadline - time.monotonic(), 0.0)
            lines.append(Text(f"Next hand in {left:.0f} s — press space to deal now", style="dim"))
            return Group(*lines)
        if self.phase == "playout":
            return Text("You are out; the bots play the tournament to its end…", style="dim")
        if self.phase == "over":
            return self._standings()
        return Text("")

    def _standings(self) -> Group:
        s = self.session
        lines = [Text(f"Game {s.game_number} is over. Final standings:", style="bold")]
        for row in s.standings():
            place = render.ordinal(row.place) if row.place is not None else "–"
            style = "bold cyan" if row.player == s.human else ""
            lines.append(Text(f"  {place:>4}  {s.labels[row.player]}", style=style))
        if s.current_record_path is not None:
            lines.append(Text(f"Record saved to {s.current_record_path}", style="dim"))
            if s.record_verified is not None:
                verdict = (
                    "it replays to the same result" if s.record_verified else "WARNING: it does not replay"
                )
                lines.append(Text(f"  (checked: {verdict})", style="dim"))
        keys = Text()
        for key, label in (("n", "rematch (everyone moves one seat on)"), ("q", "quit")):
            keys.append(f" {key} ", style="bold reverse")
            keys.append(f" {label}   ")
        lines.append(keys)
        return Group(*lines)


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
