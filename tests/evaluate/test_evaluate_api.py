"""The public API of freezeout.evaluate: formats, names, errors, comparisons (R19)."""

from __future__ import annotations

import pickle

import pytest

from freezeout.cards import CardError, parse_cards
from freezeout.evaluate import (
    CATEGORIES,
    EvaluationError,
    HandValue,
    best_rank_indices,
    category_of,
    evaluate,
    hand_rank,
)


@pytest.mark.parametrize(
    ("hand", "category", "text"),
    [
        ("AsKsQsJsTs", "straight flush", "Royal flush"),
        ("KhQhJhTh9h2c3d", "straight flush", "Straight flush, king high"),
        ("5d4d3d2dAd", "straight flush", "Straight flush, five high"),
        ("9s9h9d9c2h", "four of a kind", "Four of a kind, nines; kicker two"),
        ("KsKhKdTcTs7h2c", "full house", "Full house, kings full of tens"),
        ("Ah9h7h4h2hKs", "flush", "Flush, ace, nine, seven, four, two"),
        ("5s4h3d2cAs", "straight", "Straight, five high"),
        ("7s7h7d2c3h", "three of a kind", "Three of a kind, sevens; kickers three, two"),
        ("AhAsJdJc3c", "two pair", "Two pair, aces and jacks; kicker three"),
        ("QsQh9d8c2h", "one pair", "One pair, queens; kickers nine, eight, two"),
        ("AcKd9h7s3c", "high card", "High card, ace; kickers king, nine, seven, three"),
        ("6s6h6d6c2h", "four of a kind", "Four of a kind, sixes; kicker two"),
        ("2s2h2d3c3s", "full house", "Full house, twos full of threes"),
    ],
)
def test_categories_and_descriptions(hand: str, category: str, text: str) -> None:  # R19
    value = evaluate(hand)
    assert value.category == category
    assert str(value) == value.describe() == text
    assert value.rank == hand_rank(parse_cards(hand))


def test_every_rank_has_its_own_description() -> None:  # R19
    """A described hand names every card that can decide a showdown, so no
    two of the 7,462 five-card values read the same."""
    from freezeout.evaluate.describe import describe_rank

    names = [describe_rank(rank) for rank in range(1, 7463)]
    assert len(set(names)) == len(names) == 7462


def test_kicker_decisions_read_differently() -> None:  # R19
    """The two hands of a kicker decision: the words tell them apart."""
    assert evaluate("KsKhAdQc9s").describe() == "One pair, kings; kickers ace, queen, nine"
    assert evaluate("KdKc7h5s3d").describe() == "One pair, kings; kickers seven, five, three"
    assert evaluate("AhKs9d5c3h").describe() == "High card, ace; kickers king, nine, five, three"
    assert evaluate("AhQs9d5c3h").describe() == "High card, ace; kickers queen, nine, five, three"
    assert evaluate("AsAhKdKcTs").describe() == "Two pair, aces and kings; kicker ten"
    assert evaluate("7s7h7dAcJs").describe() == "Three of a kind, sevens; kickers ace, jack"
    assert evaluate("9s9h9d9cAs").describe() == "Four of a kind, nines; kicker ace"
    assert evaluate("AhKh9h5h3h").describe() == "Flush, ace, king, nine, five, three"


def test_input_forms_agree() -> None:
    cards = parse_cards("AsKdQhJc9s8h7d")
    ranks = {
        evaluate("AsKdQhJc9s8h7d").rank,
        evaluate("As Kd Qh Jc 9s 8h 7d").rank,
        evaluate(["As", "Kd", "Qh", "Jc", "9s", "8h", "7d"]).rank,
        evaluate(cards).rank,
        evaluate([int(card) for card in cards]).rank,
        hand_rank(cards),
        hand_rank([int(card) for card in cards]),
        hand_rank(tuple(int(card) for card in cards)),
    }
    assert len(ranks) == 1


def test_categories_are_exactly_the_nine_names() -> None:  # R19
    assert CATEGORIES == (
        "high card",
        "one pair",
        "two pair",
        "three of a kind",
        "straight",
        "flush",
        "full house",
        "four of a kind",
        "straight flush",
    )
    assert category_of(1) == "high card"
    assert category_of(7462) == "straight flush"


def test_wheel_is_the_lowest_straight_and_there_is_no_wraparound() -> None:  # R19
    wheel = evaluate("5s4h3d2cAs")
    six_high = evaluate("6s5h4d3c2s")
    assert wheel.category == six_high.category == "straight"
    assert wheel < six_high
    assert wheel > evaluate("AsAhAdKcQs")  # any straight beats trips
    assert evaluate("KsAh2d3c4s").category == "high card"  # K-A-2-3-4 is no straight
    assert evaluate("QsKhAd2c3s").category == "high card"
    assert str(evaluate("As2h3d4c5s6h")) == "Straight, six high"  # the ace is not used
    assert evaluate("As2s3s4s5s").rank < evaluate("2h3h4h5h6h").rank  # steel wheel is the lowest SF


def test_suits_have_no_order() -> None:  # R19
    assert evaluate("AsKsQsJs9s") == evaluate("AhKhQhJh9h") == evaluate("AcKcQcJc9c")
    assert evaluate("AsAhKdKcQs") == evaluate("AdAcKsKhQh")
    assert hash(evaluate("AsAhKdKcQs")) == hash(evaluate("AdAcKsKhQh"))


def test_kickers_decide_then_split() -> None:  # R19
    assert evaluate("AsAhKd7c3s") > evaluate("AdAcQs7h3h")
    assert evaluate("AsAhKd7c3s") == evaluate("AdAcKs7h3h")
    # the board plays: both players' best five are the board (R17, R19)
    board = "AsKsQdJcTh"
    assert evaluate(board + "2c3d") == evaluate(board + "4h5h")
    # only five cards count: a sixth kicker does not matter
    assert evaluate("AsAhKdQc9s8h") == evaluate("AdAcKsQh9h7h")


def test_category_order() -> None:  # R19
    hands = [
        "AcKd9h7s3c",
        "QsQh9d8c2h",
        "AhAsJdJc3c",
        "7s7h7d2c3h",
        "6s5h4d3c2s",
        "Ah9h7h4h2h",
        "2s2h2d3c3s",
        "2s2h2d2c3s",
        "5d4d3d2dAd",
    ]
    values = [evaluate(hand) for hand in hands]
    assert values == sorted(values)
    assert [value.category for value in values] == list(CATEGORIES)


def test_best_five() -> None:
    value = evaluate("KsKhKdTcTs7h2c")
    assert [str(card) for card in value.best_five] == ["Ks", "Kh", "Kd", "Ts", "Tc"]
    wheel = evaluate("As2h3d4c5s9hKh")
    assert [str(card) for card in wheel.best_five] == ["5s", "4c", "3d", "2h", "As"]
    flush = evaluate("2h4h6h8hTh3hKs")
    assert {str(card) for card in flush.best_five} == {"Th", "8h", "6h", "4h", "3h"}
    assert hand_rank(flush.best_five) == flush.rank


def test_hand_value_is_frozen_and_picklable() -> None:
    value = evaluate("AsKsQsJsTs")
    with pytest.raises(AttributeError):
        value.rank = 3  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(value))
    assert again == value and again.cards == value.cards
    assert isinstance(value, HandValue)
    assert "Royal flush" in repr(value)
    assert value != value.rank  # a HandValue is not an int


@pytest.mark.parametrize("bad", ["AsKsQsJs", "AsKsQsJsTs9s8s7s", "", []])
def test_wrong_count(bad: str | list[str]) -> None:
    with pytest.raises(EvaluationError, match="5 to 7 cards"):
        evaluate(bad)


@pytest.mark.parametrize("bad", ["AsKsQsJsAs", "AsKsQsJsXx", ["As", "Ks", "Qs", "Js", "1s"], "AsKsQsJsT"])
def test_bad_cards(bad: str | list[str]) -> None:
    with pytest.raises(CardError):
        evaluate(bad)


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ([0, 4, 8, 12], EvaluationError),
        ([0, 4, 8, 12, 16, 20, 24, 28], EvaluationError),
        ([0, 1, 2, 3, 4, 5, 6, 7], EvaluationError),
        ([0, 4, 8, 12, 0], CardError),
        ([48, 44, 40, 36, 48, 1, 2], CardError),
        ([0, 4, 8, 12, 52], CardError),
        ([0, 4, 8, 12, -1], CardError),
        ([0, 4, 8, 12, 200], CardError),
        ([0, 4, 8, 12, "x"], CardError),
        ([0, 4, 8, 12, 16, 20, 0], CardError),  # flush path duplicate
        ([0, 4, 8, 12, 16, -52], CardError),  # flush path, negative
    ],
)
def test_hand_rank_rejects_bad_input(bad: list[int], error: type[ValueError]) -> None:
    with pytest.raises(error):
        hand_rank(bad)


def test_best_rank_indices() -> None:
    assert best_rank_indices([1200, 5000, 5000, 7]) == (1, 2)
    assert best_rank_indices([evaluate("AsKsQsJsTs"), evaluate("AhKhQhJhTh")]) == (0, 1)
    assert best_rank_indices([evaluate("2s3h4d5c7s"), evaluate("AhKhQhJhTh")]) == (1,)
    assert best_rank_indices([]) == ()


def test_ranking_registry() -> None:
    from freezeout.evaluate.rankings import HIGH, RANKINGS, get_ranking

    high = get_ranking("high")
    assert high is HIGH and RANKINGS["high"] is HIGH
    cards = parse_cards("KsKhKdTcTs7h2c")
    assert high.rank(cards) == hand_rank(cards)
    assert high.category(high.rank(cards)) == "full house"
    assert high.describe(high.rank(cards)) == "Full house, kings full of tens"
    with pytest.raises(KeyError, match="unknown ranking"):
        get_ranking("razz")


def test_import_freezeout_builds_no_tables() -> None:
    import subprocess
    import sys

    code = "import sys, freezeout; assert 'freezeout.evaluate' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, env=_env_with_src())


def _env_with_src() -> dict[str, str]:
    import os
    from pathlib import Path

    import freezeout

    src = str(Path(freezeout.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}


def test_category_of_rejects_non_ranks() -> None:
    with pytest.raises(EvaluationError):
        category_of(0)
    with pytest.raises(EvaluationError):
        category_of(7463)
