"""Who acts and what they may do (R9–R14, D2–D5, V1–V4, V7, V11): ask before you act.

:func:`legal_actions` is the single source of truth: the hand engine checks
every incoming action against it, the bots choose from it and the UI draws
its buttons from it.  The betting structure of the variant decides the
amounts: no limit (any amount from the minimum raise to the stack), pot
limit (up to the pot, V2) or fixed limit (exactly one bet more, capped, V3,
V4).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction
from freezeout.rules.state import ACTOR, BIG, OFFER, SMALL, HandState
from freezeout.rules.variant import BettingStructure, Ruleset

__all__ = ["LegalActions", "legal_actions", "offer_moves", "offer_to", "resolve"]

# The engine asks for these on every move.  Python 3.11 looks enum members
# up through ``EnumType.__getattr__``'s slow path (about 130 ns each, several
# per move), so the hot code reads module constants instead.
# ``Final``, so that compiled code keeps them in C variables rather than
# looking each up in the module's dictionary.
_FIXED_LIMIT: Final = BettingStructure.FIXED_LIMIT
_POT_LIMIT: Final = BettingStructure.POT_LIMIT
_STANDARD: Final = Ruleset.STANDARD
_TIMEOUT: Final = ActionKind.TIMEOUT
_FOLD: Final = ActionKind.FOLD
_CHECK: Final = ActionKind.CHECK
_CALL: Final = ActionKind.CALL
_ALLIN: Final = ActionKind.ALLIN
_BET: Final = ActionKind.BET
_RAISE: Final = ActionKind.RAISE
_COMPLETE: Final = ActionKind.COMPLETE
_BRINGIN: Final = ActionKind.BRINGIN
# LegalActions(...) runs the NamedTuple's Python-level __new__ (its defaults);
# building the tuple directly with all 14 fields skips that call.
_tuple_new: Final = tuple.__new__


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
    max_to: int  # largest legal bet/raise total (the stack in no limit, the pot in pot limit)
    no_raise_reason: str = ""
    word: str = ""  # the word for a bigger amount when it is not bet/raise: "complete" (V4, V7)
    sizes: tuple[int, ...] = ()  # fixed limit: the only totals a bet or raise may reach (V3)
    bring_in: int = 0  # > 0: the seat must bring in (to this total) or complete (V7)
    draw: int = 0  # > 0: the seat discards up to this many cards, or stands pat (V11)

    @property
    def can_check(self) -> bool:
        return self.call_amount == 0 and not self.bring_in and not self.draw

    @property
    def can_call(self) -> bool:
        return self.call_amount > 0

    @property
    def can_fold(self) -> bool:
        """Anyone to act may fold (D5) — except a bring-in, which is forced (V7), and a draw."""
        return not self.bring_in and not self.draw

    @property
    def raise_word(self) -> str:
        if self.word:
            return self.word
        return "bet" if self.opening else "raise"

    @property
    def moves(self) -> tuple[str, ...]:
        """Move words allowed now, in the order a UI shows them."""
        if self.draw:
            return ("standpat", "discard")
        if self.bring_in:
            forced = ("bringin", "complete") if self.can_raise else ("bringin",)
            return (*forced, "allin") if self.all_in_to <= self.min_to else forced
        words = ["fold", "check" if self.can_check else "call"]
        if self.can_raise:
            words.append(self.raise_word)
        if (self.can_raise and self.all_in_to <= self.max_to) or (self.call_amount > 0 and self.all_in_to <= self.to_match):
            words.append("allin")  # D4/D5: an all-in is a raise only where raising (that much) is allowed
        return tuple(words)

    def to_dict(self) -> dict[str, Any]:
        """The wire form (docs/protocol.md): only at the edge."""
        data: dict[str, Any] = {
            "moves": list(self.moves),
            "call": self.call_amount,
            "to_match": self.to_match,
            "min_to": self.min_to if self.can_raise else None,
            "max_to": self.max_to if self.can_raise else None,
            "all_in_to": self.all_in_to,
        }
        if self.sizes and self.can_raise:
            data["sizes"] = list(self.sizes)
        if self.bring_in:
            data["bring_in"] = self.bring_in
        if self.draw:
            data["draw"] = self.draw
        return data


def legal_actions(state: HandState) -> LegalActions | None:
    """The legal moves of the player to act, or ``None`` when nobody acts."""
    offer = state.offer
    if offer is not None or state.actor < 0:
        return offer
    return _work_out(state)


def offer_moves(state: HandState) -> HandState:
    """``state`` carrying its own legal moves (``HandState.offer``): the
    engine makes every state it hands out this way, so that asking is free."""
    values = list(state)
    values[OFFER] = None if state.actor < 0 else _work_out(state)
    return _tuple_new(HandState, values)


def offer_to(state: HandState, actor: int) -> HandState:
    """``state`` with ``actor`` to act, carrying that seat's legal moves."""
    values = list(state)
    values[ACTOR] = actor
    values[OFFER] = None
    values[OFFER] = _work_out(_tuple_new(HandState, values))
    return _tuple_new(HandState, values)


def _work_out(state: HandState) -> LegalActions:
    seat = state.actor
    stack = state.stacks[seat]
    bet = state.bets[seat]
    all_in_to = bet + stack
    if state.drawing:  # V11: discard any of the cards held, or none
        return _tuple_new(LegalActions, (seat, bet, state.to_match, 0, all_in_to, False, False, all_in_to, all_in_to,
                                         "this is the draw", "", (), 0, len(state.cards[seat])))
    setup = state.setup
    structure = setup.variant.betting
    if state.bring_in_due:  # V7: bring in, or complete to the small bet
        bring = min(setup.bring_in, all_in_to)
        complete = min(setup.small_bet or setup.big_blind, all_in_to)
        reason = _everyone_else_all_in(state, seat) or ("" if complete > bring else "your whole stack only brings in")
        return LegalActions(seat, bet, 0, 0, all_in_to, False, not reason, complete, complete, reason,
                            word="complete", sizes=(complete,), bring_in=bring)
    to_match = state.to_match
    call_amount = to_match - bet
    if call_amount < 0:
        call_amount = 0
    elif call_amount > stack:
        call_amount = stack
    reason = _no_raise_reason(state, seat)
    if not reason and all_in_to <= to_match:
        reason = "your whole stack only calls"
    if structure is _FIXED_LIMIT:
        return _fixed_limit(state, seat, bet, call_amount, all_in_to, reason)
    # D2: a bet is at least the big blind; a raise at least the last full raise.
    min_to = setup.big_blind if to_match == 0 else to_match + state.increment
    max_to = all_in_to
    if structure is _POT_LIMIT:  # V2: up to the pot after the call
        pot_limit = to_match + state.pot_total + (to_match - bet)
        if pot_limit < max_to:
            max_to = pot_limit
    if min_to > max_to:
        min_to = max_to
    return _tuple_new(
        LegalActions, (seat, bet, to_match, call_amount, all_in_to, to_match == 0, not reason, min_to, max_to, reason, "", (), 0, 0)
    )


def _fixed_limit(state: HandState, seat: int, bet: int, call_amount: int, all_in_to: int, reason: str) -> LegalActions:
    """V3, V4: one bet more than the last full bet level, a bet and three (or
    four) raises a round unless only two players are left with chips."""
    setup = state.setup
    to_match = state.to_match
    small = setup.small_bet or setup.big_blind
    big = setup.big_bet or 2 * small
    cap = setup.variant.raise_cap
    if not reason and cap is not None and state.raises >= cap and _players_with_chips(state) > 2:
        reason = f"the betting is capped: a bet and {cap - 1} raises"
    # The totals a bet or raise may reach: one bet over the last full level
    # (either size after an open pair, V7); an all-in for less, or for
    # exactly a bet, is always a legal size too (R11).
    size = state.bet_size
    full_to = state.full_to
    top = full_to + (small if size == SMALL else big)
    if size != SMALL and size != BIG:  # EITHER
        lower = full_to + small
        sizes = (lower, top) if top < all_in_to else (lower, all_in_to) if lower < all_in_to else (all_in_to,)
    else:
        sizes = (top,) if top < all_in_to else (all_in_to,)
    word = "complete" if to_match and not full_to else ""  # V4, V7: only a bring-in or a short all-in to raise
    return _tuple_new(
        LegalActions, (seat, bet, to_match, call_amount, all_in_to, to_match == 0, not reason, sizes[0], sizes[-1], reason, word, sizes, 0, 0)
    )


def _players_with_chips(state: HandState) -> int:
    return sum(1 for seat in range(len(state.stacks)) if not state.folded[seat] and state.stacks[seat] > 0)


def _everyone_else_all_in(state: HandState, seat: int) -> str:
    """R13, D4: the reason no raise (nor a completion, V7) is legal when every
    other player still in the hand is all-in; "" while someone else has chips."""
    stacks, folded = state.stacks, state.folded
    for other in range(len(stacks)):
        if other != seat and stacks[other] > 0 and not folded[other]:
            return ""
    return "every other player is all-in: only call or fold"


def _no_raise_reason(state: HandState, seat: int) -> str:
    all_in = _everyone_else_all_in(state, seat)
    if all_in:
        return all_in
    if not state.acted[seat]:
        return ""
    if state.setup.variant.betting is _FIXED_LIMIT:  # V4: only a full bet or raise reopens
        if state.full_to <= state.faced[seat]:
            return "the betting was not reopened: an all-in below half a bet does not reopen it (V4)"
    elif state.setup.ruleset is _STANDARD:  # R12, D3 (standard)
        faced = state.faced[seat]
        if not (faced == 0 < state.to_match or state.to_match - faced >= state.increment):
            return "the betting was not reopened: an all-in below a full raise does not reopen it (standard R12)"
    return ""


def resolve(state: HandState, legal: LegalActions, action: Action) -> tuple[str, int, bool]:
    """Check ``action`` against ``legal`` (D5) and say what it counts as.

    Returns ``(kind, total, forced)``: the resolved move word (fold, check,
    call, bet, raise, bringin, complete), the seat's bet for the round after
    it, and whether it was a forfeited turn.  Draws are resolved by the hand
    engine.  Raises :class:`IllegalAction` with the reason.
    """
    kind = action.kind
    bet = legal.current_bet
    if legal.draw:
        raise IllegalAction(f"it is the draw: discard or stand pat, not {kind.value}")
    if legal.bring_in:
        return _resolve_bring_in(legal, action)
    if kind is _TIMEOUT:  # R26, D9: check when possible, else fold
        return ("check", bet, True) if legal.can_check else ("fold", bet, True)
    if kind is _FOLD:
        return ("fold", bet, False)
    if kind is _CHECK:
        if not legal.can_check:
            raise IllegalAction(f"cannot check: {legal.to_match - bet} to call")
        return ("check", bet, False)
    if kind is _CALL:
        if not legal.can_call:
            raise IllegalAction("nothing to call: check instead")
        return ("call", bet + legal.call_amount, False)
    if kind is _ALLIN:
        if legal.all_in_to <= legal.to_match:
            return ("call", legal.all_in_to, False)
        if not legal.can_raise:
            raise IllegalAction(f"cannot go all-in for more than the call: {legal.no_raise_reason}")
        if legal.all_in_to > legal.max_to:
            raise IllegalAction(f"cannot go all-in: the most you may {legal.raise_word} to is {legal.max_to}")
        return (legal.raise_word, legal.all_in_to, False)
    if kind is _BET:
        if not legal.opening:
            if state.street == 0 and state.setup.variant.uses_button:
                raise IllegalAction("cannot bet preflop: the blinds are the opening bet; call or raise")
            raise IllegalAction(f"cannot bet: there is already a bet of {legal.to_match}; {legal.raise_word} instead")
        return ("bet", _sized(legal, action.amount, "bet"), False)
    if kind is _RAISE:
        if legal.opening:
            raise IllegalAction("cannot raise: nobody has bet; bet instead")
        if legal.raise_word == "complete":
            raise IllegalAction(f"cannot raise: the bet of {legal.to_match} is not a full bet; complete it instead")
        return ("raise", _sized(legal, action.amount, "raise"), False)
    if kind is _COMPLETE:
        if legal.raise_word != "complete":
            raise IllegalAction(f"cannot complete: there is no bring-in or short bet to complete; {legal.moves[-1]} instead")
        amount = legal.min_to if action.amount is None else action.amount
        return ("complete", _sized(legal, amount, "complete"), False)
    raise IllegalAction(f"{kind.value} is not a move of this betting round")


def _resolve_bring_in(legal: LegalActions, action: Action) -> tuple[str, int, bool]:
    """V7: the lowest (razz: highest) up-card must bring in or complete; a
    forfeited turn posts the bring-in, the smallest move there is."""
    kind = action.kind
    if kind is _BRINGIN or kind is _TIMEOUT:
        return ("bringin", legal.bring_in, kind is _TIMEOUT)
    if kind is _ALLIN:  # D5: the whole stack, which must be no more than a completion
        if legal.all_in_to <= legal.bring_in:
            return ("bringin", legal.bring_in, False)
        if legal.all_in_to > legal.min_to:
            raise IllegalAction(f"cannot go all-in: bring in ({legal.bring_in}) or complete ({legal.min_to}) (V7)")
        return ("complete", legal.all_in_to, False)
    if kind is _COMPLETE:
        if not legal.can_raise:
            raise IllegalAction(f"cannot complete: {legal.no_raise_reason}")
        amount = legal.min_to if action.amount is None else action.amount
        if amount != legal.min_to:
            raise IllegalAction(f"a completion is to {legal.min_to}, not {amount}")
        return ("complete", amount, False)
    raise IllegalAction(f"the bring-in is forced: bring in ({legal.bring_in}) or complete ({legal.min_to}), not {kind.value}")


def _sized(legal: LegalActions, amount: int | None, word: str) -> int:
    assert amount is not None
    if word == "raise" and amount <= legal.to_match:
        raise IllegalAction(f"raise to {amount} must exceed the bet to match {legal.to_match}")
    if word == "bet" and amount <= 0:
        raise IllegalAction(f"bet of {amount} must be positive")
    if amount > legal.all_in_to:
        raise IllegalAction(f"{word} to {amount} is more than the stack allows (all-in is {legal.all_in_to})")
    if not legal.can_raise:
        raise IllegalAction(f"cannot {word}: {legal.no_raise_reason}")
    if legal.sizes:  # V3: fixed limit
        if amount not in legal.sizes:
            allowed = " or ".join(str(size) for size in legal.sizes)
            raise IllegalAction(f"{word} to {amount} is not a fixed-limit size: {word} to {allowed}")
        return amount
    if amount < legal.min_to and amount != legal.all_in_to:
        if word == "bet":
            raise IllegalAction(f"bet of {amount} is below the minimum bet of {legal.min_to}")
        raise IllegalAction(f"raise to {amount} is below the minimum raise to {legal.min_to}")
    if amount > legal.max_to:
        raise IllegalAction(f"{word} to {amount} is more than the pot limit allows ({legal.max_to})")
    return amount
