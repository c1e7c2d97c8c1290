"""The table screen's keys: each handler calls the session and wakes the game loop
(``_nudge``); ``check_action`` shows only the keys that do something now."""

from __future__ import annotations

import asyncio

from freezeout.cards import Card
from freezeout.rules.actions import ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.variant import BettingStructure
from freezeout.terminal import render
from freezeout.terminal.dialogs import AmountScreen, ConfirmScreen
from freezeout.terminal.drawing import TableDrawing

__all__ = ["KeyActions"]


class KeyActions(TableDrawing):
    """The keys of :class:`~freezeout.terminal.app.GameScreen` (its ``BINDINGS`` name them)."""

    _wake: asyncio.Event
    _result_for: int
    _playing_out: bool

    def _nudge(self) -> None:
        self.render_table()
        self.refresh_bindings()
        self._wake.set()

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
