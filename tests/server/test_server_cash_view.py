"""The cash view carries what the freezeout view gives the page (issue #25): the hands shown
and the result (pots, halves, runs, winners, best five, names in both languages), the board's
size, the dealer button and the blinds' seats, and the cash table's own choices and offers —
post or wait (C4, C10), a straddle (C6), running it twice and who agreed (C7)."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_cash_play import EventLog
from test_server_cash_records import play

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import ActEntry, CashSeatEntry, SitEntry, Slot
from freezeout.server.storage.store import UserRow
from freezeout.server.table.bots import check_add_bot
from freezeout.server.table.replaysteps import cash_hand_steps
from freezeout.server.table.state import Refused


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
                                             "run_twice_reason": "not_in_pot", "run_twice_agreed": [],
                                             "sit_in_choice": False}
    assert log.game.view(utg)["offers"]["run_twice_reason"] == "no_hand"
    log.write(CashSeatEntry("straddle", utg))
    assert log.game.view(utg)["offers"]["straddling"] is True and not log.game.view(None)["offers"]["straddling"]
    log.deal()
    acting = log.game.to_act
    assert log.game.view(acting)["offers"]["run_twice"] is True
    log.write(CashSeatEntry("run_twice", acting, True))
    assert log.game.view(None)["offers"]["run_twice_agreed"] == [acting]
    log.write(ActEntry(Action(acting, ActionKind.FOLD)))
    assert log.game.view(acting)["offers"]["run_twice"] is False  # folded: not in the pot
    assert log.game.view(acting)["offers"]["run_twice_reason"] == "not_in_pot"
    assert log.game.view(log.game.to_act)["offers"]["run_twice_reason"] is None


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


@pytest.mark.parametrize(("code", "stakes", "level"), [
    ("NT", {"small_blind": 10, "big_blind": 20}, {"small_blind": 10, "big_blind": 20}),
    ("FT", {"small_blind": 10, "big_blind": 20, "small_bet": 20, "big_bet": 40},
     {"small_blind": 10, "big_blind": 20, "small_bet": 20, "big_bet": 40}),
    ("F7S", {"small_blind": 10, "big_blind": 20, "ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40},
     {"ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}),
])
def test_one_statement_of_stakes_in_the_lobby_the_view_and_the_hand_history(code, stakes, level):  # issue #31 item 7
    log = _log_of(code)
    for seat in range(3):
        log.sit(seat, 11 + seat, 800)
    assert log.game.lobby_fields(log.state)["stakes"] == log.game.view(None)["stakes"] == stakes  # lobby and header agree
    assert log.game.lobby_fields(log.state)["level"] == log.game.view(0)["level"] == level
    log.deal()
    while log.game.in_hand:  # everyone brings in, calls or checks down
        legal = log.game.legal_actions()
        assert legal is not None
        kind = ActionKind.BRINGIN if legal.bring_in else ActionKind.CALL if legal.call_amount else ActionKind.CHECK
        log.write(ActEntry(Action(legal.seat, kind)))
    steps = cash_hand_steps(log.entries, 1, ["p11"])["steps"]
    assert steps[0]["view"]["level"] == level  # the history's first line: the real ante and bring-in
    assert steps[0]["view"]["stakes"] == stakes
    if "ante" in level:
        posts = [(e["kind"], e["amount"]) for e in steps[0]["events"] if e["type"] == "blind_posted"]
        assert posts.count(("ante", 2)) == 3


def _log_of(code: str, options: dict[str, Any] | None = None, seats: int = 4) -> EventLog:
    from freezeout.server.entries import LogEntry
    from freezeout.server.gamespec import GameSpec
    from freezeout.server.table.state import initial_state

    log = EventLog({"big_blind": 20})
    spec = GameSpec.parse_cash(code, options or {"big_blind": 20})
    log.entries = [LogEntry("t1", 1, 0.0, "create", {"slots": [None] * seats, "ranked": False, "created_by": 1,
                                                     "game": spec.to_json()})]
    log.state = initial_state(log.entries[0])
    return log


def _with_bot(options: dict[str, Any], humans: int = 1, code: str = "NT") -> EventLog:
    log = _log_of(code, options)
    for seat in range(humans):
        log.sit(seat, 11 + seat, 800)
    log.write(SitEntry(humans, Slot(900, "bot-hard", "bot", "hard"), chips=800, post=True))
    return log


def test_run_it_twice_at_a_table_with_a_bot_in_the_pot_says_why_it_is_not_offered():  # C7, issue #31 item 11
    log = _with_bot({"big_blind": 20, "run_twice": True})
    log.deal()
    me = 0
    offers = log.game.view(me)["offers"]
    assert offers["run_twice"] is False and offers["run_twice_reason"] == "bots"  # bots never agree
    with_two = _log_of("NT", {"big_blind": 20, "run_twice": True})
    for seat in range(2):
        with_two.sit(seat, 11 + seat, 800)
    with_two.deal()
    assert with_two.game.view(0)["offers"]["run_twice_reason"] is None  # two humans: offered
    assert _log_of("NT", {"big_blind": 20, "run_twice": False}).game.view(None)["offers"]["run_twice_reason"] == "not_in_pot"
    off = _with_bot({"big_blind": 20, "run_twice": False})
    assert off.game.view(0)["offers"]["run_twice_reason"] == "table"
    stud = _with_bot({"big_blind": 20, "run_twice": True}, code="F7S")
    assert stud.game.view(0)["offers"]["run_twice_reason"] == "game"


def test_the_view_says_whether_a_bot_can_be_added_and_the_room_refuses_with_the_same_reason():  # issue #31 item 11
    log = _log_of("NT", {"big_blind": 20}, seats=2)
    assert log.game.view(None)["add_bot"] == {"possible": False, "reason": "no_player"}
    log.sit(0, 11, 800)
    assert log.game.view(0)["add_bot"] == {"possible": True, "reason": None}
    log.write(SitEntry(1, Slot(900, "bot-hard", "bot", "hard"), chips=800, post=True))  # the fill took the seat
    assert log.game.view(0)["add_bot"] == {"possible": False, "reason": "no_seat"}
    user = UserRow(11, "p11", "user", None, 1500.0, 0)
    with pytest.raises(Refused, match="no seat for a bot"):
        check_add_bot(log.state, user, "hard", ("hard",))
    log.write(CashSeatEntry("sit_out", 0))
    assert log.game.view(0)["add_bot"]["reason"] == "no_player"


def test_each_seat_says_it_straddled_and_its_time_bank_grows_as_the_rules_say():  # C6, C11, issue #31 item 11
    log = _log_of("NT", {"big_blind": 20, "straddle": True})
    for seat in range(3):
        log.sit(seat, 11 + seat, 800)
    plan = log.game.table.plan()
    utg = next(s for s in plan.seats if s not in (plan.small_blind, plan.big_blind))
    log.write(CashSeatEntry("straddle", utg))
    view = log.game.view(None)
    assert [seat["straddle_next"] for seat in view["seats"][:3]] == [s == utg for s in range(3)]
    assert not any(seat["straddled"] for seat in view["seats"][:3])
    log.deal()
    view = log.game.view(None)
    assert [seat["straddled"] for seat in view["seats"][:3]] == [s == utg for s in range(3)]
    assert not any(seat["straddle_next"] for seat in view["seats"][:3])
    assert view["time_bank_rules"] == {"start": 30.0, "step": 5.0, "every": 20, "max": 60.0}
    assert [seat["time_bank"] for seat in view["seats"][:3]] == [30.0] * 3
    assert [seat["time_bank_hands"] for seat in view["seats"][:3]] == [20] * 3  # this hand is not over yet


def test_the_view_gives_the_viewers_top_up_range_and_the_page_need_not_work_it_out():  # C1, C2, issue #33 item 5
    log = play({"big_blind": 200}, ["AsAh", "KsKh"], "2c7d9hQcJd", all_in=True)  # buy-ins 4000 to 20000
    assert [seat.get("stack") for seat in log.game.view(None)["seats"]] == [16000, 0, None, None]
    assert log.game.view(0)["top_up"] == {"min": 1, "max": 20000 - 16000}  # up to the maximum buy-in on the table
    assert log.game.view(1)["top_up"] == {"min": 4000, "max": 20000}  # C2: a rebuy is at least the minimum buy-in
    assert log.game.view(2)["top_up"] is None and log.game.view(None)["top_up"] is None  # no chips to add to
    assert log.game.view(0)["format"] == "cash"
