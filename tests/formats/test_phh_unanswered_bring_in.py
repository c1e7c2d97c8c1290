"""Issue #32 item 11: a bring-in nobody can answer — every other player all in from the antes
(V7) — is written as PokerKit expects: no ``pb`` (PokerKit posts none when nobody can act after
it, and refuses one); our replayer posts it and gives it back uncalled, the same stacks."""

from __future__ import annotations

import random
import warnings

import pytest

from freezeout.formats.phh_games import game_hand_to_phh
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import HandStarted
from freezeout.rules.hand import apply, start_hand
from freezeout.rules.legal import legal_actions
from freezeout.rules.state import HandSetup
from freezeout.rules.variant import VARIANTS, Ruleset


@pytest.mark.parametrize(("code", "stacks"), [("F7S", (2, 2, 100)), ("FR", (100, 2, 2)), ("F7S/8", (2, 100, 2, 2))])
def test_an_unanswerable_bring_in_is_left_out_and_both_replays_agree(code: str, stacks: tuple[int, ...]) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    variant = VARIANTS[code]
    deck = list(variant.deck)
    random.Random(len(stacks)).shuffle(deck)
    setup = HandSetup(stacks=stacks, button=0, variant=variant, deck=tuple(deck), antes=(2,) * len(stacks), bring_in=5,
                      small_bet=20, big_bet=40, big_blind=20, ruleset=Ruleset.HOUSE)
    state, first = start_hand(setup)
    events = list(first)
    posted = False
    while (legal := legal_actions(state)) is not None:
        move = ActionKind.BRINGIN if legal.bring_in else ActionKind.CHECK if legal.can_check else ActionKind.CALL
        posted = posted or move is ActionKind.BRINGIN
        state, more = apply(state, Action(legal.seat, move))
        events += more
    assert posted, "the rules post the bring-in"
    text = game_hand_to_phh(setup, [HandStarted(1, 0, 0, 20, tuple(range(len(stacks))), stacks), *events], hand_number=1)
    assert " pb" not in text
    ours = replay_phh_text(text)
    assert ours.matches and list(ours.finishing_stacks) == list(state.final_stacks())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, theirs = iter(pokerkit.HandHistory.loads(text))
    assert list(theirs.stacks) == list(state.final_stacks())
