"""``freezeout record phh`` for every game (formats.md §2): each hand of a
``freezeout.record/2`` record becomes a PHH hand that our own replay plays
to the same ``finishing_stacks`` and, for the games with a PHH code,
PokerKit loads and plays to the same stacks — except where PokerKit plays
another rule (docs/formats.md "PokerKit differences"), detected here
narrowly from the hand's own events."""

from __future__ import annotations

import json
import warnings

import pytest
from pokerkit_games import pokerkit_plays_another_rule, resigned
from test_record_v2 import play

from freezeout.formats.phh_export import record_hand_to_phh
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.formats.record import PlayedHand, parse_record, replay_record
from freezeout.rules.variant import PHH_CODES, VARIANTS, Ruleset


def hands_of(code: str, *, at_least: int = 40) -> list[PlayedHand]:
    """Hands of random tournaments of ``code`` (no-limit ones end fast: play more of them)."""
    game = VARIANTS[code]
    hands: list[PlayedHand] = []
    for seed in range(30):
        if len(hands) >= at_least:
            break
        _t, data = play(game, seed, min(4, game.max_players), hands=20)
        hands.extend(replay_record(parse_record(json.dumps(data))).hands)
    return hands


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_every_hand_exports_and_replays_to_its_stacks(code: str) -> None:
    checked = 0
    for hand in hands_of(code):
        text = record_hand_to_phh(hand)
        if resigned(hand):
            continue  # a resignation out of turn has no PHH move (written where it happened)
        result = replay_phh_text(text, Ruleset.HOUSE)
        assert result.matches is True, text
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("code", sorted(PHH_CODES - {"NT"}))
def test_pokerkit_plays_the_exported_hands_of_every_phh_game(code: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    agreed = 0
    for hand in hands_of(code):
        if resigned(hand) or pokerkit_plays_another_rule(hand):
            continue
        text = record_hand_to_phh(hand)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = iter(pokerkit.HandHistory.loads(text))
        ours = [int(value) for value in replay_phh_text(text, Ruleset.HOUSE).finishing_stacks]
        assert list(state.stacks) == ours, text
        agreed += 1
    assert agreed >= 10
