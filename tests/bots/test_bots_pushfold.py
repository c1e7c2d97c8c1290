"""Heads-up push/fold equilibrium: sanity of the stored solutions and their
exploitability, measured by best response in the same game."""

from __future__ import annotations

import numpy as np
import pytest

from freezeout.bots.classes import class_index
from freezeout.bots.multiway import MULTIWAY_GRID, multiway_nodes
from freezeout.bots.pushfold import (
    HU_GRID,
    call_best_response,
    load_pushfold,
    push_best_response,
    solve_heads_up,
)

AA, KK, SEVEN_TWO = class_index("AA"), class_index("KK"), class_index("72o")


def test_aces_always_push_and_always_call() -> None:
    pf = load_pushfold()
    assert (pf.push[:, AA] == 1.0).all()
    assert (pf.call[:, AA] == 1.0).all()


def test_seven_deuce_folds_at_20_bb() -> None:
    assert load_pushfold().push_probability(20.0, SEVEN_TWO) == 0.0


@pytest.mark.parametrize("stack", [1.0, 1.25])
def test_everything_pushes_at_a_big_blind_or_so(stack: float) -> None:
    assert (load_pushfold().push[load_pushfold().index(stack)] == 1.0).all()


def test_at_two_big_blinds_only_the_weakest_trash_folds() -> None:
    """Exact Nash at 2 bb folds a few hands such as 32o: pushing it loses
    0.72 bb against an always-calling big blind, folding only 0.5."""
    pf = load_pushfold()
    push = pf.push[pf.index(2.0)]
    assert push.sum() >= 150
    assert push[class_index("32o")] == 0.0 and push[class_index("T2o")] == 1.0


def test_ranges_tighten_as_stacks_grow() -> None:
    pf = load_pushfold()
    pushed = pf.push.sum(axis=1)
    assert pushed[pf.index(5.0)] > pushed[pf.index(10.0)] > pushed[pf.index(20.0)]


@pytest.mark.parametrize("stack", [2.0, 3.0, 5.0, 8.0, 10.0, 12.0, 15.0, 20.0])
def test_stored_solutions_are_unexploitable_within_a_milli_big_blind(stack: float) -> None:
    pf = load_pushfold()
    k = pf.index(stack)
    assert HU_GRID[k] == stack
    _, _, value = solve_heads_up(stack)
    best_vs_push, _ = call_best_response(pf.push[k], stack)
    best_vs_call, _ = push_best_response(pf.call[k], stack)
    assert -1e-9 <= (value - best_vs_push) * 1000 <= 1.0
    assert -1e-9 <= (best_vs_call - value) * 1000 <= 1.0


def test_multiway_solutions_cover_every_decision_point() -> None:
    pf = load_pushfold()
    for players in (3, 4):
        strategy = pf.multiway[players]
        assert strategy.shape == (len(MULTIWAY_GRID), len(multiway_nodes(players)), 169)
        assert ((strategy >= 0) & (strategy <= 1)).all()
        assert (strategy[:, :, AA] == 1.0).all()
        first_in = strategy[:, 0]
        assert np.all(first_in[list(MULTIWAY_GRID).index(20.0), SEVEN_TWO] == 0.0)
