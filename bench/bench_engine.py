"""Engine throughput: random complete hands per second, ours vs PokerKit.

Both engines play the same kind of random legal no-limit hold'em hands
(uniformly: fold when facing a bet, check/call, or bet/raise to a uniform
amount from the minimum to all-in), 2, 3 and 4 players, 1000-chip stacks,
blinds 10/20, standard ruleset.  Bursts alternate between the engines and the
median ratio is reported, because this machine is noisy.  Run by hand:
``.venv/bin/python bench/bench_engine.py [--seconds 3]``.
"""

from __future__ import annotations

import argparse
import random
import time

from freezeout.cards import full_deck
from freezeout.rules import Action, ActionKind, HandSetup, Ruleset, apply, start_hand

DECK = full_deck()


def ours(players: int, rng: random.Random) -> None:
    deck = rng.sample(DECK, 2 * players + 5)  # deal only the cards the hand needs
    blinds = [0] * players
    if players == 2:
        blinds[0], blinds[1] = 10, 20
    else:
        blinds[1], blinds[2] = 10, 20
    setup = HandSetup(
        stacks=(1000,) * players,
        button=0,
        blinds=tuple(blinds),
        big_blind=20,
        hole=tuple((deck.pop(), deck.pop()) for _ in range(players)),
        board=tuple(deck.pop() for _ in range(5)),
        ruleset=Ruleset.STANDARD,
    )
    state, _ = start_hand(setup)
    while not state.finished:
        legal = state.legal_actions()
        assert legal is not None
        # Same policy as the PokerKit driver: fold only when facing a bet
        # (PokerKit refuses a fold that could be a check), check/call, or a
        # bet/raise to a uniform amount between the minimum and all-in.
        choices = ["fold", "call"] if legal.can_call else ["check"]
        if legal.can_raise:
            choices.append(legal.raise_word)
        word = rng.choice(choices)
        if word in ("bet", "raise"):
            action = Action(legal.seat, ActionKind(word), rng.randint(legal.min_to, legal.max_to))
        else:
            action = Action(legal.seat, ActionKind(word))
        state, _ = apply(state, action)


def pokerkit_hand(players: int, rng: random.Random) -> None:
    from pokerkit import Automation, NoLimitTexasHoldem

    state = NoLimitTexasHoldem.create_state(
        (
            Automation.ANTE_POSTING,
            Automation.BET_COLLECTION,
            Automation.BLIND_OR_STRADDLE_POSTING,
            Automation.CARD_BURNING,
            Automation.HOLE_DEALING,
            Automation.BOARD_DEALING,
            Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            Automation.HAND_KILLING,
            Automation.CHIPS_PUSHING,
            Automation.CHIPS_PULLING,
        ),
        False,
        0,
        (10, 20),
        20,
        (1000,) * players,
        players,
    )
    while state.status:
        choices = ["cc"]
        if state.can_fold():
            choices.append("f")
        if state.can_complete_bet_or_raise_to():
            choices.append("cbr")
        word = rng.choice(choices)
        if word == "f":
            state.fold()
        elif word == "cc":
            state.check_or_call()
        else:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            assert low is not None and high is not None
            state.complete_bet_or_raise_to(rng.randint(low, high))


def rate(play, players: int, seconds: float, rng: random.Random) -> float:
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            play(players, rng)
        hands += 20
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0, help="per engine and player count")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved bursts (the machine is noisy)")
    args = parser.parse_args()
    burst = args.seconds / args.rounds
    print(f"{'players':>7} {'freezeout hands/s':>18} {'pokerkit hands/s':>17} {'median ratio':>13}")
    for players in (2, 3, 4):
        ours_rng, theirs_rng = random.Random(1), random.Random(1)
        pairs = [
            (rate(ours, players, burst, ours_rng), rate(pokerkit_hand, players, burst, theirs_rng))
            for _ in range(args.rounds)
        ]
        ratios = sorted(a / b for a, b in pairs)
        a = sorted(p[0] for p in pairs)[len(pairs) // 2]
        b = sorted(p[1] for p in pairs)[len(pairs) // 2]
        print(f"{players:>7} {a:>18,.0f} {b:>17,.0f} {ratios[len(ratios) // 2]:>12.1f}x")


if __name__ == "__main__":
    main()
