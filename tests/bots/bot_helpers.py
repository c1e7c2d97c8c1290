"""Shared helpers for the bot tests: play real tournaments through the
public rules API and stop at decision points."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

from freezeout.cards import shuffled_deck
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import TableView, seat_view

SLOW = os.environ.get("FREEZEOUT_SLOW") == "1"
slow = pytest.mark.skipif(not SLOW, reason="long-running; set FREEZEOUT_SLOW=1")


def decision_points(
    seed: int, players: int = 2, stack: int = 1000, limit: int = 200
) -> Iterator[tuple[Tournament, TableView]]:
    """Decision points of tournaments driven by random moves (the random bot)."""
    from freezeout.bots import get_bot

    rng = random.Random(seed)
    driver = get_bot("random")
    tournament = Tournament.start(
        TournamentConfig(
            players=tuple(f"p{i}" for i in range(players)),
            button=rng.randrange(players),
            starting_stack=stack,
        )
    )
    count = 0
    while not tournament.finished and count < limit:
        deck = shuffled_deck(rng)
        hole = {s: deck[2 * s : 2 * s + 2] for s in range(players) if tournament.alive[s]}
        tournament, _ = tournament.deal(hole, deck[2 * players : 2 * players + 5])
        while tournament.in_hand and count < limit:
            view = seat_view(tournament, tournament.to_act)
            yield tournament, view
            count += 1
            tournament, _ = tournament.act(driver.act(view, rng))
