"""Cards per formats.md "Cards" and the injected deck of R2."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freezeout.cards import Card, CardError, format_cards, full_deck, parse_card, parse_cards, shuffled_deck


def test_canonical_two_character_form_round_trips():
    for card in full_deck():
        assert parse_card(str(card)) is card
    assert [str(c) for c in parse_cards("AsTd2c")] == ["As", "Td", "2c"]


@pytest.mark.parametrize(("text", "canonical"), [("as", "As"), ("10d", "Td"), ("td", "Td"), ("Kh", "Kh")])
def test_parsers_accept_lower_case_ranks_and_ten(text, canonical):
    assert str(parse_card(text)) == canonical


def test_lists_may_be_joined_strings_or_arrays():
    assert parse_cards("AsKd") == parse_cards(["As", "Kd"])
    assert parse_cards("10sKd") == parse_cards(["Ts", "Kd"])
    assert format_cards(parse_cards(["as", "10h"])) == "AsTh"


@pytest.mark.parametrize("bad", ["A", "1s", "Ax", "AsK", "ZZ", "11s", "As Kd Q"])
def test_bad_card_strings_raise_a_card_error(bad):
    with pytest.raises(CardError):
        parse_cards(bad) if len(bad) != 2 else parse_card(bad)


def test_duplicates_are_refused():
    with pytest.raises(CardError, match="duplicate card As"):
        parse_cards("AsAs")


def test_card_is_a_small_int_value():
    ace = parse_card("Ac")
    assert int(ace) == 51 and ace.rank == 12 and ace.suit == 3 and Card(51) is ace
    with pytest.raises(CardError):
        Card(52)


@given(st.integers(min_value=0, max_value=2**64))
def test_r2_the_deck_comes_from_the_injected_random_source(seed):
    first = shuffled_deck(random.Random(seed))
    assert first == shuffled_deck(random.Random(seed))
    assert sorted(first) == list(full_deck())
