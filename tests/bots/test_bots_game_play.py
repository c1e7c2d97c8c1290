"""How ``medium`` and ``hard`` play the games beyond the house game: draw
choices (V11, V14, V15), split pots counted as the showdown counts them
(V6), stud's up cards read live and dead (V7)."""

from __future__ import annotations

import numpy as np
import pytest

from freezeout.bots.game_draws import badugi_core, discard
from freezeout.bots.game_equity import Seen, _shares, pot_share
from freezeout.cards import parse_cards
from freezeout.rules.variant import variant


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(card) for card in parse_cards(text))


def thrown(ranking: str, hand: str, draws_left: int) -> str:
    return "".join(str(card) for card in parse_cards(hand) if int(card) in discard(ranking, cards(hand), draws_left))


# -- draws ------------------------------------------------------------------
def test_deuce_to_seven_stands_pat_on_a_made_seven_and_draws_to_four_low_cards() -> None:
    assert thrown("low-27", "7s5h4d3c2h", 3) == ""  # V14: the nuts
    assert thrown("low-27", "7s5h4d3cKh", 3) == "Kh"
    assert thrown("low-27", "7s7h4d3c2h", 2) == "7h"  # a pair: throw one of them


def test_deuce_to_seven_breaks_a_ten_early_and_keeps_it_on_the_last_draw() -> None:
    assert thrown("low-27", "Ts7h4d3c2h", 3) == "Ts"
    assert thrown("low-27", "Ts7h4d3c2h", 1) == ""


def test_deuce_to_seven_counts_aces_high_and_straights_against() -> None:
    assert "As" in thrown("low-27", "As7h4d3c2h", 2)
    assert thrown("low-27", "6s5h4d3c2h", 1) != ""  # a straight is no low


def test_badugi_keeps_the_best_badugi_and_stands_pat_on_a_good_one() -> None:
    assert thrown("badugi", "As2d3h4c", 3) == ""
    assert thrown("badugi", "As2s3h4c", 2) == "2s"  # the suited card goes
    assert set(badugi_core(cards("AsAd3h4c"))) == set(cards("As3h4c"))


def test_badugi_breaks_a_rough_three_card_hand_while_draws_are_left() -> None:
    assert thrown("badugi", "Ks2d3h3c", 2) in ("Ks3h", "Ks3c")
    assert len(thrown("badugi", "Ks2d3h3c", 1)) == 2  # last draw: keep the three-card badugi


def test_five_card_draw_keeps_pairs_and_draws_to_flushes() -> None:
    assert thrown("high", "KsKh9d5c2h", 1) == "9d5c2h"
    assert thrown("high", "Ks9s7s4s2h", 1) == "2h"
    assert thrown("high", "AsKsQsJsTs", 1) == ""


# -- split pots and showdown shares -----------------------------------------
def test_a_tied_low_with_no_high_is_quartered() -> None:
    high = np.array([[10, 20, 5]])
    low = np.array([[7, 7, 3]])  # we tie the low with one opponent, lose the high
    assert _shares([high, low], np.ones(1)) == pytest.approx(0.25)


def test_high_takes_the_whole_pot_when_nobody_has_a_low() -> None:
    high = np.array([[30, 20]])
    low = np.array([[0, 0]])
    assert _shares([high, low], np.ones(1)) == pytest.approx(1.0)


def test_a_scoop_is_the_whole_pot_and_a_split_half() -> None:
    assert _shares([np.array([[30, 20]]), np.array([[9, 4]])], np.ones(1)) == pytest.approx(1.0)
    assert _shares([np.array([[30, 20]]), np.array([[4, 9]])], np.ones(1)) == pytest.approx(0.5)


def test_omaha_hi_lo_on_the_river_is_exact_against_a_shown_hand() -> None:
    board = cards("2c3d8hKsQd")
    seen = Seen(cards("As4s5dKd"), 0, board, 0, [(cards("KhKcJsTs"), 0, 0)])
    # we have the nut low (5-3-2-A... with A4), they have top set: a split
    share = pot_share(variant("FO/8"), seen, [0.0], 50, np.random.default_rng(1))
    assert share == pytest.approx(0.5)


# -- stud: up cards live and dead ---------------------------------------------
def test_dead_cards_of_our_suit_lower_a_flush_draw() -> None:
    stud = variant("F7S")
    mine = cards("As9s5s")
    opponent = [((int(parse_cards("Kd")[0]),), 2, 4)]
    live = Seen(mine, 4, (), 0, opponent)
    dead = Seen(mine, 4, (), 0, opponent, dead=cards("2s3s4s6s7s"))
    rng = np.random.default_rng
    assert pot_share(stud, dead, [0.0], 6000, rng(3)) < pot_share(stud, live, [0.0], 6000, rng(3)) - 0.02


def test_narrowing_a_raiser_lowers_our_share() -> None:
    holdem = variant("FT")
    seen = Seen(cards("Ah9c"), 0, cards("Ad7s2c"), 2, [((), 2, 0)])
    rng = np.random.default_rng
    assert pot_share(holdem, seen, [2.0], 4000, rng(5)) < pot_share(holdem, seen, [0.0], 4000, rng(5)) - 0.1
