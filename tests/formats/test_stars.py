"""PokerStars hand histories (docs/formats.md §4, issue #21 item 12).

A record's hands are written in the text PokerStars writes, which players'
tools import.  A published parser of that format — PokerKit's
``PokerStarsParser`` — reads the house game's hands back to the same
players, stacks, blinds, moves and final stacks; PokerKit's parser knows
only no-limit hold'em by name, so pot-limit Omaha is read with its
variant table extended by the site's name for the game ("Omaha Pot
Limit"), nothing else changed.  Every other game is read back by the small
reader below, which follows the site's verbs and amounts only, to the same
final stacks.
"""

from __future__ import annotations

import json
import random
import re
import sys
import warnings
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from re import compile as regex
from typing import Any, ClassVar
from unittest import mock

import pytest
from pokerkit_check import short_big_blind
from pokerkit_games import pokerkit_plays_another_rule
from test_phh_games_export import hands_of
from test_phh_pokerkit_diff import odd_chips

from freezeout.cli import main
from freezeout.formats.record import PlayedHand, ReplayResult, parse_record, replay_record
from freezeout.formats.stars import hand_to_stars, record_to_stars, stars_game_name, tournament_number
from freezeout.rules.events import ActionTaken, BlindPosted, HandEnded, HandStarted, Resigned
from freezeout.rules.games import MIXES
from freezeout.rules.variant import VARIANTS

pokerkit = pytest.importorskip("pokerkit")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rules"))  # the shared random player
import randomplay  # noqa: E402

WHEN = datetime(2026, 12, 3, 12, 0, 5, tzinfo=UTC)


class OmahaStarsParser(pokerkit.PokerStarsParser):  # type: ignore[misc]
    """PokerKit's parser with the site's name for pot-limit Omaha added to
    its table of games (PHH code ``PO``); nothing else changed."""

    VARIANT = regex(r" (?P<variant>Hold'em No Limit|Omaha Pot Limit) ")
    VARIANTS: ClassVar[dict[str, str]] = {"Hold'em No Limit": "NT", "Omaha Pot Limit": "PO"}


def parse_with_pokerkit(text: str, parser: Any = None) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about its own field names
        (history,) = list((parser or pokerkit.PokerStarsParser())(text, error_status=True))
    return history


def random_record(seed: int) -> ReplayResult:
    """A random house-game tournament (2–4 players, both rulesets, deep and
    short stacks, timeouts, all-ins), replayed from its record."""
    rng = random.Random(seed)
    chooser = partial(randomplay.random_action, resign_rate=0.01, timeout_rate=0.08)
    with mock.patch.object(randomplay, "random_action", side_effect=lambda t, _rng: chooser(t, _rng)):
        game = randomplay.play_random_tournament(
            seed, players=rng.randint(2, 4), ruleset=rng.choice(["house", "standard"]), stack=rng.choice([1000, 1000, 150, 45]),
        )
    return replay_record(parse_record(game.writer.to_json()))


def table_players(code: str) -> tuple[str, ...]:
    """The players of ``hands_of(code)``'s tournaments, by seat."""
    return tuple(f"p{i}" for i in range(min(4, VARIANTS[code].max_players)))


def dealt_in(hand: PlayedHand) -> tuple[int, ...]:
    return next(e for e in hand.events if isinstance(e, HandStarted)).seats


def final_stacks(hand: PlayedHand, players: tuple[str, ...]) -> dict[str, int]:
    ended = next(e for e in hand.events if isinstance(e, HandEnded))
    return {players[seat]: ended.stacks[seat] for seat in dealt_in(hand)}


def our_moves(hand: PlayedHand, players: tuple[str, ...]) -> list[tuple[str, str, int]]:
    """Our moves as PHH words: f, cc, cbr with the round total."""
    words = {"fold": "f", "check": "cc", "call": "cc", "bet": "cbr", "raise": "cbr", "complete": "cbr"}
    return [
        (players[e.seat], words[e.kind], e.total if words[e.kind] == "cbr" else 0)
        for e in hand.events if isinstance(e, ActionTaken)
    ]


def their_moves(history: Any) -> list[tuple[str, str, int]]:
    moves = []
    for action in history.actions:
        words = action.split()
        if words[0] == "d" or words[1] == "sm":
            continue
        player = history.players[int(words[0][1:]) - 1]
        moves.append((player, words[1], int(words[2]) if words[1] == "cbr" else 0))
    return moves


def same_moves(theirs: list[tuple[str, str, int]], ours: list[tuple[str, str, int]]) -> bool:
    """The same moves in the same order — except the checks PokerKit adds
    itself (its ``HandHistory`` repairs a hand where it still asks a player
    to act after D1 has ended the round: the last player with chips, when
    the others have folded or are all-in)."""
    rest = iter(ours)
    expected = next(rest, None)
    for move in theirs:
        if move == expected:
            expected = next(rest, None)
        elif move[1] != "cc":
            return False
    return expected is None


def uncallable_raise(hand: PlayedHand) -> bool:
    """D4: a bet or raise that nobody else still in can call in full (the
    rules allow it, the excess comes back, R21); PokerKit refuses it."""
    started = next(e for e in hand.events if isinstance(e, HandStarted))
    behind = dict(zip(started.seats, started.stacks, strict=True))
    bets = dict.fromkeys(started.seats, 0)
    out: set[int] = set()
    for event in hand.events:
        if isinstance(event, BlindPosted):
            behind[event.seat] -= event.amount
            bets[event.seat] += 0 if event.kind == "ante" else event.amount
        elif isinstance(event, ActionTaken):
            if event.kind == "fold":
                out.add(event.seat)
            if event.kind in ("bet", "raise") and all(
                bets[o] + behind[o] < event.total for o in bets if o != event.seat and o not in out
            ):
                return True
            behind[event.seat] -= event.added
            bets[event.seat] = event.total
        elif type(event).__name__ == "StreetDealt":
            bets = dict.fromkeys(bets, 0)
    return False


def house_r12(hand: PlayedHand, ruleset: str) -> bool:
    """R12 (house): a player may raise again after a short all-in; PokerKit
    plays the standard rule (D3) and refuses."""
    return ruleset == "house" and any(isinstance(e, ActionTaken) and e.all_in and e.kind == "raise" for e in hand.events)


# -- the site's form ----------------------------------------------------------


RECORD = {
    "format": "freezeout.record/1",
    "players": ["ana", "bo", "cy"],
    "button": "ana",
    "hands": [
        {"hole": {"ana": "AsKd", "bo": "7c7d", "cy": "2h3h"}, "board": "9s5d2cQhJc",
         "actions": [["ana", "raise", 60], ["bo", "call"], ["cy", "fold"], ["bo", "check"], ["ana", "bet", 80],
                     ["bo", "raise", 200], ["ana", "call"], ["bo", "check"], ["ana", "check"], ["bo", "check"], ["ana", "check"]]},
    ],
}


def test_a_hand_is_written_as_pokerstars_writes_a_tournament_hand() -> None:
    result = replay_record(parse_record(RECORD))
    text = record_to_stars(result, tournament=2883423131, when=WHEN, hero="ana")
    assert text.endswith("\n\n\n")  # hands are separated by blank lines, as the site does
    assert text.strip("\n").splitlines() == [
        "PokerStars Hand #2883423131001: Tournament #2883423131, Freeroll  Hold'em No Limit - Level I (10/20)"
        " - 2026/12/03 12:00:05 UTC [2026/12/03 7:00:05 ET]",
        "Table '2883423131 1' 3-max Seat #1 is the button",
        "Seat 1: ana (1000 in chips)",
        "Seat 2: bo (1000 in chips)",
        "Seat 3: cy (1000 in chips)",
        "bo: posts small blind 10",
        "cy: posts big blind 20",
        "*** HOLE CARDS ***",
        "Dealt to ana [As Kd]",
        "ana: raises 40 to 60",
        "bo: calls 50",
        "cy: folds",
        "*** FLOP *** [9s 5d 2c]",
        "bo: checks",
        "ana: bets 80",
        "bo: raises 120 to 200",
        "ana: calls 120",
        "*** TURN *** [9s 5d 2c] [Qh]",
        "bo: checks",
        "ana: checks",
        "*** RIVER *** [9s 5d 2c Qh] [Jc]",
        "bo: checks",
        "ana: checks",
        "*** SHOW DOWN ***",
        "bo: shows [7c 7d] (One pair, sevens; kickers queen, jack, nine)",
        "ana: shows [As Kd] (High card, ace; kickers king, queen, jack, nine)",
        "bo collected 540 from pot",
        "*** SUMMARY ***",
        "Total pot 540 | Rake 0",
        "Board [9s 5d 2c Qh Jc]",
        "Seat 1: ana (button) showed [As Kd] and lost with High card, ace; kickers king, queen, jack, nine",
        "Seat 2: bo (small blind) showed [7c 7d] and won (540) with One pair, sevens; kickers queen, jack, nine",
        "Seat 3: cy (big blind) folded before Flop",
    ]


def test_an_observer_sees_no_hole_cards_and_a_game_id_becomes_a_tournament_number() -> None:
    text = record_to_stars(replay_record(parse_record(RECORD)), tournament=tournament_number("g-7f3a"), when=WHEN)
    assert "Dealt to" not in text
    assert tournament_number("123") == 123
    assert tournament_number("g-7f3a") == tournament_number("g-7f3a") != tournament_number("g-7f3b")


def test_every_game_has_the_site_s_name() -> None:
    names = {code: stars_game_name(variant) for code, variant in VARIANTS.items()}
    expected = {
        "NT": "Hold'em No Limit",
        "FT": "Hold'em Limit",
        "PO": "Omaha Pot Limit",
        "FO/8": "Omaha Hi/Lo Limit",
        "F7S": "7 Card Stud Limit",
        "F7S/8": "7 Card Stud Hi/Lo Limit",
        "FR": "Razz Limit",
        "F2L3D": "Triple Draw 2-7 Lowball Limit",
        "N2L1D": "Single Draw 2-7 Lowball No Limit",
        "FB": "Badugi Limit",
        "P5CD": "5 Card Draw Pot Limit",
        "NS": "6+ Hold'em No Limit",
    }
    assert {code: names[code] for code in expected} == expected
    assert stars_game_name(VARIANTS["FR"], MIXES["HORSE"]) == "HORSE (Razz Limit)"
    assert stars_game_name(VARIANTS["NT"], MIXES["8GAME"]) == "8-Game (Hold'em No Limit)"


# -- PokerKit reads the house game back ----------------------------------------


@pytest.mark.parametrize("block", range(2))
def test_pokerkit_reads_every_house_game_hand_back_to_the_same_hand(block: int) -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(block, 80, 2):
        result = random_record(seed)
        players = result.tournament.config.players
        ruleset = result.tournament.config.ruleset.value
        hero = players[seed % len(players)]
        for hand in result.hands:
            text = hand_to_stars(hand, players, tournament=seed + 1, when=WHEN, hero=hero)
            if any(isinstance(e, Resigned) for e in hand.events):
                assert "resigns and leaves the tournament" in text
                outcomes["resignation (R28: chips leave the game; no Stars move)"] += 1
                continue
            try:
                history = parse_with_pokerkit(text)
            except ValueError:
                reason = ("D4: a raise nobody can call in full" if uncallable_raise(hand)
                          else "R12: house raise after a short all-in" if house_r12(hand, ruleset)
                          else "D1: short big blind" if short_big_blind(hand.events, hand.setup.big_blind) else "")
                assert reason, text
                outcomes[reason] += 1
                continue
            if short_big_blind(hand.events, hand.setup.big_blind):
                outcomes["D1: short big blind (PokerKit lowers the bet to match)"] += 1
                continue
            seats = dealt_in(hand)
            assert sorted(history.players) == sorted(players[s] for s in seats), text
            started = next(e for e in hand.events if isinstance(e, HandStarted))
            assert dict(zip(history.players, history.starting_stacks, strict=True)) == {
                players[s]: chips for s, chips in zip(started.seats, started.stacks, strict=True)
            }
            blinds = {players[e.seat]: e.amount for e in hand.events if isinstance(e, BlindPosted)}
            theirs = dict(zip(history.players, history.blinds_or_straddles, strict=True))
            if len(seats) == 2:  # PHH lists heads-up blinds big blind first
                theirs = dict(zip(history.players, reversed(history.blinds_or_straddles), strict=True))
            assert {p: b for p, b in theirs.items() if b} == blinds, text
            assert same_moves(their_moves(history), our_moves(hand, players)), text
            *_, end = iter(history)
            assert not end.status
            if dict(zip(history.players, end.stacks, strict=True)) == final_stacks(hand, players):
                outcomes["exact"] += 1
            else:
                assert odd_chips(list(hand.events)) >= 2, text
                outcomes["R22: odd chips"] += 1
    hands = sum(outcomes.values())
    assert outcomes["exact"] >= 0.75 * hands, outcomes  # every other hand is one of the named differences
    assert outcomes["exact"] >= 150, outcomes


def test_pokerkit_reads_pot_limit_omaha_hands_back() -> None:
    agreed = 0
    for hand in hands_of("PO"):
        if any(isinstance(e, Resigned) for e in hand.events) or pokerkit_plays_another_rule(hand) or uncallable_raise(hand):
            continue
        players = table_players("PO")
        text = hand_to_stars(hand, players, tournament=9, when=WHEN, hero=players[0])
        history = parse_with_pokerkit(text, OmahaStarsParser())
        assert same_moves(their_moves(history), our_moves(hand, players)), text
        *_, end = iter(history)
        assert dict(zip(history.players, end.stacks, strict=True)) == final_stacks(hand, players), text
        agreed += 1
    assert agreed >= 15


# -- every game: the site's verbs add up to the same stacks ---------------------

_SEAT = re.compile(r"^Seat (\d+): (.+) \((\d+) in chips\)$")
_MOVE = re.compile(
    r"^(?P<p>.+?): (?:posts (?:the ante|small blind|big blind) (?P<post>\d+)|calls (?P<call>\d+)|bets (?P<bet>\d+)"
    r"|raises \d+ to (?P<to>\d+)|brings in for (?P<bring>\d+)|completes it to (?P<complete>\d+))"
)
_RETURNED = re.compile(r"^Uncalled bet \((\d+)\) returned to (.+)$")
_COLLECTED = re.compile(r"^(.+) collected (\d+) from (?:main |side )?pot")


def read_stacks(text: str) -> dict[str, int]:
    """A PokerStars hand's final stacks from its text alone: the seats'
    chips, less every post and move (a raise or completion counts *to* its
    total for the round), plus uncalled bets returned and pots collected."""
    stacks: dict[str, int] = {}
    round_bets: dict[str, int] = {}
    for line in text.splitlines():
        if match := _SEAT.match(line):
            if "SUMMARY" not in text.split(line)[0]:
                stacks[match[2]] = int(match[3])
        elif line.startswith("*** ") and line not in ("*** HOLE CARDS ***", "*** DEALING HANDS ***", "*** 3rd STREET ***"):
            round_bets = {}  # a new betting round (the deal after the posts is not one)
        elif match := _MOVE.match(line):
            player = match["p"]
            if match["post"] and "ante" in line:
                stacks[player] -= int(match["post"])
            elif match["post"] or match["bring"]:
                amount = int(match["post"] or match["bring"])
                stacks[player] -= amount
                round_bets[player] = round_bets.get(player, 0) + amount
            elif match["call"] or match["bet"]:
                amount = int(match["call"] or match["bet"])
                stacks[player] -= amount
                round_bets[player] = round_bets.get(player, 0) + amount
            else:
                total = int(match["to"] or match["complete"])
                stacks[player] -= total - round_bets.get(player, 0)
                round_bets[player] = total
        elif match := _RETURNED.match(line):
            stacks[match[2]] += int(match[1])
        elif match := _COLLECTED.match(line):
            stacks[match[1]] += int(match[2])
    return stacks


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_every_game_is_written_with_the_site_s_verbs_to_the_same_stacks(code: str) -> None:
    checked = 0
    name = stars_game_name(VARIANTS[code])
    players = table_players(code)
    for hand in hands_of(code, at_least=30):
        if any(isinstance(e, Resigned) for e in hand.events):
            continue
        text = hand_to_stars(hand, players, tournament=5, when=WHEN, hero=players[0])
        assert f"Freeroll  {name} - Level " in text.splitlines()[0]
        assert read_stacks(text) == final_stacks(hand, players), text
        variant = VARIANTS[code]
        if variant.uses_bring_in:
            assert "*** 3rd STREET ***" in text and " is the button" not in text
        elif variant.has_draws:
            assert "*** DEALING HANDS ***" in text and " is the button" in text
        else:
            assert "*** HOLE CARDS ***" in text
        checked += 1
    assert checked >= 20


def test_a_stud_hand_deals_the_hero_every_card_and_the_others_their_up_cards() -> None:
    players = table_players("F7S")
    for hand in hands_of("F7S", at_least=40):
        for hero in players:
            text = hand_to_stars(hand, players, tournament=5, when=WHEN, hero=hero)
            lines = text.splitlines()
            others = [p for p in players if p != hero and sum(line.startswith(f"Dealt to {p} ") for line in lines) >= 2]
            hero_lines = [line for line in lines if line.startswith(f"Dealt to {hero} ")]
            if len(hero_lines) < 2 or not others:
                continue  # the hero and another player must both see fourth street
            other_lines = [line for line in lines if line.startswith(f"Dealt to {others[0]} ")]
            assert re.fullmatch(rf"Dealt to {hero} \[\w\w \w\w \w\w\]", hero_lines[0]), text
            assert re.fullmatch(rf"Dealt to {others[0]} \[\w\w\]", other_lines[0]), text  # the door card only
            assert re.fullmatch(rf"Dealt to {hero} \[\w\w \w\w \w\w\] \[\w\w\]", hero_lines[1]), text
            assert re.fullmatch(rf"Dealt to {others[0]} \[\w\w\] \[\w\w\]", other_lines[1]), text
            assert "*** 4th STREET ***" in text
            return
    pytest.fail("no hand where two players saw fourth street")


def test_a_draw_hand_writes_the_hero_s_discards_and_the_others_counts() -> None:
    players = table_players("F2L3D")
    for hand in hands_of("F2L3D", at_least=20):
        text = hand_to_stars(hand, players, tournament=5, when=WHEN, hero=players[0])
        if "*** FIRST DRAW ***" not in text:
            continue
        for line in text.splitlines():
            if line.startswith(f"{players[0]}: discards"):
                assert re.fullmatch(r"p0: discards \d cards? \[[\w ]+\]", line), line
            elif line.startswith(f"{players[1]}: discards"):
                assert re.fullmatch(r"p1: discards \d cards?", line), line
        return
    pytest.fail("no hand reached the first draw")


def test_a_mixed_game_names_the_mix_and_each_hand_s_game() -> None:
    from freezeout.rules.games import tournament_config
    from freezeout.rules.tournament import Tournament

    names = ("a", "b", "c")
    t = Tournament.start(tournament_config("HORSE", names, button=0, starting_stack=100_000))
    rng = random.Random(3)
    from freezeout.formats.record import RecordWriter
    from freezeout.rules import Action, ActionKind

    writer = RecordWriter(names, "a", starting_stack=100_000, mix=MIXES["HORSE"])
    for _ in range(14):
        game = t.next_variant
        deck = list(game.deck)
        rng.shuffle(deck)
        t, events = t.deal_deck(deck)
        writer.observe(events)
        while t.in_hand:
            legal = t.legal_actions()
            assert legal is not None
            move = Action(legal.seat, ActionKind.BRINGIN if legal.bring_in else ActionKind.CHECK if legal.can_check else ActionKind.CALL)
            t, events = t.act(move)
            writer.act(names[move.seat], move)
            writer.observe(events)
    text = record_to_stars(replay_record(parse_record(writer.to_json())), tournament=1, when=WHEN, hero="a")
    headers = [line for line in text.splitlines() if line.startswith("PokerStars Hand #")]
    assert "HORSE (Hold'em Limit) - Level I (20/40)" in headers[0]
    assert "HORSE (Omaha Hi/Lo Limit) - Level II (40/80)" in headers[6]
    assert "HORSE (Razz Limit) - Level III (80/160)" in headers[12]
    assert "Table '1 1' 3-max\n" in text  # razz has no button


# -- the command ------------------------------------------------------------------


def test_record_stars_writes_every_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    assert main(["record", "stars", str(path), "--hero", "ana", "--tournament", "77", "--date", "2026-12-03T12:00:05Z"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("PokerStars Hand #77001: Tournament #77, Freeroll  Hold'em No Limit - Level I (10/20)")
    assert "Dealt to ana [As Kd]" in text
    history = parse_with_pokerkit(text)
    assert history.players == ["bo", "cy", "ana"]
    out = tmp_path / "game.txt"
    assert main(["record", "stars", str(path), "-o", str(out), "--date", "2026-12-03T12:00:05Z"]) == 0
    assert out.read_text(encoding="utf-8").count("PokerStars Hand #") == 1


def test_record_stars_refuses_a_bad_record_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "freezeout.record/1", "players": ["a"]}', encoding="utf-8")
    assert main(["record", "stars", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "players" in err
    capsys.readouterr()
    good = tmp_path / "game.json"
    good.write_text(json.dumps(RECORD), encoding="utf-8")
    assert main(["record", "stars", str(good), "--hero", "zed"]) == 2
    assert "zed" in capsys.readouterr().err
