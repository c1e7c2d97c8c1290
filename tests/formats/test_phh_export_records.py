"""Every hand of every legal record exports as a complete PHH hand (formats.md §2).

Hundreds of random tournaments — 2 to 4 players, deep and short stacks, both
rulesets, resignations in and out of turn and between hands, timeouts (two
in a row eliminate, R27), all-ins — are recorded, replayed, exported with
``freezeout record phh``'s code and loaded in PokerKit one hand at a time.
Every hand must reach its end in PokerKit, and its chips must agree with
ours up to the vanished chips of resigners and the documented differences
(see ``pokerkit_check``).  300 tournaments by default, 3000 with
``FREEZEOUT_SLOW=1``.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tomllib
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from pokerkit_check import EXACT, HOUSE_R12, compare_with_pokerkit, in_hand

from freezeout.cli import main
from freezeout.formats.phh import PhhError
from freezeout.formats.phh_export import record_hand_to_phh
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.formats.record import PlayedHand, ReplayResult, parse_record, replay_record
from freezeout.rules.actions import ActionKind
from freezeout.rules.events import Forfeited, HandEnded, HandStarted, Resigned
from freezeout.rules.variant import Ruleset

pokerkit = pytest.importorskip("pokerkit")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rules"))  # the shared random player
import randomplay  # noqa: E402

TOURNAMENTS = 3000 if os.environ.get("FREEZEOUT_SLOW") == "1" else 300


def random_record(seed: int) -> ReplayResult:
    """A random legal tournament, replayed from its record.

    The shared random player (tests/rules/randomplay.py) with more
    resignations (2%) and timeouts (12%) than it uses by default, so that
    every kind of end of a hand comes up often."""
    rng = random.Random(seed)
    chooser = partial(randomplay.random_action, resign_rate=0.02, timeout_rate=0.12)
    with mock.patch.object(randomplay, "random_action", side_effect=lambda t, _rng: chooser(t, _rng)):
        game = randomplay.play_random_tournament(
            seed,
            players=rng.randint(2, 4),
            ruleset=rng.choice(["house", "standard"]),
            stack=rng.choice([1000, 1000, 150, 45]),
        )
    return replay_record(parse_record(game.writer.to_json()))


def phh_seats(hand: PlayedHand) -> list[int]:
    """The tournament seat of each PHH player p1, p2, … (from the left of the button)."""
    seats = next(e for e in hand.events if isinstance(e, HandStarted)).seats
    n = len(seats)
    return [seats[(hand.setup.button + 1 + index) % n] for index in range(n)]


def how_it_ended(hand: PlayedHand) -> set[str]:
    ended = False
    kinds = set()
    for event in hand.events:
        if isinstance(event, HandEnded):
            ended = True
        elif isinstance(event, Resigned):
            kinds.add("resignation between hands" if ended else "resignation in the hand")
        elif isinstance(event, Forfeited) and event.in_a_row >= 2:
            kinds.add("second timeout in a row")
    if any(action.kind is ActionKind.ALLIN for _, action in hand.actions):
        kinds.add("all-in")
    return kinds


@pytest.mark.parametrize("block", range(4))
def test_every_hand_of_random_records_is_complete_in_pokerkit(block: int) -> None:
    outcomes: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for seed in range(block, TOURNAMENTS, 4):
        result = random_record(seed)
        ruleset = result.tournament.config.ruleset
        for hand in result.hands:
            text = record_hand_to_phh(hand)
            data = tomllib.loads(text)
            _check_finishing_stacks(data, hand)
            outcome = compare_with_pokerkit(text, hand.events, phh_seats(hand), hand.setup.big_blind)
            outcomes[outcome] += 1
            seen.update(how_it_ended(hand))
            if outcome == HOUSE_R12:
                assert ruleset is Ruleset.HOUSE
                assert replay_phh_text(text, Ruleset.HOUSE).state.finished
            _check_our_replay(text, hand, ruleset)
    hands = sum(outcomes.values())
    assert outcomes[EXACT] >= 0.97 * hands, outcomes
    assert min(seen[kind] for kind in ("resignation in the hand", "second timeout in a row", "all-in")) >= 5, seen
    assert seen["resignation between hands"] >= 1, seen


def _check_finishing_stacks(data: dict[str, Any], hand: PlayedHand) -> None:
    """``finishing_stacks`` are the replay's stacks after the hand (formats.md
    §1) — a resigner's chips behind are gone (R28) — except for players who
    resigned between hands, after it (D8)."""
    finishing = dict(zip(data["players"], data["finishing_stacks"], strict=True))
    names = next(e for e in hand.events if isinstance(e, HandStarted)).seats
    during = in_hand(hand.events)
    after = {e.seat for e in hand.events[len(during):] if isinstance(e, Resigned)}
    for player, chips in hand.stacks.items():
        if hand.setup.names.index(player) not in {names.index(seat) for seat in after}:
            assert finishing[player] == chips, (player, data)
    vanished = sum(e.vanished for e in during if isinstance(e, Resigned))
    assert sum(finishing.values()) == sum(hand.setup.stacks) - vanished


def _check_our_replay(text: str, hand: PlayedHand, ruleset: Ruleset) -> None:
    """Our own ``phh replay`` reads the file too; without a resignation it
    reaches ``finishing_stacks``.  Known gaps of our reader (not of the
    file), each named: the turn PokerKit still gives a player after D1 has
    ended the round, a pot only a forfeiting resigner could win (``no shown
    hand can win``) and unknown board cards."""
    try:
        ours = replay_phh_text(text, ruleset)
    except PhhError as error:
        message = str(error)
        assert any(
            known in message
            for known in ("PokerKit still gives", "no shown hand can win", "board cards must be known")
        ), (message, text)
        return
    assert ours.state.finished, text
    if not any(isinstance(e, Resigned) for e in hand.events):
        assert ours.matches is True, text


@pytest.mark.filterwarnings("ignore:There is no reason for this player to fold")
def test_record_phh_writes_a_game_that_a_second_timeout_ends_mid_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # R27/D9: in hand 2 the big blind (ana) forfeits twice in a row: a check
    # preflop, then on the flop the second timeout eliminates her at once, as a
    # resignation (folded, her chips behind leave the game), and bo wins.
    record = {
        "format": "freezeout.record/1",
        "players": ["ana", "bo"],
        "button": "ana",
        "hands": [
            {"hole": {"ana": "AsKd", "bo": "7c7d"}, "board": "", "actions": [["ana", "fold"]]},
            {"hole": {"ana": "9c9h", "bo": "AhAd"}, "board": "9s5d2c",
             "actions": [["bo", "call"], ["ana", "timeout"], ["ana", "timeout"]]},
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["record", "phh", str(path)]) == 0
    text = capsys.readouterr().out
    second = tomllib.loads(text)["2"]
    assert second["actions"][2:] == [
        "p2 cc",
        "p1 cc # timeout (R26)",
        "d db 9s5d2c",
        "p1 f # timeout, the second in a row (R27); his 970 chips behind leave the game",
    ]
    assert (second["players"], second["finishing_stacks"]) == (["ana", "bo"], [0, 1030])
    histories = list(pokerkit.HandHistory.loads_all(text))
    assert [history.hand for history in histories] == [1, 2]
    *_, end = iter(histories[1])
    assert not end.status and list(end.stacks) == [970, 1030]  # PHH cannot make ana's 970 vanish
