"""Bots at cash tables with play chips of their own (issue #25, server/table/bots.py).

Bots are regulars: each bot account's chips are in the ledger (a house
``grant`` stakes a bot short of its buy-in, in the same transaction), a bot
buys in with a ``sit`` entry and its ``buy_in`` row, tops up between hands
below half the maximum (a rebuy when bust, C2), and leaves with its chips.
They fill a table that has a human, but never the last free seat, and leave
once no human is seated (they wait while one sits out), so bots never play each other for ever.  Every test
ends with ``freezeout ledger check`` green.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from freezeout.bots.deep import DEEP_BB, effective_start_bb
from freezeout.bots.registry import get_bot
from freezeout.rules.actions import Action, ActionKind
from freezeout.server.clock import FakeClock
from freezeout.server.entries import (
    ActEntry,
    CashSeatEntry,
    CommitEntry,
    DealEntry,
    LogEntry,
    SitEntry,
    Slot,
    StandEntry,
)
from freezeout.server.fairness import new_deal
from freezeout.server.gamespec import GameSpec
from freezeout.server.storage.ledger import HOUSE, Transfer, balances, ledger
from freezeout.server.table.actor import TableActor
from freezeout.server.table.bots import (
    CASH_BOT_WAIT_SECONDS,
    CashBotMove,
    cash_bot_deadline,
    cash_bot_due,
    fill_target,
)
from freezeout.server.table.cash import CashGame
from freezeout.server.table.cashbots import bots_welcome
from freezeout.server.table.state import Refused, TableState, initial_state, reduce

from serverkit import Harness, Player, fast_settings, serve

# Buy-ins of 800 to 4000 chips (C1's defaults: 20 to 100 big blinds): a player's grant of 10,000
# pays two buy-ins at the maximum and a top-up.
OPTIONS = {"big_blind": 40}


# -- the policy, on a log written by hand ------------------------------------------------
class Log:
    def __init__(self, seats: int = 4) -> None:
        spec = GameSpec.parse_cash("NT", OPTIONS)
        entry = LogEntry("t1", 1, 0.0, "create", {"slots": [None] * seats, "ranked": False, "created_by": 1,
                                                  "game": spec.to_json()})
        self.state: TableState = initial_state(entry)

    @property
    def game(self) -> CashGame:
        game = self.state.table_game
        assert isinstance(game, CashGame)
        return game

    def write(self, body: Any, at: float = 0.0) -> None:
        self.state = reduce(self.state, LogEntry.of("t1", self.state.version + 1, at, body))[0]

    def human(self, slot: int, user: int, at: float = 0.0) -> None:
        self.write(SitEntry(slot, Slot(user, f"p{user}", "user"), chips=4000), at)

    def bot(self, slot: int, chips: int = 4000, level: str = "hard") -> None:
        self.write(SitEntry(slot, Slot(900, f"bot-{level}-{slot}", "bot", level), chips=chips, post=True))


def test_bots_fill_a_lone_humans_table_after_the_wait_but_never_its_last_free_seat():
    log = Log(seats=4)
    log.human(0, 11, at=100.0)
    fill = CASH_BOT_WAIT_SECONDS
    assert cash_bot_due(log.state, 100.0 + fill - 1, fill_after=fill, level="hard") is None  # another human may come
    assert cash_bot_due(log.state, 100.0 + fill, fill_after=fill, level="hard") == CashBotMove("sit", 1, 0, "hard")
    assert cash_bot_due(log.state, 1e9, level="hard") is None  # without fill_after, only a bot asked for comes
    log.bot(1)
    assert cash_bot_due(log.state, 0.0, level="medium") == CashBotMove("sit", 2, 0, "hard")  # the bots here say the level
    log.bot(2)
    assert fill_target(4) == 3
    assert cash_bot_due(log.state, 1e9, level="hard") is None  # seat 3 stays free for a player


def test_a_heads_up_table_gets_its_one_bot_and_a_bot_asked_for_comes_at_once():
    log = Log(seats=2)
    log.human(0, 11)
    assert cash_bot_due(log.state, 0.0, asked="station") == CashBotMove("sit", 1, 0, "station")
    log.bot(1, level="station")
    assert cash_bot_due(log.state, 1e9, asked="station") is None  # at most seats - 1 bots


def test_two_humans_play_each_other_without_bots():
    log = Log(seats=4)
    log.human(0, 11)
    log.human(1, 12)
    assert cash_bot_due(log.state, 1e9, level="hard") is None


def test_a_bot_makes_room_when_a_human_takes_the_last_seat():
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    log.bot(2)
    log.human(3, 12)
    assert cash_bot_due(log.state, 0.0, level="hard") == CashBotMove("leave", 1)


def test_a_bot_below_half_the_maximum_tops_up_between_hands():  # C2
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1, chips=1900)
    assert cash_bot_due(log.state, 0.0, level="hard") == CashBotMove("top_up", 1, 2100)
    log.bot(2, chips=2000)  # half the maximum: no top-up
    assert cash_bot_due(log.state, 0.0, level="hard") == CashBotMove("top_up", 1, 2100)


def test_bots_leave_a_table_that_no_human_is_left_at():
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    log.bot(2)
    log.write(StandEntry(0, chips=4000))
    assert cash_bot_due(log.state, 0.0, level="hard") == CashBotMove("leave", 1)
    log.write(StandEntry(1, chips=4000))
    assert cash_bot_due(log.state, 0.0, level="hard") == CashBotMove("leave", 2)
    log.write(StandEntry(2, chips=4000))
    assert cash_bot_due(log.state, 1e9, level="hard") is None


def deal(log: Log, seed: int = 3) -> None:
    log.write(CommitEntry(new_deal(log.game.hand_number + 1, random.Random(seed), log.state.spec.variant_for_hand(1))))
    log.write(DealEntry())


def fold_round(log: Log) -> None:
    """Everyone to act folds or checks until the hand is over."""
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        log.write(ActEntry(Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)))


def test_bots_stay_and_wait_while_the_human_sits_out_and_play_resumes_when_she_sits_in():  # C3, issue #31 item 1
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    log.bot(2)
    deal(log)
    log.write(CashSeatEntry("sit_out", 0), at=50.0)  # during the hand: from the next one on
    fold_round(log)
    assert bots_welcome(log.game) == "wait"
    for now in (50.0, 50.0 + CASH_BOT_WAIT_SECONDS, 1e9):  # however long she sits out
        assert cash_bot_due(log.state, now, level="hard") is None  # the bots neither leave nor sit out
    assert not log.state.needs_commit and log.state.deal_due(4.0) is None  # no hand of bots alone
    assert [s.kind for s in log.state.slots] == ["user", "bot", "bot", None]
    assert cash_bot_deadline(log.state, fill_after=CASH_BOT_WAIT_SECONDS) is None  # nothing to wake for
    log.write(CashSeatEntry("sit_in", 0), at=500.0)
    assert bots_welcome(log.game) == "play"
    assert log.state.needs_commit  # play resumes at once
    deal(log, 4)
    assert log.game.table.hand_seats == (0, 1, 2)


def test_a_hand_committed_before_she_sat_out_waits_for_her():  # no hand of bots alone
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    log.bot(2)
    log.write(CommitEntry(new_deal(1, random.Random(3), log.state.spec.variant_for_hand(1))))
    log.write(CashSeatEntry("sit_out", 0))
    assert log.state.deal_due(4.0) is None
    log.write(CashSeatEntry("sit_in", 0))
    assert log.state.deal_due(4.0) is not None


def test_a_human_waiting_for_the_big_blind_plays_so_the_bots_deal_on_to_bring_it():  # C4, C10
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    deal(log)
    fold_round(log)
    log.write(SitEntry(2, Slot(12, "p12", "user"), chips=4000, post=False))  # waits for the big blind
    log.write(StandEntry(0, chips=log.game.table.seats[0].stack))  # the first human leaves
    assert bots_welcome(log.game) == "play"
    assert log.state.needs_commit


def test_bots_leave_once_no_human_is_seated_not_while_one_sits_out():  # C3
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    log.write(CashSeatEntry("sit_out", 0), at=50.0)
    assert cash_bot_due(log.state, 1e9, level="hard") is None
    log.write(StandEntry(0, chips=4000), at=60.0)
    assert bots_welcome(log.game) == "leave"
    assert cash_bot_due(log.state, 60.0, level="hard") == CashBotMove("leave", 1)


def test_a_bot_that_sat_out_on_an_older_table_sits_in_when_the_human_plays():
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    log.write(CashSeatEntry("sit_out", 1))
    assert cash_bot_due(log.state, 0.0, level="hard") == CashBotMove("sit_in", 1)


def test_a_result_names_its_winner_after_the_winner_left():  # issue #31 item 1: never "? wins 60"
    log = Log(seats=4)
    log.human(0, 11)
    log.bot(1)
    deal(log)
    fold_round(log)  # somebody folds: the other wins the blinds
    winner = log.game.view(None)["result"][0]["winners"][0]
    name = log.game.table.seats[winner["seat"]].player
    assert winner["player"] == name
    log.write(StandEntry(winner["seat"], chips=log.game.table.seats[winner["seat"]].stack))
    view = log.game.view(None)
    assert view["seats"][winner["seat"]]["player"] is None  # the seat is empty now
    assert view["result"][0]["winners"][0]["player"] == name  # the result still says who won


def test_only_a_human_who_plays_gets_new_bots_and_a_lone_human_sitting_out_waits_for_none():
    log = Log(seats=4)
    log.human(0, 11, at=100.0)
    assert cash_bot_deadline(log.state, fill_after=CASH_BOT_WAIT_SECONDS) == 100.0 + CASH_BOT_WAIT_SECONDS
    log.write(CashSeatEntry("sit_out", 0), at=110.0)
    assert cash_bot_deadline(log.state, fill_after=CASH_BOT_WAIT_SECONDS) is None
    assert cash_bot_due(log.state, 1e9, fill_after=CASH_BOT_WAIT_SECONDS, level="hard") is None
    log.write(CashSeatEntry("sit_in", 0), at=120.0)  # the wait starts again from her sitting in
    assert cash_bot_deadline(log.state, fill_after=CASH_BOT_WAIT_SECONDS) == 120.0 + CASH_BOT_WAIT_SECONDS


def test_a_bots_view_of_a_cash_table_is_a_seat_view_with_its_own_cards_only():
    log = Log(seats=3)
    log.human(0, 11)
    log.bot(1)
    log.bot(2)
    log.write(CommitEntry(new_deal(1, random.Random(3), log.state.spec.variant_for_hand(1))))
    log.write(DealEntry())
    view = log.game.bot_view(1)
    assert view.seats[1].cards is not None and all(card is not None for card in view.seats[1].cards)
    assert view.seats[0].cards is None and view.seats[2].cards is None  # no hidden card reaches the bot
    assert [s.stack + s.bet for s in view.seats] == [4000, 4000, 4000]
    assert view.big_blind == 40 and view.history  # the hand's start: the deep game's effective stack
    assert effective_start_bb(view) == 100 >= DEEP_BB  # so hard plays its deep-stack game (bots/deep.py)
    to_act = log.game.to_act
    action = get_bot("hard").act(log.game.bot_view(to_act), random.Random(1))  # no fallback: hard itself
    log.write(ActEntry(action._replace(seat=to_act)))  # a legal move


# -- a real table over the WebSocket -------------------------------------------------------
async def open_cash_table(h: Harness, seats: int = 4, game: str = "NT") -> str:
    """A cash table as the room opens one (the lobby's create lands with the cash lobby)."""
    spec = GameSpec.parse_cash(game, OPTIONS)
    table_id = "t" + secrets.token_hex(6)
    entry = LogEntry(table_id, 1, h.clock.now(), "create",
                     {"slots": [None] * seats, "ranked": False, "created_by": None, "game": spec.to_json()})
    await h.ctx.store.log.create_table(table_id, entry)
    actor = TableActor(initial_state(entry), store=h.ctx.store.log, clock=h.clock, settings=h.settings)
    h.ctx.room.tables[table_id] = actor
    actor.start()
    return table_id


async def request(h: Harness, table: str, p: Player, msg: dict[str, Any]) -> dict[str, Any] | None:
    actor = h.table(table)
    before = actor.state.version
    await p.send({"id": "r", **msg})
    await h.settle()
    if actor.state.version > before:
        await p.until_version(actor.state.version)
        return None
    return await p.until(lambda m: m["type"] == "error" and m["ref"] == "r")


def game_of(h: Harness, table: str) -> CashGame:
    game = h.table(table).state.table_game
    assert isinstance(game, CashGame)
    return game


async def human_moves(h: Harness, table: str, p: Player, move: str) -> bool:
    """If it is the human's turn: ``move`` when it may (else call or check); between hands the
    fake clock skips the pause.  False when neither was due (the table waits for nothing)."""
    await h.settle()
    actor = h.table(table)
    state = actor.state
    await p.until_version(state.version)
    game = game_of(h, table)
    if not game.in_hand:
        if state.deal_due(h.settings.pause_seconds) is None:
            return False
        await h.advance(h.settings.pause_seconds)
        return True
    assert p.view is not None and game.to_act == p.view["you"], "the bots move by themselves"
    moves = p.view["legal"]["moves"]
    chosen = move if move in moves else "call" if "call" in moves else "check"
    await p.send({"type": "act", "version": state.version, "move": chosen})
    await h.settle()
    return True


async def rows(h: Harness, table: str | None = None) -> list[tuple[int, str, int]]:
    query = select(ledger).order_by(ledger.c.id)
    if table is not None:
        query = query.where(ledger.c.table_id == table)
    async with h.ctx.store.engine.connect() as conn:
        return [(int(r.account_id), str(r.kind), int(r.amount)) for r in await conn.execute(query)]


async def every_chip(h: Harness) -> tuple[int, int]:
    """Balances (the house's included) and grants + reloads over the whole database."""
    async with h.ctx.store.engine.connect() as conn:
        held = int((await conn.execute(select(func.sum(balances.c.balance)))).scalar_one())
        made = int((await conn.execute(select(func.coalesce(func.sum(ledger.c.amount), 0))
                                       .where(ledger.c.kind.in_(["grant", "reload"])))).scalar_one())
    return held, made


async def leave_and_check(h: Harness, table: str, ana: Player, bot_account: int) -> None:
    """Ana leaves between hands; the bots leave with her, each with its chips, and every chip
    is in a balance again: ``freezeout ledger check`` is green."""
    while game_of(h, table).in_hand:
        assert await human_moves(h, table, ana, "call")
    assert await request(h, table, ana, {"type": "stand"}) is None
    await h.settle()
    assert not any(s.taken for s in h.table(table).state.slots)
    assert game_of(h, table).held() == 0
    assert [kind for account, kind, _ in await rows(h, table) if account == bot_account].count("cash_out") >= 1
    held, made = await every_chip(h)
    assert held == made  # nothing is left on the table
    assert await h.ctx.store.ledger.check() == []  # `freezeout ledger check`: green


@pytest.fixture
async def filling(tmp_path: Path) -> AsyncIterator[Harness]:
    """A room whose bots fill a table where a human sat alone for 20 s (``cash_bot_fill_seconds``)."""
    async with serve(fast_settings(tmp_path, cash_bot_fill_seconds=CASH_BOT_WAIT_SECONDS), FakeClock()) as h:
        yield h


async def test_bots_fill_a_humans_table_to_seats_minus_one_play_and_leave_with_her(filling):  # C1, C3, C9
    h = filling
    table = await open_cash_table(h, seats=4)
    ana = await (await h.player()).register("ana")
    await ana.join(table)
    assert await request(h, table, ana, {"type": "buy_in", "chips": 4000, "slot": 0}) is None
    await h.settle()
    assert [s.taken for s in h.table(table).state.slots] == [True, False, False, False]  # bots wait for another human
    await h.advance(CASH_BOT_WAIT_SECONDS)
    state = h.table(table).state
    assert [(s.kind, s.bot) for s in state.slots] == [("user", None), ("bot", "hard"), ("bot", "hard"), (None, None)]
    bot_account = state.slots[1].user_id
    assert bot_account is not None and state.slots[2].user_id == bot_account  # one account per bot level
    assert [r for r in await rows(h, table) if r[0] == bot_account] == [
        (bot_account, "buy_in", 4000), (bot_account, "buy_in", 4000)]  # a buy-in like a player's
    grants = [r for r in await rows(h) if r[0] == bot_account and r[1] == "grant"]
    assert grants == [(bot_account, "grant", h.settings.ledger_grant)]  # the bot's own starting grant
    start = game_of(h, table).hand_number
    while game_of(h, table).hand_number < start + 4:  # hard plays its deep game: 100 big blinds
        assert await human_moves(h, table, ana, "call")
        assert sum(1 for s in h.table(table).state.slots if s.taken) <= 3  # never the last free seat
    assert await h.ctx.store.ledger.check() == []
    await leave_and_check(h, table, ana, bot_account)


async def test_a_bot_that_busts_buys_in_again_staked_by_the_house_when_its_balance_is_short(harness):  # C2, C9
    h = harness
    table = await open_cash_table(h, seats=4)
    ana = await (await h.player()).register("ana")
    await ana.join(table)
    assert await request(h, table, ana, {"type": "buy_in", "chips": 4000, "slot": 0}) is None
    user = await h.ctx.store.accounts.by_id(ana.user["id"])
    assert user is not None
    await h.ctx.room.add_cash_bot(table, user, "station")  # at once; the second bot follows it
    await h.settle()
    state = h.table(table).state
    assert [(s.kind, s.bot) for s in state.slots] == [("user", None), ("bot", "station"), ("bot", "station"), (None, None)]
    bot_account = state.slots[1].user_id
    assert bot_account is not None
    # Ana shoves every hand, and the stations call, until a station has lost everything and
    # bought in again (C2); its balance (10000 - 2 * 4000) is short: the house stakes it.
    await h.ctx.store.ledger.move(Transfer("test-bankroll:ana", ana.user["id"], "grant", 100_000, h.clock.now()))
    busted = False
    for _ in range(500):
        game = game_of(h, table)
        busted = busted or any(held is not None and held.stack == 0 for held in game.table.seats[1:3])
        if busted and any(kind == "top_up" for account, kind, _ in await rows(h, table) if account == bot_account):
            break
        mine = game.table.seats[0]
        if mine is not None and not game.in_hand and mine.stack < 4000:
            assert await request(h, table, ana, {"type": "top_up", "chips": 4000 - mine.stack}) is None
        assert await human_moves(h, table, ana, "allin")
    else:
        raise AssertionError("no bot busted and bought in again")
    grants = [amount for account, kind, amount in await rows(h) if account == bot_account and kind == "grant"]
    assert grants[0] == h.settings.ledger_grant and sum(grants[1:]) > 0  # the house's stake, in the ledger
    assert await balance_of(h, bot_account) >= 0
    assert await h.ctx.store.ledger.check() == []
    await leave_and_check(h, table, ana, bot_account)


async def balance_of(h: Harness, account: int) -> int:
    async with h.ctx.store.engine.connect() as conn:
        return int((await conn.execute(select(balances.c.balance).where(balances.c.account_id == account))).scalar_one())


async def test_a_player_adds_a_bot_that_plays_the_tables_game_and_a_full_table_gets_none(harness):
    h = harness
    table = await open_cash_table(h, seats=2, game="PO")
    ana = await (await h.player()).register("ana")
    await ana.join(table)
    user = await h.ctx.store.accounts.by_id(ana.user["id"])
    assert user is not None
    with pytest.raises(Refused, match="buy in"):  # bots sit with a human who plays
        await h.ctx.room.add_cash_bot(table, user, "station")
    assert await request(h, table, ana, {"type": "buy_in", "chips": 4000}) is None
    with pytest.raises(Refused, match="does not play"):  # the lobby offers only the bots of the game
        await h.ctx.room.add_cash_bot(table, user, "easy")
    with pytest.raises(Refused, match="unknown bot level"):
        await h.ctx.room.add_cash_bot(table, user, "shark")
    summary = await h.ctx.room.add_cash_bot(table, user, "station")
    assert summary["id"] == table
    state = h.table(table).state
    assert state.slots[1].kind == "bot" and state.slots[1].bot == "station"
    with pytest.raises(Refused, match="no seat for a bot"):
        await h.ctx.room.add_cash_bot(table, user, "station")
    assert await h.ctx.store.ledger.check() == []
    bob = await (await h.player()).register("bob")
    other = await h.ctx.store.accounts.by_id(bob.user["id"])
    assert other is not None
    with pytest.raises(Refused, match="only a player at this table"):
        await h.ctx.room.add_cash_bot(table, other, "station")
    assert [account for account, kind, _ in await rows(h, table) if kind == "buy_in"][-1] == state.slots[1].user_id
    assert HOUSE not in {account for account, kind, _ in await rows(h, table) if kind != "rake"}


async def test_over_http_a_player_opens_a_cash_table_buys_in_and_adds_a_bot(harness):
    h = harness
    ana = await (await h.player()).register("ana")
    response = await ana.post("/api/tables", {"format": "cash", "game": "NT", "seats": 2, "cash": OPTIONS})
    assert response.status_code == 200, response.text
    table = response.json()["table"]["id"]
    response = await ana.post(f"/api/tables/{table}/bots", {"level": "hard"})
    assert response.status_code == 409 and "buy in" in response.json()["error"]["message"], response.text
    assert (await ana.post(f"/api/tables/{table}/buy_in", {"chips": 4000})).status_code == 200
    await h.advance(3600.0)
    assert not h.table(table).state.slots[1].taken  # cash_bot_fill_seconds unset: bots come when asked for
    response = await ana.post(f"/api/tables/{table}/bots", {"level": "hard"})
    assert response.status_code == 200, response.text
    assert response.json()["table"]["id"] == table
    state = h.table(table).state
    assert [(s.kind, s.bot) for s in state.slots] == [("user", None), ("bot", "hard")]
    assert (await ana.post(f"/api/tables/{table}/bots", {"level": "hard", "extra": 1})).status_code == 400
    assert await h.ctx.store.ledger.check() == []


async def test_over_the_websocket_bots_wait_while_she_sits_out_and_play_on_when_she_sits_in(filling):  # C3, #31 item 1
    h = filling
    table = await open_cash_table(h, seats=3)
    ana = await (await h.player()).register("ana")
    await ana.join(table)
    assert await request(h, table, ana, {"type": "buy_in", "chips": 4000, "slot": 0}) is None
    await h.advance(CASH_BOT_WAIT_SECONDS)  # the documented fill time (FREEZEOUT_CASH_BOT_FILL_SECONDS)
    assert [s.kind for s in h.table(table).state.slots] == ["user", "bot", None]
    assert await request(h, table, ana, {"type": "sit_out"}) is None
    while game_of(h, table).in_hand:  # she plays the hand she was dealt out
        assert await human_moves(h, table, ana, "fold")
    dealt = game_of(h, table).hand_number
    for _ in range(5):  # however long she sits out
        await h.advance(h.settings.pause_seconds + 60)
    state = h.table(table).state
    assert [s.kind for s in state.slots] == ["user", "bot", None]  # the bot stays seated and waits
    assert game_of(h, table).hand_number == dealt  # no hand of bots alone
    assert await request(h, table, ana, {"type": "sit_in"}) is None
    await h.advance(h.settings.pause_seconds)
    assert game_of(h, table).hand_number == dealt + 1  # play resumes at once
    assert 0 in game_of(h, table).table.hand_seats
    assert await h.ctx.store.ledger.check() == []
