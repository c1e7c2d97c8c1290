"""Opponent models from the table's public history (bots/history.py, bots/reads.py)
and the ranges they imply (bots/narrowing.py)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from freezeout.bots import get_bot
from freezeout.bots.fold_line import FoldLine, fit_line, price
from freezeout.bots.history import read_hand
from freezeout.bots.narrowing import class_range, narrow_postflop, raising_range
from freezeout.bots.ranges import class_to_combos, percentile, top_range
from freezeout.bots.reads import PRIOR, STYLES, OpponentModel, Rate, read_opponent, shift_prior
from freezeout.bots.strength import board_strength, combo_index, combo_strength
from freezeout.bots.thresholds import GRID, KINDS, solve_threshold
from freezeout.cards import parse_cards, shuffled_deck
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import TableView, seat_view

A = ActionKind


def model(hands: int = 40, **rates: float) -> OpponentModel:
    """A model whose named rates are known (a thousand observations) and the rest at the prior."""
    fields = {}
    for name, (prior, weight) in PRIOR.items():
        seen = 1000.0 if name in rates else 0.0
        fields[name] = Rate(rates.get(name, prior) * seen, seen, prior, weight)
    thresholds = {f"{kind}_at": fields[kind].value for kind in KINDS}
    line = FoldLine.through(fields["fold_small"].value, fields["fold_big"].value)
    return OpponentModel(
        hands=hands,
        fold_seen=1000.0,
        wild=0.0,
        aggression=0.0,
        looseness=0.0,
        fold_line=line,
        **thresholds,
        **fields,
    )


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text))


# -- one hand read as moves --------------------------------------------------------
def test_a_hand_is_read_as_moves_with_what_each_faced() -> None:
    t = Tournament.start(TournamentConfig(players=("p0", "p1", "p2"), button=0))
    t, _ = t.deal(
        {0: tuple(parse_cards("AsKs")), 1: tuple(parse_cards("7c2d")), 2: tuple(parse_cards("QhQd"))},
        tuple(parse_cards("Ah9c4d3s2h")),
    )
    for seat, kind, amount in (
        (0, A.RAISE, 60),
        (1, A.FOLD, None),
        (2, A.CALL, None),
        (2, A.CHECK, None),
        (0, A.BET, 90),
    ):
        t, _ = t.act(Action(seat, kind, amount))
    record = read_hand(tuple(seat_view(t, 2).history))
    opened, folded, called, checked, bet = record.moves
    assert (
        opened.kind == "raise" and opened.raises_before == 0 and opened.facing == 20 and opened.middle == 30
    )
    assert opened.pot_fraction == pytest.approx(40 / 50)
    assert folded.raises_before == 1 and folded.facing == 50
    assert called.facing == 40 and called.middle == 90
    assert checked.street == 1 and checked.facing == 0 and checked.middle == 130
    assert bet.aggressive and bet.pot_fraction == pytest.approx(90 / 130)
    assert record.board == cards("Ah9c4d") and record.board_at(0) == ()


# -- shrinkage ---------------------------------------------------------------------
def test_a_rate_starts_at_its_prior_and_ends_at_what_was_seen() -> None:
    assert Rate(0, 0, 0.4, 5).value == pytest.approx(0.4)
    assert Rate(5, 5, 0.4, 5).value == pytest.approx(
        0.7
    )  # half way after as many chances as the prior's weight
    assert Rate(1000, 1000, 0.4, 5).value == pytest.approx(1.0, abs=0.01)
    assert Rate(0, 10, 0.4, 5).confidence == pytest.approx(10 / 15)


def test_a_style_shift_moves_the_whole_group() -> None:
    assert shift_prior(0.3, 0.0) == pytest.approx(0.3)
    assert shift_prior(0.3, 1.0) > 0.3 > shift_prior(0.3, 1.0, sign=-1)
    assert set(STYLES["aggression"]) | set(STYLES["looseness"]) <= set(PRIOR)


def test_nobody_seen_is_the_population_prior() -> None:
    t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=0))
    t, _ = t.deal_deck(shuffled_deck(random.Random(1)))
    m = read_opponent(seat_view(t, t.to_act), 1 - t.to_act)
    assert m.hands == 0 and m.aggression == 0.0 and m.looseness == 0.0
    assert m.rates() == pytest.approx({name: prior for name, (prior, _) in PRIOR.items()})


def _after(opponent: str, hands: int, observer: str = "station") -> TableView:
    """A view for seat 0 (``observer``) after ``hands`` hands against ``opponent``
    in seat 1, deep and at fixed blinds; the first seed whose game lasts that long."""
    bots = [get_bot(observer), get_bot(opponent)]
    for seed in range(20):
        rng = random.Random(seed)
        config = TournamentConfig(players=("p0", "p1"), button=0, starting_stack=100_000, levels=((10, 20),))
        t = Tournament.start(config)
        while t.hand_number < hands and not t.finished:
            t, _ = t.deal_deck(shuffled_deck(rng))
            while t.in_hand:
                t, _ = t.act(bots[t.to_act].act(seat_view(t, t.to_act), rng))
        if not t.finished:
            t, _ = t.deal_deck(shuffled_deck(rng))
            return seat_view(t, 0)
    raise AssertionError("no game lasted")


def test_a_maniac_reads_as_aggressive_and_a_nit_as_tight_within_a_dozen_hands() -> None:
    maniac = read_opponent(_after("maniac", 12), 1)
    nit = read_opponent(_after("nit", 12), 1)
    assert maniac.hands == 12
    assert maniac.aggression > 0.5 and maniac.pfr.value > PRIOR["pfr"][0] + 0.15
    assert maniac.bet_checked_to.value > PRIOR["bet_checked_to"][0]
    assert nit.vpip.value < PRIOR["vpip"][0] - 0.1 and nit.looseness < 0
    assert nit.pfr.value < maniac.pfr.value


def test_the_tight_passive_caller_never_shows_aggression() -> None:
    m = read_opponent(_after("tight-passive", 12), 1)
    assert (
        m.aggression < 0
        and m.pfr.value < PRIOR["pfr"][0]
        and m.bet_checked_to.value < PRIOR["bet_checked_to"][0]
    )


# -- strength ----------------------------------------------------------------------
def test_strength_is_the_share_of_hands_beaten() -> None:
    board = cards("AhKh7c2d3s")
    assert board_strength(board, cards("5c4c")) > 0.99  # the wheel: the nuts, tied by the other wheels
    assert 0.97 < board_strength(board, cards("AsAd")) < 1.0  # top set loses only to the wheel
    assert board_strength(board, cards("8c6d")) < 0.1
    flop = combo_strength(cards("AhKh7c"))
    draw, air = flop[combo_index(*cards("QhJh"))], flop[combo_index(*cards("9c8d"))]
    assert draw > air  # a flush draw counts for its chances
    assert combo_strength(cards("AhKh7c")) is flop  # cached per board


# -- ranges ------------------------------------------------------------------------
def _opened_by_seat_0() -> TableView:
    t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=0))
    t, _ = t.deal(
        {0: tuple(parse_cards("7c2d")), 1: tuple(parse_cards("AsKs"))}, tuple(parse_cards("Ah9c4d3s2h"))
    )
    t, _ = t.act(Action(0, A.RAISE, 60))
    return seat_view(t, 1)


def test_a_raise_from_a_wide_raiser_is_a_wide_range() -> None:
    view = _opened_by_seat_0()
    wide = class_range(view, 0, model(pfr=0.7))
    narrow = class_range(view, 0, model(pfr=0.08))
    assert wide.sum() > 3 * narrow.sum()
    assert narrow[np.argmin([percentile(c) for c in range(169)])] == 1.0  # aces are in every raising range


def test_a_raise_says_as_much_about_the_cards_as_the_raisers_bets_do() -> None:
    worst = int(np.argmax([percentile(c) for c in range(169)]))
    usual = PRIOR["bluff"][0]
    assert np.allclose(raising_range(0.2, bluff=usual), top_range(0.2))  # bluffs as most do: the top
    mixed = raising_range(0.2, bluff=usual + 0.1)
    assert 0 < mixed[worst] < 1 and mixed.max() == 1.0  # the top, and a flat share of bluffs
    assert np.allclose(raising_range(0.65, bluff=0.5), 1.0)  # bets as weak as random cards: anything


def _river_bet() -> tuple[TableView, np.ndarray]:
    t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=0))
    t, _ = t.deal(
        {0: tuple(parse_cards("7c2d")), 1: tuple(parse_cards("AsKs"))}, tuple(parse_cards("Ah9c4d3s2h"))
    )
    moves = [(0, A.CALL, None), (1, A.CHECK, None)] + [(1, A.CHECK, None), (0, A.CHECK, None)] * 2
    for seat, kind, amount in [*moves, (1, A.CHECK, None), (0, A.BET, 40)]:
        t, _ = t.act(Action(seat, kind, amount))
    view = seat_view(t, 1)
    start = class_to_combos(np.ones(169)) * np.ones(1326)
    return view, start


def test_a_bet_from_a_player_who_never_bluffs_is_stronger_than_from_one_who_always_does() -> None:
    view, start = _river_bet()
    record = read_hand(tuple(view.history))
    strength = combo_strength(record.board)
    honest = narrow_postflop(start, record, 0, model(bet_checked_to=0.2, bluff=0.0), until_street=3)
    bluffer = narrow_postflop(start, record, 0, model(bet_checked_to=0.7, bluff=0.6), until_street=3)
    mean = lambda w: float((w * strength).sum() / w.sum())  # noqa: E731
    assert mean(honest) > 0.75 > mean(bluffer)


def test_a_bet_from_a_player_who_bets_anything_says_nothing() -> None:
    """A maniac whose shown bets were as often weak as a random hand is: its
    bet leaves its range as it was."""
    view, start = _river_bet()
    record = read_hand(tuple(view.history))
    strength = combo_strength(record.board)
    maniac = narrow_postflop(start, record, 0, model(bet_checked_to=0.7, bluff=0.45), until_street=3)
    mean = lambda w: float((w * strength).sum() / w.sum())  # noqa: E731
    assert mean(maniac) == pytest.approx(mean(start), abs=0.02)


def test_overbets_fold_more_only_for_players_whose_folds_rose_with_the_size() -> None:
    caller = model(fold_small=0.45, fold_big=0.45)
    assert caller.fold_to_bet(1.0) == pytest.approx(caller.fold_to_bet(5.0), abs=0.01)
    by_odds = model(fold_small=0.2, fold_big=0.5)
    assert by_odds.fold_to_bet(5.0) > by_odds.fold_to_bet(1.0) + 0.1


# -- fold thresholds ---------------------------------------------------------------
def test_a_threshold_starts_at_the_prior_and_follows_the_folds_seen() -> None:
    nothing = (0.0, 0.0, np.zeros(len(GRID)))
    assert solve_threshold(nothing, 0.4, 5.0) == pytest.approx(0.4)
    uniform = GRID.copy()  # a decision from the whole range: P(strength < t) = t
    always = (50.0, 50.0, 50 * uniform)
    never = (0.0, 50.0, 50 * uniform)
    assert solve_threshold(always, 0.4, 5.0) > 0.9 and solve_threshold(never, 0.4, 5.0) < 0.05


def test_folding_a_third_of_strong_ranges_is_a_higher_threshold_than_of_weak_ones() -> None:
    """The same fold rate means a higher bar when the ranges folded from were strong."""
    strong = np.clip((GRID - 0.5) * 2.0, 0.0, 1.0)  # ranges of the top half only
    seen = (10.0, 30.0, 30 * strong)
    assert solve_threshold(seen, 0.33, 5.0) > solve_threshold((10.0, 30.0, 30 * GRID), 0.33, 5.0) + 0.1


def test_the_equity_caller_is_read_as_folding_below_about_half() -> None:
    """``tight-passive`` folds to any bet below half equity against a random
    hand; its learned post-flop thresholds land near there, not at its raw
    fold rate."""
    m = read_opponent(_after("tight-passive", 40, observer="tag"), 1)
    assert m.fold_small.chances + m.fold_big.chances >= 10
    assert m.fold_small.value < m.fold_to_bet(0.5)  # strong ranges fold less often than their bar suggests
    assert 0.35 < m.fold_to_bet(0.5) < 0.7


def test_how_loose_a_player_is_before_the_flop_is_no_read_of_their_folds_after_it() -> None:
    """An equity caller plays half its hands and folds half its range to any
    bet: until a player has answered bets after the flop, their fold line
    sits at the population's level whatever their preflop style."""
    m = read_opponent(_after("loose-passive", 12), 1)  # the station never bets
    assert m.fold_seen == 0 and abs(m.looseness) > 0.2
    assert m.fold_small.prior != pytest.approx(PRIOR["fold_small"][0], abs=0.05)
    assert m.fold_line.level == pytest.approx(PRIOR["fold_small"][0], abs=0.01)


def _sized_decisions(rule: str, count: int = 200) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Folds of a player holding a hand of uniform strength against bets from a
    probe to a shove: ``equity`` folds below a half whatever the size,
    ``odds`` below 1.2 times the price the bet offers."""
    rng = np.random.default_rng(7)
    prices = np.array([price(f) for f in rng.choice([0.1, 0.5, 1.0, 5.0], count)])
    strength = rng.random(count)
    bar = np.full(count, 0.5) if rule == "equity" else 1.2 * prices
    return (strength < bar).astype(float), np.tile(GRID, (count, 1)), prices


def test_a_fold_line_is_flat_for_an_equity_caller_and_steep_for_a_pot_odds_caller() -> None:
    equity = fit_line(*_sized_decisions("equity"), (0.4, 5.0), (0.5, 0.5))
    odds = fit_line(*_sized_decisions("odds"), (0.4, 5.0), (0.5, 0.5))
    assert abs(equity.slope) < 0.3 and equity.at(0.1) == pytest.approx(equity.at(5.0), abs=0.1)
    assert odds.slope > 0.8 and odds.at(5.0) > odds.at(0.1) + 0.25
    nothing = fit_line(np.zeros(0), np.zeros((0, len(GRID))), np.zeros(0), (0.4, 5.0), (0.5, 0.5))
    assert nothing.level == pytest.approx(0.4, abs=0.01) and nothing.slope == pytest.approx(0.5, abs=0.05)


def test_a_bluff_is_valued_on_the_read_and_a_value_bet_bigger_than_any_seen_on_its_doubtful_end() -> None:
    line = FoldLine(level=0.4, slope=0.3, slope_doubt=0.4)
    m = dataclasses.replace(model(), fold_line=line)
    ahead = np.array([True, False])
    shove = m.fold_against(3.0, ahead)
    assert shove[1] == pytest.approx(line.at(3.0))  # behind: a bluff wins the folds the line gives
    assert shove[0] > line.at(3.0) + 0.05  # ahead: fewer calls than the line extrapolates
    assert m.fold_against(0.5, ahead) == pytest.approx([line.at(0.5)] * 2)  # the sizes seen: as read
