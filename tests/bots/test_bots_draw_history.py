"""The opponent's hand in lowball and badugi dealt from their whole draw
history (V11, V14, V15; issue #35): a player who stood pat twice holds a
made hand, one who drew three at the last draw holds two low cards and
three of anything."""

from __future__ import annotations

import random

import numpy as np
import pytest

from freezeout.bots.draw_ranges import history_hand
from freezeout.bots.game_draws import is_made_27
from freezeout.bots.game_equity import Seen, opponent_finals, pot_share
from freezeout.cards import parse_cards
from freezeout.evaluate.rankings import get_ranking
from freezeout.rules.variant import VARIANTS


def share(code: str, mine: str, drew: tuple[int, ...]) -> float:
    cards = [int(c) for c in parse_cards(mine)]
    seen = Seen(cards, 0, (), 0, [((), len(cards), 0)], (), [drew])
    variant = VARIANTS[code]
    return float(np.mean([pot_share(variant, seen, [0.0], 500, np.random.default_rng(i)) for i in range(4)]))


def test_a_ten_low_loses_to_a_player_who_stood_pat_twice_and_beats_one_who_drew_three() -> None:
    assert share("F2L3D", "Ts8d6c5s2h", (3, 0, 0)) < 0.1
    assert share("F2L3D", "Ts8d6c5s2h", (0, 0, 0)) < 0.1
    assert share("F2L3D", "Ts8d6c5s2h", (3, 3, 3)) > 0.9


def test_at_the_last_draw_a_badugi_player_who_stood_pat_holds_a_badugi() -> None:
    """Badugi deals by the history for the exact last draw only (its pot
    share keeps the draw-count weights: measured, docs/bots.md)."""
    mine = [int(c) for c in parse_cards("2h5d9c9s")]
    seen = Seen(mine, 0, (), 0, [((), 4, 0)], (), [(3, 3, 0)])
    ((ranks, _),) = opponent_finals(VARIANTS["FB"], seen, [0.0], 500, np.random.default_rng(1), 1)
    ours = get_ranking("badugi").rank(mine)
    assert (ranks > ours).all()  # every simulated pat hand is a four-card badugi


def test_the_later_the_first_pat_the_wider_the_range() -> None:
    assert share("F2L3D", "8s7d6c4s2h", (0, 0, 0)) < share("F2L3D", "8s7d6c4s2h", (3, 0, 0)) < share(
        "F2L3D", "8s7d6c4s2h", (3, 3, 1)
    )


@pytest.mark.parametrize("seed", range(20))
def test_a_pat_hand_is_made_and_a_drawing_hand_keeps_low_cards(seed: int) -> None:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    pat = history_hand("low-27", deck, 5, (3, 0), 3)
    assert len(set(pat)) == 5 and is_made_27(pat) and max(c >> 2 for c in pat) <= 7  # a nine at most
    one = history_hand("low-27", deck, 5, (3, 3, 1), 3)
    kept = one[:4]
    assert len({c >> 2 for c in kept}) == 4 and max(c >> 2 for c in kept) <= 5  # four to a seven
    badugi = history_hand("badugi", deck, 4, (0,), 3)
    assert len({c >> 2 for c in badugi}) == 4 and len({c & 3 for c in badugi}) == 4
