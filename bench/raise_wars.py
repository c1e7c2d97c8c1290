"""Raise wars heads-up in fixed limit (issue #35): ``hard`` against ``medium``.

Plays freezeouts of each fixed-limit game (V3: heads-up has no cap) with
the duplicate seating of :mod:`freezeout.bots.match` (every deck twice,
each bot in each seat) until at least ``--rounds`` betting rounds have
been played, and counts, per 1,000 betting rounds:

* ``wars``: rounds with six or more bets (bets, raises and completions,
  blinds and bring-ins not counted);
* ``lost``: of those, rounds of hands that ``hard`` lost at a showdown;
* ``net``: ``hard``'s chips won or lost over all hands with a war round.

    nice -n 19 .venv/bin/python bench/raise_wars.py --games FT,FB --rounds 1000 --seed 777
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from freezeout.bots.match import Sitting, _seed, deck_of, shuffled, tournament_config
from freezeout.rules.events import ActionTaken, CardsShown, Event, HandEnded, HandStarted, StreetDealt
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import seat_view

FIXED_LIMIT = ("FT", "FO", "FO/8", "F7S", "F7S/8", "FR", "F5CD", "F2L1D", "F2L3D", "FB")
WAR = 6


@dataclass
class Count:
    rounds: int = 0
    wars: int = 0
    lost: int = 0
    net: int = 0
    hands: int = 0


def _rounds(log: tuple[Event, ...]) -> list[int]:
    """The voluntary bets of each betting round of one hand."""
    bets = [0]
    acted = [False]
    for event in log:
        if isinstance(event, StreetDealt):
            bets.append(0)
            acted.append(False)
        elif isinstance(event, ActionTaken) and not event.forced and event.kind != "bringin":
            acted[-1] = True
            if event.kind in ("bet", "raise", "complete"):
                bets[-1] += 1
    return [b for b, a in zip(bets, acted, strict=True) if a]


def _story(log: tuple[Event, ...]) -> str:
    """One line of a hand: every voluntary move by street, the shown cards."""
    parts: list[str] = []
    for event in log:
        if isinstance(event, StreetDealt):
            parts.append(f"| {''.join(str(c) for c in event.cards)}:")
        elif isinstance(event, ActionTaken) and not event.forced:
            parts.append(f"{event.seat}{event.kind[0]}")
        elif isinstance(event, CardsShown):
            parts.append(f"[{event.seat}: {''.join(str(c) for c in event.cards)}]")
    return " ".join(parts)


def _hand(log: tuple[Event, ...], seat: int, count: Count, *, show: bool = False) -> None:
    started = next(e for e in log if isinstance(e, HandStarted))
    ended = next(e for e in log if isinstance(e, HandEnded))
    index = started.seats.index(seat) if seat in started.seats else -1
    if index < 0:
        return
    net = ended.stacks[index] - started.stacks[index]
    rounds = _rounds(log)
    count.hands += 1
    count.rounds += len(rounds)
    wars = sum(1 for b in rounds if b >= WAR)
    if wars:
        count.wars += wars
        count.net += net
        if ended.showdown and net < 0:
            count.lost += wars
            if show:
                print(f"  lost {net:6d} (hard = seat {seat}): {_story(log)}", flush=True)


def measure(game: str, rounds: int, seed: int, *, show: bool = False) -> Count:
    count = Count()
    lineup = ("hard", "medium")
    deal = 0
    while count.rounds < rounds:
        for rotation in range(2):
            sitting = Sitting.of(lineup, seed=seed, deal=deal, rotation=rotation)
            deck_rng = random.Random(_seed(seed, deal, 1))
            button = deck_rng.randrange(2)
            tournament = Tournament.start(tournament_config(game, ("p0", "p1"), button=button))
            hard_seat = rotation % 2
            cards = deck_of(game)
            while not tournament.finished and tournament.hand_number < 500:
                deck = shuffled(cards, deck_rng)
                tournament, _ = tournament.deal_deck(deck, shuffled(cards, deck_rng))
                tournament = sitting.play_hand(tournament)
                past = seat_view(tournament, hard_seat).past
                if past:
                    _hand(past[-1], hard_seat, count, show=show)
        deal += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(FIXED_LIMIT))
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--show", action="store_true", help="print every war hand hard lost at a showdown")
    args = parser.parse_args()
    print(f"{'game':7} {'rounds':>7} {'hands':>6} {'wars/1k':>8} {'lost/1k':>8} {'net':>8}")
    for game in args.games.split(","):
        c = measure(game, args.rounds, args.seed, show=args.show)
        per = 1000 / max(c.rounds, 1)
        print(f"{game:7} {c.rounds:7d} {c.hands:6d} {c.wars * per:8.1f} {c.lost * per:8.1f} {c.net:8d}", flush=True)


if __name__ == "__main__":
    main()
