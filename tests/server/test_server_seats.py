"""Full tables (issue #34, C12, V18, V19): every game seats its own maximum, the house game's freezeout 2–4.

Cash tables of hold'em and Omaha seat up to 10, short-deck 6, the stud games 8, the draw
games and Badugi 6; freezeouts of every game but the house game up to the game's maximum
(a mix: V19's smallest); the house game's freezeout stays 2–4 (R1).  A seat asked beyond
a table's own size is refused clearly (``bad_message`` naming its seats) and changes
nothing.  The pure fold and the room's checks, without a served app.
"""

from __future__ import annotations

from typing import Any

import pytest

from freezeout.server.entries import SitEntry, Slot
from freezeout.server.gamespec import GameRefused, GameSpec, seat_ranges
from freezeout.server.settings import Settings
from freezeout.server.storage.store import LogEntry
from freezeout.server.storage.users import UserRow
from freezeout.server.table.cashbots import add_bot_refusal, fill_target
from freezeout.server.table.commands import BuyIn, Sit
from freezeout.server.table.formats import check_game
from freezeout.server.table.gameinfo import catalogue
from freezeout.server.table.intents import entry_for
from freezeout.server.table.state import Refused, initial_state, reduce
from freezeout.server.table.tableevents import Seated

OPTIONS = {"big_blind": 200}


def cash_table(code: str, seats: int) -> Any:
    spec = GameSpec.parse_cash(code, OPTIONS)
    check_game(spec, seats)  # what the room checks before it opens the table
    create = LogEntry("t1", 1, 0.0, "create", {"slots": [None] * seats, "ranked": False, "created_by": 1,
                                               "game": spec.to_json()})
    return initial_state(create)


def seat_everyone(state: Any, seats: int) -> Any:
    for index in range(seats):
        entry = SitEntry(index, Slot(100 + index, f"p{index}", "user"), chips=10_000)
        state, told, _ = reduce(state, LogEntry.of("t1", state.version + 1, 1.0 + index, entry))
        assert told[0] == Seated(index, f"p{index}", 10_000)
    return state


@pytest.mark.parametrize(("code", "seats"), [
    ("NT", 6), ("NT", 9), ("NT", 10),  # hold'em: 6-max, full ring, ten (C12)
    ("PO", 10),  # Omaha seats 10 too
    ("F7S", 8),  # stud: eight, with V7's shared card when the deck runs short
    ("F2L3D", 6), ("FB", 6), ("NS", 6),  # draw games and Badugi, short-deck: six
    ("HORSE", 8), ("8GAME", 6),  # a mix: its smallest maximum (V19)
])
def test_a_cash_table_seats_its_games_maximum_and_every_seat_can_be_bought(code, seats):  # C12
    state = seat_everyone(cash_table(code, seats), seats)
    assert state.size == seats and all(slot.taken for slot in state.slots)
    assert GameSpec(GameSpec.parse(code).code, "cash").max_seats >= seats


@pytest.mark.parametrize(("code", "seats", "most"), [
    ("PO", 11, 10), ("NS", 7, 6), ("F7S", 9, 8), ("FR", 9, 8), ("F2L3D", 7, 6), ("F5CD", 7, 6),
    ("FB", 7, 6), ("HORSE", 9, 8), ("8GAME", 7, 6),
])
def test_seats_above_a_games_maximum_are_refused_naming_it(code, seats, most):  # C12, V19
    for format in ("cash", "freezeout"):
        spec = GameSpec.parse_cash(code, OPTIONS) if format == "cash" else GameSpec.parse(code)
        with pytest.raises(GameRefused, match=f"at most {most} players here .*not {seats}"):
            check_game(spec, seats)


def test_the_house_games_freezeout_stays_two_to_four_and_its_cash_table_seats_ten():  # R1, C12
    house = GameSpec()
    assert house.is_house and (house.min_seats, house.max_seats) == (2, 4)
    for seats in (2, 3, 4):
        check_game(house, seats)
    with pytest.raises(GameRefused, match="the house game's freezeout seats at most 4, C12\\), not 5"):
        check_game(house, 5)
    check_game(GameSpec.parse_cash("NT", OPTIONS), 10)
    with pytest.raises(GameRefused, match="at most 10 players here \\(No-Limit Texas Hold'em seats at most 10, C12\\), not 11"):
        check_game(GameSpec.parse_cash("NT", OPTIONS), 11)
    assert seat_ranges("NT") == {"freezeout": {"min": 2, "max": 4, "usual": [2, 4]},
                                 "cash": {"min": 2, "max": 10, "usual": [2, 6, 9, 10]}}


def test_freezeouts_of_the_other_games_seat_their_maximum():  # V18, V19
    for code, most in (("PO", 10), ("F7S", 8), ("F2L3D", 6), ("HORSE", 8), ("8GAME", 6)):
        spec = GameSpec.parse(code)
        assert spec.max_seats == most
        check_game(spec, most)  # a schedule and a seat for every player


def test_the_catalogue_gives_each_games_seats_per_format_and_its_usual_sizes():  # C12
    games = {g["game"]: g for g in catalogue(lambda code: "house", seat_ranges, lambda code: ("random",))}
    assert games["NT"]["seats"]["freezeout"] == {"min": 2, "max": 4, "usual": [2, 4]}
    assert games["NT"]["seats"]["cash"]["usual"] == [2, 6, 9, 10]
    assert games["F7S"]["seats"]["cash"] == {"min": 2, "max": 8, "usual": [2, 6, 8]}
    assert games["F2L3D"]["seats"]["cash"] == {"min": 2, "max": 6, "usual": [2, 6]}
    assert games["F7S"]["seats"]["freezeout"]["max"] == games["F7S"]["max_seats"] == 8


def _user(uid: int) -> UserRow:
    return UserRow(id=uid, name=f"u{uid}", kind="user", password_hash=None, rating=1500.0, ranked_games=0)


@pytest.mark.parametrize(("code", "seats"), [("NT", 6), ("F7S", 8), ("NT", 9)])
def test_a_seat_beyond_the_tables_own_size_is_a_bad_message_naming_its_seats(code, seats):  # C12, bad input
    state = cash_table(code, seats)
    intent = BuyIn(type="buy_in", chips=10_000, slot=seats)
    with pytest.raises(Refused, match=f"this table has {seats} seats \\(slot 0 to {seats - 1}\\), so there is no slot {seats}") as refused:
        entry_for(state, _user(7), intent, 1.0, Settings(), lambda uid: True)
    assert refused.value.code == "bad_message"
    last = entry_for(state, _user(7), BuyIn(type="buy_in", chips=10_000, slot=seats - 1), 1.0, Settings(), lambda uid: True)
    assert last.slot == seats - 1  # type: ignore[attr-defined]


def test_a_freezeout_place_beyond_its_size_is_refused_the_same_way():
    state = initial_state(LogEntry("t2", 1, 0.0, "create", {"slots": [None, None], "ranked": False}))
    with pytest.raises(Refused, match="this table has 2 seats") as refused:
        entry_for(state, _user(7), Sit(type="sit", slot=3), 1.0, Settings(), lambda uid: True)
    assert refused.value.code == "bad_message" and not any(slot.taken for slot in state.slots)


@pytest.mark.parametrize("seats", [6, 8, 9, 10])
def test_bots_fill_a_full_table_up_to_one_seat_short_of_full(seats):  # issue #34: the cash fill rule at 6-10 seats
    assert fill_target(seats) == seats - 1
    state = cash_table("F7S" if seats == 8 else "NT", seats)
    short = seat_everyone(state, seats - 2)  # players in all but two seats: a bot may take one of them
    assert add_bot_refusal(short.table_game, ("random",)) is None
    one_free = seat_everyone(state, seats - 1)  # one seat left: it stays free for the next player
    refusal = add_bot_refusal(one_free.table_game, ("random",))
    assert refusal is not None and refusal[0] == "no_seat" and f"one seat of {seats} stays free" in refusal[1]
