"""C2's auto top-up at a cash table (issue #25): a seat option that tops the seat up from the
balance between hands, its ledger row in the entry's transaction; a balance too small tops
up what it can, or the top-up is skipped and said.  And C3's 30 minutes from the hand's end."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_cash import Log, balance_of, open_cash_table, play_hands, request, rows_of, seated

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import ActEntry, CashSeatEntry, StandEntry, TopUpEntry, decode_body
from freezeout.server.storage.ledger import HOUSE
from freezeout.server.table.cash import CashGame
from freezeout.server.table.state import Refused
from freezeout.server.wire import dumps

from serverkit import Harness, Player


# -- the entries and the fold ---------------------------------------------------------------
@pytest.mark.parametrize(("kind", "data"), [
    ("cash_seat", {"request": "auto_top_up", "seat": 1, "to": 8000}),
    ("cash_seat", {"request": "auto_top_up", "seat": 1, "to": None, "intent": {"user": 2, "key": "k-0123456"}}),
    ("cash_seat", {"request": "auto_top_up_skipped", "seat": 0}),
    ("top_up", {"seat": 1, "chips": 200, "auto": True}),
])
def test_the_auto_top_up_entries_write_the_json_they_read(kind, data):
    assert dumps(decode_body(kind, data).to_json()) == dumps(data)


def test_c2_an_auto_top_up_is_within_the_buy_ins():
    log = Log()  # buy-ins 4000 to 20000
    log.sit(0, 11, 8000)
    for to in (3999, 20001):
        with pytest.raises(Refused, match="4000 to 20000 chips"):
            log.write(CashSeatEntry("auto_top_up", 0, to=to))
    with pytest.raises(Refused, match="not seated"):
        log.write(CashSeatEntry("auto_top_up", 1, to=8000))
    assert log.game.auto_top_up == ()


def test_c2_the_table_owes_the_top_up_between_hands_and_only_then():
    log = Log()
    log.sit(0, 11, 8000)
    log.sit(1, 12, 6000)
    log.write(CashSeatEntry("auto_top_up", 0, to=9000))
    assert log.game.auto_due == {0}  # between hands: due at once
    with pytest.raises(Refused, match="no auto top-up is due for seat 2"):
        log.write(TopUpEntry(1, 100, auto=True))  # the table tops up only what is due
    log.write(TopUpEntry(0, 1000, auto=True))
    assert log.game.auto_due == frozenset() and log.game.table.seats[0].stack == 9000
    assert log.transfers[-1] == ("top_up", 11, 1000)
    log.deal()
    log.write(CashSeatEntry("auto_top_up", 1, to=6000))
    assert 1 not in log.game.auto_due  # in the hand: not before its end (C2)
    log.call_down()
    losers = {seat for seat, to in ((0, 9000), (1, 6000)) if log.game.table.seats[seat].stack < to}
    assert log.game.auto_due == losers
    with pytest.raises(Refused, match="no auto top-up is due"):
        log.write(CashSeatEntry("auto_top_up_skipped", 2))


def test_c2_the_top_up_pays_what_the_balance_can_and_a_rebuy_its_minimum():
    log = Log()
    log.sit(0, 11, 8000)
    log.write(CashSeatEntry("auto_top_up", 0, to=9000))
    game = log.game
    assert [game.auto_top_up_chips(0, balance) for balance in (5000, 300, 0)] == [1000, 300, 0]
    broke = CashGame(game.spec, game.table.__class__(game.table.config, (game.table.seats[0]._replace(stack=0),
                                                                         *game.table.seats[1:])),
                     auto_top_up=game.auto_top_up)
    assert broke.auto_top_up_chips(0, 3999) == 0 and broke.auto_top_up_chips(0, 4000) == 4000  # C1: a rebuy's minimum


# -- C3 from the hand's end ------------------------------------------------------------------
def test_c3_the_30_minutes_count_from_the_hands_end_not_the_leave_request():
    log = Log()
    log.sit(0, 11, 8000)
    log.sit(1, 12, 6000)
    log.deal()
    log.write(StandEntry(0), at=10.0)  # asked during the hand
    while log.game.in_hand:  # the hand ends at 1000
        legal = log.game.legal_actions()
        assert legal is not None
        log.write(ActEntry(Action(legal.seat, ActionKind.CALL if legal.call_amount else ActionKind.CHECK)), at=1000.0)
    assert not log.state.slots[0].taken
    left_with = log.transfers[-2][2] if log.transfers[-1][0] == "rake" else log.transfers[-1][2]
    with pytest.raises(Refused, match="C3"):
        log.sit(2, 11, 4000, at=1000.0 + 30 * 60 - 1)  # 30 minutes after the request, not after leaving
    assert left_with > 4000
    log.sit(2, 11, 4000, at=1000.0 + 30 * 60)


# -- over the WebSocket ------------------------------------------------------------------
def seat_view(p: Player, seat: int) -> dict[str, Any]:
    assert p.view is not None
    return dict(p.view["seats"][seat])


async def test_c2_auto_top_up_between_hands_with_its_ledger_row(harness):
    h: Harness = harness
    table = await open_cash_table(h)
    ana, bo = await seated(h, table, "ana", "bo")
    a, b = ana.user["id"], bo.user["id"]
    assert await request(h, table, ana, {"type": "buy_in", "chips": 9900, "slot": 0}) is None  # 100 left
    refused = await request(h, table, ana, {"type": "auto_top_up", "to": 30000})
    assert refused is not None and refused["code"] == "illegal" and "4000 to 20000" in refused["message"]
    refused = await request(h, table, ana, {"type": "auto_top_up", "to": 2.5})
    assert refused is not None and refused["code"] == "bad_message"
    assert await request(h, table, ana, {"type": "auto_top_up", "to": 10000}) is None
    await h.settle()
    assert await balance_of(h, a) == 0  # tops up what the balance pays: 100 of 100
    await ana.until_version(h.table(table).state.version)
    assert seat_view(ana, 0)["stack"] == 10000 and seat_view(ana, 0)["auto_top_up"] == 10000
    assert await request(h, table, bo, {"type": "buy_in", "chips": 6000, "slot": 1}) is None  # 4000 left
    assert await request(h, table, bo, {"type": "auto_top_up", "to": 6000}) is None
    await play_hands(h, table, [ana, bo], 1)
    await h.settle()
    game = h.table(table).state.table_game
    assert isinstance(game, CashGame) and not game.in_hand and not game.auto_due
    stacks = game.table.current_stacks()
    rows = await rows_of(h, table)
    kinds = [(account, kind) for account, kind, _ in rows]
    assert kinds[:4] == [(a, "buy_in"), (a, "top_up"), (b, "buy_in"), (HOUSE, "rake")]
    if stacks[1] >= 6000:  # bo won or split back to at least 6000: nothing to top up
        assert (b, "top_up") not in kinds
    else:
        assert rows[-1][:2] == (b, "top_up") and stacks[1] == 6000 and await balance_of(h, b) == 4000 - rows[-1][2]
    if stacks[0] < 10000:  # ana lost chips and has no balance: skipped and said
        events = [e for m in ana.messages if m["type"] == "update" for e in m["events"]]
        assert {"type": "auto_top_up_skipped", "seat": 0, "to": 10000, "reason": "the balance cannot pay it"} in events
    assert await request(h, table, ana, {"type": "auto_top_up", "to": None}) is None
    assert seat_view(ana, 0)["auto_top_up"] is None
    assert await h.ctx.store.ledger.check() == []
