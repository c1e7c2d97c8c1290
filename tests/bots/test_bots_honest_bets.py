"""A bet from a player who bets the way most players do says what it says
(issue #35, "Where FO/8 loses"): ``hard``'s share against it is near its
share against the range such a player bets.

The range is ``medium``'s, which bets a hand when its pot share against any
hand is 0.584 or more (the fair half plus ``medium``'s value margin): on
``Kc7h4d`` 150 of 431 random hands (35 %) bet, and ``9h9d``'s share
against those 150, every runout dealt, is 0.506 (a script over the same
pot-share function, 300 deals a hand, 200 runouts each).  Before this read
``hard`` rated the pair 0.6 against that bet — an honest bet read as a
third of one — and paid off honest bets down to the river.
"""

from __future__ import annotations

import random

from scenes import aggressor, play, stacked, station, table

from freezeout.bots.game_bot import HARD, GameBot
from freezeout.bots.game_spot import read_spot
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView, seat_view

BOT = GameBot("hard", HARD)
AGAINST_THE_BETTING_RANGE = 0.506  # 9h9d on Kc7h4d against medium's flop bets (module docstring)


def facing_a_flop_bet() -> TableView:
    """FT heads-up, seat 0 (the button, ``9h9d``) limped and was checked to;
    seat 1 bets the flop ``Kc7h4d`` into it — the first hand: no habits yet,
    the population's (two moves in ten aggressive)."""
    tournament, _ = table("FT", button=0).deal_deck(stacked("FT", "9h9d", "2c3d", "Kc7h4d2sQh"))

    def reached(view: TableView) -> bool:
        return view.viewer == 0 and len(view.board) == 3 and view.legal is not None and view.legal.call_amount > 0

    def script(view: TableView) -> Action:
        return aggressor(view) if len(view.board) == 3 else station(view)

    return seat_view(play(tournament, {0: station, 1: script}, until=reached), 0)


def test_an_honest_bet_is_read_near_the_range_that_bets() -> None:
    view = facing_a_flop_bet()
    spot = read_spot(view)
    assert spot.to_call > 0 and spot.opponents[0].aggression == 1
    prior = BOT._prior(view)
    share = sum(BOT._share(spot, prior, random.Random(seed)) for seed in range(6)) / 6
    against_any = sum(BOT._share(spot, prior, random.Random(seed), reads=False) for seed in range(6)) / 6
    assert against_any > 0.6  # any hand: the pair is well ahead …
    assert abs(share - AGAINST_THE_BETTING_RANGE) <= 0.05  # … the bet's range: close to a coin flip
