"""``freezeout review`` on records of every game with a run-out and on cash hands.

Records are played by ``freezeout play --record`` with the human's keys
replaced by a seeded player who goes all-in often against the ``station``
bot (so run-outs happen on every street), or written by hand where a spot
must be exact (the push/fold record at 10 big blinds).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from freezeout.analysis.equity import equity
from freezeout.analysis.games import game_for
from freezeout.analysis.review import review_file_text
from freezeout.cards import parse_cards
from freezeout.cli import main
from freezeout.rules.actions import ActionKind
from freezeout.terminal import app as app_module
from freezeout.terminal.session import GameSession

DATA = Path(__file__).parent / "data"


def shoving_human(session: GameSession, rng: random.Random) -> None:
    """The keys: all-in a third of the time, otherwise any legal move."""
    while not session.finished:
        session.play_out()
        if session.finished:
            break
        legal = session.view().legal
        assert legal is not None
        word = "allin" if "allin" in legal.moves and rng.random() < 0.35 else rng.choice(legal.moves)
        if word == "discard":
            held = session.view().seats[session.human_seat].cards
            assert held is not None
            session.discard(tuple(card for card in held[:1] if card is not None))
        elif word in ("bet", "raise", "complete"):
            amount = rng.choice(legal.sizes) if legal.sizes else rng.randint(legal.min_to, legal.max_to)
            session.act(ActionKind(word), amount)
        else:
            session.act(ActionKind(word))


def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, players: int, seed: int) -> Path:
    rng = random.Random(seed)
    monkeypatch.setattr(app_module.PokerApp, "run", lambda self: shoving_human(self.session, rng))
    path = tmp_path / f"{code.replace('/', '-')}-{seed}.json"
    argv = ["play", "--game", code, "--players", str(players), "--bot", "station", "--seed", str(seed),
            "--record", str(path)]
    assert main(argv) == 0
    return path


def review(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["review", str(path), "--json", *extra]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.parametrize(("code", "players", "seed"), [
    ("NT", 3, 1), ("NS", 2, 2), ("PO", 3, 3), ("FO/8", 3, 2), ("F7S", 3, 5), ("F7S/8", 3, 3), ("FR", 2, 7),
])
def test_every_hand_adds_up_and_every_all_in_is_shared_out(
    code: str, players: int, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = play(tmp_path, monkeypatch, code, players, seed)
    data = review(path, capsys)
    record = json.loads(path.read_text())
    assert data["format"] == "freezeout.review/1" and len(data["hands"]) == len(record["hands"])
    game = game_for(code)
    all_ins = 0
    for hand in data["hands"]:
        # a freezeout has no rake: chips move, none appear or vanish, at EV as in fact
        assert sum(hand["result"].values()) == 0
        assert sum(hand["ev"].values()) == pytest.approx(0, abs=0.05)
        all_in = hand["all_in"]
        if all_in is None:
            assert hand["ev"] == hand["result"]
            continue
        all_ins += 1
        assert set(all_in) >= {"street", "cards", "board", "equity", "ev", "result"}
        assert sum(all_in["equity"].values()) == pytest.approx(1.0, abs=1e-5)
        assert set(all_in["cards"]) == set(all_in["equity"]) == set(all_in["ev"]) == set(all_in["result"])
        if all_in["exact"] and len(all_in["cards"]) == 2 and "dead" not in all_in:
            # a heads-up all-in: its equity is the odds of those cards on that board
            hands = [[tuple(int(c) for c in parse_cards(cards))] for cards in all_in["cards"].values()]
            odds = equity(game, hands, tuple(int(c) for c in parse_cards(all_in["board"])))
            assert tuple(all_in["equity"].values()) == pytest.approx(odds.equity, abs=1e-5)
    assert all_ins >= 1
    for player, totals in data["players"].items():
        assert totals["luck"] == pytest.approx(totals["result"] - totals["all_in_ev"], abs=0.02)
        assert totals["result"] == sum(hand["result"].get(player, 0) for hand in data["hands"])


def test_push_fold_mistakes_against_the_equilibrium(capsys: pytest.CaptureFixture[str]) -> None:
    data = review(DATA / "push_fold_10bb.json", capsys)
    fold_aces, push_kings = data["hands"][0]["decisions"], data["hands"][1]["decisions"]
    assert fold_aces[0] | {"ev": None} == fold_aces[0] | {
        "player": "ana", "position": "SB", "cards": "AsAh", "action": "fold", "stack_bb": 10.0,
        "depth_bb": 10.0, "equilibrium": "push", "equilibrium_probability": 1.0, "mistake": True, "ev": None,
    }
    assert fold_aces[0]["ev_loss_bb"] == pytest.approx(fold_aces[0]["ev"]["push"] + 0.5, abs=1e-4) and \
        fold_aces[0]["ev_loss_bb"] > 2
    kings, call = push_kings
    assert (kings["player"], kings["action"], kings["equilibrium"], kings["ev_loss_bb"]) == ("bo", "push", "push", 0)
    # the big blind's 9.5 bb (ana lost 50 in hand 1) maps onto the stored 9.5 bb
    assert (call["player"], call["position"], call["action"], call["equilibrium"]) == ("ana", "BB", "call", "fold")
    assert call["stack_bb"] == call["depth_bb"] == 9.5 and call["mistake"]
    assert call["ev"]["fold"] == -1.0 and call["ev_loss_bb"] == pytest.approx(-1.0 - call["ev"]["call"], abs=1e-4)
    all_in = data["hands"][1]["all_in"]
    assert all_in["street"] == "preflop" and all_in["cards"] == {"ana": "7h2c", "bo": "KsKh"}
    assert all_in["result"] == {"ana": -950, "bo": 950}
    assert all_in["ev"]["bo"] == pytest.approx(all_in["equity"]["bo"] * 1900 - 950, abs=0.01)
    ana = data["players"]["ana"]
    assert ana["mistakes"] == 2 and ana["ev_lost_bb"] == pytest.approx(
        fold_aces[0]["ev_loss_bb"] + call["ev_loss_bb"], abs=1e-3)
    assert ana["result"] == -1000 and ana["all_in_ev"] == pytest.approx(-50 + all_in["ev"]["ana"], abs=0.01)


def test_a_cash_hand_run_twice_is_reviewed_at_its_equity_less_the_rake(capsys: pytest.CaptureFixture[str]) -> None:
    data = review(DATA / "cash_run_twice.json", capsys)
    hand = data["hands"][0]
    assert data["source"] == "freezeout.cash_hand/1" and hand["decisions"] == []
    odds = equity(game_for("NT"), [[tuple(int(c) for c in parse_cards("KsKh"))],
                                   [tuple(int(c) for c in parse_cards("AsAh"))]])
    assert hand["all_in"]["equity"] == pytest.approx({"p12": odds.equity[0], "p11": odds.equity[1]}, abs=1e-6)
    assert hand["result"] == {"p12": -8000, "p11": 7700}  # both runs to the aces, 300 raked
    assert sum(hand["ev"].values()) == pytest.approx(-300, abs=0.02)


def test_a_cash_hand_without_a_run_out_has_no_all_in(capsys: pytest.CaptureFixture[str]) -> None:
    data = review(DATA / "cash_side_pot.json", capsys)
    assert data["hands"][0]["all_in"] is None
    assert data["hands"][0]["result"] == {"p11": -4000, "p12": -4000, "p13": 7700}


def test_monte_carlo_reviews_are_reproducible_by_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = play(tmp_path, monkeypatch, "F7S", 3, 5)
    first, again = review(path, capsys, "--seed", "3"), review(path, capsys, "--seed", "3")
    assert first == again
    sampled = [hand["all_in"] for hand in first["hands"] if hand["all_in"] and not hand["all_in"]["exact"]]
    assert sampled, "this record has an early stud all-in, dealt out by Monte Carlo"


def test_the_text_report_names_luck_and_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(DATA / "push_fold_10bb.json")]) == 0
    out = capsys.readouterr().out
    assert "all-in EV" in out and "luck" in out
    assert "hand 1: ana fold AsAh at 10 bb; the equilibrium would push" in out


def test_three_handed_spots_are_judged_by_sampled_ev() -> None:
    record = {
        "format": "freezeout.record/2", "game": {"variant": "NT", "levels": [{"small_blind": 50, "big_blind": 100}]},
        "players": ["ana", "bo", "cy"], "button": "ana", "starting_stack": 1000,
        "hands": [{"hole": {"ana": "AsAh", "bo": "7c2d", "cy": "KdQd"}, "board": "",
                   "actions": [["ana", "fold"], ["bo", "fold"]]},
                  {"hole": {"ana": "9s8s", "bo": "7h7d", "cy": "Kc2c"}, "board": "2s3s4d5c6c",
                   "actions": [["bo", "allin"], ["cy", "call"], ["ana", "fold"]]}],
    }
    first = review_file_text(json.dumps(record))
    assert first == review_file_text(json.dumps(record))  # the sampled deals are seeded by the spot
    aces, rags = first["hands"][0]["decisions"]
    assert (aces["player"], aces["position"], aces["action"], aces["equilibrium"]) == ("ana", "BTN", "fold", "push")
    assert aces["ev"]["fold"] == 0.0 and aces["ev_loss_bb"] > 2 and aces["mistake"]
    assert 0 < aces["ev_error_bb"] < 0.2 and aces["depth_bb"] == 10.0
    assert (rags["player"], rags["position"], rags["equilibrium"], rags["ev_loss_bb"]) == ("bo", "SB", "fold", 0.0)
    assert rags["ev"]["fold"] == -0.5 and not rags["mistake"]
    shove, call, fold = first["hands"][1]["decisions"]
    assert (shove["position"], shove["action"], shove["mistake"]) == ("BTN", "push", False)
    assert (call["player"], call["action"], call["equilibrium"], call["mistake"]) == ("cy", "call", "fold", True)
    assert (fold["player"], fold["position"], fold["action"]) == ("ana", "BB", "fold")
    assert first["players"]["ana"]["mistakes"] == 1 and first["players"]["cy"]["mistakes"] == 1


@pytest.mark.parametrize(("content", "message"), [
    ("not json", "the file is not JSON"),
    ('{"format": "freezeout.record/1", "players": ["a"], "button": "a", "hands": []}', "does not replay: invalid players"),
    ('{"format": "freezeout.record/1", "players": ["a", "b"], "button": "a", '
     '"hands": [{"hole": {"a": "AsKs", "b": "AsQd"}, "board": "", "actions": []}]}', "duplicate card As"),
])
def test_a_file_that_does_not_replay_is_one_clear_error(
    content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["review", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(("code", "seed"), [("HORSE", 4), ("F2L3D", 1)])
def test_mixes_and_draw_games_are_reviewed_without_misleading_equities(
    code: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = play(tmp_path, monkeypatch, code, 3, seed)
    data = review(path, capsys)
    assert data["game"] == code and data["hands"]
    for hand in data["hands"]:
        assert sum(hand["result"].values()) == 0 and hand["decisions"] == []  # push/fold: the house game only
        if game_has_draws(hand["game"]):
            assert hand["all_in"] is None  # a draw still to come is a decision, not a run-out


def game_has_draws(code: str) -> bool:
    from freezeout.rules.variant import variant

    return variant(code).has_draws
