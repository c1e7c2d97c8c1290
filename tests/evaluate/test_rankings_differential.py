"""The new rankings against the slow references and against PokerKit, on random hands.

Orderings are compared, not numbers: sorting a sample by our rank must sort
it by the other side's strength too, with ties exactly where the other side
has ties.  Samples are seeded (no flakiness) and biased towards the hands
that matter for each game: low cards for lows, suited cards for flushes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import pytest

from freezeout.cards import Card
from freezeout.evaluate import reference
from freezeout.evaluate import reference_variants as ref
from freezeout.evaluate.rankings import NAMES, get_ranking

pokerkit = pytest.importorskip("pokerkit")

Deal = tuple[list[int], list[int]]  # hole, board

#: name -> (hole sizes, board sizes, deck) of the deals each ranking takes.
SHAPES: dict[str, tuple[Sequence[int], Sequence[int], Sequence[int]]] = {
    "high": ((2,), (3, 4, 5), range(52)),
    "short-deck": ((2,), (3, 4, 5), range(16, 52)),
    "low8": ((5, 6, 7), (0,), range(52)),
    "low-a5": ((5, 6, 7), (0,), range(52)),
    "low-27": ((5, 6, 7), (0,), range(52)),
    "badugi": ((4,), (0,), range(52)),
    "omaha-high": ((4, 5, 6), (3, 4, 5), range(52)),
    "omaha-low8": ((4, 5, 6), (3, 4, 5), range(52)),
}


def deals(name: str, count: int, seed: int) -> list[Deal]:
    """Random deals for ``name``: half uniform, a quarter from low cards, a quarter from two suits."""
    holes, boards, deck = SHAPES[name]
    rng = random.Random(f"{name}/{seed}")
    low_cards = [card for card in deck if card >> 2 in (12, 0, 1, 2, 3, 4, 5, 6, 7)]
    suited = [card for card in deck if card & 3 in (0, 1)]
    out = []
    for index in range(count):
        hole_size, board_size = rng.choice(holes), rng.choice(boards)
        pool = (deck, deck, low_cards, suited)[index % 4]
        cards = rng.sample(list(pool), hole_size + board_size)
        out.append((cards[:hole_size], cards[hole_size:]))
    return out


def same_order(ours: Sequence[int], theirs: Sequence[Any]) -> None:
    """Sorting by ``ours`` sorts ``theirs`` (comparable values), ties exactly alike."""
    pairs = sorted(range(len(ours)), key=ours.__getitem__)
    for a, b in pairwise(pairs):
        assert (ours[a] == ours[b]) == (theirs[a] == theirs[b]), (a, b)
        assert not theirs[b] < theirs[a], (a, b)


# --------------------------------------------------------------------------- references
def _low_key(score: Any) -> tuple[int, Any]:
    return (0, ()) if score is None else (1, score)


REFERENCES: dict[str, Callable[[list[int], list[int]], Any]] = {
    "high": lambda hole, board: reference.reference_score(hole + board),
    "short-deck": lambda hole, board: ref.ref_short_deck(hole + board),
    "low8": lambda hole, board: _low_key(ref.ref_low8(hole + board)),
    "low-a5": lambda hole, board: ref.ref_a5(hole + board),
    "low-27": lambda hole, board: ref.ref_d27(hole + board),
    "badugi": lambda hole, board: ref.ref_badugi(hole + board),
    "omaha-high": lambda hole, board: ref.ref_omaha(hole, board, reference.score_five),
    "omaha-low8": lambda hole, board: _low_key(ref.ref_omaha(hole, board, ref.low8_five)),
}


@pytest.mark.parametrize("name", NAMES)
def test_ordering_matches_the_reference(name: str) -> None:
    ranking = get_ranking(name)
    sample = deals(name, 1_200, seed=1)
    same_order(
        [ranking.rank(hole, board) for hole, board in sample], [REFERENCES[name](*deal) for deal in sample]
    )


def test_no_qualifying_low_is_zero() -> None:  # V6
    for name, reference_low in (("low8", ref.ref_low8), ("omaha-low8", None)):
        ranking = get_ranking(name)
        for hole, board in deals(name, 600, seed=2):
            if reference_low is not None:
                expected = reference_low(hole + board)
            else:
                expected = ref.ref_omaha(hole, board, ref.low8_five)
            assert (ranking.rank(hole, board) == 0) == (expected is None)


# --------------------------------------------------------------------------- PokerKit
POKERKIT_HANDS = {
    "high": pokerkit.StandardHighHand,
    "short-deck": pokerkit.ShortDeckHoldemHand,
    "low8": pokerkit.EightOrBetterLowHand,
    "low-a5": pokerkit.RegularLowHand,
    "low-27": pokerkit.StandardLowHand,
    "badugi": pokerkit.BadugiHand,
    "omaha-high": pokerkit.OmahaHoldemHand,
    "omaha-low8": pokerkit.OmahaEightOrBetterLowHand,
}


class _NoLow:
    """PokerKit has no hand where no low qualifies; this sorts below every hand."""

    def __lt__(self, other: object) -> bool:
        return not isinstance(other, _NoLow)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _NoLow)

    def __hash__(self) -> int:
        return 0

    def __gt__(self, other: object) -> bool:
        return False


def pokerkit_hand(name: str, hole: list[int], board: list[int]) -> Any:
    text = "".join(str(Card(card)) for card in hole), "".join(str(Card(card)) for card in board)
    hand = POKERKIT_HANDS[name].from_game_or_none(*text)
    return _NoLow() if hand is None else hand


class _Ordered:
    """A PokerKit hand or no-low marker, compared with no-low lowest either way round."""

    def __init__(self, hand: Any) -> None:
        self.hand = hand

    def __lt__(self, other: _Ordered) -> bool:
        if isinstance(self.hand, _NoLow) or isinstance(other.hand, _NoLow):
            return isinstance(self.hand, _NoLow) and not isinstance(other.hand, _NoLow)
        return bool(self.hand < other.hand)

    def __eq__(self, other: object) -> bool:
        assert isinstance(other, _Ordered)
        if isinstance(self.hand, _NoLow) or isinstance(other.hand, _NoLow):
            return isinstance(self.hand, _NoLow) and isinstance(other.hand, _NoLow)
        return bool(self.hand == other.hand)

    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize("name", NAMES)
def test_ordering_matches_pokerkit(name: str) -> None:
    ranking = get_ranking(name)
    sample = deals(name, 300, seed=3)
    ours = [ranking.rank(hole, board) for hole, board in sample]
    same_order(ours, [_Ordered(pokerkit_hand(name, hole, board)) for hole, board in sample])


def test_pokerkit_agrees_where_the_rules_are_sharp() -> None:  # V6, V10, V14, V16
    """Hands named in the rules, ordered by PokerKit as by us."""
    cases = [
        ("low8", "7s5h4d3c2s", "8s4h3d2cAs"),  # 7-5-4-3-2 beats 8-4-3-2-A
        ("low-a5", "5s4s3s2sAs", "6h4d3c2sAs"),  # the steel wheel is the best razz hand
        ("low-a5", "KsQhJdTc8s", "AsAh2d3c4s"),  # any no-pair hand beats a pair
        ("low-27", "7s5h4d3c2s", "7h5h4h3h2h"),  # a flush counts against
        ("low-27", "AsKh9d5c3s", "8s7h6d5c4s"),  # a straight counts against: even ace-high beats it
        ("low-27", "As2h3d4c5s", "AsKh9d5c3s"),  # A-5-4-3-2 is no straight: ace-five beats ace-king
        ("short-deck", "AhKhQh9h7h", "AsAdAcKsKd"),  # flush beats full house
        ("short-deck", "9s8h7d6cAs", "AsAhAdKcQs"),  # A-6-7-8-9 straight beats trips
    ]
    for name, better, worse in cases:
        ranking = get_ranking(name)
        ours_better = ranking.rank([int(card) for card in pokerkit_cards(better)])
        ours_worse = ranking.rank([int(card) for card in pokerkit_cards(worse)])
        assert ours_better > ours_worse, (name, better, worse)
        assert POKERKIT_HANDS[name].from_game(better) > POKERKIT_HANDS[name].from_game(worse)


def pokerkit_cards(text: str) -> tuple[Card, ...]:
    from freezeout.cards import parse_cards

    return parse_cards(text)


# --------------------------------------------------------------------------- batch and best
@pytest.mark.parametrize("name", NAMES)
def test_batch_agrees_with_single(name: str) -> None:
    ranking = get_ranking(name)
    sample = deals(name, 3_000, seed=4)
    holes, boards, _ = SHAPES[name]
    for hole_size in holes:
        for board_size in boards:
            rows = [
                hole + board for hole, board in sample if len(hole) == hole_size and len(board) == board_size
            ]
            if not rows:
                continue
            cards = np.array(rows, dtype=np.uint8)
            hole_count = hole_size if name.startswith("omaha") else None
            expected = [ranking.rank(row[:hole_size], row[hole_size:]) for row in rows]
            assert ranking.rank_batch(cards, hole_count).tolist() == expected
            assert ranking.rank_batch(cards.astype(np.int64), hole_count).tolist() == expected


@pytest.mark.parametrize("name", NAMES)
def test_best_cards_make_the_rank(name: str) -> None:
    ranking = get_ranking(name)
    for hole, board in deals(name, 300, seed=5):
        rank, cards = ranking.best(hole, board)
        assert rank == ranking.rank(hole, board)
        assert all(isinstance(card, Card) for card in cards)
        assert set(cards) <= set(hole + board)
        if rank == 0:
            assert cards == ()
            continue
        if name == "badugi":
            assert ranking.rank([*cards, *(c for c in hole if c not in cards)]) == rank
            assert len({card.suit for card in cards}) == len({card.rank for card in cards}) == len(cards)
        elif name.startswith("omaha"):
            assert len(set(cards) & set(hole)) == 2 and len(set(cards) & set(board)) == 3
            under = get_ranking("high" if name == "omaha-high" else "low8")
            assert under.rank(cards) == rank
        else:
            assert len(cards) == 5 and ranking.rank(cards) == rank


# --------------------------------------------------------------------------- long runs (FREEZEOUT_SLOW=1)
@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_long_run_against_the_reference(name: str) -> None:
    """The reference comparison on twenty times the sample."""
    ranking = get_ranking(name)
    sample = deals(name, 25_000, seed=11)
    ours = [ranking.rank(hole, board) for hole, board in sample]
    same_order(ours, [REFERENCES[name](*deal) for deal in sample])


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_long_run_against_pokerkit(name: str) -> None:
    """The PokerKit comparison on thirteen times the sample."""
    ranking = get_ranking(name)
    sample = deals(name, 4_000, seed=12)
    ours = [ranking.rank(hole, board) for hole, board in sample]
    same_order(ours, [_Ordered(pokerkit_hand(name, hole, board)) for hole, board in sample])
