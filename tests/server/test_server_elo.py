"""Ratings that cannot be farmed (issue #10, finding 6; R25): a ranked game in
which a player leaves before the first hand is complete is aborted (no rating
change), the same two accounts' games count only so often a day, and a rating
is provisional until its account has played enough rated games."""

from __future__ import annotations

from typing import Any

from freezeout.server import elo
from freezeout.server.clock import FakeClock

from serverkit import Harness, Player, fast_settings, serve


async def ranked_pair(h: Harness) -> tuple[Player, Player]:
    ana, bo = await h.player(), await h.player()
    await ana.register("ana")
    await bo.register("bo")
    return ana, bo


async def ranked_game(h: Harness, ana: Player, bo: Player, *, hands: int) -> dict[str, Any]:
    """A ranked heads-up game: both fold whenever they must act until ``hands`` hands are
    complete, then ana resigns; returns the game's ``game_over`` event."""
    table = await ana.create([None, None], ranked=True)
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
    for p in (ana, bo):
        await p.join(table)
    actor = h.table(table)
    while True:
        await h.settle()
        t = actor.state.tournament
        if t.hand_number > hands or (t.hand_number == hands and not t.in_hand):
            break
        if not t.in_hand:
            await h.advance(h.settings.pause_seconds)
            continue
        for p in (ana, bo):
            await p.until_version(actor.state.version)
        mover = next(p for p in (ana, bo) if p.view["viewer"] == t.to_act)
        await mover.send({"type": "act", "version": actor.state.version, "move": "fold"})
    await ana.send({"type": "resign"})
    await h.settle()
    assert actor.state.ended
    await bo.until_version(actor.state.version)
    for p in (ana, bo):
        await p.ws.close()
        p.ws = None
    return next(e for m in bo.messages if m["type"] == "update" for e in m["events"] if e["type"] == "game_over"
                and e["game_id"] == actor.state.game_id)


async def ratings(p: Player, name: str) -> dict[str, Any]:
    return (await p.http.get(f"/api/users/{name}/ratings")).json()


async def test_leaving_before_the_first_hand_is_complete_aborts_the_game(harness):
    ana, bo = await ranked_pair(harness)
    over = await ranked_game(harness, ana, bo, hands=0)  # ana resigns during hand 1
    assert over["ratings"] is None and over["unrated"] == "aborted"
    assert (await ratings(ana, "bo"))["rating"] == elo.INITIAL_RATING and (await ratings(ana, "bo"))["games"] == 0
    assert (await ana.http.get("/api/leaderboard")).json()["players"] == []
    game = (await ana.http.get(f"/api/games/{over['game_id']}/record")).status_code
    assert game == 200  # the game itself stays on record, unrated
    listed = (await ana.http.get("/api/users/ana/games")).json()["games"]
    assert listed[0]["ranked"] and not listed[0]["rated"]


async def test_a_game_left_after_the_first_hand_is_rated(harness):
    ana, bo = await ranked_pair(harness)
    over = await ranked_game(harness, ana, bo, hands=1)
    assert over["ratings"] == {"bo": [1500.0, 1520.0], "ana": [1500.0, 1480.0]} and "unrated" not in over


async def test_the_same_pair_counts_only_so_often_a_day(tmp_path):
    clock = FakeClock()
    async with serve(fast_settings(tmp_path, elo_pair_daily_limit=2), clock) as h:
        ana, bo = await ranked_pair(h)
        rated = [await ranked_game(h, ana, bo, hands=1) for _ in range(3)]
        assert [o.get("unrated") for o in rated] == [None, None, "pair_limit"]
        assert rated[2]["ratings"] is None
        assert (await ratings(ana, "bo"))["games"] == 2
        clock.advance(86400)
        again = await ranked_game(h, ana, bo, hands=1)
        assert again["ratings"] is not None and (await ratings(ana, "bo"))["games"] == 3


async def test_ratings_are_provisional_until_enough_rated_games(harness):
    ana, _ = await ranked_pair(harness)
    assert ana.user["provisional"] is True
    store = harness.ctx.store
    for name, games, rating in (("ana", elo.PROVISIONAL_GAMES, 1450.0), ("bo", elo.PROVISIONAL_GAMES - 1, 2100.0)):
        user = await store.user_by_name(name)
        async with store.engine.begin() as conn:
            from sqlalchemy import update

            from freezeout.server.db import users

            await conn.execute(update(users).where(users.c.id == user.id).values(ranked_games=games, rating=rating))
    board = (await ana.http.get("/api/leaderboard")).json()["players"]
    assert [(p["name"], p["provisional"]) for p in board] == [("ana", False), ("bo", True)]  # established first
    assert (await ratings(ana, "bo"))["provisional"] is True and (await ratings(ana, "ana"))["provisional"] is False
    assert (await ana.http.get("/api/session")).json()["user"]["provisional"] is False
