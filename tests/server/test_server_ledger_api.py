"""Play chips over HTTP and on the command line (C9, docs/protocol.md "Play chips"): a
player's balance, ledger pages with the running balance, the daily reload by a client
transfer id, a table's ledger as CSV, and ``freezeout ledger check`` against SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import update

from freezeout.cli import main
from freezeout.server.clock import FakeClock
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.ledger import DAY, HOUSE, Amounts, Transfer, balances
from freezeout.server.storage.store import LogEntry, Store

from serverkit import Harness, fast_settings, serve

START = 1_800_000_000.0 - (1_800_000_000.0 % DAY) + DAY / 2  # midday UTC


async def test_a_player_sees_their_balance_and_its_history(tmp_path: Path):
    async with serve(fast_settings(tmp_path, ledger_grant=3000), FakeClock(START)) as h:
        nobody = await h.player()
        assert (await nobody.http.get("/api/me/balance")).json()["error"]["code"] == "unauthorized"
        ana = await (await h.player()).register("ana")
        balance = (await ana.http.get("/api/me/balance")).json()
        assert balance == {"balance": 3000, "can_reload": False, "next_reload_at": START,
                           "reload_refused": "a reload is for a balance below 1000; this one is 3000",
                           "reload_floor": 1000, "reload_amount": 5000}
        user_id = ana.user["id"] if ana.user else 0
        await _table_with_chips(h, user_id)
        page = (await ana.http.get("/api/me/ledger", params={"limit": 2})).json()
        assert [(r["kind"], r["amount"], r["balance"]) for r in page["rows"]] == [("cash_out", 2500, 3500), ("buy_in", -2000, 1000)]
        rest = (await ana.http.get("/api/me/ledger", params={"limit": 2, "before": page["next"]})).json()
        assert [(r["kind"], r["transfer"], r["balance"]) for r in rest["rows"]] == [("grant", f"grant:{user_id}", 3000)]
        assert rest["next"] is None
        bad = await ana.http.get("/api/me/ledger", params={"before": -1})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_message"
        sessions = (await ana.http.get("/api/me/sessions")).json()["sessions"]
        assert [(s["table"], s["bought_in"], s["cashed_out"], s["net"], s["open"]) for s in sessions] == [
            ("t-cash", 2000, 2500, 500, False)]


async def _table_with_chips(h: Harness, user_id: int) -> None:
    """A table ``t-cash`` where the account bought in 2000 and cashed out 2500 (10 raked):
    until cash tables exist, the test writes their transfers as the cash game will."""
    store = h.ctx.store
    await store.log.create_table("t-cash", LogEntry("t-cash", 1, START, "create", {"slots": [None, None]}))
    await store.log.append([LogEntry("t-cash", 2, START, "sit", {})],
                           [Transfer("t-cash:in", user_id, "buy_in", 2000, START, "t-cash", None, 2)])
    await store.log.append([LogEntry("t-cash", 3, START, "stand", {})],
                           [Transfer("t-cash:out", user_id, "cash_out", 2500, START, "t-cash", None, 3),
                            Transfer("t-cash:rake", HOUSE, "rake", 10, START, "t-cash", None, 3)])


async def test_the_daily_reload_by_a_client_transfer_id(tmp_path: Path):  # C9: the daily reload
    async with serve(fast_settings(tmp_path, ledger_grant=400, ledger_reload_floor=500, ledger_reload_amount=2000),
                     FakeClock(START)) as h:
        ana = await (await h.player()).register("ana")
        assert (await ana.http.get("/api/me/balance")).json()["can_reload"] is True
        first = await ana.post("/api/me/reload", {"transfer": "tab-one-0001"})
        assert first.status_code == 200, first.text
        assert (first.json()["balance"], first.json()["replayed"], first.json()["row"]["kind"]) == (2400, False, "reload")
        again = await ana.post("/api/me/reload", {"transfer": "tab-one-0001"})  # a retry: the first answer
        assert again.json() == {**first.json(), "replayed": True}
        for body, status, code in (({"transfer": "tab-two-0002"}, 409, "reload_refused"),  # above the floor now
                                   ({"transfer": "no"}, 400, "bad_message"),
                                   ({"transfer": "spaces are bad"}, 400, "bad_message"),
                                   ({"transfer": "grant:1:xx"}, 400, "bad_message"),
                                   ({"transfer": 12345678}, 400, "bad_message"),
                                   ({}, 400, "bad_message")):
            refused = await ana.post("/api/me/reload", body)
            assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), body
        assert (await ana.post("/api/me/reload", {"transfer": "tab-one-0001"}, csrf="")).status_code == 403
        assert (await ana.http.get("/api/me/balance")).json()["balance"] == 2400
        async with h.ctx.store.engine.begin() as conn:  # spend it all (as buy-ins would)
            await conn.execute(update(balances).where(balances.c.account_id == ana.user["id"]).values(balance=0))
        refused = await ana.post("/api/me/reload", {"transfer": "tab-two-0002"})
        assert refused.status_code == 409 and "already reloaded today" in refused.json()["error"]["message"]
        state = (await ana.http.get("/api/me/balance")).json()
        assert (state["can_reload"], state["next_reload_at"]) == (False, START + DAY / 2)
        h.clock.advance(DAY / 2)  # the next UTC day
        assert (await ana.post("/api/me/reload", {"transfer": "tab-two-0002"})).json()["balance"] == 2000


async def test_two_tabs_reloading_at_once_get_one_reload(tmp_path: Path):
    async with serve(fast_settings(tmp_path, ledger_grant=100), FakeClock(START)) as h:
        ana = await (await h.player()).register("ana")
        answers = await asyncio.gather(*(ana.post("/api/me/reload", {"transfer": f"tab-{n:08d}"}) for n in range(4)))
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        assert (await ana.http.get("/api/me/balance")).json()["balance"] == 5100


async def test_a_tables_ledger_as_csv(tmp_path: Path):
    async with serve(fast_settings(tmp_path), FakeClock(START)) as h:
        ana = await (await h.player()).register("ana")
        await _table_with_chips(h, ana.user["id"] if ana.user else 0)
        answer = await ana.http.get("/api/tables/t-cash/ledger.csv")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
        assert "t-cash.ledger.csv" in answer.headers["content-disposition"]
        assert list(csv.reader(io.StringIO(answer.text))) == [
            ["player", "bought_in", "topped_up", "cashed_out", "rake", "net"],
            ["ana", "2000", "0", "2500", "0", "500"],
            ["house", "0", "0", "0", "10", "10"]]
        missing = await ana.http.get("/api/tables/nope/ledger.csv")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


# -- freezeout ledger check ------------------------------------------------------
async def _check(url: str, capsys: object) -> tuple[int, str, str]:
    status = await asyncio.to_thread(main, ["ledger", "check", "--db", url])
    out, err = capsys.readouterr()  # type: ignore[attr-defined]
    return status, out, err


async def test_ledger_check_proves_conservation_and_names_the_first_difference(db_url, capsys):
    engine = create_engine(async_database_url(db_url))
    await run_migrations(engine)
    store = Store(engine, amounts=Amounts(grant=1000))
    await store.start()
    try:
        ana = await store.accounts.create("ana", "user", None, START)
        await store.accounts.create("bo", "guest", None, START)
        status, out, _ = await _check(db_url, capsys)
        assert status == 0 and "conservation holds (3 balances, 2 ledger rows)" in out
        async with engine.begin() as conn:
            await conn.execute(update(balances).where(balances.c.account_id == ana.id).values(balance=1001))
        status, _, err = await _check(db_url, capsys)
        assert status == 1
        assert err.splitlines()[0] == f"ledger check FAILED: account {ana.id}: balance 1001 but its ledger rows sum to 1000"
        async with engine.begin() as conn:
            await conn.execute(update(balances).where(balances.c.account_id == ana.id).values(balance=1000))
        await store.log.create_table("t1", LogEntry("t1", 1, START, "create", {}))
        await store.ledger.move(Transfer("t1:in", ana.id, "buy_in", 300, START, "t1"))
        status, _, err = await _check(db_url, capsys)  # no table's log holds play chips yet
        assert status == 1
        assert err.splitlines()[0] == "ledger check FAILED: table t1: the ledger puts 300 chips on it but its log is not a cash table's"
    finally:
        await store.close()


async def test_ledger_check_without_a_ledger_says_so(tmp_path: Path, capsys):
    status, _, err = await _check(f"sqlite:///{tmp_path / 'empty.sqlite'}", capsys)
    assert status == 2 and "no ledger yet" in err
    status, _, err = await _check("mysql://nowhere/db", capsys)
    assert status == 2 and "unsupported database" in err


def test_the_ledger_settings_refuse_negative_amounts(tmp_path: Path):
    for setting in ("ledger_grant", "ledger_reload_floor", "ledger_reload_amount"):
        with pytest.raises(ValidationError, match="greater than or equal to 0"):
            fast_settings(tmp_path, **{setting: -1})
    assert Amounts.of(fast_settings(tmp_path, ledger_grant=7)) == Amounts(7, 1000, 5000)
