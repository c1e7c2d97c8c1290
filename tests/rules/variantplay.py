"""Random legal play of every variant (V1–V18), shared by the variant
property tests, the PokerKit differential test and ``bench/bench_engine.py``.

One place decides what a "random hand" of a game is — its stakes, stacks
and forced bets, and the random policy that picks among the moves
``legal_actions`` offers — so that the properties, the differential test
and the benchmark all exercise the same hands, and the benchmark gives
PokerKit exactly the policy our engine gets.  It also builds the PokerKit
``State`` of any of our variants (PokerKit's generic ``State`` with our
streets, betting structure and hand types), because PokerKit has classes
for only some of them and one of those is wrong (see :func:`pokerkit_state`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from freezeout.cards import Card
from freezeout.rules import (
    Action,
    ActionKind,
    HandSetup,
    HandState,
    Ruleset,
    Tournament,
    TournamentConfig,
    apply,
    start_hand,
)
from freezeout.rules.events import Event, Resigned
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import default_levels
from freezeout.rules.variant import VARIANTS, BettingStructure, Forced, Opening, Variant

__all__ = [
    "CODES",
    "Policy",
    "VariantGame",
    "choose",
    "play_hand",
    "play_variant_tournament",
    "pokerkit_game",
    "pokerkit_index",
    "pokerkit_state",
    "random_setup",
]

#: Every variant of the registry, in registry order.
CODES: tuple[str, ...] = tuple(VARIANTS)


@dataclass(frozen=True)
class Policy:
    """How the random player chooses.

    ``free_folds``: fold even when a check is free (D5 allows it; PokerKit
    refuses it, so the differential test turns it off).  ``big_bets``: in
    stud's open-pair round (V7) also pick the big bet (PokerKit has no such
    option).  ``raise_rate`` and ``allin_rate`` weigh aggression, so that
    caps, all-ins and side pots all happen.
    """

    free_folds: bool = True
    big_bets: bool = True
    fold_rate: float = 0.2
    raise_rate: float = 0.3
    allin_rate: float = 0.06


DEFAULT_POLICY = Policy()


# -- stakes and stacks ------------------------------------------------------


def random_setup(
    variant: Variant,
    rng: random.Random,
    *,
    players: int | None = None,
    ruleset: Ruleset = Ruleset.STANDARD,
) -> HandSetup:
    """A random hand of ``variant``: 2 to the game's maximum of players,
    stakes as the game has them (blinds and sometimes antes; stud antes
    and a bring-in; fixed-limit small and big bets, V3), mixed stack depths
    from a couple of bets to a hundred so that all-ins and side pots are
    common, and a shuffled deck of the game (V16: 36 cards in short deck).

    Stacks always cover the forced bets with something left: a big blind
    posted short is a known PokerKit difference (D1, documented in
    tests/formats/test_phh_pokerkit_diff.py) that would hide the others.
    """
    n = players if players is not None else rng.randint(2, variant.max_players)
    fixed = variant.betting is BettingStructure.FIXED_LIMIT
    deck = list(variant.deck)
    rng.shuffle(deck)
    reshuffle: tuple[Card, ...] = ()
    if variant.has_draws:  # V13: the order the discards come back in, if the deck runs out
        order = list(variant.deck)
        rng.shuffle(order)
        reshuffle = tuple(order)
    if variant.forced is Forced.BRING_IN:
        small = rng.choice([2, 4, 10, 20, 40])
        ante = rng.choice([0, 1, small // 10, small // 4])
        bring_in = max(1, rng.choice([1, small // 4, small // 2]))
        floor = ante + small + 1
        stacks = tuple(rng.randint(floor, max(floor, small * rng.choice([2, 5, 15, 60]))) for _ in range(n))
        return HandSetup(
            stacks=stacks, button=0, big_blind=small, antes=(ante,) * n if ante else (), bring_in=bring_in,
            small_bet=small, big_bet=2 * small, ruleset=ruleset, variant=variant, deck=tuple(deck),
        )
    bb = rng.choice([2, 4, 10, 20, 50, 100])
    sb = rng.choice([bb // 2, bb // 2, 1, bb - 1])
    ante = rng.choice([0, 0, 0, 1, bb // 4, bb // 2])
    small_bet = bb if not fixed or rng.random() < 0.8 else 2 * bb
    unit = 2 * small_bet if fixed else bb
    floor = bb + ante + 1  # D1: never a short blind
    stacks = tuple(rng.randint(floor, max(floor, unit * rng.choice([2, 5, 15, 60, 100]))) for _ in range(n))
    button = rng.randrange(n)
    blinds = [0] * n
    first = button if n == 2 else (button + 1) % n  # R5: heads-up the button posts the small blind
    blinds[first] = sb
    blinds[(first + 1) % n] = bb
    return HandSetup(
        stacks=stacks, button=button, blinds=tuple(blinds), big_blind=bb, antes=(ante,) * n if ante else (),
        small_bet=small_bet if fixed else 0, big_bet=2 * small_bet if fixed else 0, ruleset=ruleset,
        variant=variant, deck=tuple(deck), reshuffle=reshuffle,
    )


# -- the random policy ------------------------------------------------------


def choose(legal: LegalActions, cards: Sequence[Card | None], rng: random.Random, policy: Policy = DEFAULT_POLICY) -> Action:
    """A random move among those ``legal`` offers (``cards``: the actor's,
    for a draw).  Every kind of move has a fair chance: fold, check/call,
    bet/raise/complete to the minimum, the maximum or anything between (a
    fixed-limit size), all-in, bring-in, discard any subset or stand pat."""
    seat = legal.seat
    if legal.draw:
        count = rng.randint(0, len(cards))
        if not count:
            return Action(seat, ActionKind.STANDPAT)
        return Action(seat, ActionKind.DISCARD, cards=tuple(rng.sample(list(cards), count)))
    if legal.bring_in:
        if legal.can_raise and rng.random() < 0.4:
            return Action(seat, ActionKind.COMPLETE)
        return Action(seat, ActionKind.BRINGIN)
    roll = rng.random()
    if roll < policy.fold_rate and (legal.can_call or policy.free_folds):
        return Action(seat, ActionKind.FOLD)
    if legal.can_raise and roll < policy.fold_rate + policy.raise_rate:
        return Action(seat, _raise_kind(legal), _raise_amount(legal, rng, policy))
    if roll > 1 - policy.allin_rate and "allin" in legal.moves:
        return Action(seat, ActionKind.ALLIN)
    return Action(seat, ActionKind.CALL if legal.can_call else ActionKind.CHECK)


def _raise_kind(legal: LegalActions) -> ActionKind:
    word = legal.raise_word
    return ActionKind.COMPLETE if word == "complete" else ActionKind.BET if word == "bet" else ActionKind.RAISE


def _raise_amount(legal: LegalActions, rng: random.Random, policy: Policy) -> int:
    if legal.sizes:
        sizes = legal.sizes if policy.big_bets else legal.sizes[:1]
        return rng.choice(sizes)
    pick = rng.random()
    if pick < 0.4:
        return legal.min_to
    if pick < 0.55:
        return legal.max_to
    return rng.randint(legal.min_to, legal.max_to)


def play_hand(setup: HandSetup, rng: random.Random, policy: Policy = DEFAULT_POLICY) -> tuple[HandState, list[Event]]:
    """Play one hand to its end with :func:`choose`."""
    state, events = start_hand(setup)
    while not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        state, more = apply(state, choose(legal, state.cards[legal.seat], rng, policy))
        events.extend(more)
    return state, events


# -- tournaments in every game (V18) ---------------------------------------


@dataclass
class VariantGame:
    """A random tournament: the final state, every event, and (on request)
    the tournament after every step."""

    tournament: Tournament
    events: list[Event] = field(default_factory=list)
    snapshots: list[Tournament] = field(default_factory=list)
    vanished: int = 0  # chips that left the game with resigners (R28)


def play_variant_tournament(
    variant: Variant,
    seed: int,
    players: int,
    *,
    max_hands: int = 60,
    stack: int = 1000,
    keep_snapshots: bool = False,
    resign_rate: float = 0.004,
    timeout_rate: float = 0.02,
) -> VariantGame:
    """A freezeout in ``variant`` (V18: the game's default levels), dealt
    with ``deal_deck`` from seeded shuffles, played by :func:`choose` with
    an occasional timeout (R26) or resignation (R28), for at most
    ``max_hands`` hands."""
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    config = TournamentConfig(
        players=names, button=rng.randrange(players), starting_stack=stack, variant=variant,
        levels=default_levels(variant),
    )
    t = Tournament.start(config)
    game = VariantGame(t)
    for _ in range(max_hands):
        if t.finished:
            break
        deck = list(variant.deck)
        rng.shuffle(deck)
        order = list(variant.deck)
        rng.shuffle(order)
        t, events = t.deal_deck(deck, reshuffle=order if variant.has_draws else ())
        game.events.extend(events)
        while True:
            if keep_snapshots:
                game.snapshots.append(t)
            if t.finished or not t.in_hand:
                break
            t, events = t.act(_tournament_action(t, rng, resign_rate, timeout_rate))
            game.events.extend(events)
            game.vanished += sum(e.vanished for e in events if isinstance(e, Resigned))
    game.tournament = t
    return game


def _tournament_action(t: Tournament, rng: random.Random, resign_rate: float, timeout_rate: float) -> Action:
    legal = t.legal_actions()
    assert legal is not None and t.hand is not None
    roll = rng.random()
    if roll < resign_rate:
        return Action(rng.choice([s for s in range(len(t.alive)) if t.alive[s]]), ActionKind.RESIGN)
    if roll < resign_rate + timeout_rate:
        return Action(legal.seat, ActionKind.TIMEOUT)
    hand_seat = t.seats.index(legal.seat)
    return choose(legal, t.hand.cards[hand_seat], rng)


# -- PokerKit ---------------------------------------------------------------


def pokerkit_index(setup: HandSetup, seat: int) -> int:
    """PokerKit's player index of our hand seat: button games list players
    from the first seat left of the button (heads-up the big blind first, as
    PHH does); stud has no button and keeps seat order (V7)."""
    n = len(setup.stacks)
    if setup.variant.uses_button:
        return (seat - setup.button - 1) % n
    return seat


def _pokerkit_hand_types(pokerkit: Any, variant: Variant) -> tuple[Any, ...]:
    names = {
        "high": pokerkit.StandardHighHand,
        "short-deck": pokerkit.ShortDeckHoldemHand,
        "omaha-high": pokerkit.OmahaHoldemHand,
        "omaha-low8": pokerkit.OmahaEightOrBetterLowHand,
        "low8": pokerkit.EightOrBetterLowHand,
        "low-a5": pokerkit.RegularLowHand,
        "low-27": pokerkit.StandardLowHand,
        "badugi": pokerkit.BadugiHand,
    }
    return tuple(names[ranking] for ranking in variant.rankings)


def pokerkit_cap(variant: Variant) -> int | None:
    """The fixed-limit cap PokerKit is built with: 4 (its own classes' value
    for every fixed-limit game, a bet and three raises), or 5 for our
    two-round fixed-limit draws (V3: a bet and four raises), which PokerKit
    has no class for.  Both count bets and raises from zero each round:
    PokerKit never counts the big blind (V3 does, preflop)."""
    if variant.betting is not BettingStructure.FIXED_LIMIT:
        return None
    return 5 if len(variant.streets) == 2 else 4


def pokerkit_state(setup: HandSetup, *, deal: bool = False) -> Any:
    """A PokerKit ``State`` playing the same hand as ``setup``.

    Built from PokerKit's generic ``State`` with our variant's streets, bet
    sizes, openings and hand types, in tournament mode, with no card burnt
    (our engine burns none).  PokerKit's own ``FixedLimitOmahaHoldemHighLow
    SplitEightOrBetter`` is not used: in 0.7.7 it inherits
    ``PotLimitPokerMixin`` (pokerkit/games.py) and so bets pot-limit; the
    state built here is truly fixed-limit.

    Cards: with ``deal=False`` PokerKit deals nothing itself (the caller
    feeds it our cards, ``deal_hole`` / ``deal_board``); with ``deal=True``
    it deals from its own shuffled deck (the benchmark).
    """
    from pokerkit import Mode, State

    n = len(setup.stacks)
    order = sorted(range(n), key=lambda seat: pokerkit_index(setup, seat))  # PokerKit index -> our seat
    blinds: tuple[int, ...] = (0,) * n
    if setup.blinds:
        by_index = [setup.blinds[seat] for seat in order]
        # PokerKit reverses the blinds itself heads-up (as PHH does): give them in position order.
        blinds = tuple(reversed(by_index)) if n == 2 else tuple(by_index)
    antes = tuple(setup.antes[seat] for seat in order) if setup.antes else (0,) * n
    small, big = setup.bet_sizes
    automations, deck, hand_types, streets, structure = pokerkit_game(setup.variant.code, setup.big_blind, small, big, deal=deal)
    return State(
        automations,
        deck,
        hand_types,
        streets,
        structure,
        setup.ante_trimming,
        antes,
        blinds,
        setup.bring_in,
        tuple(setup.stacks[seat] for seat in order),
        n,
        mode=Mode.TOURNAMENT,
    )


@cache
def pokerkit_game(code: str, big_blind: int, small_bet: int, big_bet: int, *, deal: bool) -> tuple[Any, ...]:
    """What a PokerKit ``State`` of game ``code`` at these stakes needs
    before the stacks: automations, deck, hand types, streets and betting
    structure (what PokerKit's ``Poker`` classes keep between hands)."""
    import pokerkit
    from pokerkit import Automation, Deck, Street
    from pokerkit import Opening as PkOpening

    variant = VARIANTS[code]
    cap = pokerkit_cap(variant)
    openings = {
        Opening.POSITION: PkOpening.POSITION,
        Opening.LOW_CARD: PkOpening.LOW_CARD,
        Opening.HIGH_CARD: PkOpening.HIGH_CARD,
        Opening.HIGH_HAND: PkOpening.HIGH_HAND,
        Opening.LOW_HAND: PkOpening.LOW_HAND,
    }
    streets = []
    for index, street in enumerate(variant.streets):
        if variant.betting is BettingStructure.FIXED_LIMIT:
            min_bet = big_bet if street.big_bet else small_bet
        else:
            min_bet = big_blind
        opening = variant.opening if index == 0 else variant.later_opening
        streets.append(Street(False, street.hole, street.board, street.draw, openings[opening], min_bet, cap))
    structure = {
        BettingStructure.NO_LIMIT: pokerkit.BettingStructure.NO_LIMIT,
        BettingStructure.POT_LIMIT: pokerkit.BettingStructure.POT_LIMIT,
        BettingStructure.FIXED_LIMIT: pokerkit.BettingStructure.FIXED_LIMIT,
    }[variant.betting]
    automations = [
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    ]
    if deal:
        automations += [Automation.HOLE_DEALING, Automation.BOARD_DEALING]
    deck = Deck.SHORT_DECK_HOLDEM if variant.short_deck else Deck.STANDARD
    return tuple(automations), deck, _pokerkit_hand_types(pokerkit, variant), tuple(streets), structure
