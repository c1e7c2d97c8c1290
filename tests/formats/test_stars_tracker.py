"""What trackers need beyond the moves (issue #32 item 10): each hand its own start time, a
hero's file that ends with the hand the hero went out in, and a tournament summary as
PokerStars writes one — checked against our own patterns of the summary forms fpdb-3's
``PokerStarsSummary.py`` reads."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mixplay import play_recorded

from freezeout.cli import main
from freezeout.formats.record import RecordError, parse_record, replay_record
from freezeout.formats.stars import record_json_to_stars
from freezeout.formats.stars_summary import record_json_to_summary

START = 1_796_300_000.0


def _timed(record: dict, step: float = 47.0) -> dict:
    """The record with each hand's ``started_at``, as the room writes it."""
    for index, hand in enumerate(record["hands"]):
        hand["started_at"] = START + index * step
    return record


def _headers(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("PokerStars Hand #")]


def test_each_hand_carries_its_own_start_time() -> None:
    record = _timed(play_recorded("NT", 3, 4, stack=500))
    text = record_json_to_stars(record)
    stamps = [re.search(r" - (\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) UTC", line)[1] for line in _headers(text)]  # type: ignore[index]
    assert len(stamps) == len(record["hands"]) > 3
    assert len(set(stamps)) == len(stamps), "every hand its own time"
    first = datetime.fromtimestamp(START, UTC)
    assert stamps[0] == f"{first:%Y/%m/%d %H:%M:%S}" and stamps == sorted(stamps)


def test_a_hero_s_file_ends_with_the_hand_the_hero_went_out_in() -> None:
    for seed in range(40):  # a game where the others played on after the first went out
        record = play_recorded("FT", 3, seed, stack=300)
        result = replay_record(parse_record(record))
        out = next(player for player, place in result.standings if place == 3)
        bust = next(hand.number for hand in result.hands if out in hand.eliminated)
        if bust < len(result.hands):
            break
    else:
        pytest.fail("no game went on after its first elimination")
    text = record_json_to_stars(record, hero=out)
    assert len(_headers(text)) == bust
    hands = text.strip().split("\n\n\n")
    assert all(f"Dealt to {out} [" in hand for hand in hands)
    assert f"{out} finished the tournament in 3rd place" in hands[-1]
    assert len(_headers(record_json_to_stars(record))) == len(result.hands)  # an observer's file: every hand


# Our own patterns of the summary forms fpdb-3 reads: the header, the entrants, the start,
# one line per place ("  2: name (country),"), the player's own place.
_SUMMARY_HEAD = re.compile(r"^PokerStars Tournament #(?P<number>\d+), (?P<game>(?:No Limit |Pot Limit |Limit )?[\w' +/-]+)$")
_ENTRIES = re.compile(r"^(?P<n>\d+) players$")
_STARTED = re.compile(r"^Tournament started (?P<at>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ")
_PLACE = re.compile(r"^\s*(?P<rank>\d+): (?P<name>.+?) \(.+?\),\s*$")
_OWN = re.compile(r"^You finished in (?P<rank>\d+)(?:st|nd|rd|th) place\.$", re.MULTILINE)


@pytest.mark.parametrize(("code", "game"), [("NT", "No Limit Hold'em"), ("F7S", "Limit 7 Card Stud"), ("HORSE", "HORSE")])
def test_a_tournament_summary_as_pokerstars_writes_one(code: str, game: str) -> None:
    record = _timed(play_recorded(code, 3, 6, stack=1500 if code == "HORSE" else 400))
    record["game_id"] = "815"
    result = replay_record(parse_record(record))
    places = dict(result.standings)
    hero = record["players"][1]
    text = record_json_to_summary(record, hero=hero)
    lines = text.splitlines()
    head = _SUMMARY_HEAD.match(lines[0])
    assert head and head["number"] == "815" and head["game"] == game, lines[0]
    assert _ENTRIES.match(lines[2])["n"] == "3"  # type: ignore[index]
    assert _STARTED.match(lines[4])["at"] == f"{datetime.fromtimestamp(START, UTC):%Y/%m/%d %H:%M:%S}"  # type: ignore[index]
    ranked = {m["name"]: int(m["rank"]) for line in lines if (m := _PLACE.match(line))}
    assert ranked == places
    assert int(_OWN.search(text)["rank"]) == places[hero]  # type: ignore[index]


def test_a_summary_of_an_unfinished_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = play_recorded("NT", 3, 4, stack=500)
    record["hands"] = record["hands"][:1]
    with pytest.raises(RecordError, match="not over"):
        record_json_to_summary(record)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["record", "stars", str(path), "--summary"]) == 2
    assert "not over" in capsys.readouterr().err


def test_record_stars_summary_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _timed(play_recorded("NT", 2, 4, stack=300))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["record", "stars", str(path), "--summary", "--hero", "p0", "--tournament", "9"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PokerStars Tournament #9, No Limit Hold'em\n") and "You finished in " in out
