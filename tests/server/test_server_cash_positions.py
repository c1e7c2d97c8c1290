"""C12 at a cash table: the server's cash view names each dealt-in seat's position in the
current (or last) hand — BTN, SB, BB, UTG.. CO — and null before the first hand."""

from __future__ import annotations

import pytest
from test_server_cash_play import EventLog

from freezeout.cards import full_deck


@pytest.mark.parametrize(("size", "middle"), [
    (6, ["UTG", "HJ", "CO"]),
    (9, ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"]),
])
def test_c12_a_full_cash_table_names_every_seats_position(size: int, middle: list[str]) -> None:
    log = EventLog({"big_blind": 200}, seats=size)
    for seat in range(size):
        log.sit(seat, 11 + seat, 8000)
    assert all(seat.get("position") is None for seat in log.game.view(None)["seats"])  # no hand yet
    deck = [str(card) for card in full_deck()]
    log.deal_rigged(["".join(deck[2 * i:2 * i + 2]) for i in range(size)], "".join(deck[2 * size:2 * size + 5]))
    view = log.game.view(0)
    button = view["button"]
    got = [view["seats"][(button + k) % size]["position"] for k in range(size)]
    assert got == ["BTN", "SB", "BB", *middle]
    assert [seat["position"] for seat in log.game.view(None)["seats"]] == [seat["position"] for seat in view["seats"]]
