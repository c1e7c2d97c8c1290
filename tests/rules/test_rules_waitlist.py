"""C13: a full cash table's waiting list — in order of joining; a freed seat
is offered to the first in line for a limited time (60 s), then the next;
leaving the list or the room drops the place."""

from __future__ import annotations

import pytest

from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.waitlist import (
    OFFER_SECONDS,
    Joined,
    Left,
    Offered,
    OfferLapsed,
    SeatTakenFromList,
    WaitingList,
    drop_everywhere,
)


def waiting(*players: str) -> WaitingList:
    w = WaitingList()
    for player in players:
        w, _ = w.join(player, table_full=True)
    return w


def test_c13_players_wait_in_the_order_they_joined() -> None:
    w, events = WaitingList().join("ana", table_full=True)
    assert events == [Joined("ana", 1)]
    w, events = w.join("bo", table_full=True)
    assert events == [Joined("bo", 2)]
    assert (w.place("ana"), w.place("bo"), w.place("cy")) == (1, 2, None)


def test_c13_joining_a_table_that_is_not_full_or_twice_is_refused_and_changes_nothing() -> None:
    w = waiting("ana")
    with pytest.raises(IllegalAction, match="free seat: sit down instead"):
        w.join("bo", table_full=False)
    with pytest.raises(IllegalAction, match="already on the waiting list \\(place 1\\)"):
        w.join("ana", table_full=True)
    with pytest.raises(IllegalAction, match="already sits at this table"):
        w.join("cy", table_full=True, seated=True)
    assert w == waiting("ana")


def test_c13_a_freed_seat_is_offered_to_the_first_in_line_for_60_seconds() -> None:
    w = waiting("ana", "bo")
    w, events = w.seat_freed(4, now=100.0)
    assert OFFER_SECONDS == 60.0
    assert events == [Offered("ana", 4, 160.0)] and w.offered_seats == (4,)
    w, seat, events = w.accept("ana", now=159.9)
    assert seat == 4 and events == [SeatTakenFromList("ana", 4)]
    assert w.queue == ("bo",) and w.offers == ()


def test_c13_an_offer_not_taken_in_time_lapses_and_goes_to_the_next() -> None:
    w, _ = waiting("ana", "bo", "cy").seat_freed(2, now=0.0)
    same, events = w.expire(now=59.0)
    assert same == w and events == []
    w, events = w.expire(now=60.0)
    assert events == [OfferLapsed("ana", 2), Offered("bo", 2, 120.0)]
    assert w.place("ana") is None and w.place("bo") == 1
    with pytest.raises(IllegalAction, match="no seat offered and is not on the waiting list"):
        w.accept("ana", now=61.0)
    with pytest.raises(IllegalAction, match="has lapsed"):
        w.accept("bo", now=120.0)


def test_c13_two_seats_free_two_offers_in_line() -> None:
    w, first = waiting("ana", "bo", "cy").seat_freed(1, now=0.0)
    w, second = w.seat_freed(5, now=10.0)
    assert first + second == [Offered("ana", 1, 60.0), Offered("bo", 5, 70.0)]
    with pytest.raises(IllegalAction, match="already offered to ana"):
        w.seat_freed(1, now=11.0)


def test_c13_leaving_drops_the_place_and_passes_the_offer_on() -> None:
    w, _ = waiting("ana", "bo").seat_freed(3, now=0.0)
    w, events = w.leave("ana", now=5.0)
    assert events == [Left("ana"), Offered("bo", 3, 65.0)]
    with pytest.raises(IllegalAction, match="not on the waiting list"):
        w.leave("ana", now=6.0)
    w, events = w.decline("bo", now=7.0)
    assert events == [Left("bo")] and w == WaitingList()


def test_c13_nobody_waiting_leaves_the_seat_free() -> None:
    w, events = WaitingList().seat_freed(0, now=0.0)
    assert w == WaitingList() and events == []


def test_c13_first_available_taking_a_seat_anywhere_leaves_every_list() -> None:
    lists = {"t1": waiting("ana", "bo"), "t2": waiting("bo", "ana"), "t3": waiting("cy")}
    lists["t2"], _ = lists["t2"].seat_freed(7, now=0.0)
    lists["t2"], seat, _ = lists["t2"].accept("bo", now=1.0)
    assert seat == 7
    lists, events = drop_everywhere(lists, "bo", now=1.0, keep=("t2",))
    assert lists["t1"].queue == ("ana",) and lists["t3"].queue == ("cy",)
    assert events == [("t1", Left("bo"))]


def test_bad_input_is_refused() -> None:
    with pytest.raises(InvalidInput, match="positive number of seconds"):
        WaitingList(offer_seconds=0)
    with pytest.raises(InvalidInput, match="seat -1"):
        WaitingList().seat_freed(-1, now=0.0)
    with pytest.raises(InvalidInput, match="by name"):
        WaitingList().join("", table_full=True)


def test_c13_c14_players_moved_from_a_broken_table_wait_ahead_of_those_who_chose() -> None:
    w = waiting("ana", "bo")
    w, events = w.join("cy", table_full=True, moved=True)
    assert events == [Joined("cy", 1)]
    w, events = w.join("di", table_full=True, moved=True)
    assert events == [Joined("di", 2)] and w.queue == ("cy", "di", "ana", "bo")
    w, _ = w.leave("cy", now=0.0)
    w, events = w.join("eve", table_full=True, moved=True)
    assert w.queue == ("di", "eve", "ana", "bo") and events == [Joined("eve", 2)]
    w, events = w.seat_freed(3, now=0.0)
    assert events == [Offered("di", 3, 60.0)]
