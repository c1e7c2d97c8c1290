"""The view carries what a client needs to draw any game (issue #22, "the page holds no poker").

Card slots per seat and per viewer (R8, V7), the board's size, the dealer
button (none in stud, V7), the blinds' seats (R5), the fixed-limit cap (V3),
the next level (R6, V18) and hand names in every language the page speaks.
"""

from __future__ import annotations

from freezeout.cards import parse_cards
from freezeout.rules import games
from freezeout.rules.actions import Action
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import view_dicts


def _start(code: str, holes: dict[int, str], board: str = "", players: int = 3) -> Tournament:
    names = tuple(f"p{i}" for i in range(players))
    t = Tournament.start(games.tournament_config(games.parse_game(code), names, button=0))
    t, _ = t.deal({seat: parse_cards(cards) for seat, cards in holes.items()}, parse_cards(board))
    return t


def test_r8_v7_each_viewer_sees_its_own_slots_and_everyones_up_cards() -> None:
    t = _start("F7S", {0: "AsKsQs2h3h4h5h", 1: "2c3c4d9h9d9c9s", 2: "8c8d8h7c7d7h7s"})
    views = view_dicts(t, [0, None])
    assert [s["slots"] for s in views[0]["seats"]] == [["down", "down", "up"], ["unknown", "unknown", "up"], ["unknown", "unknown", "up"]]
    assert [s["slots"] for s in views[None]["seats"]] == [["unknown", "unknown", "up"]] * 3
    assert views[None]["seats"][0]["cards"] == "????Qs"


def test_the_house_game_holds_two_slots_per_seat_and_five_board_places() -> None:
    t = _start("NT", {0: "AsKd", 1: "QcQh", 2: "7c2d"}, "Qs9h4c8h3d")
    view = view_dicts(t, [1])[1]
    assert [s["slots"] for s in view["seats"]] == [["unknown"] * 2, ["down"] * 2, ["unknown"] * 2]
    assert view["board_size"] == 5 and view["dealer_button"] == 0 and view["blind_seats"] == [1, 2]
    assert view["hands_per_level"] == 6 and view["next_level"] == {"small_blind": 20, "big_blind": 40}
    assert "limit" not in view  # no-limit: no cap


def test_v7_stud_has_no_board_places_no_button_and_no_blinds() -> None:
    view = view_dicts(_start("F7S", {0: "AsKsQs2h3h4h5h", 1: "2c3c4d9h9d9c9s"}, players=2), [0])[0]
    assert view["board_size"] == 0 and view["dealer_button"] is None and view["blind_seats"] == [None, None]


def test_v11_a_draw_game_has_no_board_places() -> None:
    view = view_dicts(_start("F2L3D", {0: "2c3d4h5s7c", 1: "8c9dThJsQc"}, players=2), [0])[0]
    assert view["board_size"] == 0 and view["dealer_button"] == 0 and len(view["seats"][1]["slots"]) == 5


def test_v3_the_cap_counts_the_bets_and_raises_of_the_round() -> None:
    t = _start("FT", {0: "AsKd", 1: "QcQh", 2: "7c2d"}, "Qs9h4c8h3d")
    assert view_dicts(t, [0])[0]["limit"] == {"bets": 1, "cap": 4, "left": 3, "capped": False}  # the big blind is the bet
    for seat in (0, 1, 2):
        legal = t.legal_actions()
        assert legal is not None
        t, _ = t.act(Action.parse(seat, "raise", legal.sizes[0]))
    assert view_dicts(t, [0])[0]["limit"] == {"bets": 4, "cap": 4, "left": 0, "capped": True}


def test_v3_heads_up_there_is_no_cap() -> None:
    view = view_dicts(_start("FT", {0: "AsKd", 1: "QcQh"}, "Qs9h4c8h3d", players=2), [0])[0]
    assert view["limit"]["cap"] is None and view["limit"]["left"] is None and not view["limit"]["capped"]


def test_v6_a_split_pot_names_each_half_in_english_and_czech() -> None:
    t = _start("FO/8", {0: "AhKdQsJc", 1: "3c8d9hTs"}, "2c4d7hKcKs", players=2)
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        t, _ = t.act(Action.parse(legal.seat, "check" if "check" in legal.moves else "call"))
    view = view_dicts(t, [None])[None]
    halves = {pot["half"]: pot for pot in view["result"]}
    assert halves["high"]["winners"][0]["seat"] == 0 and halves["low"]["winners"][0]["seat"] == 1
    assert halves["low"]["names"]["en"] == halves["low"]["hand"] and "8-7-4-3-2" in halves["low"]["names"]["cs"]
    assert halves["high"]["names"]["cs"].startswith("Tři králové")
    bo = view["seats"][1]["shown"]
    assert set(bo["names"]) == {"en", "cs"} and set(bo["low_names"]) == {"en", "cs"}


def test_a_view_says_its_format_and_the_table_before_the_pots_were_awarded() -> None:
    """Issue #33 item 5: the page draws an all-in run-out card by card with the stacks and the
    pot as they stood before the result; the view says them (``before_result``), the page no
    longer takes the winnings back off the stacks itself.  ``format`` is the one field that
    tells a client a freezeout's view from a cash table's."""
    t = _start("NT", {0: "AsAd", 1: "KcKh", 2: "7c2d"}, "Qs9h4c8h3d")
    t, _ = t.act(Action.parse(0, "raise", 1000))
    t, _ = t.act(Action.parse(1, "call"))
    assert view_dicts(t, [None])[None]["format"] == "freezeout"
    assert "before_result" not in view_dicts(t, [None])[None]  # the hand is not over
    t, _ = t.act(Action.parse(2, "fold"))
    views = view_dicts(t, [None, 0])
    assert [s["stack"] for s in views[None]["seats"]] == [2020, 0, 980]
    assert views[None]["before_result"] == {"stacks": [0, 0, 980], "pots": [{"pot": 0, "amount": 2020}]}
    assert views[0]["before_result"] == views[None]["before_result"] and views[0]["format"] == "freezeout"
