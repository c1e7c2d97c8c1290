"""Engine throughput: random complete hands per second, ours vs PokerKit.

Two tables, both side by side in one process, with bursts alternating
between the engines and the median of the per-round ratios reported,
because this machine is noisy:

1. **The house game** (no-limit hold'em, 2, 3 and 4 players, 1000-chip
   stacks, blinds 10/20, standard ruleset), as before.
2. **Every variant of the registry** (issue 9's target: at least 10x
   PokerKit in each): 2 to 6 players a hand (stud and draws at most their
   maximum), stacks of 20 to 200 big blinds (or small bets), the game's
   forced bets — blinds 1/2 (fixed limit: bets 2/4), stud ante 1, bring-in
   1, bets 2/4 — every hand dealt from a fresh shuffle on both sides
   (ours shuffles the deck it is given, PokerKit its own).  PokerKit plays
   through its generic ``State`` with the same streets, structure and hand
   types (``tests/rules/variantplay.pokerkit_game``, built once per game as
   PokerKit's ``Poker`` classes do), in tournament mode.

Both engines follow one random policy (:func:`decide`), asking each engine
only what it offers: facing a bet, fold 20%; when a bet, raise or
completion is allowed, make one 30% of the time — to the minimum (40%), the
maximum (15%) or uniformly between (fixed limit: the one size); otherwise
check or call.  A bring-in is completed 40% of the time; a draw throws away
a uniformly random number of uniformly random cards.

Run by hand: ``.venv/bin/python bench/bench_engine.py [--seconds 2]
[--rounds 10] [--games NT FO/8 ...] [--profile FR]``.  ``--profile CODE``
prints cProfile's top entries of our engine on that game instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from freezeout.cards import Card
from freezeout.evaluate.rankings import NAMES, get_ranking
from freezeout.rules import Action, ActionKind, HandSetup, Ruleset, apply, start_hand
from freezeout.rules.legal import LegalActions
from freezeout.rules.variant import VARIANTS, BettingStructure, Forced, Variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules"))
from variantplay import pokerkit_state  # one PokerKit construction, shared with the tests

Play = Callable[[random.Random], None]


# -- the policy both engines follow ------------------------------------------


def decide(rng: random.Random, facing: bool, can_raise: bool, low: int, high: int) -> tuple[str, int]:
    """One decision of the shared random policy: ``("fold" | "call" | "raise", to)``."""
    roll = rng.random()
    if facing and roll < 0.2:
        return "fold", 0
    if can_raise and roll < 0.5:
        pick = rng.random()
        return "raise", low if pick < 0.4 else high if pick < 0.55 else rng.randint(low, high)
    return "call", 0


def discard(rng: random.Random, cards: list[Any]) -> list[Any]:
    return rng.sample(cards, rng.randint(0, len(cards)))


# -- one hand of ours ----------------------------------------------------------


def our_move(legal: LegalActions, cards: tuple[Card | None, ...], rng: random.Random) -> Action:
    seat = legal.seat
    if legal.draw:
        thrown = discard(rng, list(cards))
        return Action(seat, ActionKind.DISCARD, cards=tuple(thrown)) if thrown else Action(seat, ActionKind.STANDPAT)
    if legal.bring_in:
        complete = legal.can_raise and rng.random() < 0.4
        return Action(seat, ActionKind.COMPLETE if complete else ActionKind.BRINGIN)
    high = legal.sizes[0] if legal.sizes else legal.max_to  # fixed limit: the one size PokerKit knows
    word, amount = decide(rng, legal.can_call, legal.can_raise, legal.min_to, high)
    if word == "fold":
        return Action(seat, ActionKind.FOLD)
    if word == "raise":
        raise_word = legal.raise_word
        kind = ActionKind.COMPLETE if raise_word == "complete" else ActionKind.BET if raise_word == "bet" else ActionKind.RAISE
        return Action(seat, kind, amount)
    return Action(seat, ActionKind.CALL if legal.can_call else ActionKind.CHECK)


def play_ours(setup: HandSetup, rng: random.Random) -> None:
    state, _ = start_hand(setup)
    while not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        state, _ = apply(state, our_move(legal, state.cards[legal.seat], rng))


# -- one hand of PokerKit ------------------------------------------------------


def play_pokerkit(setup: HandSetup, rng: random.Random) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns when it reuses discards (V13)
        state = pokerkit_state(setup, deal=True)
        while state.status:
            if state.stand_patter_or_discarder_index is not None:
                state.stand_pat_or_discard(discard(rng, state.hole_cards[state.stand_patter_or_discarder_index]))
                continue
            if state.can_post_bring_in():
                if state.can_complete_bet_or_raise_to() and rng.random() < 0.4:
                    state.complete_bet_or_raise_to()
                else:
                    state.post_bring_in()
                continue
            can_raise = state.can_complete_bet_or_raise_to()
            low = state.min_completion_betting_or_raising_to_amount if can_raise else 0
            high = state.max_completion_betting_or_raising_to_amount if can_raise else 0
            word, amount = decide(rng, state.can_fold(), can_raise, low, high)
            if word == "fold":
                state.fold()
            elif word == "raise":
                state.complete_bet_or_raise_to(amount)
            else:
                state.check_or_call()


# -- the hands: the same stakes on both sides ------------------------------------


def variant_setup(variant: Variant, rng: random.Random, *, players: int | None = None,
                  stack: int | None = None, blinds: tuple[int, int] = (1, 2), shuffle: bool = True) -> HandSetup:
    """A hand of ``variant`` at the bench's stakes (module docstring), the
    button last so that our seats are PokerKit's player indices.  PokerKit
    shuffles its own deck, so its hands skip ours (``shuffle=False``)."""
    n = players if players is not None else rng.randint(2, min(6, variant.max_players))
    deck = list(variant.deck)
    if shuffle:
        rng.shuffle(deck)
    fixed = variant.betting is BettingStructure.FIXED_LIMIT
    unit = 2 * blinds[1] if fixed or variant.forced is Forced.BRING_IN else blinds[1]
    stacks = tuple(stack if stack is not None else rng.randint(20, 200) * unit for _ in range(n))
    if variant.forced is Forced.BRING_IN:
        return HandSetup(stacks=stacks, button=n - 1, antes=(1,) * n, bring_in=1, small_bet=2, big_bet=4,
                         big_blind=2, variant=variant, deck=tuple(deck), ruleset=Ruleset.STANDARD)
    posted = [0] * n
    if n == 2:
        posted[1], posted[0] = blinds  # R5: heads-up the button posts the small blind
    else:
        posted[0], posted[1] = blinds
    return HandSetup(
        stacks=stacks, button=n - 1, blinds=tuple(posted), big_blind=blinds[1], small_bet=blinds[1] if fixed else 0,
        big_bet=2 * blinds[1] if fixed else 0, variant=variant, deck=tuple(deck), ruleset=Ruleset.STANDARD,
        reshuffle=tuple(deck) if variant.has_draws else (),  # V13: any fixed order of the discards will do
    )


Make = Callable[[random.Random, bool], HandSetup]  # (rng, shuffle) -> a hand's setup


def ours(make: Make) -> Play:
    return lambda rng: play_ours(make(rng, True), rng)


def theirs(make: Make) -> Play:
    return lambda rng: play_pokerkit(make(rng, False), rng)


# -- timing ------------------------------------------------------------------------


def rate(play: Play, seconds: float, rng: random.Random) -> float:
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(5):
            play(rng)
        hands += 5
    return hands / (time.perf_counter() - start)


def race(make: Make, seconds: float, rounds: int) -> tuple[float, float, float]:
    """Interleaved bursts; median hands/s of each engine and median ratio."""
    burst = seconds / rounds
    ours_rng, theirs_rng = random.Random(1), random.Random(1)
    ours_play, theirs_play = ours(make), theirs(make)
    for _ in range(20):  # warm up: PokerKit builds its hand tables, we our rankings', on first use
        ours_play(ours_rng)
        theirs_play(theirs_rng)
    pairs = [(rate(ours_play, burst, ours_rng), rate(theirs_play, burst, theirs_rng)) for _ in range(rounds)]
    middle = len(pairs) // 2
    return (
        sorted(a for a, _ in pairs)[middle],
        sorted(b for _, b in pairs)[middle],
        sorted(a / b for a, b in pairs)[middle],
    )


def profile(code: str, seconds: float) -> None:
    variant = VARIANTS[code]
    rng = random.Random(1)
    play = ours(partial(_game_setup, variant=variant))
    profiler = cProfile.Profile()
    profiler.enable()
    hands = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        play(rng)
        hands += 1
    profiler.disable()
    print(f"{code}: {hands} hands")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(18)


def _house_setup(rng: random.Random, shuffle: bool, *, players: int) -> HandSetup:
    return variant_setup(VARIANTS["NT"], rng, players=players, stack=1000, blinds=(10, 20), shuffle=shuffle)


def _game_setup(rng: random.Random, shuffle: bool, *, variant: Variant) -> HandSetup:
    return variant_setup(variant, rng, shuffle=shuffle)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine and table row")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved bursts (the machine is noisy)")
    parser.add_argument("--games", nargs="*", default=list(VARIANTS), help="variant codes (default: all)")
    parser.add_argument("--profile", metavar="CODE", help="profile our engine on one game instead")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.seconds)
        return
    from freezeout import native

    print(f"our engine: {native.status()}  (make install compiles it; FREEZEOUT_PURE=1 runs the pure one)")
    for name in NAMES:
        get_ranking(name)  # every ranking's tables built before anything is timed
    print("The house game: no-limit hold'em, 1000 chips, blinds 10/20")
    print(f"{'players':>7} {'freezeout hands/s':>18} {'pokerkit hands/s':>17} {'median ratio':>13}")
    for players in (2, 3, 4):
        house: Make = partial(_house_setup, players=players)
        a, b, ratio = race(house, args.seconds, args.rounds)
        print(f"{players:>7} {a:>18,.0f} {b:>17,.0f} {ratio:>12.1f}x", flush=True)
    print("\nEvery game: 2-6 players, 20-200 big blinds (or big bets)")
    print(f"{'game':>6} {'freezeout hands/s':>18} {'pokerkit hands/s':>17} {'median ratio':>13}")
    for code in args.games:
        variant = VARIANTS[code]
        game: Make = partial(_game_setup, variant=variant)
        a, b, ratio = race(game, args.seconds, args.rounds)
        flag = "" if ratio >= 10 else "  < 10x"
        print(f"{code:>6} {a:>18,.0f} {b:>17,.0f} {ratio:>12.1f}x{flag}", flush=True)


if __name__ == "__main__":
    main()
