"""Issue #32 item 11: a resignation after a fold leaves a trace in the PHH — the fold line
says the chips behind left the game (R28), so the chips missing from ``finishing_stacks``
are accounted for — in the house game and in every other game's exporter."""

from __future__ import annotations

import random
import re

import pytest

from freezeout.formats.phh_export import record_hand_to_phh
from freezeout.formats.record import RecordWriter, parse_record, replay_record
from freezeout.rules import Action, ActionKind
from freezeout.rules.events import ActionTaken, BlindPosted
from freezeout.rules.games import tournament_config
from freezeout.rules.tournament import Tournament


@pytest.mark.parametrize("code", ["NT", "FT", "F7S", "F2L3D"])
def test_a_resignation_after_a_fold_is_noted_on_the_fold(code: str) -> None:
    names = ("a", "b", "c")
    t = Tournament.start(tournament_config(code, names, button=0, starting_stack=500))
    writer = RecordWriter(names, "a", starting_stack=500, variant=t.config.variant,
                          levels=None if code == "NT" else t.config.levels)
    deck = list(t.next_variant.deck)
    random.Random(3).shuffle(deck)
    t, events = t.deal_deck(deck)
    writer.observe(events)
    folded = -1
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        if folded < 0 and legal.can_fold:
            move = Action(legal.seat, ActionKind.FOLD)
            folded = legal.seat
        elif legal.draw:
            move = Action(legal.seat, ActionKind.STANDPAT)
        elif legal.bring_in:
            move = Action(legal.seat, ActionKind.BRINGIN)
        else:
            move = Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        t, events = t.act(move)
        writer.act(names[move.seat], move)
        writer.observe(events)
        if folded >= 0 and move.kind is ActionKind.FOLD and t.in_hand:  # the folder resigns while the hand goes on
            resign = Action(folded, ActionKind.RESIGN)
            t, events = t.act(resign)
            writer.act(names[folded], resign)
            writer.observe(events)
    (hand,) = replay_record(parse_record(writer.to_json())).hands
    text = record_hand_to_phh(hand)
    put_in = sum(e.amount if isinstance(e, BlindPosted) else e.added for e in hand.events
                 if isinstance(e, BlindPosted | ActionTaken) and e.seat == folded)
    # the house game's exporter writes a comment line after the fold, the others note it on the fold
    found = re.search(r'resign\w* \(R28\) after folding[^"]*?(\d+) chips behind leave the game', text)
    assert found, text
    assert int(found[1]) == 500 - put_in, text
