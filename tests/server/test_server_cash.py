"""A cash table on the server (C1–C11, issue #25 step 3): its game, its log, its chips.

The pure fold first (a table's log is the cash table: rules.md C1–C7), then a real
table actor over the WebSocket: buy in, play, top up between hands, leave with the
chips; the ledger rows ride with their entries (C9) and ``freezeout ledger check``
balances; a table rebuilt from its log mid-hand has lost no chip.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import pytest
from sqlalchemy import select, text, update

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import (
    ActEntry,
    CashSeatEntry,
    CommitEntry,
    DealEntry,
    LogEntry,
    SitEntry,
    Slot,
    StandEntry,
    TopUpEntry,
    UnknownEntry,
    decode_body,
)
from freezeout.server.fairness import new_deal
from freezeout.server.gamespec import CashOptions, GameRefused, GameSpec
from freezeout.server.storage.ledger import HOUSE, balances, ledger
from freezeout.server.table.actor import TableActor
from freezeout.server.table.cash import CashGame
from freezeout.server.table.chips import cash_transfers, holdings
from freezeout.server.table.formats import check_game
from freezeout.server.table.state import Refused, TableState, initial_state, reduce
from freezeout.server.table.tableevents import told_json
from freezeout.server.wire import dumps

from serverkit import Harness, Player

OPTIONS = {"big_blind": 200, "rake_bp": 500, "rake_cap": 300}  # buy-ins 4000 to 20000; the grant is 10000


# -- the spec -----------------------------------------------------------------------
def test_a_cash_spec_names_its_options_in_the_create_entry_and_reads_back_the_same():
    spec = GameSpec.parse_cash("NT", {"big_blind": 100, "max_buy_in": 5000, "rake_bp": 500, "rake_cap": 300,
                                      "straddle": False})
    assert spec.format == "cash" and spec.cash == CashOptions(100, 0, 5000, 500, 300, False, True)
    assert GameSpec.from_json(spec.to_json()) == spec
    check_game(spec, 4)
    assert GameSpec.from_json({"code": "NT", "format": "freezeout"}).cash is None  # an old log replays unchanged
    assert "cash" not in GameSpec.parse("NT").to_json()


@pytest.mark.parametrize(("options", "why"), [
    ({"big_blind": 1}, "'big_blind' must be at least 2"),
    ({"big_blind": 2.5}, "whole number"),
    ({"big_blind": float("nan")}, "whole number"),
    ({"big_blind": True}, "whole number"),
    ({"min_buy_in": -5}, "at least 0"),
    ({"rake_bp": 500}, "needs its cap"),
    ({"rake_bp": 20000, "rake_cap": 5}, "more than the whole pot"),
    ({"straddle": "yes"}, "true or false"),
    ({"ante": 5}, "unknown cash option 'ante'"),
])
def test_bad_cash_options_are_refused_clearly(options, why):
    with pytest.raises(GameRefused, match=why):
        GameSpec.parse_cash("NT", options)


def test_buy_ins_the_rules_refuse_are_refused_when_the_table_is_opened():
    spec = GameSpec.parse_cash("NT", {"big_blind": 100, "min_buy_in": 900, "max_buy_in": 800})
    with pytest.raises(GameRefused, match="buy-ins need"):
        check_game(spec, 2)


# -- the entries -------------------------------------------------------------------------
CASH_STORED = [
    ("create", {"slots": [None, None], "ranked": False, "created_by": 1,
                "game": {"code": "NT", "format": "cash", "cash": CashOptions(200, 0, 0, 500, 300, True, False).to_json()}}),
    ("sit", {"slot": 0, "user_id": 1, "name": "ana", "kind": "user", "chips": 5000}),
    ("sit", {"slot": 1, "user_id": 2, "name": "bo", "kind": "user", "chips": 4000, "transfer": "bo-1", "post": True,
             "intent": {"user": 2, "key": "k-0123456"}}),
    ("stand", {"slot": 0, "chips": 5200}),
    ("top_up", {"seat": 1, "chips": 1000}),
    ("top_up", {"seat": 1, "chips": 1000, "transfer": "bo-2", "intent": {"user": 2, "key": "k-0123457"}}),
    ("cash_seat", {"request": "sit_out", "seat": 0}),
    ("cash_seat", {"request": "sit_in", "seat": 0, "flag": True}),
    ("cash_seat", {"request": "straddle", "seat": 2}),
    ("cash_seat", {"request": "run_twice", "seat": 1, "flag": False}),
]


@pytest.mark.parametrize(("kind", "data"), CASH_STORED, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASH_STORED)])
def test_every_cash_entry_reads_as_a_typed_body_that_writes_the_same_json(kind, data):
    body = decode_body(kind, data)
    assert body.kind == kind
    assert dumps(body.to_json()) == dumps(data)


def test_a_cash_request_no_table_knows_is_an_unknown_entry():
    with pytest.raises(UnknownEntry, match="unknown cash request 'rebuy'"):
        decode_body("cash_seat", {"request": "rebuy", "seat": 0})


# -- the fold -------------------------------------------------------------------------
class Log:
    """A cash table's log written by hand: each entry folded, with the transfers the writer
    would write with it."""

    def __init__(self, options: dict[str, Any] = OPTIONS, seats: int = 4) -> None:
        spec = GameSpec.parse_cash("NT", options)
        self.entries = [LogEntry("t1", 1, 0.0, "create", {"slots": [None] * seats, "ranked": False, "created_by": 1,
                                                          "game": spec.to_json()})]
        self.state: TableState = initial_state(self.entries[0])
        self.transfers: list[tuple[str, int, int]] = []  # (kind, account, amount)
        self.rng = random.Random(7)

    @property
    def game(self) -> CashGame:
        game = self.state.table_game
        assert isinstance(game, CashGame)
        return game

    def write(self, body: Any, at: float = 0.0) -> list[dict[str, Any]]:
        entry = LogEntry.of("t1", self.state.version + 1, at, body)
        new, told, _ = reduce(self.state, entry)
        self.transfers += [(t.kind, t.account_id, t.amount) for t in cash_transfers(self.state, new, entry, None)]
        self.state = new
        self.entries.append(LogEntry("t1", entry.seq, entry.at, entry.kind, entry.data))  # as the database reads it
        return told_json(told)  # as a client reads them

    def sit(self, slot: int, user: int, chips: int, at: float = 0.0) -> None:
        self.write(SitEntry(slot, Slot(user, f"p{user}", "user"), chips=chips), at)

    def deal(self) -> None:
        self.write(CommitEntry(new_deal(self.game.hand_number + 1, self.rng, self.state.spec.variant_for_hand(1))))
        self.write(DealEntry())

    def call_down(self) -> None:
        while self.game.in_hand:
            legal = self.game.legal_actions()
            assert legal is not None
            self.write(ActEntry(Action(legal.seat, ActionKind.CALL if legal.call_amount else ActionKind.CHECK)))

    def ledger_says(self) -> int:
        signs = {"buy_in": 1, "top_up": 1, "cash_out": -1, "rake": -1}
        return sum(signs[kind] * amount for kind, _, amount in self.transfers)


def test_a_cash_tables_life_in_its_log_every_chip_on_the_table_is_in_the_ledger():  # C1–C3, C5, C9
    log = Log()
    assert not log.state.needs_commit  # nobody seated: no deck is committed, no hand is due
    log.sit(0, 11, 8000)
    log.sit(1, 12, 6000)
    assert log.state.needs_commit
    for _ in range(3):
        log.deal()
        log.call_down()
        assert holdings("t1", log.entries) == log.game.held() == log.ledger_says()
    assert log.game.table.rake_total == 3 * 20  # 5 % of each 400-chip pot
    log.write(TopUpEntry(1, 2000))
    log.deal()
    assert log.write(StandEntry(0)) == [{"type": "leaving", "slot": 0, "name": "p11"}]  # C3: after the hand
    assert holdings("t1", log.entries) == log.ledger_says()  # mid-hand: the pot counts where it came from
    log.call_down()
    assert not log.state.slots[0].taken
    kinds = [(kind, account) for kind, account, _ in log.transfers]
    assert kinds == [("buy_in", 11), ("buy_in", 12), ("rake", HOUSE), ("rake", HOUSE), ("rake", HOUSE),
                     ("top_up", 12), ("cash_out", 11), ("rake", HOUSE)]
    assert holdings("t1", log.entries) == log.game.held() == log.ledger_says() == log.game.table.seats[1].stack
    assert not log.state.needs_commit  # one player left: no hand


def test_a_leave_between_hands_cashes_out_at_once_and_the_entry_must_say_the_chips():  # C3
    log = Log()
    log.sit(0, 11, 8000)
    with pytest.raises(Refused, match="with 8000 chips"):
        log.write(StandEntry(0, chips=9000))
    assert log.write(StandEntry(0, chips=8000)) == [{"type": "stood", "slot": 0, "name": "p11", "chips": 8000}]
    assert log.transfers[-1] == ("cash_out", 11, 8000)


def test_c3_no_return_within_30_minutes_with_fewer_chips():
    log = Log()
    log.sit(0, 11, 8000, at=0.0)
    log.write(StandEntry(0, chips=8000), at=10.0)
    with pytest.raises(Refused, match="8000 to 20000"):
        log.sit(1, 11, 4000, at=60.0)
    log.sit(1, 11, 4000, at=10.0 + 30 * 60)


def test_c3_is_kept_by_account_not_by_the_name_shown():  # issue #32 item 2
    log = Log()
    log.sit(0, 11, 8000, at=0.0)
    log.write(StandEntry(0, chips=8000), at=10.0)
    renamed = SitEntry(1, Slot(11, "Someone Else", "user"), chips=4000)  # POST /api/me/display, then back
    with pytest.raises(Refused, match="8000 to 20000"):
        log.write(renamed, at=60.0)
    assert not log.state.slots[1].taken
    assert log.game.buy_in_range(11, 60.0) == (8000, 20000)  # what the buy-in intent checks (intents.py)
    assert log.game.buy_in_range(12, 60.0) == (4000, 20000)  # another account is not held to it
    log.write(SitEntry(2, Slot(12, "p11", "user"), chips=4000), at=60.0)  # not even under the name 11 showed
    log.write(SitEntry(1, Slot(11, "Someone Else", "user"), chips=8000), at=60.0)


def test_c2_a_top_up_during_the_players_hand_is_refused_and_changes_nothing():
    log = Log()
    log.sit(0, 11, 8000)
    log.sit(1, 12, 6000)
    log.deal()
    before = log.state
    with pytest.raises(Refused, match="between hands"):
        log.write(TopUpEntry(0, 100))
    assert log.state is before and log.transfers == [("buy_in", 11, 8000), ("buy_in", 12, 6000)]


def test_c6_a_straddle_out_of_turn_is_refused_and_under_the_gun_is_posted():
    log = Log()
    for seat, user in enumerate((11, 12, 13)):
        log.sit(seat, user, 8000)
    with pytest.raises(Refused, match="only the player under the gun"):
        log.write(CashSeatEntry("straddle", 1))
    plan = log.game.table.plan()
    utg = next(s for s in (0, 1, 2) if s not in (plan.small_blind, plan.big_blind))
    log.write(CashSeatEntry("straddle", utg))
    log.deal()
    assert log.game.table.hand is not None and log.game.table.hand.bets[log.game.table.hand_seats.index(utg)] == 400


def test_c6_the_view_offers_a_straddle_during_a_hand_only_where_it_is_taken_for_the_next_hand():  # issue #31 item 10
    log = Log()
    for seat, user in enumerate((11, 12, 13)):
        log.sit(seat, user, 8000)
    log.deal()
    offered = [seat for seat in range(3) if log.game.view(seat)["offers"]["straddle"]]
    assert len(offered) == 1
    for seat in set(range(3)) - set(offered):
        with pytest.raises(Refused, match="under the gun"):
            log.write(CashSeatEntry("straddle", seat))
    assert log.write(CashSeatEntry("straddle", offered[0])) == [{"type": "straddle", "seat": offered[0]}]
    assert log.game.view(offered[0])["offers"]["straddling"]
    log.call_down()
    log.deal()
    table = log.game.table
    assert table.hand is not None and table.hand.bets[table.hand_seats.index(offered[0])] == 400


def test_c11_a_player_back_within_30_minutes_keeps_their_time_bank_whatever_name_they_show():  # issue #31 item 10
    log = Log()
    log.sit(0, 11, 8000)
    log.sit(1, 12, 8000)
    log.deal()
    legal = log.game.legal_actions()
    assert legal is not None
    log.write(ActEntry(Action(legal.seat, ActionKind.FOLD), bank=12.5))
    user = log.state.slots[legal.seat].user_id
    assert log.game.view(legal.seat)["seats"][legal.seat]["time_bank"] == 17.5
    stack = log.game.table.seats[legal.seat].stack
    log.write(StandEntry(legal.seat, chips=stack), at=100.0)
    log.write(SitEntry(3, Slot(user, "renamed", "user"), chips=stack), at=200.0)
    assert log.game.table.seats[3].time_bank == 17.5  # C11: leaving never refills it


def test_c7_a_run_twice_vote_from_a_player_not_in_the_pot_is_refused():
    log = Log()
    log.sit(0, 11, 8000)
    log.sit(1, 12, 6000)
    log.deal()
    log.sit(2, 13, 8000)  # waits for the big blind: not in this hand
    with pytest.raises(Refused, match="not in the pot"):
        log.write(CashSeatEntry("run_twice", 2, True))
    log.write(CashSeatEntry("run_twice", 0, True))


def test_a_transfer_id_used_before_at_the_table_is_refused():
    log = Log()
    log.write(SitEntry(0, Slot(11, "p11", "user"), chips=8000, transfer="mine-1"))
    with pytest.raises(Refused, match="used at this table already"):
        log.write(TopUpEntry(0, 100, "mine-1"))


def test_guests_and_bots_do_not_sit_at_a_cash_table():
    log = Log()
    with pytest.raises(Refused, match="play chips belong to an account"):
        log.write(SitEntry(0, Slot(5, "guest-5", "guest"), chips=8000))


def test_a_log_that_is_not_a_cash_tables_holds_no_play_chips():
    entry = LogEntry("t2", 1, 0.0, "create", {"slots": [None, None], "ranked": False})
    assert holdings("t2", [entry]) is None


# -- a real table actor over the WebSocket ------------------------------------------------
async def open_cash_table(h: Harness, options: dict[str, Any] = OPTIONS) -> str:
    """A cash table as the room opens one (room.py ``create``): the lobby offers none yet."""
    spec = GameSpec.parse_cash("NT", options)
    table_id = "t" + secrets.token_hex(6)
    entry = LogEntry(table_id, 1, h.clock.now(), "create",
                     {"slots": [None] * 4, "ranked": False, "created_by": None, "game": spec.to_json()})
    await h.ctx.store.log.create_table(table_id, entry)
    actor = TableActor(initial_state(entry), store=h.ctx.store.log, clock=h.clock, settings=h.settings)
    h.ctx.room.tables[table_id] = actor
    actor.start()
    return table_id


async def seated(h: Harness, table: str, *names: str) -> list[Player]:
    players = []
    for name in names:
        p = await (await h.player()).register(name)
        await p.join(table)
        players.append(p)
    return players


async def cash_heads_up(h: Harness) -> tuple[str, Player, Player]:
    """A fresh cash table with ana (8,000 in seat 0) and bo (6,000 in seat 1) bought in."""
    table = await open_cash_table(h)
    ana, bo = await seated(h, table, "ana", "bo")
    assert await request(h, table, ana, {"type": "buy_in", "chips": 8000, "slot": 0}) is None
    assert await request(h, table, bo, {"type": "buy_in", "chips": 6000, "slot": 1}) is None
    await h.settle()
    return table, ana, bo


async def request(h: Harness, table: str, p: Player, msg: dict[str, Any]) -> dict[str, Any] | None:
    """Send ``msg``; the error it got, or None once the table has applied it."""
    actor = h.table(table)
    before = actor.state.version
    await p.send({"id": "r", **msg})
    await h.settle()
    if actor.state.version > before:
        await p.until_version(actor.state.version)
        return None
    return await p.until(lambda m: m["type"] == "error" and m["ref"] == "r")


async def play_hands(h: Harness, table: str, players: list[Player], hands: int) -> None:
    """Play until ``hands`` more hands are over, everyone calling or checking; between hands
    the fake clock skips the pause (R30)."""
    actor = h.table(table)
    game = actor.state.table_game
    assert game is not None
    target = game.hand_number + hands - (1 if game.in_hand else 0)
    for _ in range(1000):
        await h.settle()
        state = actor.state
        for p in players:
            await p.until_version(state.version)
        game = state.table_game
        assert game is not None
        if not game.in_hand:
            if game.hand_number >= target:
                return
            await h.advance(h.settings.pause_seconds)
            continue
        mover = next(p for p in players if p.view and p.view["you"] == game.to_act)
        moves = mover.view["legal"]["moves"]
        await mover.send({"type": "act", "version": state.version, "move": "call" if "call" in moves else "check"})
    raise AssertionError("the hands did not end")


async def balance_of(h: Harness, account: int) -> int:
    async with h.ctx.store.engine.connect() as conn:
        return int((await conn.execute(select(balances.c.balance).where(balances.c.account_id == account))).scalar_one())


async def rows_of(h: Harness, table: str) -> list[tuple[int, str, int]]:
    async with h.ctx.store.engine.connect() as conn:
        return [(int(r.account_id), str(r.kind), int(r.amount)) for r in await conn.execute(
            select(ledger).where(ledger.c.table_id == table).order_by(ledger.c.id))]


async def test_a_cash_tables_life_over_the_websocket_ends_with_the_ledger_check_green(harness):  # C1–C3, C5, C9
    h = harness
    table = await open_cash_table(h)
    ana, bo = await seated(h, table, "ana", "bo")
    a, b = ana.user["id"], bo.user["id"]
    assert await request(h, table, ana, {"type": "buy_in", "chips": 8000, "slot": 0}) is None
    assert await request(h, table, bo, {"type": "buy_in", "chips": 6000, "slot": 1}) is None
    assert await balance_of(h, a) == 2000 and await balance_of(h, b) == 4000
    await play_hands(h, table, [ana, bo], 2)
    assert bo.view["seats"][1]["stack"] + ana.view["seats"][0]["stack"] == 14000 - 2 * 20  # the rake left
    assert await request(h, table, bo, {"type": "top_up", "chips": 2000}) is None  # between hands (C2)
    assert await balance_of(h, b) == 2000
    await h.advance(h.settings.pause_seconds)  # the next hand is dealt
    game = h.table(table).state.table_game
    assert game is not None and game.in_hand
    assert await request(h, table, ana, {"type": "stand"}) is None  # C3: leaves at the hand's end
    assert ana.view["seats"][0]["leaving"]
    await play_hands(h, table, [ana, bo], 1)
    state = h.table(table).state
    assert not state.slots[0].taken and state.slots[1].name == "bo"
    rows = await rows_of(h, table)
    # The last hand's rake and ana's cash-out are one transaction, whose rows are
    # written in account order (the house first) so that two workers never deadlock.
    assert [(acc, kind) for acc, kind, _ in rows] == [
        (a, "buy_in"), (b, "buy_in"), (HOUSE, "rake"), (HOUSE, "rake"), (b, "top_up"), (HOUSE, "rake"), (a, "cash_out")]
    cash_out = rows[-1][2]
    assert await balance_of(h, a) == 2000 + cash_out
    game = state.table_game
    assert isinstance(game, CashGame)
    assert game.held() == game.table.seats[1].stack == 16000 - 3 * 20 - cash_out
    assert await balance_of(h, HOUSE) == 3 * 20
    assert await h.ctx.store.ledger.check() == []  # `freezeout ledger check`: green


async def test_a_corrupted_ledger_row_makes_the_check_name_the_table(harness):
    h = harness
    table = await open_cash_table(h)
    ana, bo = await seated(h, table, "ana", "bo")
    assert await request(h, table, ana, {"type": "buy_in", "chips": 8000, "transfer": "tab-1"}) is None
    assert await request(h, table, bo, {"type": "buy_in", "chips": 6000, "transfer": "tab-1"}) is None  # C9: ana's id is not bo's
    await play_hands(h, table, [ana, bo], 1)
    assert await h.ctx.store.ledger.check() == []
    async with h.ctx.store.engine.begin() as conn:  # past the append-only trigger, as a tamperer would
        await conn.execute(text("DROP TRIGGER ledger_no_update"))
        await conn.execute(update(ledger).where(ledger.c.table_id == table, ledger.c.kind == "buy_in",
                                                ledger.c.account_id == bo.user["id"]).values(amount=6001))
    found = await h.ctx.store.ledger.check()
    assert f"table {table}: the ledger puts 13981 chips on it, its log says 13980" in found


async def test_bad_cash_requests_get_clear_errors_and_change_nothing(harness):  # C1, C2, C3, C9
    h = harness
    table = await open_cash_table(h)
    ana, bo = await seated(h, table, "ana", "bo")
    a = ana.user["id"]
    refused = await request(h, table, ana, {"type": "buy_in", "chips": 15000})  # within the limits, above the balance
    assert refused is not None and refused["code"] == "insufficient" and "balance of 10000" in refused["message"]
    refused = await request(h, table, ana, {"type": "buy_in", "chips": 100})
    assert refused is not None and refused["code"] == "illegal" and "4000 to 20000" in refused["message"]
    for chips in (-5, 2.5, "5000", True):
        refused = await request(h, table, ana, {"type": "buy_in", "chips": chips})
        assert refused is not None and refused["code"] == "bad_message", chips
    await ana.send('{"type": "buy_in", "chips": NaN, "id": "nan"}')
    refused = await ana.until(lambda m: m["type"] == "error" and m.get("ref") in ("nan", None))
    assert refused["code"] == "bad_message"
    refused = await request(h, table, ana, {"type": "buy_in", "chips": 5000, "transfer": f"grant:{a}"})
    assert refused is not None and refused["code"] == "bad_message"  # a forged id naming a grant: ids are filed per account
    refused = await request(h, table, ana, {"type": "sit"})
    assert refused is not None and "buy-in" in refused["message"]
    assert await balance_of(h, a) == 10000 and await rows_of(h, table) == []
    assert await request(h, table, ana, {"type": "buy_in", "chips": 8000, "transfer": "tab-1"}) is None
    assert await request(h, table, bo, {"type": "buy_in", "chips": 6000, "transfer": "tab-1"}) is None  # C9: ana's id is not bo's
    game = h.table(table).state.table_game
    assert game is not None and game.in_hand  # the first hand is dealt at once
    refused = await request(h, table, ana, {"type": "top_up", "chips": 100})
    assert refused is not None and refused["code"] == "illegal" and "between hands" in refused["message"]
    refused = await request(h, table, ana, {"type": "straddle"})
    assert refused is not None and refused["code"] == "illegal" and "heads-up" in refused["message"]  # C6
    assert await request(h, table, ana, {"type": "stand"}) is None
    await play_hands(h, table, [ana, bo], 1)
    refused = await request(h, table, ana, {"type": "buy_in", "chips": 4000})  # C3: back within 30 minutes
    assert refused is not None and refused["code"] == "illegal" and "C3" in refused["message"]
    assert await h.ctx.store.ledger.check() == []


async def test_a_table_rebuilt_from_its_log_mid_hand_has_lost_no_chip(harness):  # design principle 7, C9
    h = harness
    table = await open_cash_table(h)
    ana, bo = await seated(h, table, "ana", "bo")
    assert await request(h, table, ana, {"type": "buy_in", "chips": 8000, "transfer": "tab-1"}) is None
    assert await request(h, table, bo, {"type": "buy_in", "chips": 6000, "transfer": "tab-1"}) is None  # C9: ana's id is not bo's
    await play_hands(h, table, [ana, bo], 2)
    await h.advance(h.settings.pause_seconds)
    live = h.table(table)
    game = live.state.table_game
    assert isinstance(game, CashGame) and game.in_hand
    mover = next(p for p in (ana, bo) if p.view and p.view["you"] == game.to_act)
    await mover.send({"type": "act", "version": live.state.version, "move": "raise", "amount": 1000})
    await h.settle()
    entries = await h.ctx.store.log.table_entries(table)
    rebuilt = TableActor.restore(entries, store=h.ctx.store.log, clock=h.clock, settings=h.settings)
    again = rebuilt.state.table_game
    live_game = live.state.table_game
    assert isinstance(again, CashGame) and isinstance(live_game, CashGame)
    assert again.table == live_game.table and again.in_hand
    assert again.held() == 14000 - 2 * 20  # the raise is in the pot, counted where it came from
    assert await h.ctx.store.ledger.check() == []
