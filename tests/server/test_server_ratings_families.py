"""Ranked heads-up Elo per game family (issue #22; elo.py "Families", docs/rules.md "Elo"):
a ranked game in any game counts in its family's rating — with its own count of games,
its own leaderboard and history, under every rule of elo.py including the rings' —
and the house game's rating stays where it was."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from freezeout.rules.games import MIXES
from freezeout.rules.variant import VARIANTS
from freezeout.server import elo
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import _alembic_config, create_engine
from freezeout.server.storage.store import GameEnd, GameStart, LogEntry, Store, UserRow

from serverkit import Harness, Player

FULL = elo.SHORT_GAME_HANDS  # hands complete before the loser resigns: a game that counts for both


# -- the families, from the games' data ---------------------------------------------------
@pytest.mark.parametrize(("codes", "family"), [
    (["NT"], "house"),
    (["PT", "FT", "NS", "PS"], "holdem"),
    (["PO", "NO", "FO", "PO/8", "FO/8"], "omaha"),
    (["F7S", "F7S/8", "FR"], "stud"),
    (["N5CD", "F5CD", "N2L1D", "F2L3D", "FB", "PB"], "draw"),
    (["HORSE", "8GAME"], "mixed"),
])
def test_every_game_has_its_family(codes: list[str], family: str):
    assert {elo.family(code) for code in codes} == {family}


def test_every_game_and_mix_is_in_one_of_the_families():
    assert {elo.family(code) for code in [*VARIANTS, *MIXES]} == set(elo.FAMILIES)


# -- the store ------------------------------------------------------------------------------
async def _game(store: Store, number: int, winner: UserRow, loser: UserRow, at: float, game: str) -> dict[str, Any]:
    """A finished ranked heads-up game of ``game`` (a code) that ``winner`` won; the end's data."""
    table = f"t{number}"
    await store.log.create_table(table, LogEntry(table, 1, at, "create", {"slots": [None, None], "ranked": True}))
    await store.log.append([LogEntry(table, 2, at, "sit", {"slot": 0})],
                           [GameStart(f"{table}-1", table, 1, (winner.name, loser.name), True, at, game)])
    end = LogEntry(table, 3, at, "end", {"game_id": f"{table}-1"})
    committed = await store.log.append([end], [GameEnd(f"{table}-1", {winner.name: 1, loser.name: 2}, {}, at, end,
                                                       (winner.id, loser.id), {}, pair_limit=5)])
    return committed[0].data


async def test_a_heads_up_omaha_game_is_rated_in_omaha_and_leaves_the_house_rating(store: Store):
    ana, bo = [await store.accounts.create(n, "user", None, 1.0) for n in ("ana", "bo")]
    over = await _game(store, 1, ana, bo, 10.0, "PO")
    assert over["ratings"] == {"ana": [1500.0, 1520.0], "bo": [1500.0, 1480.0]}
    for user in (ana, bo):  # the house rating: as it was, no game counted, no history
        again = await store.accounts.by_id(user.id)
        assert again is not None and (again.rating, again.ranked_games) == (1500.0, 0)
        assert await store.ratings.history(user.id) == []
    assert await store.ratings.leaderboard(10) == []
    board = await store.ratings.leaderboard(10, "omaha")
    assert [(p["name"], p["rating"], p["games"], p["place"]) for p in board] == [("ana", 1520.0, 1, None), ("bo", 1480.0, 1, None)]
    assert await store.ratings.leaderboard(10, "stud") == []
    assert [h["after"] for h in await store.ratings.history(ana.id, "omaha")] == [1520.0]
    assert await store.ratings.of_user(bo.id) == {"omaha": {"rating": 1480.0, "games": 1, "provisional": True}}
    assert (await store.games.get("t1-1"))["family"] == "omaha"  # type: ignore[index]


async def test_each_family_is_a_rating_of_its_own_and_the_pair_damps_within_it(store: Store):
    """A house game and an Omaha game of the same pair: each starts from 1500 with K 40, and
    the Omaha game is the pair's first in its family (not halved); a second Omaha game is."""
    ana, bo = [await store.accounts.create(n, "user", None, 1.0) for n in ("ana", "bo")]
    assert (await _game(store, 1, ana, bo, 10.0, "NT"))["ratings"] == {"ana": [1500.0, 1520.0], "bo": [1500.0, 1480.0]}
    assert (await _game(store, 2, bo, ana, 20.0, "FO/8"))["ratings"] == {"bo": [1500.0, 1520.0], "ana": [1500.0, 1480.0]}
    third = await _game(store, 3, bo, ana, 30.0, "PO")  # the pair's second Omaha game: half
    assert third["ratings"]["bo"][1] - 1520.0 == pytest.approx(0.5 * 40 * elo.expected_score(1480, 1520), abs=0.1)
    house = await store.accounts.by_id(ana.id)
    assert house is not None and (house.rating, house.ranked_games) == (1520.0, 1)
    assert [h["game"] for h in await store.ratings.history(ana.id)] == ["t1-1"]
    assert [h["game"] for h in await store.ratings.history(ana.id, "omaha")] == ["t2-1", "t3-1"]


async def test_the_rings_rules_hold_in_every_family(store: Store):
    """Accounts seen at one device are not rated against each other in Omaha either."""
    ana, cy = [await store.accounts.create(n, "user", None, 1.0) for n in ("ana", "cy")]
    await store.sightings.seen(ana.id, 2.0, device="one-browser")
    await store.sightings.seen(cy.id, 3.0, device="one-browser")
    over = await _game(store, 1, ana, cy, 10.0, "PO")
    assert over["unrated"] == "shared" and "ratings" not in over
    assert await store.ratings.leaderboard(10, "omaha") == []


# -- the migration --------------------------------------------------------------------------
def _upgrade_with_ratings(conn: sa.Connection) -> None:
    """0006 on a database of 0005 with ratings: the accounts' ratings and counts, their history
    and games stay the house game's; no family rating appears."""
    config = _alembic_config()
    config.attributes["connection"] = conn
    command.upgrade(config, "0005")
    conn.execute(sa.text("INSERT INTO users (name, name_key, kind, rating, ranked_games, created_at) VALUES "
                         "('ana', 'ana', 'user', 1612.5, 14, 1), ('bo', 'bo', 'user', 1387.5, 14, 1)"))
    ids = dict(conn.execute(sa.text("SELECT name, id FROM users")).all())
    conn.execute(sa.text("INSERT INTO tables (id, created_at, closed) VALUES ('t1', 1, true)"))
    conn.execute(sa.text("INSERT INTO games (id, table_id, number, players, ranked, started_at, finished_at, pair) "
                         "VALUES ('t1-1', 't1', 1, '[\"ana\", \"bo\"]', true, 1, 2, :pair)"),
                 {"pair": f"{ids['ana']}:{ids['bo']}"})
    conn.execute(sa.text("INSERT INTO rating_history (user_id, game_id, before, after, at) VALUES "
                         "(:ana, 't1-1', 1592.5, 1612.5, 2), (:bo, 't1-1', 1407.5, 1387.5, 2)"), ids)
    command.upgrade(config, "head")
    assert conn.execute(sa.text("SELECT name, rating, ranked_games FROM users ORDER BY id")).all() == [
        ("ana", 1612.5, 14), ("bo", 1387.5, 14)]
    assert conn.execute(sa.text("SELECT user_id, after, family FROM rating_history ORDER BY id")).all() == [
        (ids["ana"], 1612.5, "house"), (ids["bo"], 1387.5, "house")]
    assert conn.execute(sa.text("SELECT game, family FROM games")).all() == [(None, "house")]
    assert conn.execute(sa.text("SELECT count(*) FROM ratings")).scalar_one() == 0


async def test_the_migration_keeps_every_rating_where_it_was(db_url: str):
    engine = create_engine(async_database_url(db_url))
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade_with_ratings)
    finally:
        await engine.dispose()


# -- the API, and a ranked Omaha game played through the server ------------------------------
async def _ranked_game(h: Harness, loser: Player, winner: Player, game: str, *, hands: int) -> dict[str, Any]:
    """A ranked heads-up game of ``game`` opened by ``loser``: both fold whenever they must act
    until ``hands`` hands are complete, then ``loser`` resigns; returns the ``game_over`` event."""
    response = await loser.post("/api/tables", {"slots": [None, None], "ranked": True, "sit": True, "game": game})
    assert response.status_code == 200, response.text
    table = str(response.json()["table"]["id"])
    assert (await winner.post(f"/api/tables/{table}/sit")).status_code == 200
    for p in (loser, winner):
        await p.join(table)
    actor = h.table(table)
    while True:
        await h.settle()
        t = actor.state.tournament
        assert t is not None
        if t.hand_number > hands or (t.hand_number == hands and not t.in_hand):
            break
        if not t.in_hand:
            await h.advance(h.settings.pause_seconds)
            continue
        for p in (loser, winner):
            await p.until_version(actor.state.version)
        mover = next(p for p in (loser, winner) if p.view["viewer"] == t.to_act)
        await mover.send({"type": "act", "version": actor.state.version, "move": "fold"})
    await loser.send({"type": "resign"})
    await h.settle()
    assert actor.state.ended
    await winner.until_version(actor.state.version)
    return next(e for m in winner.messages if m["type"] == "update" for e in m["events"] if e["type"] == "game_over"
                and e["game_id"] == actor.state.game_id)


async def test_a_ranked_omaha_game_through_the_server_moves_the_omaha_rating_only(harness: Harness):
    ana, bo = await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    over = await _ranked_game(harness, ana, bo, "PO", hands=FULL)
    assert over["ratings"] == {"bo": [1500.0, 1520.0], "ana": [1500.0, 1480.0]}
    house = (await ana.http.get("/api/users/bo/ratings")).json()
    assert (house["family"], house["rating"], house["games"], house["history"]) == ("house", 1500.0, 0, [])
    assert house["families"]["omaha"] == {"rating": 1520.0, "games": 1, "provisional": True}
    omaha = (await ana.http.get("/api/users/bo/ratings?family=omaha")).json()
    assert (omaha["family"], omaha["rating"], omaha["games"]) == ("omaha", 1520.0, 1)
    assert [h["after"] for h in omaha["history"]] == [1520.0]
    assert (await ana.http.get("/api/leaderboard")).json()["players"] == []
    board = (await ana.http.get("/api/leaderboard?family=omaha")).json()
    assert board["family"] == "omaha" and board["families"] == list(elo.FAMILIES)
    assert [p["name"] for p in board["players"]] == ["bo", "ana"]
    stud = (await ana.http.get("/api/users/bo/ratings?family=stud")).json()
    assert (stud["rating"], stud["games"], stud["history"]) == (elo.INITIAL_RATING, 0, [])


@pytest.mark.parametrize("path", ["/api/leaderboard?family=poker", "/api/users/ana/ratings?family=Omaha",
                                  "/api/leaderboard?family="])
async def test_an_unknown_family_is_a_clear_error(harness: Harness, path: str):
    ana = await harness.player()
    await ana.register("ana")
    response = await ana.http.get(path)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_message" and "unknown rating family" in error["message"] and "omaha" in error["message"]
