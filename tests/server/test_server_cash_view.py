"""The cash view carries what the freezeout view gives the page (issue #25): the hands shown
and the result (pots, halves, runs, winners, best five, names in both languages), the board's
size, the dealer button and the blinds' seats, and the cash table's own choices and offers —
post or wait (C4, C10), a straddle (C6), running it twice and who agreed (C7)."""

from __future__ import annotations

from typing import Any

from test_server_cash_play import EventLog
from test_server_cash_records import play

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.table.entries import ActEntry, CashSeatEntry


def seated(options: dict[str, Any], players: int) -> EventLog:
    log = EventLog(options)
    for seat in range(players):
        log.sit(seat, 11 + seat, 8000)
    return log


def test_a_finished_hand_says_its_result_and_the_hands_shown_as_the_freezeout_view_does():  # R16, R17, C5
    log = play({"big_blind": 200, "rake_bp": 500, "rake_cap": 300, "show_called": True},
               ["2c7d", "AsAh", "3d8h"], "9cKd4hJsQc")
    view = log.game.view(None)
    name = "One pair, aces; kickers king, queen, jack"
    assert view["result"] == [{"pot": 0, "half": "", "amount": 570, "hand": name,
                               "winners": [{"seat": 1, "chips": 570, "best": "AsAhKdQcJs", "player": "p12"}],
                               "names": {"en": name, "cs": "Pár es; kickery král, dáma, kluk"}}]
    assert view["seats"][1]["shown"]["best"] == "AsAhKdQcJs" and "names" in view["seats"][1]["shown"]
    assert view["board_size"] == 5 and view["boards"] == ["9cKd4hJsQc"]
    assert view["rake"]["total"] == 30
    assert sorted(view["blind_seats"]) == sorted(s for s in range(3) if s != view["dealer_button"])  # three-handed


def test_a_board_run_twice_gives_both_boards_and_each_runs_winners():  # C7
    log = play({"big_blind": 200, "run_twice": True, "show_called": True}, ["AsAh", "KsKh"], "2c7d9hQcJd", all_in=True,
               twice=True)
    view = log.game.view(0)
    assert len(view["boards"]) == 2 and view["boards"][0] == "2c7d9hQcJd" and view["boards"][1] != view["boards"][0]
    runs = sorted({pot["run"] for pot in view["result"]})
    assert runs == [1, 2]
    for pot in view["result"]:
        board = view["boards"][pot["run"] - 1]
        for winner in pot["winners"]:  # each run's best five come from its own board
            best = [winner["best"][i:i + 2] for i in range(0, len(winner["best"]), 2)]
            assert all(card in board or card in ("AsAh" if winner["seat"] == 0 else "KsKh") for card in best)


def test_offers_say_who_may_straddle_and_agree_to_run_it_twice():  # C6, C7
    log = seated({"big_blind": 200, "straddle": True, "run_twice": True}, 3)
    plan = log.game.table.plan()
    utg = next(s for s in plan.seats if s not in (plan.small_blind, plan.big_blind))
    assert log.game.view(utg)["offers"]["straddle"] is True
    assert all(not log.game.view(s)["offers"]["straddle"] for s in range(3) if s != utg)
    assert log.game.view(None)["offers"] == {"straddle": False, "straddling": False, "run_twice": False,
                                             "run_twice_agreed": [], "sit_in_choice": False}
    log.write(CashSeatEntry("straddle", utg))
    assert log.game.view(utg)["offers"]["straddling"] is True and not log.game.view(None)["offers"]["straddling"]
    log.deal()
    acting = log.game.to_act
    assert log.game.view(acting)["offers"]["run_twice"] is True
    log.write(CashSeatEntry("run_twice", acting, True))
    assert log.game.view(None)["offers"]["run_twice_agreed"] == [acting]
    log.write(ActEntry(Action(acting, ActionKind.FOLD)))
    assert log.game.view(acting)["offers"]["run_twice"] is False  # folded: not in the pot


def test_post_choice_and_the_sit_in_choice_follow_the_rules():  # C4, C10
    log = seated({"big_blind": 200}, 3)
    assert log.game.view(None)["post_choice"] is False  # no button hand dealt yet: everyone is dealt in
    log.deal()
    assert log.game.view(None)["post_choice"] is True
    log.write(CashSeatEntry("sit_out", 0))
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        log.write(ActEntry(Action(legal.seat, ActionKind.FOLD)))
    for _ in range(3):  # seat 0 sits out past its blinds
        log.deal()
        while log.game.in_hand:
            legal = log.game.legal_actions()
            assert legal is not None
            log.write(ActEntry(Action(legal.seat, ActionKind.FOLD)))
    assert log.game.table.seats[0] is not None and log.game.table.seats[0].owes
    assert log.game.view(0)["offers"]["sit_in_choice"] is True
    assert log.game.view(1)["offers"]["sit_in_choice"] is False
