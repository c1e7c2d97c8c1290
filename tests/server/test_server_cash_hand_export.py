"""Every exported cash hand replays (issues #22, #25): a raked hand, one run twice, a missed
blind posted dead, a stud hand, a draw hand — the server's full history and each asker's
copy pass ``freezeout record replay``, ``verify`` and ``phh``, and PokerKit plays the PHH to
the same stacks, given the rake (``_rake_pots``) as its rake function and told to run the
board twice (``_second_board``; PokerKit's PHH has no notation for either)."""

from __future__ import annotations

import json
import tomllib
from collections import deque
from typing import Any

import pytest
from test_server_cash_records import RecordedLog

from freezeout.cli import main
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.variant import VARIANTS
from freezeout.server.entries import ActEntry, CashSeatEntry, LogEntry
from freezeout.server.gamespec import GameSpec
from freezeout.server.table.records import cash_hand_for
from freezeout.server.table.state import initial_state

RAKED = {"big_blind": 200, "rake_bp": 500, "rake_cap": 300}


class GameLog(RecordedLog):
    """A recorded cash table's log of any game."""

    def __init__(self, game: str, options: dict[str, Any], seats: int = 4) -> None:
        super().__init__(options, seats)
        spec = GameSpec.parse_cash(game, options)
        self.entries = [LogEntry("t1", 1, 0.0, "create", {"slots": [None] * seats, "ranked": False, "created_by": 1,
                                                          "game": spec.to_json()})]
        self.state = initial_state(self.entries[0])

    def play(self, fold: int | None = None) -> None:
        """Everyone calls or checks (``fold``: that seat folds to a bet), the bring-in
        posted, one card changed at each draw."""
        while self.game.in_hand:
            legal = self.game.legal_actions()
            assert legal is not None
            if legal.draw:
                index = self.game.table.hand_seats.index(legal.seat)
                action = Action(legal.seat, ActionKind.DISCARD, cards=(self.game.table.hand.cards[index][0],))
            elif legal.bring_in and not legal.call_amount and not legal.current_bet:
                action = Action(legal.seat, ActionKind.BRINGIN)
            elif legal.seat == fold and legal.call_amount:
                action = Action(legal.seat, ActionKind.FOLD)
            else:
                action = Action(legal.seat, ActionKind.CALL if legal.call_amount else ActionKind.CHECK)
            self.write(ActEntry(action))


def seated(game: str, stacks: list[int], options: dict[str, Any] = RAKED) -> GameLog:
    log = GameLog(game, options)
    for seat, chips in enumerate(stacks):
        log.sit(seat, 11 + seat, chips)
    return log


def raked_side_pot() -> dict[str, Any]:
    """Three players, the short one all in: a main pot and a side pot, both raked (C5)."""
    log = seated("NT", [12000, 12000, 4000])
    log.deal_rigged(["2c7d", "AsAh", "KsKd"], "9cKc4hJsQc")
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        kind = ActionKind.ALLIN if legal.seat == 2 and legal.call_amount is not None and legal.all_in_to <= 4000 \
            else ActionKind.CALL if legal.call_amount else ActionKind.CHECK
        log.write(ActEntry(Action(legal.seat, kind)))
    return hand_of(log)


def run_twice(hole: tuple[str, str] = ("AsAh", "KsKh"), options: dict[str, Any] = RAKED) -> dict[str, Any]:
    log = seated("NT", [8000, 8000], options)
    log.deal_rigged(list(hole), "2c7d9hJc3s")
    for seat in range(2):
        log.write(CashSeatEntry("run_twice", seat, True))
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        log.write(ActEntry(Action(legal.seat, ActionKind.ALLIN if not legal.call_amount or legal.seat == 0
                                  else ActionKind.CALL)))
    return hand_of(log)


def missed_blind() -> dict[str, Any]:
    """A player sits out while the blinds pass them, comes back posting what they owe: the
    big blind live, the small one dead (C4)."""
    log = seated("NT", [8000, 8000, 8000, 8000])
    log.write(CashSeatEntry("sit_out", 3))
    for _ in range(6):  # the blinds go round past them twice
        log.deal()
        log.play()
    assert log.game.table.seats[3].owes
    log.write(CashSeatEntry("sit_in", 3, True))
    log.deal()
    log.play()
    hand = hand_of(log)
    assert any("dead" in kind for _, kind, _ in hand["posts"]), hand["posts"]
    return hand


def returning(first: ActionKind, amount: int | None = None) -> dict[str, Any]:
    """The missed blind's player back, posting both blinds (C4), whose first move is ``first``
    (a raise, or a fold of the live big blind they posted): PHH writes their big blind as that
    move's chips or as a dead ante."""
    log = seated("NT", [8000, 8000, 8000, 8000])
    log.write(CashSeatEntry("sit_out", 3))
    for _ in range(6):
        log.deal()
        log.play()
    log.write(CashSeatEntry("sit_in", 3, True))
    log.deal()
    legal = log.game.legal_actions()
    assert legal is not None and legal.seat == 3, legal
    log.write(ActEntry(Action(3, first, amount)))
    log.play()
    return hand_of(log)


def stud() -> dict[str, Any]:
    log = seated("F7S", [8000, 8000, 8000])
    log.deal()
    log.play()
    return hand_of(log)


def draw() -> dict[str, Any]:
    log = seated("F2L3D", [8000, 8000, 8000])
    log.deal()
    log.play()
    return hand_of(log)


def hand_of(log: GameLog) -> dict[str, Any]:
    hand = log.recorder.cash.hand(log.game.hand_number)
    assert hand is not None and "phh" in hand, hand and hand.get("phh_error")
    return hand


def run_twice_split() -> dict[str, Any]:
    """Both runs split, an odd chip in the second (a cap of 301: 15699 chips, C7's odd chip to run one)."""
    hand = run_twice(("AsKd", "AhKc"), {**RAKED, "rake_cap": 301})
    assert hand["rake"] == 301 and len(hand["pots"]) == 2
    return hand


def raise_then_fold() -> dict[str, Any]:
    """Raked, won by a fold after a bet and a raise on the flop (issue #32 item 11): PokerKit gives
    the raiser back their whole bet of that round and rakes the pot without it."""
    log = seated("NT", [8000, 8000, 8000])
    log.deal_rigged(["9c4d", "Qs4c", "6hJc"], "2s6c5dAd6s")
    moves = [ActionKind.FOLD, ActionKind.CALL, ActionKind.CHECK, (ActionKind.BET, 200), (ActionKind.RAISE, 400),
             ActionKind.FOLD]
    for move in moves:
        legal = log.game.legal_actions()
        assert legal is not None
        kind, amount = move if isinstance(move, tuple) else (move, None)
        log.write(ActEntry(Action(legal.seat, kind, amount)))
    hand = hand_of(log)
    assert hand["rake"] and not log.game.in_hand
    return hand


HANDS = {"raked side pot": raked_side_pot, "raise then fold": raise_then_fold, "run twice": run_twice, "run twice split": run_twice_split, "missed blind": missed_blind,
         "back and raising": lambda: returning(ActionKind.RAISE, 600), "back and folding": lambda: returning(ActionKind.FOLD),
         "stud": stud,
         "draw": draw}


def pokerkit_stacks(text: str) -> dict[str, int]:
    """PokerKit plays the PHH to the end: each player's finishing stack.  Its rake function
    takes each pot's cut from ``_rake_pots``, and with ``_second_board`` every player selects
    two runs, the second run's cards dealt one at a time after the first's (its way)."""
    pokerkit = pytest.importorskip("pokerkit")
    from pokerkit.notation import parse_action

    data = tomllib.loads(text)
    cuts = {int(before): int(cut) for before, cut in data.get("_rake_pots", [])}

    def rake(amount: int, state: Any = None) -> tuple[int, int]:
        cut = cuts.get(amount, 0)
        return cut, amount - cut

    history = pokerkit.HandHistory.loads(text, rake=rake)
    state = history.create_state()
    actions = deque(history.actions)
    second = data.get("_second_board", "")
    first = "".join(a.split()[-1] for a in history.actions if a.startswith("d db"))
    later = deque(second[i : i + 2] for i in range(0, len(second), 2) if second[i : i + 2] not in first)
    for _ in range(1000):
        if actions:
            try:
                parse_action(state, actions[0], history.parse_value)
            except ValueError:
                pass
            else:
                actions.popleft()
                continue
        if state.can_select_runout_count():
            state.select_runout_count(2 if second else 1)
        elif state.can_deal_board() and later and not actions:
            state.deal_board(later.popleft())
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_post_ante():
            state.post_ante()
        elif state.can_collect_bets():
            state.collect_bets()
        elif state.can_post_blind_or_straddle():
            state.post_blind_or_straddle()
        elif state.can_kill_hand():
            state.kill_hand()
        elif state.can_push_chips():
            state.push_chips()
        elif state.can_pull_chips():
            state.pull_chips()
        else:
            break
    assert not actions and not state.status, (list(actions), text)
    return dict(zip(data["players"], map(int, state.stacks), strict=True))


def copies(hand: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The server's full history, and what each asker downloads."""
    return [("server", hand), *((str(viewer), cash_hand_for(hand, viewer)) for viewer in (None, *hand["players"]))]


@pytest.fixture(scope="module", params=list(HANDS))
def exported(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, HANDS[request.param]()


def test_every_copy_replays_verifies_and_converts_with_the_command_line(exported, tmp_path, capsys):  # #22
    name, hand = exported
    for who, copy in copies(hand):
        path = tmp_path / f"{who}.json"
        path.write_text(json.dumps(copy))
        assert main(["record", "replay", str(path)]) == 0, (name, who, capsys.readouterr().err)
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["finishing_stacks"] == hand["finishing_stacks"] and replayed["rake"] == hand["rake"]
        assert replayed["matches"] is True
        assert main(["record", "verify", str(path)]) == 0, (name, who, capsys.readouterr().err)
        assert json.loads(capsys.readouterr().out)["ok"] is True
        out = tmp_path / f"{who}.phh"
        assert main(["record", "phh", str(path), "-o", str(out)]) == 0
        assert out.read_text() == copy["phh"]


def test_pokerkit_plays_every_copy_to_the_same_stacks(exported):  # #22: PokerKit, with the rake and both runs
    name, hand = exported
    for who, copy in copies(hand):
        stacks = pokerkit_stacks(copy["phh"])
        assert stacks == dict(zip(hand["players"], hand["finishing_stacks"], strict=True)), (name, who)


def test_what_an_asker_downloads_shows_what_they_saw_and_nothing_more(exported):  # R17, V7, V11, V17
    _, hand = exported
    for viewer in (None, *hand["players"]):
        seen = cash_hand_for(hand, viewer)
        assert "seed" not in seen
        deck = seen["deck"]
        for player, cards in hand["hole"].items():
            shown = seen["hole"][player]
            for i in range(0, len(cards), 2):
                card = shown[i : i + 2]
                assert card in ("??", cards[i : i + 2])
                if card != "??":
                    assert card in deck  # every card they see is opened against the commitment
            if player == viewer:
                assert shown == cards
        for action in seen["actions"]:
            if action[1] == "discard" and action[0] != viewer:
                assert set(action[2]) == {"?"}  # V11


def test_stud_up_cards_are_in_everyones_copy_and_down_cards_only_when_shown():  # V7, R17
    hand = stud()
    ups = [flag for street in VARIANTS["F7S"].streets for flag in street.hole]
    seen = cash_hand_for(hand, None)
    for player, cards in hand["hole"].items():
        shown = seen["hole"][player]
        for i in range(len(cards) // 2):
            card = cards[2 * i : 2 * i + 2]
            if ups[i]:
                assert shown[2 * i : 2 * i + 2] == card and card in seen["phh"]
            elif player not in hand["shown"]:
                assert shown[2 * i : 2 * i + 2] == "??" and card not in seen["phh"]


def test_a_cash_hand_that_does_not_add_up_is_refused_with_its_reason(tmp_path, capsys):
    hand = raked_side_pot()
    bad = {**hand, "finishing_stacks": [hand["finishing_stacks"][0] + 1, *hand["finishing_stacks"][1:]]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["record", "replay", str(path)]) == 2
    assert "on replay, the history says" in capsys.readouterr().err
    pots = [{**pot, "winners": [[hand["players"][0], pot["amount"]]]} for pot in hand["pots"]]
    path.write_text(json.dumps({**hand, "pots": pots}))
    assert main(["record", "replay", str(path)]) == 2
    assert "the history's pots say" in capsys.readouterr().err
    forged = {**hand, "board": "AdAc" + hand["board"][4:]}
    path.write_text(json.dumps(forged))
    assert main(["record", "verify", str(path)]) == 2
    assert "the board" in capsys.readouterr().err


def run_twice_log() -> GameLog:
    log = seated("NT", [8000, 8000])
    log.deal_rigged(["AsAh", "KsKh"], "2c7d9hJc3s")
    for seat in range(2):
        log.write(CashSeatEntry("run_twice", seat, True))
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        log.write(ActEntry(Action(legal.seat, ActionKind.ALLIN if legal.seat == 0 else ActionKind.CALL)))
    return log


@pytest.mark.parametrize("viewer", [["p11"], ["p12"], []])
def test_a_run_out_run_twice_is_replayed_street_by_street_each_run_and_its_winners_a_step(viewer):  # R18, C7
    from freezeout.server.table.replaysteps import cash_hand_steps

    log = run_twice_log()
    hand = hand_of(log)
    steps = cash_hand_steps(log.entries, 1, viewer)["steps"]
    kinds = [[event["type"] for event in step["events"]] for step in steps]
    # the call that puts the last chips in turns both hands up before the run-out (V20)
    assert kinds[:3] == [["hand_started", "blind_posted", "blind_posted"], ["action_taken"],
                         ["action_taken", "hand_turned_up", "hand_turned_up"]]
    assert kinds[3:9] == [["street_dealt"]] * 3 + [["second_run_dealt"]] * 3
    assert [step["view"]["board"] for step in steps[2:6]] == ["", "2c7d9h", "2c7d9hJc", "2c7d9hJc3s"]
    assert "second_board" not in steps[5]["view"]
    second = hand["second_board"]
    assert [step["view"]["second_board"] for step in steps[6:]] == [second[:6], second[:8], second, second, second]
    # the page draws the cash view's boards (the live table's): each step's are the step's own
    assert [step["view"]["boards"] for step in steps[2:6]] == [[""], ["2c7d9h"], ["2c7d9hJc"], ["2c7d9hJc3s"]]
    assert [step["view"]["boards"] for step in steps[6:]] == [["2c7d9hJc3s", step["view"]["second_board"]] for step in steps[6:]]
    first, last = steps[-2], steps[-1]  # each run's result, its winners and amounts
    assert next(e for e in first["events"] if e["type"] == "run_showdown")["run"] == 1
    assert next(e for e in last["events"] if e["type"] == "run_showdown")["run"] == 2
    awarded = [e["amount"] for step in (first, last) for e in step["events"] if e["type"] == "pot_awarded"]
    assert awarded == [pot["amount"] for pot in hand["pots"]]
    before = steps[5]["view"]  # the river of run one: nothing raked or won yet, the pot whole
    assert before["pot"] == 16000 and sum(seat.get("stack", 0) for seat in before["seats"]) == 0
    assert last["view"]["pot"] == 0 and [s["stack"] for s in last["view"]["seats"][:2]] == hand["finishing_stacks"]
    for step in steps:  # every step's chips: the stacks, the pot (bets included) and the rake make the buy-ins
        view = step["view"]
        total = view["pot"] + view["rake"]["total"] + sum(s.get("stack", 0) for s in view["seats"])
        assert total == 16000, step
    if not viewer:  # not a player: down cards only once tabled for the run-out
        assert steps[0]["view"]["seats"][0]["cards"] == "????"


async def test_a_hand_downloaded_over_http_replays_and_verifies(harness, tmp_path, capsys):  # #22, #25
    from test_server_cash import cash_heads_up, play_hands

    h = harness
    table, ana, bo = await cash_heads_up(h)
    await play_hands(h, table, [ana, bo], 1)
    spectator = await h.player()
    for who in (ana, bo, spectator):
        got = (await who.http.get(f"/api/tables/{table}/hands/1")).json()
        phh = (await who.http.get(f"/api/tables/{table}/hands/1.phh")).text
        path = tmp_path / "hand.json"
        assert got["phh"] == phh
        path.write_text(json.dumps(got))
        assert main(["record", "verify", str(path)]) == 0, capsys.readouterr().err
        assert main(["record", "replay", str(path)]) == 0, capsys.readouterr().err
        assert json.loads(capsys.readouterr().out.splitlines()[-1])["finishing_stacks"] == got["finishing_stacks"]
        assert pokerkit_stacks(phh) == dict(zip(got["players"], got["finishing_stacks"], strict=True))


def test_a_run_out_run_once_is_a_step_per_street_then_the_result():  # R18
    from freezeout.server.table.replaysteps import cash_hand_steps

    log = seated("NT", [8000, 8000])
    log.deal_rigged(["AsAh", "KsKh"], "2c7d9hJc3s")
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        log.write(ActEntry(Action(legal.seat, ActionKind.ALLIN if legal.seat == 0 else ActionKind.CALL)))
    steps = cash_hand_steps(log.entries, 1, ["p12"])["steps"]
    kinds = [[event["type"] for event in step["events"]] for step in steps]
    assert kinds[3:6] == [["street_dealt"]] * 3 and "pot_awarded" in kinds[6] and len(steps) == 7
    assert all("second_board" not in step["view"] for step in steps)
    assert [step["view"]["pot"] for step in steps[2:]] == [16000] * 4 + [0]
