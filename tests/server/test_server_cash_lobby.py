"""Cash tables opened over HTTP and listed in the lobby (issue #25; docs/protocol.md "Cash tables").

A registered player opens a cash table (``POST /api/tables`` with ``format: "cash"``);
it is listed by ``GET /api/tables`` (filtered by format and game) and pushed by the
lobby feed with its stakes, buy-ins, seats free, average pot and hands per hour;
players buy in over HTTP and the WebSocket and play; once everyone has left and the
table has been empty for ``cash_idle_seconds`` it closes itself (a ``close`` entry)
and leaves the lobby, holding no chip (C9).  In one process and through a gateway
of a cluster.  Bad input is refused clearly and opens nothing.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_server_cash import balance_of, play_hands
from test_server_lobby import Lobby

from freezeout.server.clock import FakeClock
from freezeout.server.entries import CloseEntry, LogEntry, SitEntry, Slot, StandEntry
from freezeout.server.gamespec import GameSpec
from freezeout.server.table.actor import TableActor
from freezeout.server.table.cashlobby import HandStats
from freezeout.server.table.chips import holdings
from freezeout.server.table.state import Refused, initial_state, reduce
from freezeout.server.table.tableevents import Closed
from polling import eventually

from clusterkit import caught_up, cluster_settings, serve_cluster
from serverkit import Harness, Player, fast_settings, serve

OPTIONS = {"big_blind": 200, "rake_bp": 500, "rake_cap": 300}  # blinds 100/200, buy-ins 4000 to 20000
IDLE = 600.0  # the test's cash_idle_seconds: the fake clock is moved past it


@pytest.fixture
async def cash_harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with serve(fast_settings(tmp_path, cash_idle_seconds=IDLE), FakeClock()) as h:
        yield h


async def open_cash(player: Player, **body: Any) -> dict[str, Any]:
    response = await player.post("/api/tables", {"format": "cash", "game": "NT", "cash": OPTIONS, **body})
    assert response.status_code == 200, response.text
    table: dict[str, Any] = response.json()["table"]
    return table


async def listed(player: Player, query: str = "") -> list[str]:
    response = await player.http.get(f"/api/tables{query}")
    assert response.status_code == 200, response.text
    return [t["id"] for t in response.json()["tables"]]


# -- one process -------------------------------------------------------------------------
async def test_a_cash_tables_life_in_the_lobby_from_its_opening_to_its_close(cash_harness):  # C1, C3, C9
    h = cash_harness
    ana, bo, eve = await h.player(), await h.player(), await h.player()
    await ana.register("ana")
    await bo.register("bo")
    lobby = await Lobby(eve).watch()  # a spectator, not logged in
    freezeout = await ana.create([None, None])
    created = await open_cash(ana, seats=4)
    table = created["id"]
    # The table as the API and the lobby show it: the creator is not seated (C1: a seat is bought).
    assert created["status"] == "playing" and created["size"] == 4
    assert created["table_game"]["format"] == "cash" and created["table_game"]["code"] == "NT"
    assert created["format"]["type"] == "cash" and created["format"]["game"] == "NT"
    assert created["stakes"] == {"small_blind": 100, "big_blind": 200}
    assert created["buy_in"] == {"min": 4000, "max": 20000}
    assert (created["seats_free"], created["avg_pot"], created["hands_per_hour"]) == (4, 0, 0)
    assert all(slot["user"] is None for slot in created["slots"])
    assert await balance_of(h, ana.user["id"]) == 10000  # opening a table moves no chip
    # Listing by format and game.
    assert table in await listed(eve, "?format=cash") and freezeout not in await listed(eve, "?format=cash")
    assert freezeout in await listed(eve, "?format=freezeout") and table not in await listed(eve, "?format=freezeout")
    assert table in await listed(eve, "?format=cash&game=NT") and await listed(eve, "?game=FO/8") == []
    assert set(await listed(eve)) == {table, freezeout}
    freezeout_summary = (await eve.http.get(f"/api/tables/{freezeout}")).json()["table"]
    assert freezeout_summary["format"]["type"] == "freezeout" and "seats_free" not in freezeout_summary
    await lobby.until(lambda tables: table in tables and freezeout in tables)
    shown = lobby.tables[table]
    assert shown["stakes"] == created["stakes"] and shown["buy_in"] == created["buy_in"]
    assert (shown["seats_free"], shown["avg_pot"], shown["hands_per_hour"]) == (4, 0, 0)

    # ana buys in over HTTP, bo over the WebSocket.
    response = await ana.post(f"/api/tables/{table}/buy_in", {"chips": 8000, "slot": 0})
    assert response.status_code == 200, response.text
    assert response.json()["table"]["seats_free"] == 3
    assert await balance_of(h, ana.user["id"]) == 2000
    await lobby.until(lambda tables: tables[table]["seats_free"] == 3)
    await ana.join(table)
    await bo.join(table)
    await bo.send({"type": "buy_in", "chips": 6000, "slot": 1, "id": "b"})
    await h.settle()
    await lobby.until(lambda tables: tables[table]["seats_free"] == 2)
    assert await balance_of(h, bo.user["id"]) == 4000

    # A hand played: the average pot and the hands per hour move.
    await play_hands(h, table, [ana, bo], 1)
    await lobby.until(lambda tables: tables[table]["avg_pot"] > 0)
    assert lobby.tables[table]["avg_pot"] == 400  # called down: both blinds' 200 (the rake is part of it)
    assert lobby.tables[table]["hands_per_hour"] > 0
    summary = (await eve.http.get(f"/api/tables/{table}")).json()["table"]
    assert summary["avg_pot"] == 400 and summary["hands_per_hour"] == lobby.tables[table]["hands_per_hour"]

    # Both leave between hands (C3: with their chips at once), and the empty table closes.
    response = await ana.post(f"/api/tables/{table}/stand")
    assert response.status_code == 200, response.text
    await bo.send({"type": "stand", "id": "s"})
    await h.settle()
    await lobby.until(lambda tables: tables[table]["seats_free"] == 4)
    assert table in h.ctx.room.tables  # empty, not yet idle long enough
    await h.advance(IDLE)
    await lobby.until(lambda tables: table not in tables)  # the lobby message that removes it
    assert freezeout in lobby.tables
    assert (await eve.http.get(f"/api/tables/{table}")).json()["table"]["status"] == "closed"
    assert table not in await listed(eve, "?format=cash&status=playing")
    refused = await (await h.player()).register("cy")
    response = await refused.post(f"/api/tables/{table}/buy_in", {"chips": 5000})
    assert response.status_code == 409 and response.json()["error"]["code"] == "closed"
    entries = await h.ctx.store.log.table_entries(table)
    assert entries[-1].kind == "close"
    assert holdings(table, entries) == 0  # a closed table holds no chip
    rebuilt = TableActor.restore(entries, store=h.ctx.store.log, clock=h.clock, settings=h.settings)
    assert rebuilt.state == h.table(table).state  # the replay is exact (its lobby numbers too)
    assert await h.ctx.store.ledger.check() == []  # `freezeout ledger check`: green
    assert await h.ctx.room.sweep() == [table]  # retired at once
    assert table not in h.ctx.room.tables and not await h.ctx.store.log.table_open(table)


async def test_a_cash_table_with_a_player_seated_never_closes_and_an_emptied_one_waits_its_time(cash_harness):
    h = cash_harness
    ana = await (await h.player()).register("ana")
    table = (await open_cash(ana))["id"]
    response = await ana.post(f"/api/tables/{table}/buy_in", {"chips": 8000})
    assert response.status_code == 200, response.text
    await h.advance(3 * IDLE)  # alone: no hand is dealt, and the table stays open
    assert h.table(table).state.status == "playing"
    assert (await ana.post(f"/api/tables/{table}/stand")).status_code == 200
    await h.advance(IDLE / 2)
    assert h.table(table).state.status == "playing"
    await h.advance(IDLE / 2)
    assert h.table(table).state.status == "closed"


async def test_a_restart_does_not_restart_an_empty_cash_tables_countdown_to_its_close(tmp_path):
    """The countdown runs from the table's last entry; a restart writes none at an empty cash
    table (no hand, no turn to give grace to), so it closes when it would have without one."""
    settings, clock = fast_settings(tmp_path, cash_idle_seconds=IDLE), FakeClock()
    async with serve(settings, clock) as h:
        ana = await (await h.player()).register("ana")
        table = (await open_cash(ana))["id"]
        assert (await ana.post(f"/api/tables/{table}/buy_in", {"chips": 8000})).status_code == 200
        assert (await ana.post(f"/api/tables/{table}/stand")).status_code == 200
        await h.settle()
        emptied = h.table(table).state
        await h.advance(IDLE / 2)
    async with serve(settings, clock) as h:  # the same database: the room restores its tables
        await h.settle()
        assert h.table(table).state.version == emptied.version, "a restart wrote an entry"
        await h.advance(IDLE / 2 - 1)
        assert h.table(table).state.status == "playing"
        await h.advance(1)
        assert h.table(table).state.status == "closed"
        entries = await h.ctx.store.log.table_entries(table)
        assert [e.kind for e in entries[-2:]] == ["stand", "close"]
        assert entries[-1].at == emptied.last_at + IDLE


async def test_a_closed_cash_table_counts_against_no_open_table_cap(cash_harness):
    h = cash_harness
    ana = await (await h.player()).register("ana")
    for _ in range(h.settings.max_open_tables_per_user):
        await open_cash(ana)
    response = await ana.post("/api/tables", {"format": "cash", "game": "NT"})
    assert response.status_code == 429, response.text
    await h.advance(IDLE)  # all empty: all closed (and not yet retired by the sweep)
    assert {actor.state.status for actor in h.ctx.room.tables.values()} == {"closed"}
    await open_cash(ana)


def test_the_close_entry_folds_only_at_an_empty_cash_table_and_nothing_follows_it():
    spec = GameSpec.parse_cash("NT", OPTIONS)
    create = LogEntry("t1", 1, 0.0, "create", {"slots": [None] * 4, "ranked": False, "created_by": 1,
                                               "game": spec.to_json()})
    state = initial_state(create)
    seated, _, _ = reduce(state, LogEntry.of("t1", 2, 1.0, SitEntry(0, Slot(11, "p11", "user"), chips=5000)))
    with pytest.raises(Refused, match="only when nobody sits"):
        reduce(seated, LogEntry.of("t1", 3, 2.0, CloseEntry()))
    empty, _, _ = reduce(seated, LogEntry.of("t1", 3, 2.0, StandEntry(0, chips=5000)))
    closed, told, _ = reduce(empty, LogEntry.of("t1", 4, 3.0, CloseEntry()))
    assert closed.status == "closed" and told == [Closed()]
    with pytest.raises(Refused, match="closed"):
        reduce(closed, LogEntry.of("t1", 5, 4.0, SitEntry(0, Slot(11, "p11", "user"), chips=5000)))
    freezeout = initial_state(LogEntry("t2", 1, 0.0, "create", {"slots": [None, None], "ranked": False}))
    with pytest.raises(Refused, match="only a cash table"):
        reduce(freezeout, LogEntry.of("t2", 2, 1.0, CloseEntry()))


def test_hands_per_hour_is_measured_over_the_last_hour_of_play_and_the_average_over_the_last_fifty_pots():
    stats = HandStats()
    assert (stats.avg_pot, stats.hands_per_hour) == (0, 0)
    for hand in range(120):  # a hand every 60 seconds, its pot 100 more than the last
        stats = stats.dealt(hand * 60.0).ended(hand * 60.0 + 30.0, 100 * hand)
    assert stats.avg_pot == 100 * sum(range(70, 120)) // 50  # the last 50 only
    assert stats.hands_per_hour == 60
    assert HandStats().dealt(0.0).ended(5.0, 300).hands_per_hour == 60  # one quick hand: over a minute at least


# -- bad input ------------------------------------------------------------------------------
BAD_TABLES: list[tuple[str, dict[str, Any] | str, int, str]] = [
    ("unknown game", {"format": "cash", "game": "XX"}, 400, "unknown game 'XX'"),
    ("a structure the game lacks", {"format": "cash", "game": "NR"}, 400, "Razz has no no-limit version: choose FR"),
    ("seats above the game's most", {"format": "cash", "game": "F2L3D", "seats": 7}, 409, "at most 6 players"),
    ("seats above stud's most", {"format": "cash", "game": "F7S", "seats": 9}, 409, "at most 8 players"),
    ("seats above any table's", {"format": "cash", "seats": 11}, 400, "less than or equal to 10"),
    ("seats as text", {"format": "cash", "seats": "3"}, 400, "valid integer"),
    ("unknown format", {"format": "sit-and-go"}, 400, "unknown format 'sit-and-go' (formats: freezeout, cash)"),
    ("a negative big blind", {"format": "cash", "cash": {"big_blind": -200}}, 400, "'big_blind' must be at least 2"),
    ("a negative buy-in", {"format": "cash", "cash": {"min_buy_in": -5}}, 400, "'min_buy_in' must be at least 0"),
    ("a fractional big blind", {"format": "cash", "cash": {"big_blind": 2.5}}, 400, "'big_blind' must be a whole number"),
    ("a NaN buy-in", '{"format": "cash", "cash": {"max_buy_in": NaN}}', 400, "'max_buy_in' must be a whole number"),
    ("a big blind as text", {"format": "cash", "cash": {"big_blind": "200"}}, 400, "must be a whole number"),
    ("a minimum above the maximum", {"format": "cash", "cash": {"big_blind": 100, "min_buy_in": 900, "max_buy_in": 800}},
     409, "buy-ins need 0 < minimum <= maximum, got 900 and 800"),
    ("buy-ins the stakes make impossible", {"format": "cash", "cash": {"big_blind": 200, "max_buy_in": 100}},
     400, "a buy-in of 20 cannot post the big blind of 200"),
    ("stakes beyond any ledger", {"format": "cash", "cash": {"big_blind": 10**13}}, 400, "at most 1000000000000 chips"),
    ("a rake without its cap", {"format": "cash", "cash": {"rake_bp": 500}}, 400, "a rake needs its cap"),
    ("an option no table has", {"format": "cash", "cash": {"ante": 5}}, 400, "unknown cash option 'ante'"),
    ("options that are not an object", {"format": "cash", "cash": [200]}, 400, "valid dictionary"),
    ("a ranked cash table", {"format": "cash", "ranked": True}, 400, "not ranked"),
    ("a creator seated at once", {"format": "cash", "sit": True}, 400, "taken with a buy-in"),
    ("places instead of seats", {"format": "cash", "slots": [None, "easy"]}, 400, "how many seats it has (seats), not slots"),
    ("cash options at a freezeout", {"cash": {"big_blind": 200}}, 400, "belong to a cash table"),
    ("seats at a freezeout", {"seats": 3}, 400, "seats are a cash table's"),
]


@pytest.mark.parametrize(("why", "body", "status", "message"), BAD_TABLES, ids=[case[0] for case in BAD_TABLES])
async def test_a_bad_cash_table_is_refused_clearly_and_nothing_is_opened(cash_harness, why, body, status, message):
    h = cash_harness
    ana = await (await h.player()).register("ana")
    if isinstance(body, str):  # JSON that Python's encoder would not write (NaN)
        response = await ana.http.post("/api/tables", content=body,
                                       headers={"X-CSRF-Token": ana.csrf, "Content-Type": "application/json"})
    else:
        response = await ana.post("/api/tables", body)
    assert response.status_code == status, response.text
    assert message in json.dumps(response.json()["error"]), response.text
    assert h.ctx.room.tables == {} and await listed(ana) == []


async def test_a_guest_may_watch_a_cash_table_but_neither_open_one_nor_buy_in(cash_harness):  # C9
    h = cash_harness
    ana = await (await h.player()).register("ana")
    table = (await open_cash(ana))["id"]
    guest = await (await h.player()).guest()
    response = await guest.post("/api/tables", {"format": "cash", "game": "NT"})
    assert response.status_code == 403, response.text
    assert response.json()["error"]["code"] == "forbidden" and "guests hold no play chips" in response.text
    assert list(h.ctx.room.tables) == [table]
    response = await guest.post(f"/api/tables/{table}/buy_in", {"chips": 5000})
    assert response.status_code == 403 and "play chips belong to an account" in response.text
    snapshot = await guest.join(table)  # watching is fine
    assert snapshot["type"] == "snapshot" and snapshot["view"]["format"] == "cash"


@pytest.mark.parametrize(("query", "message"), [
    ("?format=sit-and-go", "unknown format 'sit-and-go'"),
    ("?game=XX", "unknown game 'XX'"),
    ("?format=cash&game=", "a game is named by a code"),
])
async def test_an_unknown_listing_filter_is_refused_clearly(cash_harness, query, message):
    eve = await cash_harness.player()
    response = await eve.http.get(f"/api/tables{query}")
    assert response.status_code == 422 and message in response.json()["error"]["message"], response.text


async def test_bad_buy_ins_over_http_are_refused_and_move_no_chip(cash_harness):  # C1, C9
    h = cash_harness
    ana = await (await h.player()).register("ana")
    table = (await open_cash(ana, seats=4))["id"]
    for body, status, message in [({"chips": 100}, 409, "a buy-in here is 4000 to 20000 chips, not 100"),
                                  ({"chips": 15000}, 409, "balance of 10000"),
                                  ({"chips": -5}, 400, "greater than or equal to 1"),
                                  ({"chips": 2.5}, 400, "valid integer"),
                                  ({"chips": 5000, "slot": 4}, 400, "this table has 4 seats (slot 0 to 3), so there is no slot 4"),
                                  ({"chips": 5000, "slot": 10}, 400, "less than or equal to 9"),
                                  ({"chips": 5000, "tip": 1}, 400, "Extra inputs")]:
        response = await ana.post(f"/api/tables/{table}/buy_in", body)
        assert response.status_code == status and message in response.text, (body, response.text)
    response = await ana.post("/api/tables/t000000000000/buy_in", {"chips": 5000})
    assert response.status_code == 404, response.text
    assert await balance_of(h, ana.user["id"]) == 10000 and h.table(table).state.version == 1


# -- through a gateway of a cluster --------------------------------------------------------------
async def test_a_cash_table_opened_through_a_gateway_is_listed_bought_into_and_closes(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path, cash_idle_seconds=IDLE)) as cluster:
        worker = await cluster.worker("w1")
        gateway = cluster.gateway
        ana, bo, eve = [await gateway.player() for _ in range(3)]
        await ana.register("ana")
        await bo.register("bo")
        lobby = await Lobby(eve).watch()
        created = await open_cash(ana, seats=4)
        table = created["id"]
        assert created["stakes"] == {"small_blind": 100, "big_blind": 200} and created["seats_free"] == 4
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")
        await lobby.until(lambda tables: table in tables)
        assert lobby.tables[table]["buy_in"] == {"min": 4000, "max": 20000}

        async def listed_as_cash() -> bool:
            return await listed(eve, "?format=cash&game=NT") == [table] and await listed(eve, "?format=freezeout") == []

        await eventually(listed_as_cash, "the gateway to list the cash table")
        response = await ana.post(f"/api/tables/{table}/buy_in", {"chips": 8000, "slot": 0})
        assert response.status_code == 200, response.text
        assert response.json()["table"]["seats_free"] == 3
        await ana.join(table)
        await bo.join(table)
        await bo.send({"type": "buy_in", "chips": 6000, "slot": 1})
        await lobby.until(lambda tables: tables[table]["seats_free"] == 2)
        await caught_up(cluster, table, (ana, bo))
        owned = worker.tables[table].state
        assert owned.table_game is not None and owned.table_game.in_hand  # the first hand is dealt at once
        mover = next(p for p in (ana, bo) if p.view and p.view["you"] == owned.table_game.to_act)
        await mover.send({"type": "act", "version": owned.version, "move": "fold"})
        await lobby.until(lambda tables: tables[table]["avg_pot"] > 0)  # a hand ended: the owner relists it
        assert lobby.tables[table]["hands_per_hour"] > 0
        for player in (ana, bo):
            response = await player.post(f"/api/tables/{table}/stand")
            assert response.status_code == 200, response.text
        await lobby.until(lambda tables: tables[table]["seats_free"] == 4)
        await caught_up(cluster, table, (ana, bo))
        cluster.clock.advance(IDLE)
        await cluster.settle(table)
        await lobby.until(lambda tables: table not in tables)
        log = await cluster.log(table)
        assert log[-1].kind == "close" and holdings(table, log) == 0
        assert await gateway.ctx.store.ledger.check() == []
