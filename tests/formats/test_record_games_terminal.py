"""``freezeout play --game CODE --record FILE``, then ``freezeout record
replay``, ``verify`` and ``phh`` on the record, in every one of the 25
games and both mixes (issue #22, "The terminal and records").

The human's keys are replaced by a seeded random player (every legal move:
fixed, pot and no-limit sizes, bring-ins and completes, discards and
standing pat, and timeouts — never two in a row, so nobody is eliminated
mid-hand by R27); the bots are the real ``random`` and ``station``.  Every
record must replay through the command line to the game's own result;
every hand exported as PHH must replay to its ``finishing_stacks``; every
hand of a game PokerKit has must load in PokerKit and end with the same
stacks (except where PokerKit plays another rule, named by
``pokerkit_games.pokerkit_verdict``).
"""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pokerkit_games import EXACT, phh_hands, pokerkit_verdict

from freezeout.cards import full_deck
from freezeout.cli import main
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.actions import ActionKind
from freezeout.rules.games import MIXES
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import PHH_CODES, VARIANTS, Ruleset
from freezeout.terminal import app as app_module
from freezeout.terminal.session import GameSession

pokerkit = pytest.importorskip("pokerkit")

GAMES = [*VARIANTS, *MIXES]


def human_plays_at_random(session: GameSession, rng: random.Random) -> None:
    """What a player at the keys could do, chosen at random, to the end."""
    timed_out = False
    while not session.finished:
        session.play_out()
        if session.finished:
            break
        view = session.view()
        legal = view.legal
        assert legal is not None
        if not timed_out and rng.random() < 0.05:
            session.timeout()  # R26; V12 in a draw; V7 posts a due bring-in
            timed_out = True
            continue
        timed_out = False
        word = rng.choice(legal.moves)
        if word == "discard":
            held = view.seats[session.human_seat].cards
            assert held is not None and None not in held
            cards = tuple(card for card in held if card is not None)
            session.discard(tuple(rng.sample(cards, rng.randint(1, len(cards)))))
        elif word in ("bet", "raise", "complete"):
            amount = rng.choice(legal.sizes) if legal.sizes else rng.randint(legal.min_to, legal.max_to)
            session.act(ActionKind(word), amount)
        else:
            session.act(ActionKind(word))


def play_and_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, bot: str, seed: int) -> Path:
    """``freezeout play --game CODE --bot BOT --record FILE`` with the keys
    played by :func:`human_plays_at_random`."""
    rng = random.Random(seed)
    monkeypatch.setattr(app_module.PokerApp, "run", lambda self: human_plays_at_random(self.session, rng))
    path = tmp_path / f"{code.replace('/', '-')}-{bot}.json"
    argv = ["play", "--game", code, "--players", "3", "--bot", bot, "--seed", str(seed), "--record", str(path)]
    assert main(argv) == 0
    return path


@pytest.mark.parametrize("code", GAMES)
def test_play_record_then_replay_verify_and_phh(
    code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pokerkit_exact = 0
    for number, bot in enumerate(("random", "station")):
        path = play_and_record(tmp_path, monkeypatch, code, bot, seed=GAMES.index(code) * 2 + number)
        capsys.readouterr()
        record = json.loads(path.read_text())
        assert record["format"] == ("freezeout.record/1" if code == "NT" else "freezeout.record/2")
        if code in MIXES:
            assert record["game"] == {"mix": code}
        elif code != "NT":
            assert record["game"] == {"variant": code}

        # record replay: the game's result, from the file alone
        assert main(["record", "replay", str(path)]) == 0
        replayed: dict[str, Any] = json.loads(capsys.readouterr().out)
        result = replay_record(parse_record(path.read_text()))
        assert replayed["finished"] is True
        assert [hand["number"] for hand in replayed["hands"]] == list(range(1, len(result.hands) + 1))
        places = [place for _, place in result.standings]
        assert None not in places and places.count(1) == 1  # busted together, players share a place
        if code in MIXES:
            games = {hand["game"] for hand in replayed["hands"]}
            assert games <= {game.code for game in MIXES[code].games}
            assert len(result.hands) <= 6 or len(games) > 1  # V19: the game changed with the level

        # record verify: the record replays; a game dealt by the terminal
        # itself commits to no deck, which verify says for every hand
        status = main(["record", "verify", str(path)])
        out, err = capsys.readouterr()
        report = json.loads(out)
        assert "error" not in report, report
        assert [hand["hand"] for hand in report["hands"]] == list(range(1, len(result.hands) + 1))
        assert status == 2 and {hand.get("reason") for hand in report["hands"]} == {"no commitment"}
        assert err.count("\n") == 1

        # record phh: one hand per table, each replaying to its stacks
        phh = tmp_path / "out.phh"
        assert main(["record", "phh", str(path), "-o", str(phh)]) == 0
        texts = phh_hands(phh.read_text())
        assert len(texts) == len(result.hands)
        for hand, text in zip(result.hands, texts, strict=True):
            data = tomllib.loads(text)
            assert data["hand"] == hand.number
            assert data["variant"] == hand.setup.variant.code
            resigned = "resigned (R28)" in text
            if not resigned:
                assert replay_phh_text(text, Ruleset.HOUSE).matches is True, text
                assert dict(zip(data["players"], data["finishing_stacks"], strict=True)) == hand.stacks
                pokerkit_exact += pokerkit_verdict(hand, text) == EXACT
    played = {VARIANTS[code]} if code in VARIANTS else set(MIXES[code].games)
    if any(game.code in PHH_CODES for game in played):
        assert pokerkit_exact >= 3  # PokerKit played hands of this game to our stacks


def test_r13_no_complete_when_every_other_player_is_all_in() -> None:
    """R13: when every other player still in the hand is all-in, a player
    may only call or fold — so the bring-in player whose only opponent is
    all-in from the ante may not complete (a raise nobody can call; PokerKit
    deals such a hand out without any betting)."""
    config = TournamentConfig(players=("ana", "bo"), variant=VARIANTS["F7S"])  # level 1: ante 2
    tournament = Tournament.start(config)
    tournament = type(tournament)(**{**{f: getattr(tournament, f) for f in tournament.__dataclass_fields__},
                                     "stacks": (2, 1998)})
    tournament, _ = tournament.deal_deck(full_deck())
    legal = tournament.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.bring_in  # ana is all-in from the ante
    assert "complete" not in legal.moves
