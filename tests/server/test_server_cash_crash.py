"""Cash tables safe under faults (issue #25 "Safe under faults and load"): ``kill -9`` at every
step of a buy-in, a top-up and a cash-out, and two tabs racing for one balance.

The crash cases run bench/cash_crash.py's drill: a real server process on SQLite killed by
its crash hook (server/storage/crashpoint.py) at one step, restarted, the same request sent
again with the same intent key and transfer id; then ``freezeout ledger check`` exits 0, the
movement is in the ledger once, the balances are right and the seat still plays and lets go
(C9, docs/ledger.md).  They start servers, so they are marked slow.

The race runs on the in-process server, on SQLite and PostgreSQL: one account, two WebSockets
(two tabs), two buy-ins at two tables for more than the balance together: exactly one is
applied, the other is refused as ``insufficient``, and nothing else changes (C9: a balance
never goes below zero).
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from test_server_cash import open_cash_table

from freezeout.server.clock import FakeClock
from freezeout.server.storage import crashpoint
from freezeout.server.storage.ledger import balances, ledger

from serverkit import Player, fast_settings, serve

BENCH = Path(__file__).resolve().parents[2] / "bench"


# -- the hook -----------------------------------------------------------------------------
def test_the_crash_hook_is_off_unless_named_and_refuses_a_malformed_step():
    assert crashpoint.parse(None) is None and crashpoint.parse("") is None
    assert crashpoint.parse("committed:buy_in") == ("committed", "buy_in", 1)
    assert crashpoint.parse("told:cash_out:3") == ("told", "cash_out", 3)
    for bad in ("committed", "later:buy_in", "written:buy_in:0", "written::1"):
        with pytest.raises(ValueError, match="FREEZEOUT_CRASH_AT"):
            crashpoint.parse(bad)
    assert not crashpoint.ARMED  # the tests' own server never dies


# -- kill -9 at every step --------------------------------------------------------------------
@pytest.fixture(scope="module")
def cash_crash():  # type: ignore[no-untyped-def]  # the bench module
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH))
        import cash_crash as module

        yield module


@pytest.fixture(scope="module")
def drill(cash_crash, tmp_path_factory):  # type: ignore[no-untyped-def]
    """One template database (two accounts, a cash table) for every case."""
    import os

    src = str(Path(__file__).resolve().parents[2] / "src")
    assert os.environ.get("FREEZEOUT_CRASH_AT") is None
    d = cash_crash.Drill(tmp_path_factory.mktemp("cash-crash"), src)
    asyncio.run(d.prepare())
    return d


CASE_NAMES = [f"{phase}:{movement}" for movement in ("buy_in", "top_up", "stand", "hand_end")
              for phase in ("received", "written", "committed", "told")]


@pytest.mark.slow
@pytest.mark.parametrize("name", CASE_NAMES)
def test_a_kill_at_any_step_of_a_chip_movement_loses_no_chip_and_moves_none_twice(cash_crash, drill, name):  # C9
    case = next(c for c in cash_crash.CASES if c.name == name)
    result = asyncio.run(drill.run(case))
    assert result["problems"] == [], result
    assert "conservation holds" in result["ledger_check"]


# -- two tabs, one balance -------------------------------------------------------------------------
async def tab_of(p: Player) -> Player:
    """A second tab of ``p``'s account: the same session cookie, its own WebSocket."""
    other = await p.h.player()
    other.http.cookies.set("fz_session", p.http.cookies["fz_session"])
    return other


async def answer(p: Player, key: str) -> dict[str, Any]:
    return await p.until(lambda m: (m["type"] == "applied" and m.get("key") == key)
                         or (m["type"] == "error" and m.get("ref") == key))


async def test_two_tabs_buying_in_at_two_tables_for_more_than_the_balance_one_succeeds(db_url, tmp_path):  # C9
    async with serve(fast_settings(tmp_path, database_url=db_url), FakeClock()) as h:
        for name in ("ana", "bo", "cy"):  # three accounts, three races
            p = await (await h.player()).register(name)
            account = p.user["id"]
            tab = await tab_of(p)
            tables = (await open_cash_table(h), await open_cash_table(h))
            await p.join(tables[0])
            await tab.join(tables[1])
            keys = ["k" + secrets.token_hex(8) for _ in range(2)]
            chips = 6000  # twice is more than the grant of 10000
            await asyncio.gather(*(q.send({"type": "buy_in", "chips": chips, "key": k, "id": k, "transfer": f"race-{k}"})
                                   for q, k in ((p, keys[0]), (tab, keys[1]))))
            answers = [await answer(p, keys[0]), await answer(tab, keys[1])]
            assert sorted(a["type"] for a in answers) == ["applied", "error"], answers
            refused = next(a for a in answers if a["type"] == "error")
            assert refused["code"] == "insufficient", refused
            won = 0 if answers[0]["type"] == "applied" else 1
            await h.settle()
            assert h.table(tables[won]).state.slots[0].user_id == account
            assert not any(s.taken for s in h.table(tables[1 - won]).state.slots)  # nothing else changed
            assert h.table(tables[1 - won]).state.version == 1  # not one entry at the refused table
            async with h.ctx.store.engine.connect() as conn:
                rows = (await conn.execute(select(ledger.c.transfer_id, ledger.c.table_id, ledger.c.amount)
                                           .where(ledger.c.account_id == account, ledger.c.kind == "buy_in"))).all()
                left = int((await conn.execute(select(balances.c.balance)
                                               .where(balances.c.account_id == account))).scalar_one())
            assert [(r.transfer_id, r.table_id, r.amount) for r in rows] == [(f"cash:{account}:race-{keys[won]}", tables[won], chips)]
            assert left == 10000 - chips
        assert await h.ctx.store.ledger.check() == []


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
