"""Cash-style sessions between bots: fixed blinds, stacks reset every hand.

A *session* is ``hands`` hands of one game at its first level's forced
bets (R6/V18: 10/20 blinds; fixed limit bets 20/40; stud's ante 2, bring-in
5, bets 20/40) in which every player starts every hand with ``stack`` big
blinds (stud: small bets) — a cash table where everyone tops up to the
maximum buy-in before each deal, so a bust costs the stack and nothing
more.  The hands are played through the public rules API as a
:class:`~freezeout.rules.tournament.Tournament` whose stacks are reset
between hands, so the public history of every earlier hand of the session
reaches the bots' views exactly as at a freezeout table.

Duplicate decks as in :mod:`.match`: hand ``k`` of session ``d`` deals the
same deck in every rotation of the line-up.  Results are big blinds won
per 100 hands, with a 95 % interval over sessions (the rotations of one
session are averaged first: they are not independent).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from freezeout.bots.match import (
    Sitting,
    _seed,
    deck_of,
    interval,
    labels,
    latency_ms,
    run_tasks,
    shuffled,
    tournament_config,
)
from freezeout.rules.tournament import Tournament, level_for_hand

__all__ = ["CashResult", "SessionResult", "play_session", "run_cash"]


@dataclass(frozen=True, slots=True)
class SessionResult:
    deal: int
    rotation: int
    won: tuple[float, ...]  # per line-up entry: big blinds won over the session
    hands: int
    decisions: tuple[int, ...]
    seconds: tuple[tuple[float, ...], ...]
    games: tuple[str, ...] = ()  # the games dealt, in order of their first hand (V19: a mix's several)


def play_session(
    lineup: Sequence[str], *, seed: int, deal: int, rotation: int, game: str = "NT", hands: int = 100, stack: int = 100
) -> SessionResult:
    """``hands`` hands at the first level with everyone reset to ``stack`` big blinds each hand.

    A mix (V19) keeps its first level's big blind and changes game every
    ``hands_per_level`` hands as a cash table of the mix does (C1, V19): every
    game takes its sizes from that one big blind, so a stack of ``stack`` big
    blinds is the same chips in each game and the results add up."""
    n = len(lineup)
    sitting = Sitting.of(lineup, seed=seed, deal=deal, rotation=rotation)
    button = random.Random(_seed(seed, deal, 1)).randrange(n)
    names = tuple(f"p{seat}" for seat in range(n))
    base = tournament_config(game, names, button=button)
    level = level_for_hand(1, base.levels, base.hands_per_level)
    unit = level.big_blind or level.small_bet
    chips = stack * unit
    config = replace(base, levels=(level,), starting_stack=chips)
    tournament = Tournament.start(config)
    cards = deck_of(game)
    won = [0] * n
    games: list[str] = []
    for number in range(hands):
        tournament = replace(
            tournament, stacks=(chips,) * n, alive=(True,) * n, places=(None,) * n, winner=-1
        )
        deck_rng = random.Random(_seed(seed, deal, 2, number))
        tournament, _ = tournament.deal_deck(shuffled(cards, deck_rng), shuffled(cards, deck_rng))
        tournament = sitting.play_hand(tournament)
        code = tournament.variant_for_hand(tournament.hand_number).code
        if code not in games:
            games.append(code)
        for seat in range(n):
            won[sitting.seat_entry[seat]] += tournament.stacks[seat] - chips
    return SessionResult(deal, rotation, tuple(w / unit for w in won), hands, *sitting.costs(), games=tuple(games))


def _play(args: tuple[tuple[str, ...], int, int, int, str, int, int]) -> SessionResult:
    lineup, seed, deal, rotation, game, hands, stack = args
    return play_session(lineup, seed=seed, deal=deal, rotation=rotation, game=game, hands=hands, stack=stack)


@dataclass
class CashStats:
    label: str
    bot: str
    hands: int = 0
    won: float = 0.0
    decisions: int = 0
    seconds: list[float] = field(default_factory=list)
    per_deal: dict[int, list[float]] = field(default_factory=dict)  # bb/100 of each rotation

    @property
    def bb_per_100(self) -> float:
        return 100 * self.won / self.hands if self.hands else 0.0

    def confidence(self) -> tuple[float, float]:
        """95 % interval of bb/100 over sessions (duplicate-aware)."""
        return interval(self.per_deal) or (-math.inf, math.inf)

    def latency_ms(self, quantile: float) -> float:
        return latency_ms(self.seconds, quantile)


@dataclass
class CashResult:
    entries: list[CashStats]
    sessions: int
    hands_per_session: int
    stack: int
    game: str
    wall_seconds: float

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "cash": True,
            "stack_bb": self.stack,
            "sessions": self.sessions,
            "hands_per_session": self.hands_per_session,
            "hands": self.entries[0].hands if self.entries else 0,
            "entries": [
                {
                    "label": e.label,
                    "bot": e.bot,
                    "bb_per_100": e.bb_per_100,
                    "ci95": list(e.confidence()),
                    "hands": e.hands,
                    "latency_ms_p50": e.latency_ms(0.5),
                    "latency_ms_p99": e.latency_ms(0.99),
                    "decisions": e.decisions,
                }
                for e in self.entries
            ],
        }


def run_cash(
    lineup: Sequence[str],
    *,
    hands: int,
    seed: int,
    game: str = "NT",
    stack: int = 100,
    session_hands: int = 100,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CashResult:
    """About ``hands`` hands per line-up rotation, in sessions of ``session_hands``."""
    n = len(lineup)
    sessions = max(1, math.ceil(hands / session_hands))
    tasks = [
        (tuple(lineup), seed, deal, rotation, game, session_hands, stack)
        for deal in range(sessions)
        for rotation in range(n)
    ]
    entries = [CashStats(label, bot) for label, bot in zip(labels(lineup), lineup, strict=True)]
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    done = 0

    def collect(result: SessionResult) -> None:
        nonlocal done
        for entry, stats in enumerate(entries):
            stats.hands += result.hands
            stats.won += result.won[entry]
            stats.decisions += result.decisions[entry]
            stats.seconds.extend(result.seconds[entry])
            stats.per_deal.setdefault(result.deal, []).append(100 * result.won[entry] / result.hands)
        done += 1
        if progress:
            progress(done, len(tasks))

    run_tasks(_play, tasks, collect, jobs=jobs)
    return CashResult(entries, sessions, session_hands, stack, game, time.perf_counter() - start)
