"""Write a hand played by the engine as PHH (formats.md §2: "The server
exports every hand it deals as PHH … readable by PokerKit").

:func:`played_hand_to_phh` takes the :class:`~freezeout.rules.hand.HandSetup`
and the moves of one hand (hand seats, the engine's move words) and returns
the TOML text of one PHH hand, with ``finishing_stacks``.

Seat order.  PHH lists players from the first seat left of the button round
to the button, so ``p1`` is hand seat ``button + 1`` and the button is the
last player.  Heads-up this makes ``p1`` the big blind and ``p2`` the button
(small blind), and PHH applies ``antes``/``blinds_or_straddles`` reversed
heads-up, so those arrays are written reversed.

Moves.  Every move is written as what the engine resolved it to: ``fold`` →
``f``; ``check``/``call`` → ``cc``; ``bet``/``raise`` → ``cbr`` with the
player's total for the round; ``allin`` → ``cc`` or ``cbr`` (the engine says
which); a ``timeout`` (R26) → ``f`` or ``cc`` with the commentary
``# timeout``.  Board cards are dealt with ``d db`` when the engine deals
them; at a showdown the players still in show with ``pN sm cards`` right when
the betting ends — before the remaining board cards in an all-in run-out,
which is PokerKit's order.

What PHH cannot say, and what we write instead:

* A resignation (R28, D8) folds the player at once, even out of turn, and
  his chips behind leave the game.  PHH only knows folds by the player to
  act, so the fold is written at his next turn (``pN f # resigns``);
  if the hand reaches the showdown before that turn comes, he mucks there
  (``pN sm``, forfeiting the pot); if the hand ended because he left (the
  others had folded), the history stops where it ended with a comment.
  ``finishing_stacks`` are always the engine's true result, so the
  resigner's vanished chips (R28) show as missing: a PHH reader that replays
  the actions keeps them in his stack.  And a bet of his that nobody
  matched stays in the pot (D6, D8), whereas a reader returns it to him if
  the deferred fold or muck comes after that betting round.  So for a hand
  with a resignation the actions and ``finishing_stacks`` disagree by
  those chips; every other hand replays exactly.
* A short big blind does not lower the bet to match (D1); PokerKit lowers it
  to the chips actually posted, so hands where a player calls a short big
  blind replay differently there.
* A bet or raise that nobody can call in full (allowed by D4; PokerKit
  refuses it) is written as ``cc`` with a commentary: in chips and in who
  acts next it is the same as a call, the excess coming back (R21).
* ``ante_trimming_status`` is ``HandSetup.ante_trimming``.  For uniform
  antes PokerKit reads it as the engine does; for unequal antes (a
  big-blind ante) only ``false`` (dead money) replays the same in PokerKit,
  whose ``true`` refunds the unmatched part of an ante at once.
* Dead blinds (``HandSetup.dead``) have no PHH field; being dead money in
  the main pot, they are written as antes with ``ante_trimming_status =
  false``, which means exactly that.  Together with trimmed antes they
  cannot be written (``ValueError``).
* Odd chips go one at a time from the left of the button, pot by pot (R22,
  D7); PokerKit gives a pot's whole remainder to the first winner and
  merges pots that the same players win, which moves odd chips only when a
  hand has two or more of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.cards import Card, format_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction
from freezeout.rules.events import ActionTaken
from freezeout.rules.hand import HandSetup, HandState, apply, resign, start_hand

__all__ = ["played_hand_to_phh"]

_KIND_OF_WORD = {
    "fold": ActionKind.FOLD,
    "check": ActionKind.CHECK,
    "call": ActionKind.CALL,
    "bet": ActionKind.BET,
    "raise": ActionKind.RAISE,
}


def _toml_string(text: str) -> str:
    """A TOML basic string (double quotes, escapes for ``"``, ``\\`` and controls)."""
    out = ['"']
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"


class _Writer:
    """Turns the engine's moves into PHH action lines while following the
    hand the way a PHH reader sees it (a *shadow* hand in which resigned
    players are still seated until their turn comes)."""

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        n = len(setup.stacks)
        self.order = [(setup.button + 1 + index) % n for index in range(n)]  # PHH index → hand seat
        self.label = {seat: f"p{index + 1}" for index, seat in enumerate(self.order)}
        self.lines: list[str] = []
        self.pending: set[int] = set()  # resigned, still seated in the shadow hand
        self.shadow, _ = start_hand(setup)
        self.stopped = False

    # -- output helpers
    def _emit_street_cards(self, before: HandState, after: HandState, *, streets: int = 5) -> None:
        variant = self.setup.variant
        dealt = before.board_dealt
        street = before.street
        while dealt < after.board_dealt and streets > 0:
            streets -= 1
            street += 1
            count = variant.streets[street]
            self.lines.append(f"d db {format_cards(self.setup.board[dealt : dealt + count])}")
            dealt += count

    def _emit_showdown(self, state: HandState) -> bool:
        """Write the showdown; return whether the whole board is dealt after it.

        A resigned player still seated in the PHH hand mucks (forfeits).  When
        the mucks leave a single player, PokerKit deals the pending street and
        then ends the hand, so only that street follows (``False``).
        """
        inside = [seat for seat in self.order if not state.folded[seat]]
        staying = [seat for seat in inside if seat not in self.pending]
        mucking = [seat for seat in inside if seat in self.pending]
        for seat in staying:
            cards = self.setup.hole[seat] if self.setup.hole else None
            shown = f" {format_cards(cards)}" if cards is not None else ""
            self.lines.append(f"{self.label[seat]} sm{shown}")
        for seat in mucking:
            self.lines.append(f"{self.label[seat]} sm # resigned (R28): forfeits the pot")
        return len(staying) > 1

    def _step(self, action: Action, line: str) -> None:
        """Apply ``action`` to the shadow hand and write ``line`` plus any deal/showdown."""
        before = self.shadow
        after, _ = apply(before, action)
        self.lines.append(line)
        # PokerKit shows down as soon as the betting ends, then runs the board out.
        if not (after.finished and after.showdown) or self._emit_showdown(after):
            self._emit_street_cards(before, after)
        else:
            self._emit_street_cards(before, after, streets=1)
        self.shadow = after

    def _fold_pending(self) -> None:
        while not self.shadow.finished and self.shadow.actor in self.pending:
            seat = self.shadow.actor
            self.pending.discard(seat)
            self._step(Action(seat, ActionKind.FOLD), f"{self.label[seat]} f # resigns (R28)")

    # -- moves
    def move(self, taken: ActionTaken) -> None:
        if self.stopped:
            return
        self._fold_pending()
        seat = taken.seat
        kind = _KIND_OF_WORD[taken.kind]
        amount = taken.total if kind in (ActionKind.BET, ActionKind.RAISE) else None
        comment = " # timeout (R26)" if taken.forced else ""
        if kind in (ActionKind.CHECK, ActionKind.CALL):
            word = "cc"
        elif kind is ActionKind.FOLD:
            word = "f"
        elif _nobody_can_call_more(self.shadow, seat):
            # D4 allows it, PHH readers (PokerKit) do not; it is a call in chips and in who acts next.
            word = "cc"
            comment = f" # {taken.kind} to {amount}: nobody can call more (D4), written as a call"
        else:
            word = f"cbr {amount}"
        line = f"{self.label[seat]} {word}{comment}"
        self._step(Action(seat, kind, amount), line)

    def resign(self, seat: int) -> None:
        if self.stopped or self.shadow.finished or self.shadow.folded[seat]:
            return
        if self.shadow.actor == seat:
            self._step(Action(seat, ActionKind.FOLD), f"{self.label[seat]} f # resigns (R28)")
        else:
            self.pending.add(seat)

    def finish(self, real: HandState) -> None:
        if self.stopped:
            return
        self._fold_pending()
        if not self.shadow.finished and real.finished:
            waiting = self.label[self.shadow.actor] if self.shadow.actor >= 0 else "nobody"
            resigned = ", ".join(self.label[seat] for seat in sorted(self.pending))
            self.lines.append(
                f"# the hand ended when {resigned} resigned (R28); PHH cannot record that, {waiting} was to act"
            )


def _nobody_can_call_more(state: HandState, seat: int) -> bool:
    """Whether no other player still in can put in more than the bet to match.

    A bet or raise then only changes who gets chips back (R21): every other
    player can at most call all-in, exactly as after a call.
    """
    return all(
        state.stacks[other] + state.bets[other] <= state.to_match
        for other in range(state.seat_count)
        if other != seat and not state.folded[other]
    )


def played_hand_to_phh(
    setup: HandSetup,
    actions: Sequence[Action],
    *,
    hand_number: int | None = None,
    event: str | None = None,
) -> str:
    """The PHH (TOML) text of one hand played by the engine.

    ``actions`` are the hand's moves in hand seats (fold, check, call, bet,
    raise, allin, timeout, resign); resignations after the hand's last move
    happen between hands (D8) and are left out.  Raises
    :class:`~freezeout.rules.errors.RulesError` if the moves do not make a
    complete legal hand, :class:`ValueError` for a setup PHH cannot express
    (dead blinds with trimmed antes).  See the module docstring for what PHH
    cannot say.
    """
    if any(setup.dead) and any(setup.antes) and setup.ante_trimming:
        raise ValueError("dead blinds and trimmed antes cannot be written together in PHH")
    state, _ = start_hand(setup)
    writer = _Writer(setup)
    for action in actions:
        if action.kind is ActionKind.RESIGN:
            if state.finished:
                continue  # between hands (D8): not part of this hand's history
            state, events = resign(state, action.seat)
            writer.resign(action.seat)
            continue
        state, events = apply(state, action)
        for happened in events:
            if isinstance(happened, ActionTaken):
                writer.move(happened)
    if not state.finished:
        raise IllegalAction(f"the hand is not complete ({setup.name(state.actor)} to act)")
    writer.finish(state)
    return _render(setup, writer, state, hand_number=hand_number, event=event)


def _render(
    setup: HandSetup, writer: _Writer, state: HandState, *, hand_number: int | None, event: str | None
) -> str:
    order = writer.order
    n = len(order)
    antes = [
        (setup.antes[seat] if setup.antes else 0) + (setup.dead[seat] if setup.dead else 0) for seat in order
    ]
    blinds = [setup.blinds[seat] if setup.blinds else 0 for seat in order]
    if n == 2:  # PHH applies forced bets reversed heads-up
        antes.reverse()
        blinds.reverse()
    lines = ['variant = "NT"']
    if any(antes):
        trimming = setup.ante_trimming and not any(setup.dead)
        lines.append(f"ante_trimming_status = {'true' if trimming else 'false'}")
    lines += [
        f"antes = {_ints(antes)}",
        f"blinds_or_straddles = {_ints(blinds)}",
        f"min_bet = {setup.big_blind}",
        f"starting_stacks = {_ints([setup.stacks[seat] for seat in order])}",
        "actions = [",
    ]
    for seat in order:
        cards: tuple[Card, ...] | None = setup.hole[seat] if setup.hole else None
        text = format_cards(cards) if cards is not None else "??" * setup.variant.hole_cards
        lines.append(f"  {_toml_string(f'd dh {writer.label[seat]} {text}')},")
    for line in writer.lines:
        lines.append(f"  {_toml_string(line)},")
    lines.append("]")
    if hand_number is not None:
        lines.append(f"hand = {hand_number}")
    if event is not None:
        lines.append(f"event = {_toml_string(event)}")
    lines.append(f"players = [{', '.join(_toml_string(setup.name(seat)) for seat in order)}]")
    final = state.final_stacks()
    lines.append(f"finishing_stacks = {_ints([final[seat] for seat in order])}")
    return "\n".join(lines) + "\n"
