"""Bot-vs-bot freezeouts with duplicate decks, spread over processes.

Duplicate decks cancel most of the luck of the deal: for every deck
sequence the tournament is replayed once per rotation of the line-up, and
hand ``k`` deals the same deck in every replay — the same cards to the same
*seat* while everyone is still in — so each bot sits behind every seat's
cards once.  Confidence intervals are computed over deck sequences (the
replays of one sequence are not independent).

Games are run only through the public rules API (``Tournament.deal_deck``
/ ``act`` / ``seat_view``: the rules decide who gets which card); every decision gets its own ``random.Random``
seeded from the match seed, the deck sequence, the rotation and the
decision number, so a match is reproducible whatever the number of jobs.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from freezeout.bots.base import Bot
from freezeout.bots.registry import get_bot
from freezeout.cards import Card
from freezeout.rules.errors import RulesError
from freezeout.rules.games import Mix, parse_game
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import seat_view

__all__ = ["EntryStats", "MatchResult", "TournamentResult", "play_tournament", "run_match"]

T = TypeVar("T")
R = TypeVar("R")

MAX_HANDS = 5000  # a safety net: blinds reach 500/1000 at hand 37, games end long before


@dataclass(frozen=True, slots=True)
class TournamentResult:
    deal: int  # deck-sequence index
    rotation: int
    places: tuple[int, ...]  # per line-up entry (not per seat)
    hands: int
    decisions: tuple[int, ...]  # per entry
    seconds: tuple[tuple[float, ...], ...]  # per entry: every decision's duration


def _seed(*parts: int) -> int:
    value = 0x9E3779B97F4A7C15
    for part in parts:
        value = (value * 0x100000001B3 ^ (part & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
    return value


def tournament_config(game: str, players: tuple[str, ...], *, button: int, starting_stack: int = 1000) -> TournamentConfig:
    """V18/V19: the freezeout of ``game`` (an engine code or a mix).  A mix
    is built by ``rules.games.tournament_config`` once the rules offer it."""
    parsed = parse_game(game)
    if isinstance(parsed, Mix):
        from freezeout.rules import games

        build = getattr(games, "tournament_config", None)
        if build is None:
            raise ValueError(f"{game} is a mix; these rules do not build mixed tournaments yet")
        config: TournamentConfig = build(parsed, players, button=button, starting_stack=starting_stack)
        return config
    return TournamentConfig(players=players, button=button, starting_stack=starting_stack, variant=parsed)


def deck_of(game: str) -> tuple[Card, ...]:
    """The cards a game deals from (V16: short-deck's 36; every mix deals 52)."""
    parsed = parse_game(game)
    return parsed.games[0].deck if isinstance(parsed, Mix) else parsed.deck


def shuffled(cards: Sequence[Card], rng: random.Random) -> tuple[Card, ...]:
    deck = list(cards)
    rng.shuffle(deck)
    return tuple(deck)


@dataclass
class Sitting:
    """The bots of one replay in their seats (entry ``e`` of the line-up in seat
    ``(e + rotation) % n``), with what each entry's decisions cost.  Shared by
    freezeouts and cash sessions so both seed every decision alike."""

    lineup: tuple[str, ...]
    seed: int
    deal: int
    rotation: int
    bots: list[Bot]
    seat_entry: dict[int, int]
    decisions: list[int]
    seconds: list[list[float]]
    counter: int = 0

    @classmethod
    def of(cls, lineup: Sequence[str], *, seed: int, deal: int, rotation: int) -> Sitting:
        n = len(lineup)
        return cls(
            tuple(lineup),
            seed,
            deal,
            rotation,
            [get_bot(name) for name in lineup],
            {(entry + rotation) % n: entry for entry in range(n)},
            [0] * n,
            [[] for _ in range(n)],
        )

    def play_hand(self, tournament: Tournament) -> Tournament:
        """Let the bots act until the hand in progress is over; each decision
        gets its own ``random.Random`` seeded from the seed, deal, rotation and
        decision number, so the result does not depend on the process."""
        while tournament.in_hand:
            seat = tournament.to_act
            if seat < 0:
                raise RuntimeError("a hand in progress has nobody to act")
            entry = self.seat_entry[seat]
            view = seat_view(tournament, seat)
            self.counter += 1
            rng = random.Random(_seed(self.seed, self.deal, self.rotation, self.counter))
            start = time.perf_counter()
            action = self.bots[entry].act(view, rng)
            self.seconds[entry].append(time.perf_counter() - start)
            self.decisions[entry] += 1
            try:
                tournament, _ = tournament.act(action)
            except RulesError as error:
                raise RuntimeError(f"bot {self.lineup[entry]} chose an illegal {action}: {error}") from error
        return tournament

    def costs(self) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...]]:
        """Per entry: the number of decisions and every decision's duration."""
        return tuple(self.decisions), tuple(tuple(s) for s in self.seconds)


def interval(per_deal: dict[int, list[float]]) -> tuple[float, float] | None:
    """95 % interval of the mean over deck sequences (the rotations of one
    sequence are averaged first: they are not independent); None below two."""
    means = np.array([np.mean(v) for v in per_deal.values()])
    if len(means) < 2:
        return None
    half = 1.96 * float(means.std(ddof=1)) / math.sqrt(len(means))
    centre = float(means.mean())
    return (centre - half, centre + half)


def latency_ms(seconds: Sequence[float], quantile: float) -> float:
    return float(np.quantile(seconds, quantile) * 1000) if seconds else 0.0


def run_tasks(
    play: Callable[[T], R], tasks: Sequence[T], collect: Callable[[R], None], *, jobs: int, chunksize: int = 1
) -> None:
    """Run ``play`` over ``tasks`` in this process (``jobs == 1``) or a fork pool,
    handing each result to ``collect`` as it arrives."""
    if jobs == 1:
        for task in tasks:
            collect(play(task))
        return
    from multiprocessing import get_context

    with get_context("fork").Pool(jobs) as pool:
        for result in pool.imap_unordered(play, tasks, chunksize=chunksize):
            collect(result)


def play_tournament(
    lineup: Sequence[str], *, seed: int, deal: int, rotation: int, game: str = "NT"
) -> TournamentResult:
    """One complete freezeout of ``game``: entry ``e`` of ``lineup`` sits in seat
    ``(e + rotation) % n``; the cards of deal ``deal`` depend only on the seed."""
    n = len(lineup)
    sitting = Sitting.of(lineup, seed=seed, deal=deal, rotation=rotation)
    deck_rng = random.Random(_seed(seed, deal, 1))
    button = deck_rng.randrange(n)
    names = tuple(f"p{seat}" for seat in range(n))
    tournament = Tournament.start(tournament_config(game, names, button=button))
    cards = deck_of(game)
    reshuffles = game != "NT"
    while not tournament.finished:
        if tournament.hand_number >= MAX_HANDS:
            raise RuntimeError(f"tournament {deal}/{rotation} did not finish in {MAX_HANDS} hands")
        deck = shuffled(cards, deck_rng)
        # V13: a draw game that runs out reshuffles the discards in this order
        # (drawn after the deck, so the house game's decks are what they were).
        tournament, _ = tournament.deal_deck(deck, shuffled(cards, deck_rng) if reshuffles else ())
        tournament = sitting.play_hand(tournament)
    places = tuple(int(tournament.places[(entry + rotation) % n] or 0) for entry in range(n))
    return TournamentResult(deal, rotation, places, tournament.hand_number, *sitting.costs())


def _play(args: tuple[tuple[str, ...], int, int, int, str]) -> TournamentResult:
    lineup, seed, deal, rotation, game = args
    return play_tournament(lineup, seed=seed, deal=deal, rotation=rotation, game=game)


@dataclass
class EntryStats:
    label: str
    bot: str
    wins: int = 0
    tournaments: int = 0
    place_sum: int = 0
    decisions: int = 0
    seconds: list[float] = field(default_factory=list)
    per_deal: dict[int, list[float]] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.tournaments if self.tournaments else 0.0

    def confidence(self) -> tuple[float, float]:
        """95 % interval of the win rate over deck sequences (duplicate-aware)."""
        low_high = interval(self.per_deal)
        if low_high is None:
            return (0.0, 1.0)
        return (max(0.0, low_high[0]), min(1.0, low_high[1]))

    def latency_ms(self, quantile: float) -> float:
        return latency_ms(self.seconds, quantile)


@dataclass
class MatchResult:
    entries: list[EntryStats]
    tournaments: int
    deals: int
    hands: int
    decisions: int
    wall_seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.wall_seconds if self.wall_seconds else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "tournaments": self.tournaments,
            "deals": self.deals,
            "hands_per_tournament": self.hands / max(self.tournaments, 1),
            "decisions_per_second": self.decisions_per_second,
            "entries": [
                {
                    "label": e.label,
                    "bot": e.bot,
                    "wins": e.wins,
                    "tournaments": e.tournaments,
                    "win_rate": e.win_rate,
                    "ci95": list(e.confidence()),
                    "average_place": e.place_sum / max(e.tournaments, 1),
                    "latency_ms_p50": e.latency_ms(0.5),
                    "latency_ms_p99": e.latency_ms(0.99),
                    "decisions": e.decisions,
                }
                for e in self.entries
            ],
        }


def labels(lineup: Sequence[str]) -> list[str]:
    """``medium``, ``medium#2``, ... so repeated bots stay apart in the table."""
    seen: dict[str, int] = {}
    result = []
    for name in lineup:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return result


def run_match(
    lineup: Sequence[str],
    *,
    tournaments: int,
    seed: int,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    game: str = "NT",
) -> MatchResult:
    """Play ``tournaments`` freezeouts of ``game`` (rounded up to whole duplicate sets)."""
    n = len(lineup)
    deals = max(1, math.ceil(tournaments / n))
    tasks = [(tuple(lineup), seed, deal, rotation, game) for deal in range(deals) for rotation in range(n)]
    entries = [EntryStats(label, bot) for label, bot in zip(labels(lineup), lineup, strict=True)]
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    hands = decisions = done = 0

    def collect(result: TournamentResult) -> None:
        nonlocal hands, decisions, done
        hands += result.hands
        for entry, stats in enumerate(entries):
            won = result.places[entry] == 1
            stats.wins += won
            stats.tournaments += 1
            stats.place_sum += result.places[entry]
            stats.decisions += result.decisions[entry]
            decisions += result.decisions[entry]
            stats.seconds.extend(result.seconds[entry])
            stats.per_deal.setdefault(result.deal, []).append(float(won))
        done += 1
        if progress:
            progress(done, len(tasks))

    run_tasks(_play, tasks, collect, jobs=jobs, chunksize=max(1, min(8, len(tasks) // (jobs * 8) or 1)))
    return MatchResult(entries, len(tasks), deals, hands, decisions, time.perf_counter() - start)
