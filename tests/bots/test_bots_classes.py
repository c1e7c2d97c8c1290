"""The 169 starting-hand classes: names, grid layout and combo counts."""

from __future__ import annotations

from freezeout.bots.classes import (
    CLASS_NAMES,
    class_cards,
    class_index,
    class_of_cards,
    class_weights,
    combo_classes,
)
from freezeout.cards import parse_cards


def test_there_are_169_distinct_classes_in_grid_order() -> None:
    assert len(set(CLASS_NAMES)) == 169
    assert (
        CLASS_NAMES[0] == "AA"
        and CLASS_NAMES[1] == "AKs"
        and CLASS_NAMES[13] == "AKo"
        and CLASS_NAMES[168] == "22"
    )


def test_pairs_have_6_combos_suited_4_offsuit_12() -> None:
    weights = class_weights()
    assert weights.sum() == 1326
    assert (
        weights[class_index("AA")] == 6
        and weights[class_index("AKs")] == 4
        and weights[class_index("72o")] == 12
    )
    assert len(combo_classes()) == 1326


def test_cards_map_to_their_class_whatever_the_order_or_suits() -> None:
    for text, name in [("AsKs", "AKs"), ("KdAd", "AKs"), ("Ah7c", "A7o"), ("2c7h", "72o"), ("TdTc", "TT")]:
        a, b = parse_cards(text)
        assert CLASS_NAMES[class_of_cards(a, b)] == name


def test_representative_cards_belong_to_their_class() -> None:
    for index in range(169):
        a, b = class_cards(index)
        assert a != b and class_of_cards(a, b) == index
