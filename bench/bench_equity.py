"""Equity calculator speed, side by side with PokerKit and eval7, and the speed of a game review.

    nice -n 19 python bench/bench_equity.py            # 5 rounds, best round reported
    nice -n 19 python bench/bench_equity.py --rounds 3 --samples 20000

Rows (wall time and CPU time of the best round, after a warm-up call that
compiles the kernels):

* ``holdem_hu_preflop_exact_*`` — AsAh against KsKh, all 1,712,304 boards
  (the issue asks ≤ 100 ms warm): against eval7's Monte Carlo with as many
  samples as we enumerate boards (eval7 has no preflop enumeration), and
  against PokerKit's Monte Carlo at ``--samples``.
* ``holdem_hu_flop_exact_vs_eval7_mc``, ``holdem_3way_turn_exact`` — small exact cases.
* ``holdem_3way_preflop_exact_vs_pokerkit_mc`` — our exact three-way
  preflop (1,370,754 boards) against PokerKit's ``calculate_equities``
  (Monte Carlo only; no exact mode) at ``--samples``.
* ``omaha_hilo_preflop_monte_carlo`` — the same number of samples for us
  and for PokerKit (high and low halves).
* ``review_100_hands`` — ``freezeout review`` of a 100-hand house-game
  record built here by a seeded random player (the issue asks < 1 s).

``ratio`` is the other side's time over ours (> 1: we are faster).  eval7
and PokerKit are the bench extra (``pip install -e '.[bench]'``); a row
whose other side is missing prints ``null`` for it.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from freezeout.analysis.equity import equity
from freezeout.analysis.games import game_for
from freezeout.cards import Card, parse_cards, shuffled_deck
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import NLHE, Ruleset


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(card) for card in parse_cards(text))


def best(function: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Best wall and CPU seconds of ``rounds`` calls (after one warm-up)."""
    function()
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def ours(code: str, hands: list[str], board: str = "", samples: int = 50_000) -> Callable[[], object]:
    game = game_for(code)
    held = [[cards(hand)] for hand in hands]
    exact_limit = 0 if samples and code != "NT" else 3_000_000
    return lambda: equity(game, held, cards(board), samples=samples, exact_limit=exact_limit)


def eval7_monte_carlo(hero: str, villain: str, board: str, samples: int) -> Callable[[], object] | None:
    """eval7's hand-against-range Monte Carlo.  (Its ``py_hand_vs_range_exact`` only
    enumerates the villain's range on a complete board: it returns 1.0 at once preflop.)"""
    try:
        import eval7
    except ImportError:
        return None
    hand = [eval7.Card(card) for card in (hero[:2], hero[2:])]
    villains = eval7.HandRange(villain)
    table = [eval7.Card(board[i : i + 2]) for i in range(0, len(board), 2)]
    return lambda: eval7.py_hand_vs_range_monte_carlo(hand, villains, table, samples)


def pokerkit_monte_carlo(hands: list[str], board: str, kinds: tuple[str, ...], samples: int) -> Callable[[], object] | None:
    try:
        import pokerkit
    except ImportError:
        return None
    hand_types = tuple(getattr(pokerkit, kind) for kind in kinds)
    ranges = [[tuple(pokerkit.Card.parse(hand))] for hand in hands]
    hole = len(hands[0]) // 2
    return lambda: pokerkit.calculate_equities(
        ranges, pokerkit.Card.parse(board) if board else (), hole, 5, pokerkit.Deck.STANDARD, hand_types,
        sample_count=samples,
    )


def record_of(hands: int, seed: int) -> dict[str, Any]:
    """A house-game record of ``hands`` hands: four players, 200 big blinds, a seeded random player in every seat
    (the first seed from ``seed`` on whose tournament lasts that long)."""
    while True:
        record = _play(hands, seed)
        if len(record["hands"]) == hands:
            return record
        seed += 1


def _play(hands: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = ["ana", "bo", "cy", "di"]
    config = TournamentConfig(players=tuple(players), button=0, starting_stack=4000, ruleset=Ruleset.HOUSE,
                              levels=((10, 20),), hands_per_level=6, variant=NLHE)
    tournament = Tournament.start(config)
    played = []
    while len(played) < hands and not tournament.finished:
        deck = list(shuffled_deck(rng))
        alive = [seat for seat, alive in enumerate(tournament.alive) if alive]
        hole = {seat: (deck.pop(), deck.pop()) for seat in alive}
        board = tuple(deck.pop() for _ in range(5))
        tournament, _ = tournament.deal(hole, board)
        actions: list[list[Any]] = []
        while tournament.in_hand:
            legal = tournament.legal_actions()
            assert legal is not None
            word, amount = _move(legal, rng)
            action = Action(legal.seat, ActionKind(word), amount) if amount else Action(legal.seat, ActionKind(word))
            tournament, _ = tournament.act(action)
            actions.append([players[legal.seat], word, amount] if amount else [players[legal.seat], word])
        played.append({"hole": {players[seat]: "".join(str(Card(c)) for c in pair) for seat, pair in hole.items()},
                       "board": "".join(str(card) for card in board), "actions": actions})
    return {"format": "freezeout.record/2", "game": {"variant": "NT", "levels": [{"small_blind": 10, "big_blind": 20}]},
            "players": players, "button": "ana", "starting_stack": 4000, "hands": played}


def _move(legal: Any, rng: random.Random) -> tuple[str, int]:
    roll = rng.random()
    if roll < 0.015 and legal.can_raise:
        return "allin", 0
    if legal.can_check:
        return ("bet" if legal.opening else "raise", legal.min_to) if roll < 0.2 and legal.can_raise else ("check", 0)
    if roll < 0.45:
        return "fold", 0
    if roll < 0.55 and legal.can_raise and legal.min_to < legal.all_in_to:
        return ("bet" if legal.opening else "raise"), legal.min_to
    return "call", 0


def row(name: str, mine: Callable[[], object], theirs: Callable[[], object] | None, who: str, rounds: int) -> None:
    wall, cpu = best(mine, rounds)
    line: dict[str, Any] = {"case": name, "ours_ms": round(1000 * wall, 2), "ours_cpu_ms": round(1000 * cpu, 2)}
    if theirs is not None:
        other_wall, _ = best(theirs, max(1, rounds // 2))
        line.update({f"{who}_ms": round(1000 * other_wall, 2), "ratio": round(other_wall / wall, 1)})
    else:
        line[f"{who}_ms"] = None
    print(json.dumps(line), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=20_000, help="Monte Carlo deals, ours and PokerKit's")
    parser.add_argument("--review-only", action="store_true", help="time the 100-hand review only")
    args = parser.parse_args()
    if not args.review_only:
        compare(args.rounds, args.samples)
    review(args.rounds)
    return 0


def compare(rounds: int, n: int) -> None:
    """The calculator side by side with eval7 and PokerKit."""
    args = argparse.Namespace(rounds=rounds)
    boards = 1_712_304
    row("holdem_hu_preflop_exact_vs_eval7_mc_same_count", ours("NT", ["AsAh", "KsKh"], samples=0),
        eval7_monte_carlo("AsAh", "KsKh", "", boards), "eval7", args.rounds)
    row("holdem_hu_preflop_exact_vs_pokerkit_mc", ours("NT", ["AsAh", "KsKh"], samples=0),
        pokerkit_monte_carlo(["AsAh", "KsKh"], "", ("StandardHighHand",), n), "pokerkit", args.rounds)
    row("holdem_hu_flop_exact_vs_eval7_mc", ours("NT", ["AsKs", "7c7d"], "Qs7h2s", samples=0),
        eval7_monte_carlo("AsKs", "7c7d", "Qs7h2s", n), "eval7", args.rounds)
    row("holdem_3way_turn_exact", ours("NT", ["AhKd", "AcKc", "QhQd"], "Ks7s2d9c", samples=0), None, "eval7", args.rounds)
    row("holdem_3way_preflop_exact_vs_pokerkit_mc", ours("NT", ["AhKd", "QcQs", "7h6h"], samples=n),
        pokerkit_monte_carlo(["AhKd", "QcQs", "7h6h"], "", ("StandardHighHand",), n), "pokerkit", args.rounds)
    row("omaha_hilo_preflop_monte_carlo", ours("FO/8", ["As2sKdQd", "3c4c8h8d"], samples=n),
        pokerkit_monte_carlo(["As2sKdQd", "3c4c8h8d"], "", ("OmahaHoldemHand", "OmahaEightOrBetterLowHand"), n),
        "pokerkit", args.rounds)


def review(rounds: int) -> None:
    """``freezeout review`` of a 100-hand record, in process (warm)."""
    from freezeout.analysis.review import review_file_text

    text = json.dumps(record_of(100, seed=36))
    hands = len(json.loads(text)["hands"])
    wall, cpu = best(lambda: review_file_text(text), rounds)
    all_ins = sum(hand["all_in"] is not None for hand in review_file_text(text)["hands"])
    print(json.dumps({"case": f"review_{hands}_hands", "all_ins": all_ins, "ours_ms": round(1000 * wall, 1),
                      "ours_cpu_ms": round(1000 * cpu, 1)}), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
