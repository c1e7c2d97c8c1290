"""The 169×169 all-in equity table is exact and reproducible by its generator."""

from __future__ import annotations

import itertools

import numpy as np

from freezeout.bots.classes import CLASS_NAMES, class_index, combo_cards, combo_classes
from freezeout.bots.equity_table import class_pair_counts, equity_over_boards, load_equity
from freezeout.evaluate import evaluate_batch, hand_rank

from bot_helpers import slow


def test_equities_are_complementary_and_in_range() -> None:
    table = load_equity()
    assert table.equity.shape == (169, 169)
    assert np.allclose(table.equity + table.equity.T, 1.0)
    assert ((table.equity >= 0) & (table.equity <= 1)).all()


def test_well_known_matchups() -> None:
    equity = load_equity().equity
    assert abs(equity[class_index("AA"), class_index("KK")] - 0.8195) < 0.0005
    assert abs(equity[class_index("AKo"), class_index("22")] - 0.4735) < 0.0005
    assert abs(equity[class_index("AA"), class_index("72o")] - 0.882) < 0.001


def test_combo_pair_counts_follow_card_removal() -> None:
    pairs = class_pair_counts()
    assert pairs[class_index("AA"), class_index("AA")] == 6 * 1  # only the complementary pair
    assert pairs[class_index("AA"), class_index("KK")] == 36
    assert pairs[class_index("AKs"), class_index("AKo")] == 4 * 6  # shared ace and king suits excluded
    assert np.array_equal(pairs, load_equity().pairs)


def test_generator_matches_a_brute_force_on_sample_boards() -> None:
    """Run the generator's core on a few boards and recompute with hand_rank."""
    rng = np.random.default_rng(7)
    boards = np.sort(np.argsort(rng.random((3, 52)), axis=1)[:, :5], axis=1).astype(np.int64)
    weights = np.array([1, 2, 3], dtype=np.int64)
    wins, counts = equity_over_boards(boards, weights)
    cards = combo_cards()
    classes = combo_classes()
    ak, qq = class_index("AKs"), class_index("QQ")
    expected_wins = expected_counts = 0.0
    for board, weight in zip(boards.tolist(), weights.tolist(), strict=True):
        for a, b in itertools.product(np.flatnonzero(classes == ak), np.flatnonzero(classes == qq)):
            hand_a, hand_b = cards[a].tolist(), cards[b].tolist()
            if len(set(hand_a + hand_b + board)) < 9:
                continue
            ra, rb = hand_rank(hand_a + board), hand_rank(hand_b + board)
            expected_wins += weight * (1.0 if ra > rb else 0.5 if ra == rb else 0.0)
            expected_counts += weight
    assert counts[ak, qq] == expected_counts
    assert wins[ak, qq] == expected_wins


def test_table_agrees_with_monte_carlo_of_the_evaluator() -> None:
    """A quick independent estimate: 40,000 random deals per matchup."""
    rng = np.random.default_rng(11)
    equity = load_equity().equity
    for name_a, name_b in [("AKs", "QQ"), ("JTs", "22"), ("A5o", "K9s")]:
        a, b = class_index(name_a), class_index(name_b)
        cards = combo_cards()
        ca = cards[combo_classes() == a]
        cb = cards[combo_classes() == b]
        n = 40_000
        ha = ca[rng.integers(len(ca), size=n)]
        hb = cb[rng.integers(len(cb), size=n)]
        ok = (ha[:, :, None] != hb[:, None, :]).all(axis=(1, 2))
        ha, hb = ha[ok], hb[ok]
        keys = rng.random((len(ha), 52))
        for hand in (ha, hb):
            np.put_along_axis(keys, hand, 2.0, axis=1)
        board = np.argsort(keys, axis=1)[:, :5]
        ra = evaluate_batch(np.concatenate([ha, board], axis=1))
        rb = evaluate_batch(np.concatenate([hb, board], axis=1))
        estimate = float(((ra > rb) + 0.5 * (ra == rb)).mean())
        assert abs(estimate - equity[a, b]) < 4 * 0.5 / np.sqrt(len(ha)), (CLASS_NAMES[a], CLASS_NAMES[b])


@slow
def test_full_rebuild_reproduces_the_committed_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from freezeout.bots.equity_table import build_equity

    rebuilt = build_equity(jobs=2, path=tmp_path / "equity.npz")
    assert np.allclose(rebuilt.equity, load_equity().equity, atol=1e-12)
