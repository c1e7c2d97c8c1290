"""The terminal's dialogs: a yes/no question (resign, leave) and the amount of a
bet or raise (no-limit and pot-limit; fixed limit has one size and asks nothing)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

__all__ = ["AmountInput", "AmountScreen", "ConfirmScreen"]


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

