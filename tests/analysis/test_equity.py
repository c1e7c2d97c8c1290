"""The equity engine against an independent enumeration with PokerKit's hand evaluators.

Every deal of the remaining cards is walked in plain Python (tests/equity_reference.py), each hand
ranked by PokerKit, and the pot split as the showdown splits it (V6: half to
the best high, half to the best qualifying low, all to high with no low);
the engine's exact equities must match to 1e-12 in every game with a run-out.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from freezeout.analysis.equity import EquityError, deal_ranks, equity, summarise
from freezeout.analysis.games import Game, GameError, game_for

pytest.importorskip("pokerkit")

from equity_reference import cards, reference  # after the skip: it imports PokerKit


def ours(game: Game, hands: Sequence[str], board: str = "", dead: str = "") -> tuple[float, ...]:
    result = equity(game, [[cards(hand)] for hand in hands], cards(board), cards(dead))
    assert result.exact
    assert sum(result.equity) == pytest.approx(1.0)
    return result.equity


CASES = [
    # hold'em: a flush draw against a set, three-way with a split-prone board, a chopped river
    ("NT", ["AsKs", "7c7d"], "Qs7h2s", ""),
    ("NT", ["AhKd", "AcKc", "QhQd"], "Ks7s2d", ""),
    ("NT", ["AhKd", "AcKh"], "QsJsTs", ""),
    ("NT", ["2h2d", "AcKh"], "QsJsTs3c", "9c8c"),
    # short-deck (V16: a flush beats a full house, A-6-7-8-9 is a straight)
    ("NS", ["AsKs", "7c7d"], "Qs7h9s", ""),
    ("NS", ["Ah6d", "KcKd"], "7s8h9dJc", ""),
    # Omaha, Omaha Hi/Lo (quartering and no-low deals)
    ("PO", ["AsKsQdJd", "7c7d8h9h"], "Qs7h2sTc", ""),
    ("FO/8", ["As2sKdQd", "Ac3c8h8d"], "7s5d9h4c", ""),
    ("FO/8", ["As2sKdQd", "Ah2hKcJc", "9c9dTsTh"], "7h5c3dQs", ""),
    # stud, stud hi/lo, razz, with folded players' cards dead
    ("F7S", ["AsAhKd7c8c9h", "QsQh2d3c4h5s"], "", "KcKs9d"),
    ("F7S/8", ["As2h3dKc9c9h", "4s5h6dQhQdJs"], "", "7c8c"),
    ("FR", ["As2h3dKc9cTh", "4s5h6dQhQdJs"], "", "7c8cAd"),
]


@pytest.mark.parametrize(("code", "hands", "board", "dead"), CASES)
def test_exact_equity_matches_an_independent_enumeration(code: str, hands: list[str], board: str, dead: str) -> None:
    game = game_for(code)
    expected = reference(game, hands, board, dead)
    assert ours(game, hands, board, dead) == pytest.approx([float(value) for value in expected], abs=1e-12)


def test_hi_lo_quartering_and_scoops_on_a_complete_board() -> None:  # V6
    game = game_for("FO/8")
    # both make the same A-2 low; As2sKdQd makes the better high: 1/2 + 1/4 against 1/4
    result = equity(game, [[cards("As2sKdQd")], [cards("Ah2h9c9d")]], cards("3c5d8hKsKh"))
    assert result.equity == pytest.approx((0.75, 0.25))
    assert result.high == pytest.approx((1.0, 0.0)) and result.low == pytest.approx((0.5, 0.5))
    assert result.win == (0.0, 0.0) and result.tie == (1.0, 1.0)
    # no low qualifies: high takes the whole pot, a scoop
    scoop = equity(game, [[cards("AsKsQdJd")], [cards("2h3h9c9d")]], cards("TcTdKhKcQs"))
    assert scoop.equity == (1.0, 0.0) and scoop.no_low == 1.0 and scoop.win == (1.0, 0.0)


def test_short_deck_uses_its_own_ranks() -> None:  # V16: flush over full house
    game = game_for("NS")
    result = equity(game, [[cards("AhKh")], [cards("7c7d")]], cards("QhJh7h7sQc"))
    assert result.equity == (0.0, 1.0)  # quads
    flush = equity(game, [[cards("AhKh")], [cards("QdQs")]], cards("Qh6h9hJcJd"))
    assert flush.equity == (1.0, 0.0)  # the flush beats queens full in short-deck


def test_preflop_heads_up_enumerates_every_board() -> None:
    result = equity(game_for("NT"), [[cards("AsAh")], [cards("KsKh")]])
    assert result.exact and result.deals == 1_712_304
    # the published figure for AsAh against KsKh
    assert result.equity[0] == pytest.approx(0.8264, abs=5e-4)


def test_monte_carlo_is_seeded_and_within_its_interval() -> None:
    game = game_for("FO/8")
    hands = [[cards("As2sKdQd")], [cards("3c4c8h8d")], [cards("JsTs9c9d")]]
    first = equity(game, hands, samples=20_000, seed=7, exact_limit=0)
    again = equity(game, hands, samples=20_000, seed=7, exact_limit=0)
    assert first == again and not first.exact and first.deals == 20_000
    exact = equity(game, hands, cards("7s5d9h"))
    sampled = equity(game, hands, cards("7s5d9h"), samples=20_000, seed=3, exact_limit=0)
    for value, estimate, error in zip(exact.equity, sampled.equity, sampled.error, strict=True):
        assert 0 < error < 0.01
        assert abs(value - estimate) < 2 * error


def test_ranges_average_every_combination_that_shares_no_card() -> None:
    game = game_for("NT")
    board = cards("Ks7s2d")
    queens = [cards(hand) for hand in ("QhQd", "QhQc", "QdQc", "QsQh", "QsQd", "QsQc")]
    ranged = equity(game, [queens, [cards("AhKh")]], board)
    singles = [equity(game, [[hand], [cards("AhKh")]], board).equity[0] for hand in queens]
    assert ranged.exact and ranged.equity[0] == pytest.approx(sum(singles) / len(singles))


def test_folded_cards_are_dead() -> None:
    game = game_for("F7S")
    live = equity(game, [[cards("AsAhKd7c8c9h")], [cards("QsQh2d3c4h5s")]])
    dead = equity(game, [[cards("AsAhKd7c8c9h")], [cards("QsQh2d3c4h5s")]], dead=cards("QdQc"))
    assert dead.equity[1] < live.equity[1]


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        (["AsKs", "AsQd"], "", "", "duplicate card As"),
        (["AsKs", "QdJd"], "Ks7h2c", "", "duplicate card Ks"),
        (["AsKs"], "", "", "at least two hands"),
        (["AsKsQd", "QdJd"], "", "", "has 2 cards, got 3"),
        (["AsKs", "QdJd"], "2c3c4c5c6c7c", "", "at most 5"),
    ],
)
def test_bad_deals_are_refused(hands: list[str], board: str, dead: str, message: str) -> None:
    with pytest.raises(EquityError, match=message):
        equity(game_for("NT"), [[cards(hand)] for hand in hands], cards(board), cards(dead))


def test_short_deck_refuses_low_cards_and_draw_games_have_no_equity() -> None:
    with pytest.raises(EquityError, match="2s is not in the"):
        equity(game_for("NS"), [[cards("2sKs")], [cards("QdJd")]])
    with pytest.raises(GameError, match="draw is still to come"):
        game_for("F2L3D")
    with pytest.raises(GameError, match="unknown game"):
        game_for("XX")


def test_shares_of_a_side_pot_count_only_its_players() -> None:
    game = game_for("NT")
    deals = deal_ranks(game, [[cards("AsAh")], [cards("KsKh")], [cards("2c7d")]], cards("Kd8c3h"))
    side = summarise(game, deals, [0, 2])
    assert side.equity[0] > 0.9 and sum(side.equity) == pytest.approx(1.0)


@pytest.mark.parametrize(("code", "hands", "board"), [
    ("NT", ["AhKd", "AcKc", "QhQd"], "Ks7s2d"), ("NT", ["AsAh", "KsKh"], "Qd7c2h"), ("NS", ["AhKh", "7c7d", "9s9d"], ""),
])
def test_the_one_pass_path_agrees_with_ranks_per_deal(code: str, hands: list[str], board: str) -> None:
    game = game_for(code)
    held = [[cards(hand)] for hand in hands]
    fast = equity(game, held, cards(board))
    slow = summarise(game, deal_ranks(game, held, cards(board)))
    assert fast == pytest.approx(slow) and fast.deals == slow.deals and fast.exact
