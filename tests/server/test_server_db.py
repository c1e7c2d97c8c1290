"""Database tests, each against SQLite and against a real PostgreSQL:
migrations, accounts, the event log, restore after a restart, Elo in the
game's transaction and the leaderboard."""

from __future__ import annotations

import pytest

from freezeout.server.clock import FakeClock
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import GameEnd, GameStart, LogEntry, NameTaken, Store

from serverkit import fast_settings, serve


async def open_store(url: str) -> Store:
    engine = create_engine(async_database_url(url))
    await run_migrations(engine)
    await run_migrations(engine)  # idempotent on every start
    store = Store(engine)
    await store.start()
    return store


async def test_accounts_and_sessions(db_url):
    store = await open_store(db_url)
    try:
        ana = await store.accounts.create("ana", "user", "hash", 1.0)
        for twin in ("ana", "ANA", "Ana", "\uff41\uff4e\uff41"):  # the same name in any case or Unicode form
            with pytest.raises(NameTaken):
                await store.accounts.create(twin, "user", "hash", 2.0)
        assert (await store.accounts.by_name("aNa")).name == "ana"
        await store.sessions.create("h1", ana.id, "csrf", 1.0, 100.0)
        found = await store.sessions.find("h1", 50.0)
        assert found is not None and found[0].name == "ana" and found[1] == "csrf"
        assert await store.sessions.find("h1", 150.0) is None  # expired
        await store.sessions.delete("h1")
        assert await store.sessions.find("h1", 50.0) is None
        assert await store.tokens.create("a1" * 32, ana.id, 1.0, expires_at=100.0, label="my bot")
        assert (await store.tokens.find("a1" * 32, 50.0))[0].id == ana.id
        assert await store.tokens.find("a1" * 32, 100.0) is None  # expired
        assert not await store.tokens.create("b2" * 32, ana.id, 2.0, expires_at=100.0, limit=1)
        assert [t["id"] for t in await store.tokens.of(ana.id, 50.0)] == ["a1" * 8]
        assert await store.tokens.revoke(ana.id + 1, "a1" * 8) is None  # not someone else's
        assert await store.tokens.revoke(ana.id, "a1" * 8) == "a1" * 32
        assert await store.tokens.find("a1" * 32, 50.0) is None
        bot = await store.accounts.ensure("bot-easy", "bot", 1.0)
        assert (await store.accounts.ensure("bot-easy", "bot", 2.0)).id == bot.id
    finally:
        await store.close()


async def test_the_log_is_append_only_and_a_game_end_updates_elo_atomically(db_url):
    store = await open_store(db_url)
    try:
        ana = await store.accounts.create("ana", "user", None, 1.0)
        bo = await store.accounts.create("bo", "user", None, 1.0)
        await store.log.create_table("t1", LogEntry("t1", 1, 1.0, "create", {"slots": [None, None], "ranked": True}))
        await store.log.append([LogEntry("t1", 2, 2.0, "sit", {"slot": 0})], [GameStart("t1-1", "t1", 1, ("ana", "bo"), True, 2.0)])
        with pytest.raises(RuntimeError):  # the same sequence number twice: refused, nothing written
            await store.log.append([LogEntry("t1", 2, 3.0, "sit", {"slot": 1})])
        end = LogEntry("t1", 3, 4.0, "end", {"game_id": "t1-1"})
        op = GameEnd("t1-1", {"ana": 1, "bo": 2}, {"format": "freezeout.record/1"}, 4.0, end, (ana.id, bo.id),
                     {ana.id: "ana", bo.id: "bo"})
        committed = await store.log.append([end], [op])  # the end as its transaction decided it (R25)
        assert committed[0].data["ratings"] == {"ana": [1500.0, 1520.0], "bo": [1500.0, 1480.0]}
        assert "ratings" not in end.data  # the entry the table handed in is never changed
        logs = await store.log.open_table_logs()
        assert [(e.seq, e.kind) for e in logs["t1"]] == [(1, "create"), (2, "sit"), (3, "end")]
        assert logs["t1"][2].data["ratings"]["ana"] == [1500.0, 1520.0]
        game = await store.games.get("t1-1")
        assert game["finished"] and game["places"] == {"ana": 1, "bo": 2}
        board = await store.ratings.leaderboard(10)
        assert [(p["name"], p["rating"], p["games"]) for p in board] == [("ana", 1520.0, 1), ("bo", 1480.0, 1)]
        assert [h["after"] for h in await store.ratings.history(ana.id)] == [1520.0]
    finally:
        await store.close()


async def test_a_restarted_server_rebuilds_every_table_and_finishes_the_game(db_url, tmp_path, policies):
    settings = fast_settings(tmp_path, database_url=db_url)
    clock = FakeClock()
    async with serve(settings, clock) as h:
        ana, bo = await h.player(), await h.player()
        await ana.register("ana")
        await bo.register("bo")
        table = await ana.create([None, None, "station"])
        await bo.post(f"/api/tables/{table}/sit")
        waiting = await ana.create([None, None])
        await ana.join(table)
        await bo.join(table)
        for _ in range(12):
            await h.settle()
            state = h.table(table).state
            t = state.tournament
            if not t.in_hand:
                await h.advance(settings.pause_seconds)
                continue
            for p in (ana, bo):
                await p.until_version(state.version)
            mover = next(p for p in (ana, bo) if p.view["viewer"] == t.to_act)
            await mover.send({"type": "act", "version": state.version, **policies["calling"](mover.view, __import__("random").Random(1))})
        await h.settle()
        before = h.table(table).state
        cookies = (ana.http.cookies.get("fz_session"), bo.http.cookies.get("fz_session"))
    async with serve(settings, clock) as h:
        after = h.table(table).state
        assert after == before  # the same state, folded from the log
        assert h.table(waiting).state.status == "waiting"
        ana, bo = await h.player(), await h.player()
        for p, cookie in zip((ana, bo), cookies, strict=True):
            p.http.cookies.set("fz_session", cookie)
            await p.join(table)
        await h.play_out(table, [ana, bo], policies["calling"], seed=5)
        game = h.table(table).state.game_id
        record = (await ana.http.get(f"/api/games/{game}/record")).json()
        assert len(record["hands"]) == h.table(table).state.tournament.hand_number
