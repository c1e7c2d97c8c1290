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

import numpy as np

from freezeout.bots.registry import get_bot
from freezeout.cards import Card
from freezeout.rules.errors import RulesError
from freezeout.rules.games import Mix, parse_game
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import seat_view

__all__ = ["EntryStats", "MatchResult", "TournamentResult", "play_tournament", "run_match"]

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


def play_tournament(
    lineup: Sequence[str], *, seed: int, deal: int, rotation: int, game: str = "NT"
) -> TournamentResult:
    """One complete freezeout of ``game``: entry ``e`` of ``lineup`` sits in seat
    ``(e + rotation) % n``; the cards of deal ``deal`` depend only on the seed."""
    n = len(lineup)
    bots = [get_bot(name) for name in lineup]
    seat_entry = {(entry + rotation) % n: entry for entry in range(n)}
    deck_rng = random.Random(_seed(seed, deal, 1))
    button = deck_rng.randrange(n)
    names = tuple(f"p{seat}" for seat in range(n))
    tournament = Tournament.start(tournament_config(game, names, button=button))
    cards = deck_of(game)
    reshuffles = game != "NT"
    decisions = [0] * n
    seconds: list[list[float]] = [[] for _ in range(n)]
    counter = 0
    while not tournament.finished:
        if tournament.hand_number >= MAX_HANDS:
            raise RuntimeError(f"tournament {deal}/{rotation} did not finish in {MAX_HANDS} hands")
        deck = shuffled(cards, deck_rng)
        # V13: a draw game that runs out reshuffles the discards in this order
        # (drawn after the deck, so the house game's decks are what they were).
        tournament, _ = tournament.deal_deck(deck, shuffled(cards, deck_rng) if reshuffles else ())
        while tournament.in_hand:
            seat = tournament.to_act
            if seat < 0:
                raise RuntimeError("a hand in progress has nobody to act")
            entry = seat_entry[seat]
            view = seat_view(tournament, seat)
            counter += 1
            rng = random.Random(_seed(seed, deal, rotation, counter))
            start = time.perf_counter()
            action = bots[entry].act(view, rng)
            seconds[entry].append(time.perf_counter() - start)
            decisions[entry] += 1
            try:
                tournament, _ = tournament.act(action)
            except RulesError as error:
                raise RuntimeError(f"bot {lineup[entry]} chose an illegal {action}: {error}") from error
    places = tuple(int(tournament.places[(entry + rotation) % n] or 0) for entry in range(n))
    return TournamentResult(
        deal, rotation, places, tournament.hand_number, tuple(decisions), tuple(tuple(s) for s in seconds)
    )


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
        means = np.array([np.mean(v) for v in self.per_deal.values()])
        if len(means) < 2:
            return (0.0, 1.0)
        half = 1.96 * float(means.std(ddof=1)) / math.sqrt(len(means))
        centre = float(means.mean())
        return (max(0.0, centre - half), min(1.0, centre + half))

    def latency_ms(self, quantile: float) -> float:
        return float(np.quantile(self.seconds, quantile) * 1000) if self.seconds else 0.0


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

    if jobs == 1:
        for task in tasks:
            collect(_play(task))
    else:
        from multiprocessing import get_context

        with get_context("fork").Pool(jobs) as pool:
            for result in pool.imap_unordered(
                _play, tasks, chunksize=max(1, min(8, len(tasks) // (jobs * 8) or 1))
            ):
                collect(result)
    return MatchResult(entries, len(tasks), deals, hands, decisions, time.perf_counter() - start)
