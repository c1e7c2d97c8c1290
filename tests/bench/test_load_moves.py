"""bench/load.py's simulated players play only legal moves, in every family (issue #22 "Speed").

A load run whose moves the server refuses measures refusals, not the room: the
chooser reads the view's ``legal`` exactly as the server sends it
(``views.view_dicts``) and its message is turned into the engine's move the way
the server does (``act``: the move word and amount, R10/V2/V3/V7; ``draw``:
discard or stand pat, V11).  The engine raises on any illegal move, so each
game below plays whole freezeouts through the chooser.  No server, no clock.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

# One game per family and structure: hold'em (no limit, fixed limit), Omaha (pot limit,
# hi/lo fixed limit), stud (hi, hi/lo, razz), draw (single, triple, 2-7, badugi), short deck.
GAMES = ["NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F5CD", "N2L1D", "F2L3D", "PB", "NS"]


def play(load, game: str, seed: int, max_moves: int = 3000) -> tuple[set[str], int]:
    """Play ``game`` through ``load.choose_move`` until the freezeout ends (or ``max_moves``);
    returns the kinds of moves made and the hands dealt.  ``Tournament.act`` raises
    ``IllegalAction`` on any move the rules refuse."""
    made: set[str] = set()
    hands = 0
    for tournament, message in load.played_freezeout(game, seed, max_moves):
        made.add(message.get("move") or ("discard" if message["cards"] else "standpat"))
        hands = tournament.hand_number
    return made, hands


@pytest.mark.parametrize("game", GAMES)
def test_the_load_clients_moves_are_legal_in_every_family(load, game: str) -> None:
    made: set[str] = set()
    for seed in range(3):
        moves, hands = play(load, game, seed)
        made |= moves
        assert hands > 0
    assert {"fold", "call"} <= made
    if game in ("F7S", "F7S/8", "FR"):
        assert {"bringin", "complete"} <= made  # V7
    if game in ("F5CD", "N2L1D", "F2L3D", "PB"):
        assert {"discard", "standpat"} <= made  # V11
    assert made & {"bet", "raise", "complete"}


def test_a_draw_discards_only_cards_the_seat_holds(load) -> None:
    """V11: the cards thrown are the viewer's own (never ``??``), at most ``legal.draw`` of them."""
    view = {"viewer": 1, "seats": [{"cards": None}, {"cards": "7d2c9h??Ks"}],
            "legal": {"moves": ["standpat", "discard"], "draw": 3}}
    for seed in range(50):
        message = load.choose_move(view, random.Random(seed))
        thrown = [message["cards"][i:i + 2] for i in range(0, len(message["cards"]), 2)]
        assert message["type"] == "draw" and len(thrown) <= 3
        assert set(thrown) <= {"7d", "2c", "9h", "Ks"}
