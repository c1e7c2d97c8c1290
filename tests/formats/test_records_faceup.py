"""V20 in a freezeout's record exports: the hands turned face up for an all-in run-out are
shown in the PHH (``pN sm`` before the run-out's ``d db``) and in the PokerStars text
(``shows``, never ``mucks``), under either ruleset."""

from __future__ import annotations

import json

import pytest

from freezeout.cards import full_deck
from freezeout.formats.phh_export import record_to_phh
from freezeout.formats.record import RecordWriter, parse_record, replay_record
from freezeout.formats.stars import record_to_stars
from freezeout.rules import Action, ActionKind, Tournament, TournamentConfig
from freezeout.rules.events import HandTurnedUp
from freezeout.rules.variant import Ruleset


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_v20_turned_up_hands_are_shown_before_the_run_out_in_phh_and_pokerstars(ruleset: Ruleset) -> None:
    names = ("ana", "bo", "cy")
    t = Tournament.start(TournamentConfig(players=names, button=0, ruleset=ruleset))
    writer = RecordWriter(names, "ana", ruleset=ruleset)
    t, events = t.deal_deck(list(full_deck()))
    writer.observe(events)
    turned: list[HandTurnedUp] = []
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        action = Action(legal.seat, ActionKind.FOLD if legal.seat == 0 else ActionKind.ALLIN)
        t, events = t.act(action)
        writer.act(names[action.seat], action)
        writer.observe(events)
        turned += [e for e in events if isinstance(e, HandTurnedUp)]
    assert [e.seat for e in turned] == [1, 2]
    result = replay_record(parse_record(json.dumps(writer.to_json())))
    phh = record_to_phh(result)
    shows = [phh.index(f'"p{n} sm {"".join(map(str, e.cards))}"') for n, e in ((1, turned[0]), (2, turned[1]))]
    assert max(shows) < phh.index('"d db ')
    text = record_to_stars(result, tournament=1)
    for e in turned:
        assert f"{names[e.seat]}: shows [{' '.join(map(str, e.cards))}]" in text
    assert "mucks" not in text and "mucked" not in text
