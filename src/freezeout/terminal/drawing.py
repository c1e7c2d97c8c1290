"""What the table screen draws: the title, seats, board, your cards, the prompt,
the standings and the hand's log — each rebuilt from ``session.view()`` at every
redraw (the screen keeps no game state of its own), plus the draw picker's
selection, which is the one thing the screen remembers."""

from __future__ import annotations

import time
from typing import Literal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import RenderResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from freezeout.rules.events import PotAwarded, StreetDealt
from freezeout.rules.views import TableView
from freezeout.terminal import render
from freezeout.terminal.session import GameSession

__all__ = ["HandLog", "Phase", "TableDrawing"]

Phase = Literal["start", "bot", "human", "between", "playout", "over", "waiting"]  # waiting: a cash table waits for the human (sitting out, no chips)


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



class TableDrawing(Screen[None]):
    """The drawing half of :class:`~freezeout.terminal.app.GameScreen` (a base class:
    the game loop and the keys live in their own modules)."""

    session: GameSession
    phase: Phase
    clock: float | None
    _deadline: float
    selected: set[int]  # the draw picker: indexes of the cards to throw away
    _picking_for: tuple[int, int]  # (hand, draw) the selection belongs to

    def _selection(self) -> set[int]:
        """The picked cards, forgotten when a new draw (or hand) begins."""
        view = self.session.view()
        draws = sum(1 for e in view.history if isinstance(e, StreetDealt))
        key = (view.hand_number, draws)
        if key != self._picking_for:
            self._picking_for = key
            self.selected.clear()
        return self.selected


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
        title.append(render.level_line(view, config.levels, config.hands_per_level))
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
            if seat.position:  # C12: the view names the position (BTN, SB, BB, UTG, …, CO)
                marks = seat.position
            else:
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

