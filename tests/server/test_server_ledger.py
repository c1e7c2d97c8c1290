"""The play-chip ledger in storage (C9, issue #25 step 1), each test against SQLite and a
real PostgreSQL: grants with the account, transfers in the table's log transaction, idempotent
transfer ids, the database's own refusals (a negative balance, a changed row, a stale
owner), the daily reload, two buy-ins racing for one balance, and the conservation check."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Sequence

import pytest
from sqlalchemy import Connection, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from freezeout.server.cluster.ownership import Leases
from freezeout.server.fencing import StaleOwner, is_stale_owner_error
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.ledger import (
    DAY,
    HOUSE,
    Amounts,
    BadTransfer,
    Insufficient,
    ReloadRefused,
    Transfer,
    TransferMismatch,
    balances,
    ledger,
    move,
)
from freezeout.server.storage.ledgercheck import TableHoldings
from freezeout.server.storage.store import LogEntry, Store
from freezeout.server.storage.users import Accounts
from freezeout.server.table.chips import holdings as log_holdings
from polling import eventually

GRANT, FLOOR, RELOAD = 1000, 500, 2000
NOON = 1_800_000_000.0 - (1_800_000_000.0 % DAY) + DAY / 2  # midday UTC, so +1 h stays the same day


@pytest.fixture
async def chips(db_url: str) -> AsyncIterator[Store]:
    """A started store whose ledger grants GRANT and reloads RELOAD below FLOOR."""
    engine = create_engine(async_database_url(db_url))
    await run_migrations(engine)
    opened = Store(engine, amounts=Amounts(GRANT, FLOOR, RELOAD), holdings=log_holdings)
    await opened.start()
    try:
        yield opened
    finally:
        await opened.close()


async def new_table(store: Store, table_id: str) -> None:
    await store.log.create_table(table_id, LogEntry(table_id, 1, NOON, "create", {"slots": [None, None]}))


def sit(table_id: str, seq: int, epoch: int | None = None) -> LogEntry:
    return LogEntry(table_id, seq, NOON, "sit", {"seq": seq}, epoch)


async def balance(store: Store, account: int) -> int:
    async with store.engine.connect() as conn:
        return int((await conn.execute(select(balances.c.balance).where(balances.c.account_id == account))).scalar_one())


async def row_count(store: Store) -> int:
    async with store.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(ledger))).scalar_one())


async def test_a_new_account_gets_its_grant_with_it(chips):  # C9: the starting grant
    ana = await chips.accounts.create("ana", "user", None, NOON)
    guest = await chips.accounts.create("guest-1", "guest", None, NOON)
    assert await balance(chips, ana.id) == GRANT and await balance(chips, guest.id) == GRANT
    [row] = await chips.ledger.history(ana.id, 10)
    assert (row.transfer_id, row.kind, row.amount, row.balance, row.table_id) == (f"grant:{ana.id}", "grant", GRANT, GRANT, None)
    account = await chips.ledger.account(ana.id, NOON)  # asking again grants nothing more
    assert account["balance"] == GRANT and await row_count(chips) == 2


async def test_an_account_older_than_the_ledger_gets_its_grant_when_first_asked(chips):
    old = await Store(chips.engine).accounts.create("old", "user", None, NOON)  # as if made before migration 0007
    async with chips.engine.begin() as conn:  # undo what the new hook did: no balance, no row
        await conn.execute(text("DROP TRIGGER ledger_no_delete") if conn.dialect.name == "sqlite"
                           else text("ALTER TABLE ledger DISABLE TRIGGER ledger_append_only"))
        await conn.execute(ledger.delete().where(ledger.c.account_id == old.id))
        await conn.execute(balances.delete().where(balances.c.account_id == old.id))
    assert (await chips.ledger.account(old.id, NOON))["balance"] == GRANT
    assert [r.kind for r in await chips.ledger.history(old.id, 10)] == ["grant"]


async def test_a_buy_in_rides_with_its_sit_entry_and_a_cash_out_with_its_stand(chips):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    await chips.log.append([sit("t1", 2)], [Transfer("t1:buy:ana", ana.id, "buy_in", 600, NOON, "t1", None, 2)])
    await chips.log.append([sit("t1", 3)], [Transfer("t1:top:ana", ana.id, "top_up", 100, NOON + 1, "t1", None, 3)])
    await chips.log.append([sit("t1", 4)], [Transfer("t1:out:ana", ana.id, "cash_out", 900, NOON + 2, "t1", None, 4),
                                            Transfer("t1:rake:4", HOUSE, "rake", 20, NOON + 2, "t1", None, 4)])
    assert await balance(chips, ana.id) == GRANT - 600 - 100 + 900
    assert await balance(chips, HOUSE) == 20
    rows = await chips.ledger.history(ana.id, 10)  # newest first, each with the balance after it
    assert [(r.kind, r.signed(), r.balance) for r in rows] == [
        ("cash_out", 900, 1200), ("top_up", -100, 300), ("buy_in", -600, 400), ("grant", GRANT, GRANT)]
    assert [r.kind for r in await chips.ledger.history(ana.id, 2, before=rows[1].id)] == ["buy_in", "grant"]
    [session] = await chips.ledger.sessions(ana.id)
    assert (session["bought_in"], session["topped_up"], session["cashed_out"], session["net"], session["open"]) == (
        600, 100, 900, 200, False)
    sheet = await chips.ledger.table_sheet("t1")
    assert [(s["player"], s["bought_in"], s["topped_up"], s["cashed_out"], s["rake"], s["net"]) for s in sheet] == [
        ("ana", 600, 100, 900, 0, 200), ("house", 0, 0, 0, 20, 20)]
    assert await chips.ledger.table_sheet("nope") is None


async def test_a_buy_in_above_the_balance_writes_neither_its_row_nor_its_entry(chips):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    with pytest.raises(Insufficient, match="more than the balance of 1000"):
        await chips.log.append([sit("t1", 2)], [Transfer("t1:buy:ana", ana.id, "buy_in", GRANT + 1, NOON, "t1", None, 2)])
    assert [e.seq for e in await chips.log.table_entries("t1")] == [1]
    assert await balance(chips, ana.id) == GRANT and await row_count(chips) == 1
    await chips.log.append([sit("t1", 2)])  # the table's log goes on


@pytest.mark.parametrize("amount", [-5, 0, 2.5, math.nan, math.inf, True, "5", None, 10**13])
async def test_bad_amounts_are_refused_and_change_nothing(chips, amount):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    with pytest.raises(BadTransfer) as refused:
        await chips.ledger.move(Transfer("t1:buy:ana", ana.id, "buy_in", amount, NOON, "t1"))  # type: ignore[arg-type]
    assert "amount" in refused.value.message
    assert await balance(chips, ana.id) == GRANT and await row_count(chips) == 1


@pytest.mark.parametrize(("transfer", "why"), [
    (Transfer("", 1, "buy_in", 5, NOON, "t1"), "bad transfer id"),
    (Transfer("a b", 1, "buy_in", 5, NOON, "t1"), "bad transfer id"),
    (Transfer("x" * 129, 1, "buy_in", 5, NOON, "t1"), "bad transfer id"),
    (Transfer("ok", 1, "steal", 5, NOON, "t1"), "unknown kind"),
    (Transfer("ok", 1, "rake", 5, NOON, "t1"), "rake goes to the house"),
    (Transfer("ok", HOUSE, "cash_out", 5, NOON, "t1"), "rake goes to the house"),
    (Transfer("ok", 1, "buy_in", 5, NOON), "needs table"),
    (Transfer("ok", 1, "grant", 5, NOON, "t1"), "has no table"),
    (Transfer("ok", 1, "grant", 5, math.nan), "bad time"),
])
async def test_malformed_transfers_are_refused_and_change_nothing(chips, transfer, why):
    await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    with pytest.raises(BadTransfer, match=why):
        await chips.ledger.move(transfer)
    assert await balance(chips, 1) == GRANT and await row_count(chips) == 1


async def test_a_retried_transfer_moves_nothing_and_a_reused_id_is_refused(chips):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    bo = await chips.accounts.create("bo", "user", None, NOON)
    await new_table(chips, "t1")
    first = await chips.ledger.move(Transfer("t1:buy:1", ana.id, "buy_in", 300, NOON, "t1"))
    again = await chips.ledger.move(Transfer("t1:buy:1", ana.id, "buy_in", 300, NOON + 5, "t1"))
    assert again == first and again.replayed and not first.replayed
    assert await balance(chips, ana.id) == GRANT - 300
    for forged in (Transfer("t1:buy:1", ana.id, "buy_in", 400, NOON, "t1"),  # another amount
                   Transfer("t1:buy:1", bo.id, "buy_in", 300, NOON, "t1"),  # another account
                   Transfer("t1:buy:1", ana.id, "top_up", 300, NOON, "t1"),
                   Transfer(f"grant:{ana.id}", ana.id, "grant", 5000, NOON)):  # a second grant
        with pytest.raises(TransferMismatch, match="cannot be reused"):
            await chips.ledger.move(forged)
    assert (await balance(chips, ana.id), await balance(chips, bo.id), await row_count(chips)) == (GRANT - 300, GRANT, 3)


async def test_the_database_itself_refuses_a_negative_balance_and_a_changed_row(chips):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    with pytest.raises(IntegrityError):  # CHECK (balance >= 0), whatever the code above it does
        async with chips.engine.begin() as conn:
            await conn.execute(update(balances).where(balances.c.account_id == ana.id).values(balance=-1))
    for statement in (update(ledger).values(amount=5), ledger.delete()):  # append-only
        with pytest.raises(DBAPIError, match="append-only"):
            async with chips.engine.begin() as conn:
                await conn.execute(statement)
    assert await balance(chips, ana.id) == GRANT and await row_count(chips) == 1


async def test_a_stale_owner_moves_no_chips(chips):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    lease = await Leases(chips.engine, worker="a", ttl=600).acquire("t1")
    assert lease is not None
    await chips.log.append([sit("t1", 2, lease.epoch)], [Transfer("b1", ana.id, "buy_in", 100, NOON, "t1", lease.epoch, 2)])
    with pytest.raises(StaleOwner):  # the entry's epoch is right, the transfer's is not
        await chips.log.append([sit("t1", 3, lease.epoch)], [Transfer("b2", ana.id, "buy_in", 100, NOON, "t1", lease.epoch - 1, 3)])
    try:  # around the log too: the ledger's own trigger
        async with chips.engine.begin() as conn:
            await conn.execute(insert(ledger).values(transfer_id="b3", account_id=ana.id, kind="buy_in", amount=1,
                                                     balance_after=899, table_id="t1", table_epoch=None, at=NOON))
        raise AssertionError("a transfer without the owner's epoch was written")
    except DBAPIError as error:
        assert is_stale_owner_error(error)
    assert await balance(chips, ana.id) == GRANT - 100 and await row_count(chips) == 2


async def test_a_reload_is_for_a_balance_below_the_floor_once_a_utc_day(chips):  # C9: the daily reload
    ana = await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    with pytest.raises(ReloadRefused, match="below 500; this one is 1000"):
        await chips.ledger.reload(ana.id, "r1", NOON)
    await chips.ledger.move(Transfer("b1", ana.id, "buy_in", 600, NOON, "t1"))
    state = await chips.ledger.account(ana.id, NOON)
    assert (state["balance"], state["can_reload"], state["next_reload_at"]) == (400, True, NOON)
    moved = await chips.ledger.reload(ana.id, "r1", NOON)
    assert (moved.kind, moved.amount, moved.balance) == ("reload", RELOAD, 2400)
    assert (await chips.ledger.reload(ana.id, "r1", NOON + 60)).replayed  # a retry: the first result
    await chips.ledger.move(Transfer("b2", ana.id, "buy_in", 2000, NOON, "t1"))
    with pytest.raises(ReloadRefused, match="already reloaded today"):
        await chips.ledger.reload(ana.id, "r2", NOON + 3600)
    state = await chips.ledger.account(ana.id, NOON + 3600)
    assert (state["can_reload"], state["next_reload_at"]) == (False, NOON + DAY / 2)  # the next UTC midnight
    assert (await chips.ledger.reload(ana.id, "r2", NOON + DAY / 2)).balance == 400 + RELOAD
    assert await balance(chips, ana.id) == 2400


async def test_two_tabs_buying_in_at_two_tables_for_more_than_the_balance_together(chips):
    """Two buy-ins of 700 against a balance of 1000, in two transactions at the same time:
    exactly one passes.  On PostgreSQL the second is seen waiting for the first's row lock
    before the first commits, so they truly overlap."""
    ana = await chips.accounts.create("ana", "user", None, NOON)
    await new_table(chips, "t1")
    await new_table(chips, "t2")
    postgres = chips.engine.dialect.name == "postgresql"
    async with chips.engine.connect() as first:
        await first.begin()
        await first.run_sync(lambda c: move(c, Transfer("tab1", ana.id, "buy_in", 700, NOON, "t1")))
        second = asyncio.create_task(chips.ledger.move(Transfer("tab2", ana.id, "buy_in", 700, NOON, "t2")))
        if postgres:
            async def waiting() -> bool:
                async with chips.engine.connect() as conn:
                    found = await conn.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE balances%'"))
                    return bool(found.scalar_one())

            await eventually(waiting, what="the second buy-in to wait for the first's lock")
        await first.commit()
    with pytest.raises(Insufficient):
        await second
    assert await balance(chips, ana.id) == 300
    # And many at once, through the API's own transactions: exactly one more passes (300 left).
    results = await asyncio.gather(*(chips.ledger.move(Transfer(f"many{i}", ana.id, "buy_in", 200, NOON, "t2"))
                                     for i in range(6)), return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, Insufficient) for r in results if isinstance(r, BaseException))
    assert await balance(chips, ana.id) == 100 and await chips.ledger.check(log_says(t1=700, t2=200)) == []


# -- conservation: ``freezeout ledger check`` ---------------------------------
def log_says(**held: int) -> TableHoldings:
    """A stand-in for the cash game's fold of its log: each table holds what the test says."""
    def holdings(table_id: str, entries: Sequence[LogEntry]) -> int | None:
        assert entries and entries[0].seq == 1  # the table's whole log, in order
        return held.get(table_id)

    return holdings


async def played(store: Store) -> tuple[int, int]:
    """ana and bo bought in at t1, bo cashed out with part of ana's chips, the house raked."""
    ana = await store.accounts.create("ana", "user", None, NOON)
    bo = await store.accounts.create("bo", "user", None, NOON)
    await new_table(store, "t1")
    await store.log.append([sit("t1", 2)], [Transfer("a-in", ana.id, "buy_in", 800, NOON, "t1", None, 2)])
    await store.log.append([sit("t1", 3)], [Transfer("b-in", bo.id, "buy_in", 500, NOON, "t1", None, 3)])
    await store.log.append([sit("t1", 4)], [Transfer("b-out", bo.id, "cash_out", 900, NOON, "t1", None, 4),
                                            Transfer("rake-4", HOUSE, "rake", 30, NOON, "t1", None, 4)])
    return ana.id, bo.id


async def test_the_check_passes_when_every_chip_is_accounted_for(chips):
    assert await chips.ledger.check() == []
    await played(chips)
    assert await chips.ledger.check(log_says(t1=800 + 500 - 900 - 30)) == []


async def test_the_check_names_a_table_whose_log_holds_no_play_chips(chips):
    await played(chips)
    assert await chips.ledger.check(log_holdings) == [
        "table t1: the ledger puts 370 chips on it but its log is not a cash table's"]


async def test_the_check_names_a_table_whose_log_disagrees(chips):
    await played(chips)
    found = await chips.ledger.check(log_says(t1=360))
    assert found == ["table t1: the ledger puts 370 chips on it, its log says 360",
                     "over everything: balances 1630 (the house's rake included) + chips on tables 360 = 1990,"
                     " but grants 2000 + reloads 0 = 2000"]


async def test_the_check_names_a_balance_that_is_not_its_rows(chips):
    ana, _ = await played(chips)
    async with chips.engine.begin() as conn:
        await conn.execute(update(balances).where(balances.c.account_id == ana).values(balance=balances.c.balance + 50))
    found = await chips.ledger.check(log_says(t1=370))
    assert found[0] == f"account {ana}: balance 250 but its ledger rows sum to 200"
    assert found[-1].startswith("over everything: balances 1680")


async def test_the_check_names_a_tampered_row(chips):
    _, bo = await played(chips)
    async with chips.engine.begin() as conn:  # past the append-only trigger, as a tamperer would
        if conn.dialect.name == "sqlite":
            await conn.execute(text("DROP TRIGGER ledger_no_update"))
        else:
            await conn.execute(text("ALTER TABLE ledger DISABLE TRIGGER ledger_append_only"))
        await conn.execute(update(ledger).where(ledger.c.transfer_id == "b-in").values(amount=400))
    found = await chips.ledger.check(log_says(t1=370))
    assert found[:2] == [f"account {bo}: balance 1400 but its ledger rows sum to 1500",
                         f"account {bo}: ledger row 'b-in' says the balance became 500, but the rows up to it sum to 600"]
    assert "table t1: the ledger puts 270 chips on it, its log says 370" in found


async def test_the_check_names_a_second_reload_in_a_day(chips):
    ana = await chips.accounts.create("ana", "user", None, NOON)
    async with chips.engine.begin() as conn:  # written around the reload's guard
        await conn.execute(update(balances).where(balances.c.account_id == ana.id).values(balance=GRANT + 2 * RELOAD))
        for n in (1, 2):
            await conn.execute(insert(ledger).values(transfer_id=f"r{n}", account_id=ana.id, kind="reload", amount=RELOAD,
                                                     balance_after=GRANT + n * RELOAD, at=NOON + n))
    assert await chips.ledger.check() == [f"account {ana.id}: two reloads on one UTC day ('r1' and 'r2')"]


async def test_the_grant_and_the_account_are_one_transaction(chips):
    """A grant that fails takes the new account with it (the hook runs in its transaction)."""
    def failing(conn: Connection, account_id: int, at: float) -> None:
        chips.ledger.open_in(conn, account_id, at)
        raise RuntimeError("the disk is full")

    with pytest.raises(RuntimeError, match="disk is full"):
        await Accounts(chips.engine, on_create=failing).create("ana", "user", None, NOON)
    assert await chips.accounts.by_name("ana") is None and await row_count(chips) == 0


async def test_a_refused_buy_in_fails_only_its_own_append(chips):
    """Appends committed together (group commit): the refused one alone fails, the others commit."""
    ana = await chips.accounts.create("ana", "user", None, NOON)
    bo = await chips.accounts.create("bo", "user", None, NOON)
    await new_table(chips, "t1")
    await new_table(chips, "t2")
    results = await asyncio.gather(
        chips.log.append([sit("t1", 2)], [Transfer("a", ana.id, "buy_in", GRANT + 1, NOON, "t1", None, 2)]),
        chips.log.append([sit("t2", 2)], [Transfer("b", bo.id, "buy_in", 300, NOON, "t2", None, 2)]),
        chips.log.append([sit("t1", 3)]),
        return_exceptions=True)
    assert isinstance(results[0], Insufficient)
    assert [[e.seq for e in committed] for committed in results[1:]] == [[2], [3]]  # the entries as committed
    assert [e.seq for e in await chips.log.table_entries("t1")] == [1, 3]
    assert [e.seq for e in await chips.log.table_entries("t2")] == [1, 2]
    assert (await balance(chips, ana.id), await balance(chips, bo.id)) == (GRANT, GRANT - 300)
