"""Issue #32 item 7: stud's up-cards are public (V7), in a mix (V19) too.

A HORSE or 8-game record given to a viewer (an anonymous visitor, or a player who has
busted and so holds no cards in later hands) keeps every stud up-card of every player —
of those who folded too — so that every record any viewer downloads replays, verifies and
converts to PHH and PokerStars text."""

from __future__ import annotations

import pytest
from mixplay import play_recorded

from freezeout.formats.phh_export import record_to_phh
from freezeout.formats.record import parse_record, replay_record
from freezeout.formats.stars import record_json_to_stars
from freezeout.rules.events import HandStarted
from freezeout.server.table.records import player_record


def _stud_up_cards_hidden(full: dict, given: dict) -> int:
    """How many stud up-cards of the full record the viewer's copy writes ``??``."""
    replayed = replay_record(parse_record(full))
    hidden = 0
    for played, raw_full, raw_given in zip(replayed.hands, full["hands"], given["hands"], strict=True):
        variant = played.setup.variant
        if not variant.deals_later_hole_cards:
            continue
        up = [flag for street in variant.streets for flag in street.hole]
        for player, cards in raw_full["hole"].items():
            mine = "".join(raw_given["hole"][player])
            theirs = "".join(cards)
            for index in range(len(theirs) // 2):
                if index < len(up) and up[index] and mine[2 * index : 2 * index + 2] == "??":
                    hidden += 1
    return hidden


@pytest.mark.parametrize(("code", "seed"), [("HORSE", 1), ("8GAME", 2), ("HORSE", 3)])
def test_a_mix_record_keeps_every_stud_up_card_for_every_viewer(code: str, seed: int) -> None:
    full = play_recorded(code, 3, seed, stack=3000)
    result = replay_record(parse_record(full))
    assert result.finished
    busted = next(player for player, place in result.standings if place == 3)
    assert any(played.setup.variant.deals_later_hole_cards for played in result.hands), "the mix reached stud"
    for viewer in (None, busted):
        given = player_record(full, viewer)
        assert _stud_up_cards_hidden(full, given) == 0
        again = replay_record(parse_record(given))
        assert again.finished and again.standings == result.standings
        assert record_to_phh(again).count("[") >= len(result.hands)
        # a hero's file holds the hands the hero was dealt in (it ends with their last, cc59bb3)
        players = list(result.tournament.config.players)
        dealt = [hand for hand in result.hands
                 if viewer is None or players.index(viewer) in next(e.seats for e in hand.events if isinstance(e, HandStarted))]
        assert record_json_to_stars(given, hero=viewer).count("PokerStars Hand #") == len(dealt)
