"""The rankings the rules engine calls (V5, V6, V10, V14, V15, V16): rules as examples, names, errors."""

from __future__ import annotations

import numpy as np
import pytest

from freezeout.cards import CardError, parse_cards
from freezeout.evaluate import EvaluationError, evaluate, hand_rank
from freezeout.evaluate.rankings import HIGH, NAMES, RANKINGS, get_ranking


def rank(name: str, hole: str, board: str = "") -> int:
    return get_ranking(name).rank(parse_cards(hole), parse_cards(board))


def names(name: str, hole: str, board: str = "") -> tuple[str, str, str, str]:
    """English and Czech description and category of a hand."""
    ranking = get_ranking(name)
    value = ranking.rank(parse_cards(hole), parse_cards(board))
    return (
        ranking.describe(value),
        ranking.describe(value, "cs"),
        ranking.category(value),
        ranking.category(value, "cs"),
    )


def test_registry() -> None:
    assert NAMES == ("high", "short-deck", "low8", "low-a5", "low-27", "badugi", "omaha-high", "omaha-low8")
    for name in NAMES:
        ranking = get_ranking(name)
        assert ranking.name == name and RANKINGS[name] is ranking and get_ranking(name) is ranking
    assert get_ranking("high") is HIGH
    with pytest.raises(KeyError, match="unknown ranking 'razz'"):
        get_ranking("razz")


def test_high_keeps_its_numbers_and_words() -> None:  # R19
    cards = parse_cards("KsKhKdTcTs7h2c")
    assert HIGH.rank(cards[:2], cards[2:]) == HIGH.rank(cards) == hand_rank(cards) == evaluate(cards).rank
    value = HIGH.rank(cards)
    assert HIGH.describe(value) == "Full house, kings full of tens"
    assert HIGH.describe(value, "cs") == "Full house, trojice králů a pár desítek"
    assert (HIGH.category(value), HIGH.category(value, "cs")) == ("full house", "full house")
    assert HIGH.best(cards[:2], cards[2:]) == (value, evaluate(cards).best_five)
    assert HIGH.rank_batch(np.array([cards], dtype=np.uint8)).tolist() == [value]


# --------------------------------------------------------------------------- 8-or-better (V6)
def test_low8_compares_from_the_top_card_down() -> None:  # V6
    assert rank("low8", "7s5h4d3c2s") > rank("low8", "8s4h3d2cAs")
    assert rank("low8", "5s4h3d2cAs") == 56  # the wheel is the best low
    assert rank("low8", "8s7h6d5c4s") == 1  # the worst
    assert rank("low8", "8s6h4d3c2s") > rank("low8", "8s6h5d2cAs")


def test_low8_straights_and_flushes_do_not_spoil_it() -> None:  # V6
    assert rank("low8", "5s4s3s2sAs") == rank("low8", "5h4d3c2sAs") == 56
    assert rank("low8", "8h7h6h5h4h") == 1


def test_low8_needs_five_different_ranks_eight_or_lower() -> None:  # V6
    assert rank("low8", "9s5h4d3c2s") == 0
    assert rank("low8", "AsAh4d3c2s") == 0
    assert rank("low8", "AsAh4d3c2s", "KdQc") == 0
    assert rank("low8", "AsAh4d3c2s", "7d9c") == rank("low8", "7s4h3d2cAs")  # best five of seven


def test_low8_names() -> None:
    assert names("low8", "8d6s4h2cAs", "KdKh") == (
        "8-6-4-2-A low",
        "Nízká ruka 8-6-4-2-A",
        "eight low",
        "nízká ruka do osmičky",
    )
    assert names("low8", "5s4h3d2cAs") == (
        "5-4-3-2-A low",
        "Nízká ruka 5-4-3-2-A",
        "five low",
        "nízká ruka do pětky",
    )
    assert names("low8", "KsKh4d3c2s") == ("No low", "Bez nízké ruky", "no low", "bez nízké ruky")
    assert get_ranking("low8").best(parse_cards("KsKh4d3c2s")) == (0, ())


# --------------------------------------------------------------------------- ace-to-five (V10)
def test_ace_to_five_every_hand_ranks() -> None:  # V10
    assert rank("low-a5", "5s4s3s2sAs") == 6175  # straight and flush ignored: the best hand
    assert rank("low-a5", "KsQhJdTc8s") > rank("low-a5", "AsAh2d3c4s")  # pairs count against
    assert rank("low-a5", "AsAh2d3c4s") > rank("low-a5", "2s2h3d3c4s") > rank("low-a5", "AsAhAd2c3s")
    assert rank("low-a5", "AsAhAd2c2s") > rank("low-a5", "AsAhAdAc2s")  # full house better than quads
    assert rank("low-a5", "KsKhKdKcQs") == 1  # four kings, queen: the worst
    assert rank("low-a5", "6s4h3d2cAs") > rank("low-a5", "6s5h3d2cAs")  # from the top down
    assert rank("low-a5", "KsKh5d3cAs", "9h9d") == rank("low-a5", "Ks9h5d3cAs")  # best five of seven


def test_ace_to_five_names() -> None:
    assert names("low-a5", "7s5h4d3c2s") == (
        "7-5-4-3-2 low",
        "Nízká ruka 7-5-4-3-2",
        "seven low",
        "nízká ruka do sedmičky",
    )
    assert names("low-a5", "KsKh5d3cAs") == (
        "One pair, kings (K-K-5-3-A)",
        "Pár králů (K-K-5-3-A)",
        "one pair",
        "jeden pár",
    )
    assert names("low-a5", "2s2h3d3cAs")[:2] == (
        "Two pair, threes and twos (3-3-2-2-A)",
        "Dva páry, trojky a dvojky (3-3-2-2-A)",
    )
    assert names("low-a5", "KsKhKdKcQs")[0] == "Four of a kind, kings (K-K-K-K-Q)"
    razz = get_ranking("low-a5")
    assert [str(card) for card in razz.best(parse_cards("KsKh5d3cAs9h9d"))[1]] == [
        "Kh",
        "9d",
        "5d",
        "3c",
        "As",
    ]


# --------------------------------------------------------------------------- deuce-to-seven (V14)
def test_deuce_to_seven() -> None:  # V14
    assert rank("low-27", "7s5h4d3c2s") == 7462  # the best hand
    assert rank("low-27", "7s5h4d3c2s") > rank("low-27", "7s6h4d3c2s") > rank("low-27", "8s5h4d3c2s")
    assert rank("low-27", "7h5h4h3h2h") < rank("low-27", "KsQhJd9c8s")  # flushes count against
    assert rank("low-27", "6s5h4d3c2s") < rank("low-27", "AsKh9d5c3s")  # straights count against
    assert rank("low-27", "As2h3d4c5s") > rank("low-27", "AsKh9d5c3s")  # A-2-3-4-5 is ace-high, no straight
    assert rank("low-27", "As2h3d4c5s") < rank("low-27", "KsQhJd9c8s")  # aces are always high
    assert rank("low-27", "2s2h3d4c5s") < rank("low-27", "AsKhQdJc9s")  # a pair is worse than any high card
    assert rank("low-27", "AsKsQsJsTs") == 1  # the royal flush is the worst
    assert rank("low-27", "7h5h4h3h2h", "2c7c") == rank("low-27", "7h5h4h3h2c")  # best five avoids the flush


def test_deuce_to_seven_names() -> None:
    assert names("low-27", "7s5h4d3c2s") == (
        "Seven-five low, 7-5-4-3-2",
        "Nízká ruka do sedmičky, 7-5-4-3-2",
        "seven low",
        "nízká ruka do sedmičky",
    )
    assert names("low-27", "As2h3d4c5s")[:3] == (
        "Ace-five low, A-5-4-3-2",
        "Nízká ruka do esa, A-5-4-3-2",
        "ace low",
    )
    assert names("low-27", "6s5h4d3c2s")[:3] == ("Straight, six high", "Postupka do šestky", "straight")
    assert names("low-27", "KsKh5d3c2s")[0] == "One pair, kings; kickers five, three, two"


# --------------------------------------------------------------------------- badugi (V15)
def test_badugi() -> None:  # V15
    assert rank("badugi", "4s3h2dAc") == 1092  # the best badugi
    assert rank("badugi", "KsQhJdTc") > rank("badugi", "As2h3d3c")  # four cards beat three ...
    assert rank("badugi", "KsQhJd4d") < rank("badugi", "As2h3d3c")  # ... so KQJ is a three-card hand
    assert rank("badugi", "7s5h3dAc") > rank("badugi", "7s6h2dAc")  # from the top down, ace low
    assert rank("badugi", "Ks2s4d7h") == rank("badugi", "2s4d7h9h")  # 7-4-2 either way
    assert rank("badugi", "AsAhAdAc") == rank("badugi", "AsKsQsJs") == 13  # one card: ace
    assert rank("badugi", "KsKhKdKc") == 1  # the worst


def test_badugi_names() -> None:
    assert names("badugi", "7s5h3dAc") == ("Badugi, 7-5-3-A", "Badugi, 7-5-3-A", "badugi", "badugi")
    assert names("badugi", "Ks2s4d7h") == (
        "Three-card badugi, 7-4-2",
        "Tříkartové badugi, 7-4-2",
        "three-card badugi",
        "tříkartové badugi",
    )
    assert names("badugi", "AsKs2h3h")[:2] == ("Two-card badugi, 2-A", "Dvoukartové badugi, 2-A")
    assert names("badugi", "AsKsQsJs")[:2] == ("One-card badugi, A", "Jednokartové badugi, A")
    assert [str(card) for card in get_ranking("badugi").best(parse_cards("Ks2s4d7h"))[1]] == [
        "7h",
        "4d",
        "2s",
    ]


# --------------------------------------------------------------------------- short deck (V16)
def test_short_deck() -> None:  # V16
    assert rank("short-deck", "AhKhQh9h7h") > rank("short-deck", "AsAdAcKsKd")  # flush beats full house
    assert rank("short-deck", "AsAdAcAhKd") > rank("short-deck", "AhKhQh9h7h")  # quads beat a flush
    assert rank("short-deck", "9s8h7d6cAs") > rank("short-deck", "AsAhAdKcQs")  # A-6-7-8-9 is a straight ...
    assert rank("short-deck", "9s8h7d6cAs") < rank("short-deck", "Ts9h8d7c6s")  # ... the lowest one
    assert rank("short-deck", "9s8s7s6sAs") == rank("short-deck", "9h8h7h6hAh")  # and a straight flush
    assert rank("short-deck", "AsKsQsJsTs") == 1404
    assert names("short-deck", "As6h7d8c9s", "KdKh") == (
        "Straight, nine high",
        "Postupka do devítky",
        "straight",
        "postupka",
    )
    best = get_ranking("short-deck").best(parse_cards("As6h7d8c9s"))[1]
    assert [str(card) for card in best] == ["9s", "8c", "7d", "6h", "As"]


def test_short_deck_refuses_small_cards() -> None:  # V16
    short = get_ranking("short-deck")
    for hand in ("As6h7d8c5s", "2s3h4d5c6s", "AhKhQh9h2h"):
        with pytest.raises(EvaluationError, match="not in the short deck"):
            short.rank(parse_cards(hand))
    with pytest.raises(EvaluationError, match="row 1: 5s is not in the short deck"):
        short.rank_batch(np.array([[48, 44, 40, 36, 32], [48, 44, 40, 36, 12]], dtype=np.uint8))


# --------------------------------------------------------------------------- Omaha (V5, V6)
def test_omaha_uses_exactly_two_hole_cards() -> None:  # V5
    # Four hearts in the hole and one on the board: no flush (three board cards needed).
    assert get_ranking("omaha-high").category(rank("omaha-high", "AhKhQhJh", "Th2c3d7s8c")) == "high card"
    # A straight on the board does not play by itself.
    assert get_ranking("omaha-high").category(rank("omaha-high", "AsAh2c3d", "9c8d7h6s5c")) != "straight"
    assert rank("omaha-high", "AsAh2c3d", "9c8d7h6s5c") == hand_rank(parse_cards("AsAh9c8d7h"))
    # Quads on the board play only three of them.
    assert (
        get_ranking("omaha-high").category(rank("omaha-high", "2c3d4h5s", "KsKhKdKcAs")) == "three of a kind"
    )


def test_omaha_low_needs_two_low_hole_cards() -> None:  # V6
    assert rank("omaha-low8", "As2sKdKc", "3c4d5h8s9s") == 56
    assert rank("omaha-low8", "AsKsKdKc", "2c3d4h8s9s") == 0  # one low hole card
    assert rank("omaha-low8", "As2sKdKc", "3c4dKhQsJs") == 0  # two low board cards
    # A counterfeited hole card: the ace pairs the board, the low uses the other.
    assert rank("omaha-low8", "As3sKdKc", "Ad4c5h7s8d") == get_ranking("low8").rank(parse_cards("3s4c5h7sAs"))
    assert names("omaha-low8", "Ad2d9sKc", "3h5c8c9hKd")[:3] == (
        "8-5-3-2-A low",
        "Nízká ruka 8-5-3-2-A",
        "eight low",
    )


def test_omaha_takes_four_to_six_hole_cards_and_three_to_five_board_cards() -> None:  # V5
    for name in ("omaha-high", "omaha-low8"):
        ranking = get_ranking(name)
        assert ranking.rank(parse_cards("As2s3s4s5s6s"), parse_cards("7h8h9h")) >= 0
        for hole, board in (
            ("As2s3s", "7h8h9h"),
            ("As2s3s4s", "7h8h"),
            ("As2s3s4s5s6s7s", "8h9hTh"),
            ("As2s3s4s", "5h6h7h8h9hTh"),
        ):
            with pytest.raises(EvaluationError, match="Omaha"):
                ranking.rank(parse_cards(hole), parse_cards(board))
        with pytest.raises(EvaluationError, match="hole_count"):
            ranking.rank_batch(np.zeros((1, 9), dtype=np.uint8), 3)


# --------------------------------------------------------------------------- every ranking
@pytest.mark.parametrize("name", NAMES)
def test_every_rank_reads_differently(name: str) -> None:
    """Descriptions name every card that can decide a showdown, in both languages."""
    ranking = get_ranking(name)
    top = {"high": 7462, "short-deck": 1404, "low8": 56, "low-a5": 6175, "low-27": 7462, "badugi": 1092}
    count = top.get(name, 7462 if name == "omaha-high" else 56)
    first = 0 if name in ("low8", "omaha-low8") else 1
    for lang in ("en", "cs"):
        words = [ranking.describe(value, lang) for value in range(first, count + 1)]
        assert len(set(words)) == len(words)
        categories = {ranking.category(value, lang) for value in range(first, count + 1)}
        assert all(category == category.lower() for category in categories)
    for bad in (first - 1, count + 1):
        with pytest.raises(EvaluationError):
            ranking.describe(bad)
    with pytest.raises(EvaluationError, match="language"):
        ranking.describe(count, "de")


BAD_INPUT = {
    "duplicate": ([0, 4, 8, 12, 0, 20, 24], CardError),
    "out of range": ([0, 4, 8, 12, 52, 20, 24], CardError),
    "negative": ([0, 4, 8, 12, -1, 20, 24], CardError),
    "not a card": ([0, 4, 8, 12, "x", 20, 24], CardError),
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("problem", sorted(BAD_INPUT))
def test_bad_cards_are_refused(name: str, problem: str) -> None:
    cards, error = BAD_INPUT[problem]
    cards = [
        card + 16 if isinstance(card, int) and 0 <= card < 52 and name == "short-deck" else card
        for card in cards
    ]
    hole, board = (
        (cards[:4], cards[4:])
        if name.startswith("omaha")
        else (cards[:4], [])
        if name == "badugi"
        else (cards, [])
    )
    if name == "badugi" and problem != "duplicate":
        hole = [*cards[:3], cards[4]]
    if name == "badugi" and problem == "duplicate":
        hole = [0, 4, 8, 0]
    with pytest.raises(error):
        get_ranking(name).rank(hole, board)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_wrong_counts_are_refused(name: str) -> None:
    ranking = get_ranking(name)
    low = 16 if name == "short-deck" else 0
    cards = list(range(low, low + 40, 4))
    if name.startswith("omaha"):
        wrong = [
            (cards[:3], cards[3:6]),
            (cards[:4], cards[4:6]),
            (cards[:7], cards[7:10]),
            (cards[:4], cards[4:10]),
        ]
    else:
        wrong = [
            (cards[:2], cards[2:3]),
            (cards[:4], cards[4:8]) if name != "badugi" else (cards[:4], cards[4:5]),
        ]
    for hole, board in wrong:
        with pytest.raises(EvaluationError):
            ranking.rank(hole, board)
    with pytest.raises(EvaluationError, match="shape"):
        ranking.rank_batch(np.zeros((2, 3), dtype=np.uint8))


@pytest.mark.parametrize("name", NAMES)
def test_bad_batches_are_refused(name: str) -> None:
    ranking = get_ranking(name)
    width = 4 if name == "badugi" else 9 if name.startswith("omaha") else 7
    good = np.arange(16, 16 + 4 * width, 4, dtype=np.int64)[None, :].repeat(2, axis=0)
    assert ranking.rank_batch(good).shape == (2,)
    repeated = good.copy()
    repeated[1, 1] = repeated[1, 0]
    with pytest.raises(CardError, match="row 1 has a duplicate card"):
        ranking.rank_batch(repeated)
    outside = good.copy()
    outside[1, 0] = 52
    with pytest.raises(CardError, match="row 1: card index 52"):
        ranking.rank_batch(outside)
    with pytest.raises(CardError, match="integers"):
        ranking.rank_batch(good.astype(float))
    assert ranking.rank_batch(np.empty((0, width), dtype=np.uint8)).shape == (0,)
