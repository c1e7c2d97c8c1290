"""Raise wars heads-up in fixed limit (V3: no cap heads-up; issue #35
item 1): every re-raise of the round narrows the raiser's range in full,
and a war built this hand does not make the raiser look like a maniac."""

from __future__ import annotations

import random

from scenes import aggressor, play, stacked, station, table

from freezeout.bots.game_bot import HARD, WAR_POWER, GameBot
from freezeout.bots.game_spot import read_spot, table_styles
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import ActionTaken, Drew, StreetDealt
from freezeout.rules.views import TableView, seat_view

BOT = GameBot("hard", HARD)


def river_war(raises: int) -> TableView:
    """FT heads-up, both players checking and calling to the river and
    raising every chance there, up to the moment seat 0 faces seat 1's
    ``raises``-th raise of the river."""
    tournament, _ = table("FT", button=0, stack=5000).deal_deck(stacked("FT", "KhKd", "AsAc", "Kc9s4c2h7d"))

    def reached(view: TableView) -> bool:
        if view.viewer != 0 or len(view.board) < 5:
            return False
        river = [e for e in view.history[_last_street(view) :] if isinstance(e, ActionTaken) and e.seat == 1]
        return len(river) >= raises

    def on_river(view: TableView) -> Action:
        return aggressor(view) if len(view.board) == 5 else station(view)

    tournament = play(tournament, {0: on_river, 1: on_river}, until=reached)
    return seat_view(tournament, 0)


def _last_street(view: TableView) -> int:
    return max(i for i, e in enumerate(view.history) if isinstance(e, StreetDealt))


def power(view: TableView) -> float:
    return BOT._narrowing(read_spot(view), BOT._prior(view))[0]


def test_every_reraise_of_a_war_narrows_the_raisers_range() -> None:
    powers = [power(river_war(n)) for n in (1, 3, 6)]
    assert powers[0] < powers[1] < powers[2]
    assert powers[2] - powers[1] >= 3 * WAR_POWER - 1e-9  # three more raises, each in full


def test_a_war_this_hand_does_not_discount_the_raiser() -> None:
    view = river_war(6)
    assert table_styles(view)[1].aggression > 0.4  # the war makes them look like a maniac …
    assert BOT._prior(view)[1].aggression == 0.2  # … but only earlier hands say how they play


def flop_war(mine: str, theirs: str, raises: int) -> TableView:
    """FT heads-up on the flop ``Ts4sKs``: seat 0 (``mine``) faces seat 1's
    ``raises``-th bet or raise of the flop, both raising every chance."""
    deck = stacked("FT", mine, theirs, "Ts4sKs2dQh")
    tournament, _ = table("FT", button=0, stack=5000).deal_deck(deck)

    def reached(view: TableView) -> bool:
        if view.viewer != 0 or len(view.board) != 3:
            return False
        flop = [e for e in view.history[_last_street(view) :] if isinstance(e, ActionTaken) and e.seat == 1]
        return len(flop) >= raises

    def on_flop(view: TableView) -> Action:
        return aggressor(view) if len(view.board) == 3 else station(view)

    return seat_view(play(tournament, {0: on_flop, 1: on_flop}, until=reached), 0)


def test_a_war_is_a_value_decision_against_the_range_that_keeps_raising() -> None:
    """A pair with the nut flush draw re-raised a flush's war seven times:
    its final hands share the board's spades with the top of their range,
    but the top of what keeps raising on three spades is a flush *now*.
    It calls the war down; the nut flush keeps raising."""
    for raises in (2, 3, 4):
        view = flop_war("TcAs", "7s8s", raises)
        assert {BOT.act(view, random.Random(seed)).kind for seed in range(4)} == {ActionKind.CALL}
        nuts = flop_war("AsQs", "7s8s", raises)
        assert {BOT.act(nuts, random.Random(seed)).kind for seed in range(4)} == {ActionKind.RAISE}


def badugi_war(mine: str, raises: int) -> TableView:
    """FB heads-up, both standing pat three times (seat 1 on ``3c2s7h6d``,
    a seven-high badugi), then raising every chance after the last draw, up
    to the moment seat 0 (``mine``) faces seat 1's ``raises``-th bet or raise."""
    tournament, _ = table("FB", button=0, stack=5000).deal_deck(stacked("FB", mine, "3c2s7h6d"))

    def after_the_draws(view: TableView) -> bool:
        return sum(1 for e in view.history if isinstance(e, Drew)) >= 6

    def reached(view: TableView) -> bool:
        if view.viewer != 0 or not after_the_draws(view):
            return False
        start = max(i for i, e in enumerate(view.history) if isinstance(e, Drew))
        last = [e for e in view.history[start:] if isinstance(e, ActionTaken) and e.seat == 1]
        return len(last) >= raises

    def play_it(view: TableView) -> Action:
        return aggressor(view) if after_the_draws(view) else station(view)

    return seat_view(play(tournament, {0: play_it, 1: play_it}, until=reached), 0)


def test_a_badugi_war_reads_the_pat_hand_as_a_badugi() -> None:
    """A nine-high badugi re-raised a player who stood pat three times: the
    top of what keeps raising is dealt as a badugi from their draws (it
    was the top of random four-card hands).  It calls; the nuts raise."""
    for raises in (2, 3):
        view = badugi_war("2d9s7c4h", raises)
        assert {BOT.act(view, random.Random(seed)).kind for seed in range(4)} == {ActionKind.CALL}
        nuts = badugi_war("Ad2c3h4s", raises)
        assert {BOT.act(nuts, random.Random(seed)).kind for seed in range(4)} == {ActionKind.RAISE}
