"""Lockstep play of our engine and PokerKit for the differential test
(``test_variants_pokerkit_diff.py``).

Differential test of every variant against PokerKit 0.7.7.

For each game of the registry PokerKit can express — all of them, through
its generic ``State`` (``variantplay.pokerkit_state``) — random hands are
played through both engines in lockstep: the same stakes and stacks (2 to
the game's maximum of players, stacks from two bets to a hundred, antes,
blinds or a bring-in), the same cards (our engine deals from a shuffled
deck; PokerKit is fed exactly the cards ours dealt, hole, board and
draws) and the same decisions (random moves from our ``legal_actions``).
At every turn the two must agree on:

* who acts, or who draws, and the cards they hold;
* whether the seat may fold, and check or call, and the amount of the call;
* the bring-in (V7): that it is due, its amount, and the completion;
* whether a bet, raise or completion is allowed and its minimum and maximum
  (V2 pot limit; V3 the fixed-limit size), and for each of a handful of
  probe amounts (the minimum, one below, the maximum, one above, one
  between) whether each engine accepts it — ours by really applying it;
* in a draw, that nobody may fold, check or call, that PokerKit accepts
  the discard we make, and that both refuse a discard of a card not held;

and at the end on every finishing stack and on the order hands are shown
in (V17).  ``HANDS`` hands per variant by
default (a few seconds in all), ``SLOW_HANDS`` with ``FREEZEOUT_SLOW=1``.

Known differences are detected exactly where they arise, counted, and
steered round (the random player stays clear of the one move they make
different) — never skipped wholesale.  Each is PokerKit departing from
docs/rules.md:

* ``D5 free fold``: we allow a fold when a check is free; PokerKit refuses
  it in tournament mode.  The random player never folds for free here.
* ``D4 pointless raise``: we allow a raise nobody can call in full while
  someone else still has chips (the excess comes back, R21); PokerKit
  refuses it.
* ``D3 short all-in reopens`` (standard ruleset): PokerKit starts each
  round's last raise size at 0, not at the big blind (D2), so an all-in
  raise smaller than a big blind counts as a full raise when nothing bigger
  came before it in the round — preflop (an all-in to 30 at 10/20), or
  after an all-in opening bet below the big blind — and reopens the
  betting for players who already acted; D3 says it does not.
* ``D3 short all-ins add up`` (standard ruleset): a player who already
  acted may raise again once the bet he faces has grown by a full raise
  since his own last action, however many short all-ins made it grow.
  PokerKit adds short all-ins up only until they reach a full raise, then
  forgets them, so one more short all-in shuts everyone who acted out.
* ``V3 heads-up uncapped``: with only two players left with chips there is
  no cap; PokerKit always caps.
* ``V3 big blind is the bet``: preflop the big blind is the round's bet, so
  the cap is a bet and three raises *including* the blind; PokerKit counts
  from zero and allows one raise more.
* ``V4 half-bet all-in``: an all-in of at least half a bet is a full one
  (it reopens the betting), and after a smaller one the next player
  completes to the full bet; PokerKit treats every all-in below a full raise
  as not reopening and makes the next raise a full raise *over* it.
* ``V7 open pair``: an open pair on 4th street in stud allows the big bet;
  PokerKit offers only the small one.
* ``V7 shared card``: when the deck cannot give every player still in a
  7th card, one card is shared in the middle.  PokerKit first reshuffles
  the folded players' cards into the deck and shares a card only when even
  those are too few, so with folds it deals 7th-street cards where we share
  one (the hand is compared up to that point; with nobody folded both
  share the card and the hand is compared to its end).
* ``V6 no low in a side pot``: PokerKit splits *every* pot high/low as soon
  as anyone at the table has a low, and when none of a side pot's players
  has one it gives that half to all of them; V6 gives a pot without a
  qualifying low wholly to the high hand.
* ``V17 run-out show order``: after an all-in run-out PokerKit shows from
  the last aggressor of the last round that had betting (stud: once then,
  and again after the last card); V17 and the seeds show from the first
  seat left of the button (stud: from the last round's opener), since
  nobody bet in the last round.  Only the order of ``CardsShown`` differs.
* ``odd chips`` (R22, V6, V9): PokerKit gives a pot's whole remainder to
  its first winner by player index (stud: seat 1 first, where V9 orders by
  the highest card) and merges pots the same players win; only chips of
  the indivisible remainders may then differ.
* V13: PokerKit reshuffles the drawing player's own discards and burnt and
  mucked cards, at random; we are fed in, so only the cards matter, and
  PokerKit accepts ours.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pokerkit

from freezeout.cards import Card, parse_cards
from freezeout.rules import (
    Action,
    ActionKind,
    HandSetup,
    HandState,
    IllegalAction,
    Ruleset,
    apply,
    start_hand,
)
from freezeout.rules.events import ActionTaken, CardsShown, Drew, Event, HoleDealt, PotAwarded, StreetDealt
from freezeout.rules.legal import LegalActions
from freezeout.rules.state import EITHER
from freezeout.rules.variant import VARIANTS, BettingStructure, Variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rules"))  # the shared random player
from variantplay import Policy, choose, pokerkit_index, pokerkit_state, random_setup

SLOW = os.environ.get("FREEZEOUT_SLOW") == "1"
HANDS = 3000 if SLOW else 150
POLICY = Policy(free_folds=False, big_bets=False)

# Names of the known differences (see the module docstring).
FREE_FOLD = "D5 free fold"
POINTLESS_RAISE = "D4 pointless raise"
SHORT_ALLIN_REOPENS = "D3 short all-in reopens"
SHORT_ALLINS_ADD_UP = "D3 short all-ins add up"
HEADS_UP_UNCAPPED = "V3 heads-up uncapped"
BLIND_IS_THE_BET = "V3 big blind is the bet"
HALF_BET_ALLIN = "V4 half-bet all-in"
OPEN_PAIR = "V7 open pair"
SHARED_CARD = "V7 shared card"
NO_LOW_SIDE_POT = "V6 no low in a side pot"
ODD_CHIPS = "odd chips"
RUN_OUT_SHOW_ORDER = "V17 run-out show order"


def _text(cards: Any) -> list[str]:
    return sorted(f"{card.rank}{card.suit}" if not isinstance(card, Card) else str(card) for card in cards)


@dataclass
class Lockstep:
    """One hand played by both engines, with what we have fed PokerKit."""

    setup: HandSetup
    rng: random.Random
    state: HandState
    events: list[Event]
    pk: Any
    known: Counter[str] = field(default_factory=Counter)
    hole: dict[int, list[Card]] = field(default_factory=dict)  # PokerKit index -> cards still to give it
    board: list[Card] = field(default_factory=list)
    stopped: bool = False  # a difference after which the hands cannot be compared (V7 shared card)
    round_events: list[ActionTaken] = field(default_factory=list)
    round_start: int = -1  # the bet to match when the round began (preflop: the big blind)
    last_bet_street: int = 0  # the street of the last betting move (V17: a run-out has none after it)

    @property
    def where(self) -> str:
        moves = ", ".join(f"{e.seat}:{e.kind}:{e.total}" for e in self.events if isinstance(e, ActionTaken))
        s = self.setup
        return (f"{s.variant.code} stacks {s.stacks} button {s.button} blinds {s.blinds} antes {s.antes}"
                f" bring-in {s.bring_in} bets {s.bet_sizes}: {moves}")

    def index(self, seat: int) -> int:
        return pokerkit_index(self.setup, seat)

    # -- cards ---------------------------------------------------------
    def take_cards(self, events: list[Event], *, start: bool = False) -> None:
        """Queue the cards our engine just dealt, for PokerKit."""
        if start:
            for seat, cards in enumerate(self.state.cards):
                self.hole.setdefault(self.index(seat), []).extend(c for c in cards if c is not None)
            return
        for event in events:
            if isinstance(event, HoleDealt):
                self.hole[self.index(event.seat)].extend(c for c in event.cards if c is not None)
            elif isinstance(event, Drew):
                self.hole[self.index(event.seat)].extend(c for c in event.drawn if c is not None)
            elif isinstance(event, StreetDealt):
                self.board.extend(event.cards)

    def feed(self) -> None:
        """Deal PokerKit whatever it is waiting for, from our cards."""
        pk = self.pk
        while True:
            if pk.can_deal_hole():
                index = next(i for i in range(len(self.setup.stacks)) if pk.hole_dealing_statuses[i])
                queue = self.hole[index]
                if not queue and self.board and not self.setup.variant.board_size:
                    # V7: we turned a shared card (the deck is short); PokerKit
                    # first reshuffles the folded players' cards.
                    self.stopped = True  # counted by compare_stacks
                    return
                assert queue, f"PokerKit deals player {index} a card our engine did not: {self.where}"
                pk.deal_hole(str(queue.pop(0)), index)
            elif pk.can_deal_board():
                count = pk.board_dealing_count
                cards, self.board = self.board[:count], self.board[count:]
                assert len(cards) == count, f"PokerKit deals a board card our engine did not: {self.where}"
                pk.deal_board("".join(map(str, cards)))
            else:
                return

    # -- one decision ----------------------------------------------------
    def step(self) -> None:
        state, pk = self.state, self.pk
        legal = state.legal_actions()
        assert legal is not None, self.where
        seat = legal.seat
        where = self.where
        if legal.draw:
            assert pk.stand_patter_or_discarder_index == self.index(seat), where
            assert _text(pk.hole_cards[self.index(seat)]) == _text(state.cards[seat]), where
            assert not legal.can_fold and not pk.can_fold() and not pk.can_check_or_call(), where
            stranger = next(card for card in state.setup.variant.deck if card not in state.cards[seat])
            assert not self.accepts_discard(legal, stranger) and not pk.can_stand_pat_or_discard(str(stranger)), where
            action = choose(legal, state.cards[seat], self.rng, POLICY)
            if action.kind is ActionKind.DISCARD:
                assert action.cards is not None
                assert pk.can_stand_pat_or_discard("".join(map(str, action.cards))), where
            self.apply(action)
            return
        assert pk.actor_index == self.index(seat), where
        assert _text(pk.hole_cards[self.index(seat)]) == _text(state.cards[seat]), where
        if legal.bring_in:
            assert pk.can_post_bring_in(), where
            assert pk.effective_bring_in_amount == legal.bring_in - legal.current_bet, where
            assert not pk.can_fold() and not legal.can_fold, where  # V7: the bring-in is forced
        else:
            assert not pk.can_post_bring_in(), where
            # D5: we allow every fold; PokerKit only one that gives up something.
            assert legal.can_fold, where
            assert pk.can_fold() == legal.can_call, where
            if not legal.can_call:
                self.known[FREE_FOLD] += 1
            assert pk.checking_or_calling_amount == legal.call_amount, where
        legal = self.compare_raises(legal)
        self.apply(choose(legal, state.cards[seat], self.rng, POLICY))

    def compare_raises(self, legal: LegalActions) -> LegalActions:
        """Compare bet/raise/completion legality and sizes; return the legal
        moves the random player may choose from (a known difference steered
        round)."""
        pk, state = self.pk, self.state
        where = self.where
        theirs = pk.can_complete_bet_or_raise_to()
        known = self.known_raise_difference(legal, theirs)
        if known:
            self.known[known] += 1
            return legal._replace(can_raise=False)
        assert theirs == legal.can_raise, (legal, where)
        if not legal.can_raise:
            return legal
        pk_min = pk.min_completion_betting_or_raising_to_amount
        pk_max = pk.max_completion_betting_or_raising_to_amount
        if state.bet_size == EITHER:  # V7: PokerKit offers only the small bet
            assert legal.sizes and pk_min == pk_max == legal.sizes[0], (legal, where)
            if len(legal.sizes) > 1:
                self.known[OPEN_PAIR] += 1
            return legal._replace(sizes=legal.sizes[:1], max_to=legal.sizes[0])
        assert (pk_min, pk_max) == (legal.min_to, legal.max_to), (legal, pk_min, pk_max, where)
        for amount in self.probes(legal):
            ours = self.accepts(legal, amount)
            assert pk.can_complete_bet_or_raise_to(amount) == ours, (amount, legal, where)
        return legal

    def known_raise_difference(self, legal: LegalActions, theirs: bool) -> str:
        """The documented difference this decision runs into, or ""."""
        pk, state = self.pk, self.state
        if legal.can_raise and not theirs and _pointless_raise(state):
            return POINTLESS_RAISE
        limit = state.setup.variant.betting is BettingStructure.FIXED_LIMIT
        street_cap = pk.street.max_completion_betting_or_raising_count if pk.street is not None else None
        if (limit and legal.can_raise and not theirs and pk.completion_betting_or_raising_count == street_cap
                and _players_with_chips(state) <= 2):
            return HEADS_UP_UNCAPPED
        if (limit and theirs and not legal.can_raise and "capped" in legal.no_raise_reason and state.street == 0
                and state.setup.blinds and street_cap is not None
                and pk.completion_betting_or_raising_count == street_cap - 1):
            return BLIND_IS_THE_BET
        if limit and self.short_all_in_this_round() and not self.raises_agree(legal, theirs):
            self.check_v4(legal)
            return HALF_BET_ALLIN
        if (not limit and theirs and not legal.can_raise and "not reopened" in legal.no_raise_reason
                and pk.completion_betting_or_raising_amount < state.increment):
            return SHORT_ALLIN_REOPENS
        seat = legal.seat
        if (not limit and legal.can_raise and not theirs and pk.consecutive_short_all_in_amounts
                and state.acted[seat] and state.to_match - state.faced[seat] >= state.increment):
            return SHORT_ALLINS_ADD_UP
        return ""

    def raises_agree(self, legal: LegalActions, theirs: bool) -> bool:
        if theirs != legal.can_raise:
            return False
        if not theirs:
            return True
        pk = self.pk
        return (pk.min_completion_betting_or_raising_to_amount, pk.max_completion_betting_or_raising_to_amount) == (
            legal.sizes[0] if legal.sizes else legal.min_to, legal.sizes[-1] if legal.sizes else legal.max_to)

    def short_all_in_this_round(self) -> bool:
        """V4: this round has an all-in bet or raise that was not a full one."""
        small, big = self.state.setup.bet_sizes
        step = big if self.state.bet_size == 1 else small
        level = self.round_start
        for event in self.round_events:
            if event.kind in ("bet", "raise", "complete"):
                if event.all_in and event.total - level < step:
                    return True
                level = max(level, event.total)
            elif event.kind == "bringin":
                level = max(level, event.total)
        return False

    def check_v4(self, legal: LegalActions) -> None:
        """Where PokerKit departs from V4, hold our engine to V4 itself: an
        all-in of at least half a bet is a full one (it sets the level the
        next raise builds on and reopens the betting); a smaller one does
        neither, and the next raise completes to one bet over the level."""
        state = self.state
        small, big = state.setup.bet_sizes
        step = big if state.bet_size == 1 else small
        level = to_match = self.round_start
        level_seen: dict[int, int] = {}  # seat -> the level when it last acted
        for event in self.round_events:
            if event.kind in ("bet", "raise", "complete"):
                if event.total >= level + step or (event.all_in and 2 * (event.total - to_match) >= step):
                    level = event.total
                to_match = max(to_match, event.total)
            elif event.kind == "bringin":
                to_match = event.total
            level_seen[event.seat] = level
        reopened = legal.seat not in level_seen or level > level_seen[legal.seat]
        where = f"V4: level {level}, reopened {reopened}: {legal}: {self.where}"
        if legal.can_raise:
            assert reopened, where
            steps = (small, big) if state.bet_size == EITHER else (step,)  # V7: an open pair allows either
            sizes = tuple(level + s for s in steps if level + s < legal.all_in_to)
            if legal.all_in_to <= level + steps[-1]:
                sizes += (legal.all_in_to,)
            assert legal.sizes == sizes, where
        elif "not reopened" in legal.no_raise_reason:
            assert not reopened, where

    def probes(self, legal: LegalActions) -> list[int]:
        candidates = {legal.min_to, legal.min_to - 1, legal.max_to, legal.max_to + 1, *legal.sizes}
        if legal.max_to > legal.min_to:
            candidates.add(self.rng.randint(legal.min_to, legal.max_to))
        return sorted(a for a in candidates if legal.to_match < a <= legal.all_in_to)

    def accepts_discard(self, legal: LegalActions, card: Card) -> bool:
        try:
            apply(self.state, Action(legal.seat, ActionKind.DISCARD, cards=(card,)))
        except IllegalAction:
            return False
        return True

    def accepts(self, legal: LegalActions, amount: int) -> bool:
        word = legal.raise_word
        kind = ActionKind.COMPLETE if word == "complete" else ActionKind.BET if word == "bet" else ActionKind.RAISE
        try:
            apply(self.state, Action(legal.seat, kind, amount))
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> None:
        before = self.state.street
        if not self.state.drawing:
            self.last_bet_street = before
        self.state, new_events = apply(self.state, action)
        self.events.extend(new_events)
        for event in new_events:
            if isinstance(event, Drew | ActionTaken):
                try:
                    self.tell_pokerkit(event)
                except ValueError as error:
                    raise AssertionError(f"PokerKit refuses our {event}: {error}: {self.where}") from None
        if self.state.street != before:
            self.round_events, self.round_start = [], self.state.to_match
        self.take_cards(new_events)
        if not self.stopped:
            self.feed()

    def tell_pokerkit(self, event: Drew | ActionTaken) -> None:
        pk = self.pk
        if isinstance(event, Drew):
            pk.stand_pat_or_discard("".join(map(str, event.discarded)))
            return
        if event.kind in ("discard", "standpat"):
            return  # the Drew event that follows says what
        self.round_events.append(event)
        if event.kind == "fold":
            pk.fold()
        elif event.kind in ("check", "call"):
            pk.check_or_call()
        elif event.kind == "bringin":
            pk.post_bring_in()
        else:
            pk.complete_bet_or_raise_to(event.total)


def _pointless_raise(state: HandState) -> bool:
    """D4: no other player still in can put in more than the bet to match."""
    return all(
        state.stacks[seat] + state.bets[seat] <= state.to_match
        for seat in range(state.seat_count)
        if seat != state.actor and not state.folded[seat]
    )


def _players_with_chips(state: HandState) -> int:
    return sum(1 for seat in range(state.seat_count) if not state.folded[seat] and state.stacks[seat] > 0)


def play_both(setup: HandSetup, rng: random.Random) -> Lockstep:
    state, events = start_hand(setup)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cards dealt from outside its deck (V13)
        pk = pokerkit_state(setup)
        hand = Lockstep(setup, rng, state, events, pk, round_start=state.to_match)
        hand.take_cards(events, start=True)
        hand.feed()
        while not hand.state.finished:
            if hand.stopped:  # finish ours alone
                legal = hand.state.legal_actions()
                assert legal is not None
                hand.state, more = apply(hand.state, choose(legal, hand.state.cards[legal.seat], rng, POLICY))
                hand.events.extend(more)
                continue
            hand.step()
    return hand


def odd_chips(events: list[Event]) -> int:
    """Indivisible chips of every split pot or half (R22, V9), and of every
    pot split into halves (V6: the odd chip goes high)."""
    awards = [e for e in events if isinstance(e, PotAwarded)]
    within = sum(e.amount % len(e.shares) for e in awards if len(e.shares) > 1)
    halves = sum(1 for e in awards if e.half == "low" and _high_of(awards, e.pot) != e.amount)
    return within + halves


def _high_of(awards: list[PotAwarded], pot: int) -> int:
    return next(e.amount for e in awards if e.pot == pot and e.half == "high")


def pots_without_low(events: list[Event]) -> int:
    """V6: the chips of the pots that went wholly to high (none of their
    players had a low) in a hand where another pot was split high/low —
    the pots PokerKit splits anyway; 0 when there are none."""
    halves: dict[int, set[str]] = {}
    amounts: Counter[int] = Counter()
    for event in events:
        if isinstance(event, PotAwarded) and event.rank:
            halves.setdefault(event.pot, set()).add(event.half)
            amounts[event.pot] += event.amount
    if not any("low" in kinds for kinds in halves.values()):
        return 0
    return sum(amounts[pot] for pot, kinds in halves.items() if kinds == {"high"})


def compare_show_order(hand: Lockstep) -> str:
    """V17: hands are shown from the last bettor or raiser of the last round,
    else from the first seat left of the button (stud: from the round's
    opener).  PokerKit agrees except after an all-in run-out: it shows as the
    betting ends, from that round's last aggressor, where the last round is
    the river and nobody bet in it (the seeds: "if everyone checks or is
    all-in in the final round, the player who starts the round shows
    first")."""
    ours = [hand.index(e.seat) for e in hand.events if isinstance(e, CardsShown)]
    showing = [op.player_index for op in hand.pk.operations if isinstance(op, pokerkit.HoleCardsShowingOrMucking)]
    theirs = showing[-len(ours):] if ours else []  # stud run-outs: PokerKit shows again at the end
    if ours == theirs:
        return ""
    where = f"ours {ours} PokerKit {theirs}: {hand.where}"
    assert sorted(ours) == sorted(theirs), where
    assert hand.last_bet_street < len(hand.setup.variant.streets) - 1, where  # a run-out
    n = len(hand.setup.stacks)
    first = 0 if hand.setup.variant.uses_button else hand.index(hand.state.opener)
    assert ours == sorted(ours, key=lambda index: (index - first) % n), where
    if hand.setup.variant.uses_button:  # PokerKit: from the last aggressor (stud shows twice; its order varies)
        raisers = [e.seat for e in hand.events if isinstance(e, ActionTaken) and e.kind in ("bet", "raise", "complete")]
        assert raisers and theirs[0] == hand.index(raisers[-1]), where
    return RUN_OUT_SHOW_ORDER


def compare_stacks(hand: Lockstep) -> str:
    """Finishing stacks must agree; return the documented reason when not."""
    if hand.stopped:
        return SHARED_CARD
    pk, setup = hand.pk, hand.setup
    assert not pk.status, f"PokerKit did not finish: {hand.where}"
    n = len(setup.stacks)
    final = hand.state.final_stacks()
    ours = [0] * n
    for seat in range(n):
        ours[pokerkit_index(setup, seat)] = final[seat]
    theirs = list(pk.stacks)
    if ours == theirs:
        return ""
    where = f"ours {ours} PokerKit {theirs}: {hand.where}"
    assert sum(ours) == sum(theirs), where
    moved = sum(abs(a - b) for a, b in zip(ours, theirs, strict=True))
    odd = odd_chips(hand.events)
    if moved <= 2 * odd:
        return ODD_CHIPS
    # PokerKit gives at most half of each such pot to the wrong players.
    assert moved <= 2 * odd + pots_without_low(hand.events), where
    return NO_LOW_SIDE_POT


def _cards_key(cards: Any) -> Any:
    return cards if isinstance(cards, str | pokerkit.Card) else tuple(cards)


@contextlib.contextmanager
def remembered_hands() -> Iterator[None]:
    """PokerKit evaluates each player's hand again for every pot and every
    check of a showdown (its hand killing: a hundred evaluations of the same
    few hands, nine tenths of an Omaha lockstep's time).  Its ``from_game``
    is a pure function of the hand type and the cards, so within this block
    each answer is remembered — the same hand object, or the same refusal
    (ValueError: no hand can be made) — and PokerKit plays exactly as
    without it, faster.  Each class that defines ``from_game`` gets its own
    memo around its own function, so a ``super()`` call still reaches the
    parent's."""
    owners, todo = [], [pokerkit.Hand]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "from_game" in cls.__dict__:
            owners.append(cls)
    originals = {cls: cls.__dict__["from_game"] for cls in owners}
    answers: dict[tuple[Any, ...], Any] = {}

    def remembering(owner: type[Any], evaluate: Any) -> Any:
        def from_game(hand_type: Any, hole_cards: Any, board_cards: Any = ()) -> Any:
            hole, board = _cards_key(hole_cards), _cards_key(board_cards)
            key = (owner, hand_type, hole, board)
            if key not in answers:
                try:
                    answers[key] = evaluate(hand_type, hole, board)
                except ValueError as refusal:
                    answers[key] = refusal
            answer = answers[key]
            if isinstance(answer, ValueError):
                raise ValueError(*answer.args)
            return answer

        return classmethod(from_game)

    for cls in owners:
        cls.from_game = remembering(cls, originals[cls].__func__)
    try:
        yield
    finally:
        for cls, own in originals.items():
            cls.from_game = own


def run_variant(variant: Variant, seed: int, hands: int) -> Counter[str]:
    with remembered_hands():
        return _run_variant(variant, seed, hands)


def _run_variant(variant: Variant, seed: int, hands: int) -> Counter[str]:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(hands):
        hand = play_both(random_setup(variant, rng), rng)
        seen.update(hand.known)
        reason = compare_stacks(hand)
        if hand.state.showdown and not hand.stopped:
            seen[compare_show_order(hand) or "showdowns in the same order"] += 1
        seen["hands"] += 1
        seen["showdowns"] += hand.state.showdown
        seen["actions"] += sum(isinstance(e, ActionTaken | Drew) for e in hand.events)
        if reason:
            seen[reason] += 1
    return seen


def deck_of(variant: Variant, cards: str) -> tuple[Card, ...]:
    """The deck in our dealing order: ``cards`` first, then the rest of the game's deck."""
    first = parse_cards(cards.replace(" ", ""))
    return (*first, *(card for card in variant.deck if card not in first))


def both(code: str, stacks: tuple[int, ...], cards: str, **stakes: Any) -> Lockstep:
    """A scripted hand of ``code`` in both engines (no random moves)."""
    variant = VARIANTS[code]
    setup = HandSetup(stacks=stacks, variant=variant, deck=deck_of(variant, cards), ruleset=Ruleset.STANDARD, **stakes)
    state, events = start_hand(setup)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hand = Lockstep(setup, random.Random(0), state, events, pokerkit_state(setup), round_start=state.to_match)
        hand.take_cards(events, start=True)
        hand.feed()
    return hand


def play(hand: Lockstep, *moves: tuple[int, str] | tuple[int, str, int]) -> LegalActions:
    """Apply ``(seat, word[, amount])`` moves in both engines; the legal moves after them."""
    for seat, word, *amount in moves:
        hand.apply(Action(seat, ActionKind(word), amount[0] if amount else None))
    legal = hand.state.legal_actions()
    assert legal is not None
    assert hand.pk.actor_index == hand.index(legal.seat)
    return legal
