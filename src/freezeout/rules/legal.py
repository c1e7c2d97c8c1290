"""Who acts and what they may do (R9–R14, D2–D5): ask before you act.

:func:`legal_actions` is the single source of truth: the hand engine checks
every incoming action against it, the bots choose from it and the UI draws
its buttons from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction
from freezeout.rules.variant import Ruleset

if TYPE_CHECKING:
    from freezeout.rules.hand import HandState

__all__ = ["LegalActions", "legal_actions", "resolve"]


class LegalActions(NamedTuple):
    """The moves open to ``seat``.  Amounts are totals for the round ("to").

    Immutable; a ``NamedTuple`` because it is built on every move."""

    seat: int
    current_bet: int  # the seat's bet so far this round
    to_match: int  # the bet to match (R10; the full big blind preflop, D1)
    call_amount: int  # chips a call adds (capped at the stack; 0 = nothing to call)
    all_in_to: int  # the seat's total if it pushes everything
    opening: bool  # True when a bigger amount is a "bet" (nobody has bet), else "raise"
    can_raise: bool  # whether a bet/raise (or an all-in above the call) is allowed
    min_to: int  # smallest legal bet/raise total (== all_in_to when short)
    max_to: int  # largest legal bet/raise total (== all_in_to in no-limit)
    no_raise_reason: str = ""

    @property
    def can_check(self) -> bool:
        return self.call_amount == 0

    @property
    def can_call(self) -> bool:
        return self.call_amount > 0

    @property
    def raise_word(self) -> str:
        return "bet" if self.opening else "raise"

    @property
    def moves(self) -> tuple[str, ...]:
        """Move words allowed now, in the order a UI shows them."""
        words = ["fold", "check" if self.can_check else "call"]
        if self.can_raise:
            words.append(self.raise_word)
        if self.can_raise or (self.call_amount > 0 and self.all_in_to <= self.to_match):
            words.append("allin")  # D4/D5: an all-in is a raise only where raising is allowed
        return tuple(words)


def legal_actions(state: HandState) -> LegalActions | None:
    """The legal moves of the player to act, or ``None`` when nobody acts."""
    global _last_asked
    asked, answer = _last_asked
    if asked is state:  # the caller asked, then apply() asks again for the same state
        return answer
    seat = state.actor
    if seat < 0:
        return None
    stack = state.stacks[seat]
    bet = state.bets[seat]
    to_match = state.to_match
    all_in_to = bet + stack
    call_amount = to_match - bet
    if call_amount < 0:
        call_amount = 0
    elif call_amount > stack:
        call_amount = stack
    reason = _no_raise_reason(state, seat)
    if not reason and all_in_to <= to_match:
        reason = "your whole stack only calls"
    # D2: a bet is at least the big blind; a raise at least the last full raise.
    min_to = state.setup.big_blind if to_match == 0 else to_match + state.increment
    if min_to > all_in_to:
        min_to = all_in_to
    answer = LegalActions(seat, bet, to_match, call_amount, all_in_to, to_match == 0, not reason, min_to, all_in_to, reason)
    _last_asked = (state, answer)
    return answer


# A one-entry memo: a caller asks for the legal moves, then apply() checks
# the chosen move against the same state.  Holding the state keeps the
# identity check sound; the answer depends on nothing else.
_last_asked: tuple[object, LegalActions | None] = (None, None)


def _no_raise_reason(state: HandState, seat: int) -> str:
    stacks, folded = state.stacks, state.folded
    for other in range(len(stacks)):
        if other != seat and stacks[other] > 0 and not folded[other]:
            break
    else:  # R13, D4
        return "every other player is all-in: only call or fold"
    if state.acted[seat] and state.setup.ruleset is Ruleset.STANDARD:  # R12, D3 (standard)
        faced = state.faced[seat]
        if not (faced == 0 < state.to_match or state.to_match - faced >= state.increment):
            return "the betting was not reopened: an all-in below a full raise does not reopen it (standard R12)"
    return ""


def resolve(state: HandState, legal: LegalActions, action: Action) -> tuple[str, int, bool]:
    """Check ``action`` against ``legal`` (D5) and say what it counts as.

    Returns ``(kind, total, forced)``: the resolved move word (fold, check,
    call, bet, raise), the seat's bet for the round after it, and whether it
    was a forfeited turn.  Raises :class:`IllegalAction` with the reason.
    """
    kind = action.kind
    bet = legal.current_bet
    if kind is ActionKind.TIMEOUT:  # R26, D9: check when possible, else fold
        return ("check", bet, True) if legal.can_check else ("fold", bet, True)
    if kind is ActionKind.FOLD:
        return ("fold", bet, False)
    if kind is ActionKind.CHECK:
        if not legal.can_check:
            raise IllegalAction(f"cannot check: {legal.to_match - bet} to call")
        return ("check", bet, False)
    if kind is ActionKind.CALL:
        if not legal.can_call:
            raise IllegalAction("nothing to call: check instead")
        return ("call", bet + legal.call_amount, False)
    if kind is ActionKind.ALLIN:
        if legal.all_in_to <= legal.to_match:
            return ("call", legal.all_in_to, False)
        if not legal.can_raise:
            raise IllegalAction(f"cannot go all-in for more than the call: {legal.no_raise_reason}")
        return (legal.raise_word, legal.all_in_to, False)
    if kind is ActionKind.BET:
        if not legal.opening:
            if state.street == 0:
                raise IllegalAction("cannot bet preflop: the blinds are the opening bet; call or raise")
            raise IllegalAction(f"cannot bet: there is already a bet of {legal.to_match}; raise instead")
        return ("bet", _sized(legal, action, "bet"), False)
    if kind is ActionKind.RAISE:
        if legal.opening:
            raise IllegalAction("cannot raise: nobody has bet; bet instead")
        return ("raise", _sized(legal, action, "raise"), False)
    raise IllegalAction(f"{kind.value} is not a move of the hand")


def _sized(legal: LegalActions, action: Action, word: str) -> int:
    amount = action.amount
    assert amount is not None
    if word == "raise" and amount <= legal.to_match:
        raise IllegalAction(f"raise to {amount} must exceed the bet to match {legal.to_match}")
    if word == "bet" and amount <= 0:
        raise IllegalAction(f"bet of {amount} must be positive")
    if amount > legal.all_in_to:
        raise IllegalAction(f"{word} to {amount} is more than the stack allows (all-in is {legal.all_in_to})")
    if not legal.can_raise:
        raise IllegalAction(f"cannot {word}: {legal.no_raise_reason}")
    if amount < legal.min_to and amount != legal.all_in_to:
        if word == "bet":
            raise IllegalAction(f"bet of {amount} is below the minimum bet of {legal.min_to}")
        raise IllegalAction(f"raise to {amount} is below the minimum raise to {legal.min_to}")
    return amount
