"""What a table writes by itself: a game's start (R3), the next deck (R2) and a game's end.

The table actor decides *when* (table/timers.py) and orders the writes; this module
decides *what*: pure functions of the table's state and an injected random
source, so a test reads each of them as the rule it is.  With a ``deck_seed``
(test mode) every seating, button and deck follows the seed and the game's
and hand's numbers, however many other entries the log has.
"""

from __future__ import annotations

import random
from typing import Any

from freezeout.rules.tournament import rematch_players
from freezeout.server.entries import CommitEntry, EndEntry, GameEnd, GameStart, LogEntry, StartEntry
from freezeout.server.fairness import new_deal
from freezeout.server.settings import Settings
from freezeout.server.table.state import TableState

__all__ = ["commit_entry", "deck_rng", "end_parts", "start_entry"]


def deck_rng(seed: str | None, game: int, hand: int, fallback: random.Random) -> random.Random:
    """The random source of hand ``hand``'s deck: the seed's (test mode) or ``fallback``."""
    return random.Random(f"{seed}:{game}:{hand}") if seed is not None else fallback


def start_entry(state: TableState, now: float, seed: str | None, fallback: random.Random,
                ) -> tuple[StartEntry, GameStart]:
    """The ``start`` entry of the table's next game and its database work: R3's seating (drawn at
    random for the first game; a rematch moves everyone one seat on), the first button, and the
    first hand's deck of the game's cards."""
    game = state.game + 1
    rng = random.Random(f"{seed}:{game}:seating") if seed is not None else fallback
    if state.table_game is None:
        seat_slots = list(range(state.size))
        rng.shuffle(seat_slots)
    else:
        seat_slots = list(rematch_players(state.seat_slots))  # type: ignore[arg-type]
    players = [state.slots[s].name or "" for s in seat_slots]
    button = rng.randrange(len(players))
    game_id = f"{state.id}-{game}"
    deal = new_deal(1, deck_rng(seed, game, 1, fallback), state.spec.variant_for_hand(1))
    body = StartEntry(game, game_id, tuple(players), tuple(seat_slots), button, deal)
    return body, GameStart(game_id, state.id, game, tuple(players), state.ranked, now, state.spec.code)


def commit_entry(state: TableState, seed: str | None, fallback: random.Random) -> CommitEntry:
    """The ``commit`` entry of the next hand: a fresh deck of that hand's game (R2; a mix's)."""
    game = state.table_game
    assert game is not None
    number = game.hand_number + 1
    deal = new_deal(number, deck_rng(seed, state.game, number, fallback), state.spec.variant_for_hand(number))
    return CommitEntry(deal)


def end_parts(state: TableState, now: float, record: dict[str, Any], settings: Settings) -> tuple[LogEntry, GameEnd]:
    """The ``end`` entry of a finished game and its database work (places, record, Elo)."""
    t = state.table_game
    assert t is not None and state.game_id is not None
    places = {player: place for player, place in zip(state.players, t.places, strict=True) if place is not None}
    entry = LogEntry.of(state.id, state.version + 1, now, EndEntry(state.game_id, places))
    ranked: tuple[int, int] | None = None
    names: dict[int, str] = {}
    if state.ranked and len(state.players) == 2:
        winner = t.winner
        ids = [state.seat_slot(s).user_id for s in (winner, 1 - winner)]
        if ids[0] is not None and ids[1] is not None and ids[0] != ids[1]:
            ranked = (ids[0], ids[1])
            names = {ids[0]: state.players[winner], ids[1]: state.players[1 - winner]}
    return entry, GameEnd(state.game_id, places, record, now, entry, ranked, names, aborted=state.left_early,
                          left_after=state.left_after, pair_limit=settings.elo_pair_daily_limit)
