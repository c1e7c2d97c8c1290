"""An independent enumeration of all-in equity with PokerKit's hand evaluators, for the tests.

Every deal of the remaining cards is walked in plain Python, each hand ranked
by PokerKit, and the pot split as the showdown splits it (V6: half to the
best high, half to the best qualifying low, all to high with no low).  The
equity engine (tests/analysis/test_equity.py) and the pages' run-out shares
(tests/web) are checked against it.  Small cases only: it is slow.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pokerkit

from freezeout.analysis.games import Game
from freezeout.cards import Card, parse_cards

__all__ = ["HIGH", "cards", "reference", "text"]

HIGH: dict[str, Any] = {
    "high": pokerkit.StandardHighHand,
    "short-deck": pokerkit.ShortDeckHoldemHand,
    "omaha-high": pokerkit.OmahaHoldemHand,
    "low8": pokerkit.EightOrBetterLowHand,
    "omaha-low8": pokerkit.OmahaEightOrBetterLowHand,
    "low-a5": pokerkit.RegularLowHand,
}


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(card) for card in parse_cards(text))


def text(values: Sequence[int]) -> str:
    return "".join(str(Card(card)) for card in values)


def _winners(values: Sequence[Any]) -> list[int]:
    present = [value for value in values if value is not None]
    if not present:
        return []
    best = max(present)
    return [index for index, value in enumerate(values) if value is not None and value == best]


def reference(game: Game, hands: Sequence[str], board: str = "", dead: str = "") -> list[Fraction]:
    """Exact equities by walking every deal with PokerKit (small cases only)."""
    holes = [cards(hand) for hand in hands]
    known = cards(board)
    used = {*known, *cards(dead), *(card for hole in holes for card in hole)}
    rest = [card for card in game.deck if card not in used]
    needs = [game.board - len(known)] if not game.stud else [game.hole - len(hole) for hole in holes]
    totals = [Fraction(0)] * len(hands)
    deals = 0

    def walk(left: list[int], groups: list[tuple[int, ...]]) -> None:
        nonlocal deals
        if len(groups) == len(needs):
            deals += 1
            score(groups)
            return
        for chosen in itertools.combinations(left, needs[len(groups)]):
            walk([card for card in left if card not in chosen], [*groups, chosen])

    def score(groups: list[tuple[int, ...]]) -> None:
        if game.stud:
            finals = [(hole + group, ()) for hole, group in zip(holes, groups, strict=True)]
        else:
            finals = [(hole, known + groups[0]) for hole in holes]
        halves = []
        for name in game.rankings:
            values = [HIGH[name].from_game_or_none(text(hole), text(shared)) for hole, shared in finals]
            halves.append(_winners(values))
        shares = [Fraction(0)] * len(hands)
        parts = [half for half in halves if half]
        for half in parts:
            for seat in half:
                shares[seat] += Fraction(1, len(half) * len(parts))
        for seat, share in enumerate(shares):
            totals[seat] += share

    walk(rest, [])
    return [total / deals for total in totals]
