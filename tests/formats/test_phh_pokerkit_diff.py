"""Differential test: random no-limit hold'em hands through our engine and PokerKit.

Each hand: 2–6 players, random stacks (always more than big blind + ante),
random blinds, sometimes antes (uniform, trimmed or dead money, or a
big-blind ante as dead money: ``ante_trimming_status``), a random button, and random legal
moves chosen from our ``legal_actions()`` (standard ruleset, the one meant
to agree with real-world poker).  PokerKit is driven move by move in
parallel; at every turn both must agree on who acts, the amount to call,
whether a bet/raise is allowed and its minimum, and at the end on every
stack.  500 hands by default (about 2 s), 5000 with ``FREEZEOUT_SLOW=1``.

Known, deliberate differences, kept out of the random hands:

* **D1 (R7) short big blind.**  PokerKit lowers the bet to match to what a
  short big blind actually posted; we keep the full big blind.  Stacks are
  therefore always larger than the big blind plus the ante.
* **R22/D7 odd chips.**  PokerKit gives a pot's whole indivisible remainder
  to the first winner; we deal it one chip at a time from the left of the
  button.  And PokerKit merges pots whose contenders become the same once
  the losing hands are killed at showdown (main pot and side pots won by
  the same two players are split as one), while D7 splits every pot on its
  own, so two odd chips can go to the same winner where PokerKit gives one
  each.  Both only move odd chips: when a hand deals out two or more of
  them, it is compared by total and per-player distance (≤ the odd chips).
* **D4 pointless raise.**  We allow a raise that nobody can call in full
  while another player still has chips (rules.md D4; the excess comes back,
  R21); PokerKit refuses any bet or raise once no other player can put in
  more than the bet to match.  Chips are unaffected; the random player only
  raises when both allow it, and the test checks that this is the only
  case where the two disagree on whether a raise is allowed.
* **D3 (standard R12) preflop short all-in raise.**  PokerKit 0.7.7 starts
  every round's "last raise size" at 0 instead of the big blind, so preflop
  the first all-in raise above the big blind by less than a big blind (say
  to 30 at 10/20) counts as a full raise and lets players who already acted
  (the limpers) raise again.  D3 says it does not reopen the betting; we
  refuse, PokerKit allows.  The random player follows our rules, so chips
  still agree; the test accepts this one disagreement on raise legality.
* **D5 fold without a bet.**  We allow folding when a check is possible;
  PokerKit refuses it in tournament mode (and warns in cash-game mode).
  The random player never does it, so the comparison is not distorted.

No other difference has been found (500 and 5000 hands, seeds below).
"""

from __future__ import annotations

import os
import random
import warnings
from dataclasses import dataclass

import pytest

from freezeout.cards import shuffled_deck
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import ActionTaken, Event, PotAwarded
from freezeout.rules.hand import HandSetup, HandState, apply, start_hand
from freezeout.rules.legal import LegalActions, legal_actions
from freezeout.rules.variant import Ruleset

pokerkit = pytest.importorskip("pokerkit")

SLOW = os.environ.get("FREEZEOUT_SLOW") == "1"
HANDS = 5000 if SLOW else 500
LEGAL_NONE = LegalActions(-1, 0, 0, 0, 0, False, False, 0, 0)


@dataclass
class RandomHand:
    setup: HandSetup
    sb: int
    bb: int

    def pokerkit_antes(self) -> tuple[int, ...]:
        """Antes in PokerKit's player order (reversed heads-up, as PHH)."""
        setup = self.setup
        n = len(setup.stacks)
        antes = [setup.antes[(setup.button + 1 + index) % n] if setup.antes else 0 for index in range(n)]
        return tuple(reversed(antes)) if n == 2 else tuple(antes)


def random_setup(rng: random.Random, ruleset: Ruleset = Ruleset.STANDARD) -> RandomHand:
    n = rng.randint(2, 6)
    bb = rng.choice([2, 4, 10, 20, 50, 100])
    sb = rng.choice([bb // 2, bb // 2, 1, bb - 1])  # below the big blind: equal blinds are ambiguous
    ante = rng.choice([0, 0, 0, 1, bb // 4, bb // 2])
    # Mostly deep stacks with some short ones, always above BB + ante (D1).
    stacks = tuple(rng.randint(bb + ante + 1, bb * rng.choice([3, 10, 40, 150])) for _ in range(n))
    button = rng.randrange(n)
    deck = list(shuffled_deck(rng))
    hole = tuple((deck.pop(), deck.pop()) for _ in range(n))
    board = tuple(deck.pop() for _ in range(5))
    blinds = [0] * n
    first = button if n == 2 else (button + 1) % n  # R5: heads-up the button posts the small blind
    blinds[first] = sb
    blinds[(first + 1) % n] = bb
    # Uniform antes (trimmed or dead money) or a big-blind ante (dead money).
    mode = rng.choice(["uniform", "uniform", "dead", "big blind"]) if ante else "none"
    antes = [ante] * n if mode in ("uniform", "dead") else [0] * n
    if mode == "big blind":
        antes[(first + 1) % n] = ante
    setup = HandSetup(
        stacks=stacks,
        button=button,
        blinds=tuple(blinds),
        big_blind=bb,
        hole=hole,
        board=board,
        antes=tuple(antes) if ante else (),
        ruleset=ruleset,
        ante_trimming=mode == "uniform",
    )
    return RandomHand(setup, sb, bb)


def random_move(legal: LegalActions, rng: random.Random) -> Action:
    seat = legal.seat
    roll = rng.random()
    if legal.can_raise and roll < 0.35:
        pick = rng.random()
        if pick < 0.4:
            amount = legal.min_to
        elif pick < 0.6:
            amount = legal.max_to
        else:
            amount = rng.randint(legal.min_to, legal.max_to)
        return Action(seat, ActionKind.BET if legal.opening else ActionKind.RAISE, amount)
    if roll < 0.4 and (legal.can_raise or legal.all_in_to <= legal.to_match):
        return Action(seat, ActionKind.ALLIN)
    if legal.can_call and roll < 0.6:
        return Action(seat, ActionKind.FOLD)  # D5: never fold when a check is possible (PokerKit forbids it)
    return Action(seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)


def pokerkit_state(hand: RandomHand) -> object:
    setup = hand.setup
    n = len(setup.stacks)
    order = [(setup.button + 1 + index) % n for index in range(n)]  # PokerKit index -> our seat
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    # PokerKit takes (small, big) in position order and reverses them itself heads-up.
    state = pokerkit.NoLimitTexasHoldem.create_state(
        automations,
        setup.ante_trimming,
        hand.pokerkit_antes(),
        (hand.sb, hand.bb),
        hand.bb,
        tuple(setup.stacks[seat] for seat in order),
        n,
    )
    for seat in order:
        cards = setup.hole[seat]
        assert cards is not None
        state.deal_hole("".join(str(card) for card in cards))
    return state


def deal_board(state: object, setup: HandSetup, dealt: int) -> int:
    while state.can_deal_board():  # type: ignore[attr-defined]
        count = 3 if dealt == 0 else 1
        state.deal_board("".join(str(card) for card in setup.board[dealt : dealt + count]))  # type: ignore[attr-defined]
        dealt += count
    return dealt


def play_both(hand: RandomHand, rng: random.Random) -> tuple[HandState, list[Event], object]:
    setup = hand.setup
    n = len(setup.stacks)
    to_pk = {seat: (seat - setup.button - 1) % n for seat in range(n)}
    state, events = start_hand(setup)
    pk = pokerkit_state(hand)
    dealt = deal_board(pk, setup, 0)
    while not state.finished:
        legal = legal_actions(state)
        assert legal is not None
        where = (
            f"{setup.stacks} button {setup.button} blinds {setup.blinds} antes {setup.antes}: "
            + ", ".join(f"{e.seat}:{e.kind}:{e.total}" for e in events if isinstance(e, ActionTaken))
        )
        assert pk.actor_index == to_pk[legal.seat], where  # type: ignore[attr-defined]
        assert pk.checking_or_calling_amount == legal.call_amount, where  # type: ignore[attr-defined]
        pk_can_raise = pk.can_complete_bet_or_raise_to()  # type: ignore[attr-defined]
        if legal.can_raise and pointless_raise(state):
            # D4: we allow a raise nobody can call in full (it comes back, R21); PokerKit refuses it.
            assert not pk_can_raise, where
            legal = legal._replace(can_raise=False, min_to=legal.all_in_to)
        if pk_can_raise and not legal.can_raise and preflop_short_all_in_reopens(state):
            pk_can_raise = False  # PokerKit quirk, see the module docstring; we do not raise here
        assert pk_can_raise == legal.can_raise, where
        if legal.can_raise:
            assert pk.min_completion_betting_or_raising_to_amount == legal.min_to, where  # type: ignore[attr-defined]
            assert pk.max_completion_betting_or_raising_to_amount == legal.max_to, where  # type: ignore[attr-defined]
        state, new_events = apply(state, random_move(legal, rng))
        events.extend(new_events)
        taken = next(event for event in new_events if isinstance(event, ActionTaken))
        if taken.kind == "fold":
            pk.fold()  # type: ignore[attr-defined]
        elif taken.kind in ("check", "call"):
            pk.check_or_call()  # type: ignore[attr-defined]
        else:
            pk.complete_bet_or_raise_to(taken.total)  # type: ignore[attr-defined]
        dealt = deal_board(pk, setup, dealt)
    return state, events, pk


def pointless_raise(state: HandState) -> bool:
    """D4: no other player still in can put in more than the bet to match now."""
    actor = state.actor
    return all(
        state.stacks[seat] + state.bets[seat] <= state.to_match
        for seat in range(state.seat_count)
        if seat != actor and not state.folded[seat]
    )


def preflop_short_all_in_reopens(state: HandState) -> bool:
    """PokerKit starts each round's raise size at 0, so preflop the first
    all-in raise over the big blind counts as a full raise even when it is
    smaller than the big blind, and reopens the betting (D3 says it does not)."""
    return (
        state.street == 0
        and state.increment == state.setup.big_blind
        and "not reopened" in (legal_actions(state) or LEGAL_NONE).no_raise_reason
    )


def odd_chips(events: list[Event]) -> int:
    """How many indivisible chips R22/D7 dealt out, over all split pots."""
    return sum(
        event.amount % len(event.shares)
        for event in events
        if isinstance(event, PotAwarded) and len(event.shares) > 1
    )


@pytest.mark.parametrize("block", range(10))
def test_random_hands_agree_with_pokerkit(block: int) -> None:
    rng = random.Random(20261129 + block)
    odd_hands = 0
    for _ in range(HANDS // 10):
        hand = random_setup(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            state, events, pk = play_both(hand, rng)
        setup = hand.setup
        n = len(setup.stacks)
        ours = [state.final_stacks()[(setup.button + 1 + index) % n] for index in range(n)]
        theirs = list(pk.stacks)  # type: ignore[attr-defined]
        assert not pk.status  # type: ignore[attr-defined]
        odd = odd_chips(events)
        if odd >= 2:  # the odd-chip differences described in the module docstring
            odd_hands += 1
            assert sum(ours) == sum(theirs)
            assert all(abs(a - b) <= odd for a, b in zip(ours, theirs, strict=True))
        else:
            assert ours == theirs, (setup, [str(e) for e in events])
    assert odd_hands <= HANDS // 10
