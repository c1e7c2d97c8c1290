"""The bot interface and the facts every bot reads off its seat's view.

A bot is anything with ``act(view, rng) -> Action``.  It gets exactly the
:class:`~freezeout.rules.views.TableView` of its own seat — its hole cards,
never anyone else's — and an injected ``random.Random``; it keeps no state
between calls, so the same view and the same seed always give the same
action (what the tests, the duplicate-deck matches and replays rely on).

:class:`Situation` turns a view into the numbers decisions are made of
(pot, amount to call, stacks in big blinds, position, what happened this
street), and :func:`legal_action` turns an intention ("raise to 300") into
a move the rules accept, so no bot can produce an illegal action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from freezeout.bots.classes import class_of_cards
from freezeout.cards import Card
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import ActionTaken, StreetDealt
from freezeout.rules.legal import LegalActions
from freezeout.rules.views import TableView

__all__ = ["Bot", "Situation", "chips_in_play", "draw_action", "legal_action", "situation"]


class Bot(Protocol):
    """A player: the seat's view and a random source in, a legal action out."""

    name: str

    def act(self, view: TableView, rng: random.Random) -> Action: ...


@dataclass(frozen=True, slots=True)
class Situation:
    """What a decision needs, read from one seat's view."""

    seat: int
    hole: tuple[int, int]
    hand_class: int
    board: tuple[int, ...]
    street: int  # 0 preflop, 1 flop, 2 turn, 3 river
    pot: int  # every chip in the middle, this round's bets included
    to_call: int  # chips a call adds
    to_match: int
    my_bet: int
    stack: int  # chips behind
    min_to: int | None  # smallest raise/bet total, None when raising is closed
    all_in_to: int
    big_blind: int
    opponents: tuple[int, ...]  # seats still in the hand besides mine
    active_opponents: tuple[int, ...]  # of those, the ones not all-in
    order: tuple[int, ...]  # seats dealt in, in preflop action order (blinds last)
    dealt: int  # players dealt into the hand
    street_actions: tuple[ActionTaken, ...]  # voluntary moves this street
    hand_actions: tuple[ActionTaken, ...]  # voluntary moves this hand
    legal: LegalActions

    @property
    def can_check(self) -> bool:
        return self.to_call == 0

    @property
    def can_raise(self) -> bool:
        return self.min_to is not None

    @property
    def pot_odds(self) -> float:
        """Share of the final pot a call must win to break even."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    def total_chips(self, seat: int, view: TableView) -> int:
        """A seat's chips at the start of this street's decision: behind plus bet."""
        return view.seats[seat].stack + view.seats[seat].bet

    def position(self) -> int:
        """Index in preflop order (0 = first to act; the big blind is last)."""
        return self.order.index(self.seat)

    def raises_this_street(self) -> int:
        return sum(1 for a in self.street_actions if a.kind in ("bet", "raise"))


def situation(view: TableView) -> Situation:
    """Read a decision's facts off the acting seat's view."""
    seat = view.viewer
    legal = view.legal
    if seat is None or legal is None:
        raise ValueError("the view is not of a seat whose turn it is")
    me = view.seats[seat]
    if me.cards is None or len(me.cards) != 2 or None in me.cards:
        raise ValueError("the acting seat's view has no hold'em hole cards")
    first, second = int(me.cards[0]), int(me.cards[1])  # type: ignore[arg-type]
    dealt = [s.seat for s in view.seats if s.in_hand or s.folded]
    order = _preflop_order(dealt, view.button)
    opponents = tuple(s.seat for s in view.seats if s.in_hand and s.seat != seat)
    active = tuple(o for o in opponents if view.seats[o].stack > 0)
    pot = sum(amount for amount, _ in view.pots) + sum(s.bet for s in view.seats)
    hand_actions: list[ActionTaken] = []
    street_actions: list[ActionTaken] = []
    for event in view.history:
        if isinstance(event, StreetDealt):
            street_actions = []
        elif isinstance(event, ActionTaken):
            hand_actions.append(event)
            street_actions.append(event)
    board = tuple(int(c) for c in view.board if c is not None)
    return Situation(
        seat=seat,
        hole=(first, second),
        hand_class=class_of_cards(first, second),
        board=board,
        street=max(0, len(board) - 2),
        pot=pot,
        to_call=legal.call_amount,
        to_match=legal.to_match,
        my_bet=me.bet,
        stack=me.stack,
        min_to=legal.min_to if legal.can_raise else None,
        all_in_to=legal.all_in_to,
        big_blind=view.big_blind,
        opponents=opponents,
        active_opponents=active,
        order=order,
        dealt=len(dealt),
        street_actions=tuple(street_actions),
        hand_actions=tuple(hand_actions),
        legal=legal,
    )


def _preflop_order(dealt: list[int], button: int) -> tuple[int, ...]:
    """R5/R9: heads-up the button (small blind) acts first preflop; otherwise
    the player left of the big blind does and the blinds act last."""
    if button not in dealt:  # cannot happen in a dealt hand; keep seat order
        return tuple(dealt)
    start = dealt.index(button)
    around = dealt[start:] + dealt[:start]  # button first
    if len(dealt) == 2:
        return tuple(around)
    return tuple(around[3:] + around[:3])


def chips_in_play(view: TableView) -> int:
    """Every chip at the table: stacks, this round's bets and the pots."""
    return sum(seat.stack + seat.bet for seat in view.seats) + sum(amount for amount, _ in view.pots)


def legal_action(view: TableView, kind: str, to: int | None = None) -> Action:
    """The legal move closest to an intention, in every game.

    ``kind`` is ``fold``, ``passive`` (check or call), ``raise`` (to ``to``,
    clamped into the legal range; a bet when nobody has bet) or ``allin``.
    A fold when checking is free becomes a check; a raise that is closed
    becomes a call or check; a raise to the whole stack becomes ``allin``.
    Fixed limit (V3) takes the allowed size nearest ``to``; a bring-in (V7)
    is the passive move, a completion the raise; pot limit (V2) caps a raise
    at the pot.  At a draw (V11) every intention but a discard
    (:func:`draw_action`) stands pat.
    """
    seat = view.viewer
    legal = view.legal
    assert seat is not None and legal is not None
    if legal.draw:
        return Action(seat, ActionKind.STANDPAT)
    moves = legal.moves
    if legal.bring_in:
        passive = Action(seat, ActionKind.BRINGIN)
    else:
        passive = Action(seat, ActionKind.CHECK) if "check" in moves else Action(seat, ActionKind.CALL)
    can_raise = legal.can_raise
    # "allin" is legal when it raises (raising open) or when it is only a call.
    allin_ok = "allin" in moves
    if kind == "fold":
        return passive if "check" in moves or not legal.can_fold else Action(seat, ActionKind.FOLD)
    if kind == "passive":
        return passive
    if kind == "allin":
        if allin_ok:
            return Action(seat, ActionKind.ALLIN)
        return legal_action(view, "raise", legal.max_to) if can_raise else passive
    if kind == "raise":
        if not can_raise:
            return passive
        if to is None or to >= legal.all_in_to:
            if allin_ok:
                return Action(seat, ActionKind.ALLIN)
            to = legal.max_to
        if legal.sizes:  # V3: the allowed total nearest the intention
            amount = min(legal.sizes, key=lambda size: (abs(size - to), size))
        else:
            amount = max(legal.min_to, min(int(to), legal.max_to))
        if legal.raise_word == "complete":
            return Action(seat, ActionKind.COMPLETE, amount)
        word = ActionKind.BET if "bet" in moves else ActionKind.RAISE
        return Action(seat, word, amount)
    raise ValueError(f"unknown intention {kind!r}")


def draw_action(view: TableView, discard: Sequence[Card]) -> Action:
    """V11: throw ``discard`` away and draw as many (none: stand pat)."""
    seat = view.viewer
    assert seat is not None
    if not discard:
        return Action(seat, ActionKind.STANDPAT)
    return Action(seat, ActionKind.DISCARD, cards=tuple(discard))
