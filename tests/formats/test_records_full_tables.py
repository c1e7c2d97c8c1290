"""Issue #34, records: full tables in every format — a record of 6 to 10 seats, its PHH and its
PokerStars text (``Table '…' 9-max Seat #N is the button``) — and stud with eight players, where
the deck cannot give every player a seventh card and one shared card is turned up for all
(V7): the record keeps it in ``board``, PHH deals it as a board card (``d db 7c``, which PokerKit
plays as its stud community card), PokerStars text writes ``*** RIVER *** [7c]`` and ``Board
[7c]``."""

from __future__ import annotations

import re
import warnings

import pytest
from fpdb_forms import read_chips
from mixplay import play_recorded

from freezeout.formats.phh_export import record_hand_to_phh
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.formats.record import parse_record, replay_record
from freezeout.formats.stars import record_json_to_stars
from freezeout.rules.events import HandEnded, HandStarted, StreetDealt


def _final(hand, players):  # type: ignore[no-untyped-def]
    started = next(e for e in hand.events if isinstance(e, HandStarted))
    ended = next(e for e in hand.events if isinstance(e, HandEnded))
    return {players[seat]: ended.stacks[seat] for seat in started.seats}


@pytest.mark.parametrize(("code", "seats", "kind"), [("NT", 9, "flop"), ("FT", 10, "flop"), ("PO", 6, "flop"),
                                                     ("F5CD", 6, "single draw")])
def test_a_full_table_s_record_phh_and_pokerstars_text(code: str, seats: int, kind: str) -> None:
    record = play_recorded(code, seats, 11, stack=2000, max_hands=8, fold_rate=0.2)
    result = replay_record(parse_record(record))
    players = tuple(record["players"])
    text = record_json_to_stars(record)
    tables = re.findall(r"^Table '[^']+' (\d+)-max Seat #(\d+) is the button$", text, re.MULTILINE)
    assert len(tables) == len(result.hands) and all(size == str(seats) for size, _ in tables)
    for chunk, hand in zip(text.strip().split("\n\n\n"), result.hands, strict=True):
        assert read_chips(chunk, kind) == _final(hand, players), chunk
        assert replay_phh_text(record_hand_to_phh(hand)).matches, code


def test_stud_with_eight_deals_one_shared_card_in_every_format() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    record = play_recorded("F7S", 8, 2, stack=3000, fold_rate=0.0, max_hands=6)
    result = replay_record(parse_record(record))
    players = tuple(record["players"])
    shared = [(index, hand) for index, hand in enumerate(result.hands)
              if any(isinstance(e, StreetDealt) and e.cards for e in hand.events)]
    assert shared, "eight players reached seventh street"
    index, hand = shared[0]
    card = next(e.cards for e in hand.events if isinstance(e, StreetDealt) and e.cards)
    assert len(card) == 1 and record["hands"][index]["board"] == str(card[0])  # the record keeps it
    phh = record_hand_to_phh(hand)
    assert f'"d db {card[0]}"' in phh
    assert replay_phh_text(phh).matches
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, theirs = iter(pokerkit.HandHistory.loads(phh))
    assert list(theirs.stacks) == [_final(hand, players)[p] for p in players]
    stars = record_json_to_stars(record).strip().split("\n\n\n")[index]
    assert f"*** RIVER *** [{card[0]}]" in stars and f"Board [{card[0]}]" in stars
    assert "Table '" in stars and " 8-max\n" in stars
    assert read_chips(stars, "stud") == _final(hand, players)
