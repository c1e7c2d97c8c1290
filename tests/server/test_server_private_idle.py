"""An empty private cash table waits for the friend its creator holds a place for (issue #37):
it closes itself ``cash_idle_seconds`` after its last entry, as any empty cash table does, or
after the last held place lapses, whichever is later — never while a hold is live."""

from __future__ import annotations

from freezeout.server.entries import GuestEntry, LogEntry
from freezeout.server.gamespec import GameSpec
from freezeout.server.table.state import TableState, initial_state, reduce

IDLE = 1800.0


def _empty_private_cash_table() -> TableState:
    spec = GameSpec.parse_cash("NT", {"big_blind": 200})
    create = LogEntry("t1", 1, 0.0, "create", {"slots": [None] * 6, "ranked": False, "created_by": 1,
                                                "game": spec.to_json(), "private": True, "invite": "s" * 32})
    return initial_state(create)


def test_an_empty_private_cash_table_stays_open_while_a_place_is_held() -> None:
    state = _empty_private_cash_table()
    assert state.table_game.close_at(state, IDLE) == IDLE  # nobody seated, nothing held
    hold = GuestEntry("hold", user=7, name="bo", slot=2, until=10.0 + 3600.0)  # held an hour
    state, _, _ = reduce(state, LogEntry.of("t1", state.version + 1, 10.0, hold))
    assert state.guests.held_slots(11.0) == frozenset({2})
    # the idle countdown starts when the hold lapses, not at the entry that held it
    assert state.table_game.close_at(state, IDLE) == 10.0 + 3600.0 + IDLE


def test_a_released_place_no_longer_keeps_the_table_open() -> None:
    state = _empty_private_cash_table()
    for seq, body in enumerate((GuestEntry("hold", user=7, name="bo", slot=2, until=3610.0),
                                GuestEntry("release", slot=2)), start=state.version + 1):
        state, _, _ = reduce(state, LogEntry.of("t1", seq, 10.0, body))
    assert state.table_game.close_at(state, IDLE) == 10.0 + IDLE
