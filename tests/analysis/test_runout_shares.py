"""The run-out's shares the page asks the odds calculator for (web/js/runoutodds.js, issue
#36), checked against an independent enumeration with PokerKit's evaluator:

* a side pot is shared among the hands that contend it, the other hands' cards dead to it
  (``dead=``): exactly each contender's share over every board from the cards no hand holds;
* a board run twice (C7) wins half of every pot per run; with some of each run's cards on the
  felt, the page asks each run's share with the other run's cards beyond the common board
  dead, and takes the mean: exactly the mean share over every way to finish both runs.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from equity_reference import HIGH, cards, reference, text
from freezeout.analysis.games import game_for
from freezeout.server.oddsdesk import compute

FLOP = "2c7d9h"


def test_a_side_pots_share_is_over_the_boards_no_hand_holds_a_card_of() -> None:
    ana, bo, cy = "AhAd", "KcKs", "QhQd"  # Ana all in short: the side pot is Bo's and Cy's
    asked = compute("NT", (bo, cy), FLOP, ana)  # what the page asks for the side pot
    truth = reference(game_for("NT"), [bo, cy], FLOP, ana)
    assert asked["exact"]
    assert [hand["equity"] for hand in asked["hands"]] == pytest.approx([float(x) for x in truth], abs=1e-6)
    # not the share the two would have with Ana's cards back in the deck
    assert compute("NT", (bo, cy), FLOP, "")["hands"][0]["equity"] != pytest.approx(asked["hands"][0]["equity"], abs=1e-4)


def _run_shares(hands: list[str], board: str, rest: list[int]) -> dict[int, list[Fraction]]:
    """Each hand's share of one run's pot for each last card (PokerKit's evaluator)."""
    shares = {}
    for card in rest:
        values = [HIGH["high"].from_game_or_none(hand, board + text([card])) for hand in hands]
        best = max(values)
        winners = [i for i, value in enumerate(values) if value == best]
        shares[card] = [Fraction(1, len(winners)) if i in winners else Fraction(0) for i in range(len(hands))]
    return shares


def test_a_board_run_twice_is_the_mean_of_each_runs_share_with_the_other_runs_cards_dead() -> None:
    hands = ["AhAd", "KcKs"]
    first, second = FLOP + "Js", FLOP + "4s"  # the turn of each run is on the felt; each river to come
    used = {*cards("".join(hands)), *cards(FLOP + "Js4s")}
    rest = [card for card in game_for("NT").deck if card not in used]
    one, two = _run_shares(hands, first, rest), _run_shares(hands, second, rest)
    pairs = [(a, b) for a in rest for b in rest if a != b]  # every way to deal both rivers
    truth = [sum((one[a][i] + two[b][i]) / 2 for a, b in pairs) / len(pairs) for i in range(2)]
    run1 = compute("NT", tuple(hands), first, "4s")
    run2 = compute("NT", tuple(hands), second, "Js")
    asked = [(run1["hands"][i]["equity"] + run2["hands"][i]["equity"]) / 2 for i in range(2)]
    assert run1["exact"] and run2["exact"]
    assert asked == pytest.approx([float(x) for x in truth], abs=1e-6)
