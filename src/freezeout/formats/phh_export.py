"""Write hands played by the engine as PHH (docs/formats.md §2, "Export",
which lists for users what follows here).

* :func:`played_hand_to_phh` — one hand from its
  :class:`~freezeout.rules.hand.HandSetup` and its moves (hand seats, the
  engine's move words);
* :func:`record_hand_to_phh` — one hand of a replayed
  ``freezeout.record/1`` tournament (it knows which timeout was a player's
  second in a row, R27, which the hand alone cannot tell);
* :func:`record_to_phh` — every hand of a replayed record, as the ``[1]``,
  ``[2]``, … tables that ``freezeout record phh`` prints.

Every hand is written *complete*: a PHH reader that plays the actions
(PokerKit) reaches the end of the hand, and ``finishing_stacks`` are the
engine's true result.

Seat order.  PHH lists players from the first seat left of the button round
to the button, so ``p1`` is hand seat ``button + 1`` and the button is the
last player.  Heads-up this makes ``p1`` the big blind and ``p2`` the button
(small blind), and PHH applies ``antes``/``blinds_or_straddles`` reversed
heads-up, so those arrays are written reversed.

Moves.  Every move is written as what the engine resolved it to: ``fold`` →
``f``; ``check``/``call`` → ``cc``; ``bet``/``raise`` → ``cbr`` with the
player's total for the round; ``allin`` → ``cc`` or ``cbr`` (the engine says
which); a ``timeout`` (R26) → ``f`` or ``cc`` with the commentary
``# timeout (R26)``.  Board cards are dealt with ``d db`` when the engine
deals them; at a showdown the players still in show with ``pN sm cards``
right when the betting ends — before the remaining board cards in an all-in
run-out, which is PokerKit's order.

Resignations (R28, D8) and eliminating timeouts (R27, D9).  PHH has neither;
what it has is a fold by the player to act, so:

* a player who resigns on his turn, or whose second timeout in a row
  eliminates him, folds there (``pN f # resigns (R28) …``);
* a player who resigns out of turn is folded at once by the rules, but PHH
  can only fold him when his turn comes: a comment marks the moment he
  resigned, and ``pN f # resigned (R28) …`` is written at his next turn; if
  the betting is over before that turn comes, he mucks at the showdown
  (``pN sm``, forfeiting the pot);
* when a resignation ends the hand (everyone else had folded, R16) while
  another player is to act, the history goes on until the resigner's fold:
  the remaining player checks or calls (``# not played: …``) — in chips
  the same as not acting, since he wins what he calls — and a board card the
  record does not give is written unknown (``??``);
* the resigner's chips behind leave the game: ``finishing_stacks`` show them
  gone, while a PHH reader, which cannot make chips vanish, keeps them in
  his stack.

What else PHH and PokerKit (0.7.7) read differently (each checked by
``tests/formats/test_phh_export_records.py``):

* D1 ends a betting round without a turn for the only player left who could
  bet, when he has put in as much as anyone; PokerKit decides that only as
  a round begins, so a player who has not acted yet (the big blind) keeps
  his turn when the others then fold or call all-in below him.  The file
  writes the check PokerKit waits for (``# … PokerKit still gives him this
  turn``), or there the fold of a resigner still seated.
* PokerKit fails (``AssertionError``) when a muck at an all-in showdown
  before the river leaves one player with chips behind, and when it pays a
  pot nobody left can win with one player left.  A resigner in either spot
  is dealt unknown cards (the real ones in a comment) and shows them
  unknown, mucking only when that is safe (see :meth:`_Writer._emit_end`).
* A resigner's bet that the others did not match in full stays in the pot
  for whoever wins the pot below it (D6, D7, D8); a PHH reader gives it
  back to the resigner while he is still seated there, or, once he has
  folded, burns it (PokerKit: "Due to non-standard folds, some chips will be
  burned").
* A short big blind does not lower the bet to match (D1); PokerKit lowers it
  to the chips actually posted, so a hand where someone calls (or raises
  over) a short big blind can end with other stacks there, or PokerKit
  refuses a raise in it.  Every preflop call and raise of such a hand says
  so in a commentary.
* House ruleset only: a raise that a short all-in reopened (R12) is written
  as played, with a commentary; PokerKit (the standard rule, D3) refuses it.
* A bet or raise that nobody can call in full (allowed by D4; PokerKit
  refuses it) is written as ``cc`` with a commentary: in chips and in who
  acts next it is the same as a call, the excess coming back (R21).
* Odd chips go one at a time from the left of the button, pot by pot (R22,
  D7); PokerKit gives a pot's whole remainder to the first winner and
  merges pots that the same players win, which moves odd chips only when a
  hand has two or more of them.
* ``ante_trimming_status`` is ``HandSetup.ante_trimming``.  For uniform
  antes PokerKit reads it as the engine does; for unequal antes (a
  big-blind ante) only ``false`` (dead money) replays the same in PokerKit,
  whose ``true`` refunds the unmatched part of an ante at once.
* Dead blinds (``HandSetup.dead``) have no PHH field; being dead money in
  the main pot, they are written as antes with ``ante_trimming_status =
  false``, which means exactly that.  Together with trimmed antes they
  cannot be written (``ValueError``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from freezeout.cards import full_deck
from freezeout.formats.phh import format_phh_cards
from freezeout.formats.phh_games import game_hand_to_phh
from freezeout.formats.phh_toml import hand_tail, toml_ints, toml_string
from freezeout.formats.record import PlayedHand, ReplayResult
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    Event,
    Forfeited,
    HandEnded,
    HandStarted,
)
from freezeout.rules.hand import HandSetup, HandState, apply, resign, start_hand
from freezeout.rules.legal import legal_actions
from freezeout.rules.variant import NLHE, Ruleset

__all__ = ["played_hand_to_phh", "record_hand_to_phh", "record_to_phh"]

_KIND_OF_WORD = {
    "fold": ActionKind.FOLD,
    "check": ActionKind.CHECK,
    "call": ActionKind.CALL,
    "bet": ActionKind.BET,
    "raise": ActionKind.RAISE,
}


@dataclass(frozen=True, slots=True)
class _Move:
    """A move of the hand (hand seat); ``eliminates`` marks a timeout that is
    the player's second forfeit in a row: a resignation in that instant (D9)."""

    action: Action
    eliminates: bool = False


def _with_full_board(setup: HandSetup) -> HandSetup:
    """``setup`` with the board completed by unused cards.

    A record lists only the board cards its hand reaches; the history of a
    hand that a resignation ended may have to deal one more street before the
    resigner's turn comes.  Those extra cards are written unknown (``??``)."""
    missing = setup.variant.board_size - len(setup.board)
    if missing <= 0:
        return setup
    used = set(setup.board)
    for cards in setup.hole:
        used.update(cards or ())
    spare = [card for card in full_deck() if card not in used][:missing]
    return replace(setup, board=setup.board + tuple(spare))


class _Writer:
    """Turns the engine's moves into PHH action lines while following the
    hand the way a PHH reader sees it: a *shadow* hand in which players who
    resigned out of turn stay seated until their turn comes."""

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        n = len(setup.stacks)
        self.order = [(setup.button + 1 + index) % n for index in range(n)]  # PHH index → hand seat
        self.label = {seat: f"p{index + 1}" for index, seat in enumerate(self.order)}
        self.lines: list[str] = []
        self.pending: set[int] = set()  # resigned, still seated in the shadow hand
        self.known_board = len(setup.board)
        self.unknown_hole: set[int] = set()  # resigners whose cards are written unknown (see _emit_end)
        self.shadow, events = start_hand(_with_full_board(setup))
        self.put_in = [0] * n  # chips each seat has in the shadow hand's pots
        self._count(events)
        self.round_start = self.shadow  # the shadow hand when its betting round began
        posted = max(self.shadow.bets)
        self.short_big_blind = (
            f"the big blind is short: the bet to match stays {self.shadow.to_match} (D1), PokerKit lowers it to {posted}"
            if self.shadow.to_match > posted
            else ""
        )
        if self.shadow.finished:  # decided by the forced bets alone (all-in blinds, D11)
            self._emit_end(self.shadow._replace(street=0, board_cards=()), self.shadow)

    # -- output helpers
    def _emit_street_cards(
        self,
        before: HandState,
        after: HandState,
        *,
        streets: int = 5,
        then: Sequence[str] = (),
        last: Sequence[str] = (),
    ) -> None:
        """Write the board cards dealt from ``before`` to ``after`` (at most
        ``streets`` streets), each deal followed by the lines ``then``, the
        last one by ``last``."""
        board = self.shadow.setup.board
        dealt = before.board_dealt
        street = before.street
        while dealt < after.board_dealt and streets > 0:
            streets -= 1
            street += 1
            count = self.setup.variant.streets[street].board
            cards = "".join(
                str(board[index]) if index < self.known_board else "??" for index in range(dealt, dealt + count)
            )
            self.lines.append(f"d db {cards}")
            dealt += count
            self.lines.extend(then if dealt < after.board_dealt else last)

    def _count(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, (BlindPosted, ActionTaken)):
                self.put_in[event.seat] += event.amount if isinstance(event, BlindPosted) else event.added
            elif isinstance(event, BetReturned):
                self.put_in[event.seat] -= event.amount

    def _emit_end(self, before: HandState, after: HandState) -> None:
        """Write the board cards dealt from ``before`` to ``after`` and, when
        ``after`` ends in a showdown, the showdown.

        PokerKit shows down as soon as the betting ends and then runs the
        board out.  A resigned player still seated in the PHH hand forfeits
        there: he mucks (``pN sm``).  When the mucks leave one player,
        PokerKit deals the next street and ends the hand — but PokerKit 0.7.7
        fails (``AssertionError``) dealing it if that player has chips
        behind.  Then the resigner's cards are written unknown instead
        (``d dh pN ????``, the cards in a comment): PokerKit asks a player
        whose cards are not face up to show again after each street, so he
        shows his unknown cards until the board is out and mucks then.
        PokerKit also fails paying out, with one player left, a pot that no
        one left can win (chips put in above the last player's, D7 gives
        them to the pot below): then the resigner does not muck at all, and
        PokerKit plays the board for his unknown cards (a tie with the board
        splits the pot with him).
        """
        if not (after.finished and after.showdown):
            self._emit_street_cards(before, after)
            return
        inside = [seat for seat in self.order if not after.folded[seat]]
        staying = [seat for seat in inside if seat not in self.pending]
        forfeiting = [seat for seat in inside if seat in self.pending]
        self.pending.difference_update(forfeiting)
        for seat in staying:
            cards = self.setup.hole[seat] if self.setup.hole else None
            shown = f" {format_phh_cards(cards)}" if cards is not None else ""
            self.lines.append(f"{self.label[seat]} sm{shown}")
        run_out = after.board_dealt > before.board_dealt
        orphan = len(staying) == 1 and any(
            self.put_in[seat] > self.put_in[staying[0]] for seat in self.order if seat not in staying
        )
        if forfeiting and len(staying) == 1 and ((run_out and after.stacks[staying[0]] > 0) or orphan):
            unknown = "??" * self.setup.variant.hole_cards
            wait = [f"{self.label[seat]} sm {unknown} # resigned (R28): mucks when the board is out" for seat in forfeiting]
            muck = [f"{self.label[seat]} sm # resigned (R28): forfeits the pot" for seat in forfeiting]
            if orphan:  # he stays: PokerKit plays the board for his unknown cards
                wait = [f"{self.label[seat]} sm {unknown} # resigned (R28): unknown cards, the board plays for him" for seat in forfeiting]
                muck = wait
            self.unknown_hole.update(forfeiting)
            self.lines.extend(wait)
            self._emit_street_cards(before, after, then=wait, last=muck)
            return
        for seat in forfeiting:
            self.lines.append(f"{self.label[seat]} sm # resigned (R28): forfeits the pot")
        self._emit_street_cards(before, after, streets=5 if len(staying) > 1 else 1)

    def _step(self, action: Action, line: str) -> None:
        """Apply ``action`` to the shadow hand and write ``line`` plus any deal/showdown."""
        before = self.shadow
        after, events = apply(before, action)
        self.lines.append(line)
        taken = events[0]
        assert isinstance(taken, ActionTaken)
        extra = _pokerkit_extra_turn(self.round_start, before, taken)
        if extra >= 0 and extra in self.pending:
            # His turn has come after all (in PokerKit's reading): the deferred fold.
            self.pending.discard(extra)
            self.lines.append(f"{self.label[extra]} f # resigned (R28): folded at the turn PokerKit still gives him (D1)")
            after, events = resign(before, extra)
            if not after.finished:
                after, more = apply(after, action)
                events += more
        elif extra >= 0:
            self.lines.append(
                f"{self.label[extra]} cc # D1 ended the round (nobody left to bet against); PokerKit still gives him this turn"
            )
        self._count(events)
        self.shadow = after
        if after.street != before.street:
            self.round_start = after
        self._emit_end(before, after)

    def _fold_pending(self) -> None:
        while not self.shadow.finished and self.shadow.actor in self.pending:
            seat = self.shadow.actor
            self.pending.discard(seat)
            self._step(Action(seat, ActionKind.FOLD), f"{self.label[seat]} f # resigned (R28): folded at his turn")

    # -- moves
    def move(self, taken: ActionTaken) -> None:
        self._fold_pending()
        seat = taken.seat
        if self.shadow.actor != seat:  # the shadow hand differs only by the resigners' turns
            raise AssertionError(f"PHH export lost the hand: {self.label[seat]} moved, shadow actor {self.shadow.actor}")
        kind = _KIND_OF_WORD[taken.kind]
        amount = taken.total if kind in (ActionKind.BET, ActionKind.RAISE) else None
        notes = ["timeout (R26)"] if taken.forced else []
        if kind in (ActionKind.CHECK, ActionKind.CALL):
            word = "cc"
        elif kind is ActionKind.FOLD:
            word = "f"
        elif _nobody_can_call_more(self.shadow, seat):
            # D4 allows it, PHH readers (PokerKit) do not; it is a call in chips and in who acts next.
            word = "cc"
            notes.append(f"{taken.kind} to {amount}: nobody can call more (D4), written as a call")
        else:
            word = f"cbr {amount}"
            if _reopened_by_house_rule(self.shadow):
                notes.append("a short all-in reopened the betting (R12, house ruleset); standard readers refuse this raise")
        if kind is not ActionKind.FOLD and self.shadow.street == 0 and self.short_big_blind:
            notes.append(self.short_big_blind)
        comment = f" # {'; '.join(notes)}" if notes else ""
        self._step(Action(seat, kind, amount), f"{self.label[seat]} {word}{comment}")

    def resign(self, seat: int, vanished: int, *, timeout: bool) -> None:
        """The player in ``seat`` leaves the hand and the tournament now (R27/R28, D8, D9)."""
        label = self.label[seat]
        why = "timeout, the second in a row (R27)" if timeout else "resigns (R28)"
        chips = f"; his {vanished} chips behind leave the game" if vanished else ""
        if self.shadow.finished or self.shadow.folded[seat]:
            self.lines.append(f"# {label} {why} after folding{chips}")
        elif self.shadow.actor == seat:
            self._step(Action(seat, ActionKind.FOLD), f"{label} f # {why}{chips}")
        else:
            self.lines.append(f"# {label} {why} out of turn{chips}; PHH can fold him only at his turn")
            self.pending.add(seat)

    def finish(self) -> None:
        """The real hand is over: play the shadow hand to its end.

        Left seated are only resigners (who fold at their turn or muck at the
        showdown) and, when a resignation ended the hand, its winner, who
        checks or calls until the resigners' turns come."""
        self._fold_pending()
        while not self.shadow.finished:
            if not self.pending:
                raise AssertionError("PHH export lost the hand: it goes on without a resigner to fold")
            seat = self.shadow.actor
            legal = legal_actions(self.shadow)
            assert legal is not None
            resigned = ", ".join(self.label[other] for other in self.order if other in self.pending)
            why = f" # not played: the hand ended when {resigned} resigned (R28); written so that PHH can fold him"
            kind = ActionKind.CHECK if legal.can_check else ActionKind.CALL
            self._step(Action(seat, kind), f"{self.label[seat]} cc{why}")
            self._fold_pending()


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


def _pokerkit_extra_turn(round_start: HandState, before: HandState, taken: ActionTaken) -> int:
    """The seat PokerKit still asks to act after ``taken`` although the rules
    have ended the betting round, or -1.

    D1: when only one player can still bet and he has put in at least as much
    as everyone else, the round ends without his turn.  PokerKit applies that
    only when a round begins (it leaves out whoever could not lose another
    chip then); a player who has not acted yet in the round (the big blind
    preflop, typically) keeps his turn when the others fold or call all-in
    below his bet.  His turn can only be a check.
    """
    seat = taken.seat
    stacks = list(before.stacks)
    stacks[seat] -= taken.added
    bets = list(before.bets)
    bets[seat] = taken.total
    folded = list(before.folded)
    folded[seat] = taken.kind == "fold"
    if folded.count(False) < 2:
        return -1  # R16: the hand is over for both
    able = [other for other in range(len(stacks)) if not folded[other] and stacks[other] > 0]
    if len(able) != 1 or able[0] == seat:
        return -1
    only = able[0]
    if before.acted[only] or bets[only] < max(bets) or _effective_stack(round_start, only) == 0:
        return -1
    return only


def _effective_stack(state: HandState, seat: int) -> int:
    """PokerKit's effective stack: what ``seat`` can still lose to the others."""
    totals = sorted(state.stacks[other] + state.bets[other] for other in range(state.seat_count) if not state.folded[other])
    if len(totals) < 2:
        return 0
    return min(state.stacks[seat], max(0, totals[-2] - state.bets[seat]))


def _reopened_by_house_rule(state: HandState) -> bool:
    """Whether the player to act may raise only because the house R12 lets a
    short all-in reopen the betting (the standard ruleset, D3, says no)."""
    if state.setup.ruleset is Ruleset.STANDARD:
        return False
    standard = state._replace(setup=replace(state.setup, ruleset=Ruleset.STANDARD), offer=None)
    legal = legal_actions(standard)
    return legal is not None and not legal.can_raise and "reopen" in legal.no_raise_reason


def played_hand_to_phh(
    setup: HandSetup,
    actions: Sequence[Action],
    *,
    hand_number: int | None = None,
    event: str | None = None,
) -> str:
    """The PHH (TOML) text of one hand played by the engine.

    ``actions`` are the hand's moves in hand seats (fold, check, call, bet,
    raise, allin, timeout, resign); a timeout here is a forfeited turn (R26),
    never an elimination — :func:`record_hand_to_phh` knows which one was a
    second in a row.  Resignations after the hand's last move happen between
    hands (D8) and are left out.  Raises
    :class:`~freezeout.rules.errors.RulesError` if the moves do not make a
    complete legal hand, :class:`ValueError` for a setup PHH cannot express
    (dead blinds with trimmed antes).  See the module docstring for what PHH
    cannot say.
    """
    return _export(setup, [_Move(action) for action in actions], hand_number=hand_number, event=event)


def record_hand_to_phh(hand: PlayedHand, *, event: str | None = None) -> str:
    """The PHH text of one hand of a replayed record (:func:`replay_record`).

    Unlike the hand alone, the record knows the tournament around it: a
    timeout that is the player's second in a row eliminates him at once, as
    a resignation (R27, D9), and ``finishing_stacks`` are the stacks the
    tournament settled the hand with.
    """
    if hand.setup.variant is not NLHE:
        return game_hand_to_phh(hand.setup, hand.events, hand_number=hand.number, event=event)
    names = hand.setup.names
    forfeits: Iterator[Forfeited] = (e for e in hand.events if isinstance(e, Forfeited))
    moves: list[_Move] = []
    for player, action in hand.actions:
        eliminates = action.kind is ActionKind.TIMEOUT and next(forfeits).in_a_row >= 2
        moves.append(_Move(action._replace(seat=names.index(player)), eliminates))
    started = next(e for e in hand.events if isinstance(e, HandStarted))
    ended = next(e for e in hand.events if isinstance(e, HandEnded))
    final = tuple(ended.stacks[seat] for seat in started.seats)
    return _export(hand.setup, moves, hand_number=hand.number, event=event, final=final)


def record_to_phh(result: ReplayResult, *, event: str | None = None) -> str:
    """Every hand of a replayed record as PHH: ``[1]``, ``[2]``, … tables,
    one hand each (PokerKit's ``HandHistory.loads_all`` reads them)."""
    return "\n".join(f"[{hand.number}]\n{record_hand_to_phh(hand, event=event)}" for hand in result.hands)


def _export(
    setup: HandSetup,
    moves: Sequence[_Move],
    *,
    hand_number: int | None,
    event: str | None,
    final: tuple[int, ...] | None = None,
) -> str:
    if any(setup.dead) and any(setup.antes) and setup.ante_trimming:
        raise ValueError("dead blinds and trimmed antes cannot be written together in PHH")
    state, _ = start_hand(setup)
    writer = _Writer(setup)
    for move in moves:
        action = move.action
        if action.kind is ActionKind.RESIGN or move.eliminates:
            if state.finished:
                continue  # between hands (D8): not part of this hand's history
            vanished = state.stacks[action.seat]
            state, _ = resign(state, action.seat)
            writer.resign(action.seat, vanished, timeout=move.eliminates)
            continue
        state, events = apply(state, action)
        for happened in events:
            if isinstance(happened, ActionTaken):
                writer.move(happened)
    if not state.finished:
        raise IllegalAction(f"the hand is not complete ({setup.name(state.actor)} to act)")
    writer.finish()
    return _render(setup, writer, final if final is not None else state.final_stacks(), hand_number=hand_number, event=event)


def _render(
    setup: HandSetup, writer: _Writer, final: tuple[int, ...], *, hand_number: int | None, event: str | None
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
        f"antes = {toml_ints(antes)}",
        f"blinds_or_straddles = {toml_ints(blinds)}",
        f"min_bet = {setup.big_blind}",
        f"starting_stacks = {toml_ints([setup.stacks[seat] for seat in order])}",
        "actions = [",
    ]
    for seat in order:
        cards = setup.hole[seat] if setup.hole else None
        text = format_phh_cards(cards) if cards is not None else "??" * setup.variant.hole_cards
        if cards is not None and seat in writer.unknown_hole:
            text = f"{'??' * len(cards)} # {format_phh_cards(cards)}, written unknown: he resigned (R28), see the showdown"
        lines.append(f"  {toml_string(f'd dh {writer.label[seat]} {text}')},")
    for line in writer.lines:
        lines.append(f"  {toml_string(line)},")
    lines.append("]")
    lines += hand_tail(hand_number, event, [setup.name(seat) for seat in order], [final[seat] for seat in order])
    return "\n".join(lines) + "\n"
