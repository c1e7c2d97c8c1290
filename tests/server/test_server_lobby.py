"""The lobby pushed over the WebSocket (docs/protocol.md "The lobby"): in one process,
through a gateway told by the bus, and what a refused table creation leaves behind."""

from __future__ import annotations

from typing import Any

from freezeout.server.transport.protocol import SERVER_MESSAGE
from polling import eventually

from clusterkit import cluster_settings, serve_cluster
from serverkit import Player


class Lobby:
    """A watcher's picture of the lobby, built only from what the server sent."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.tables: dict[str, dict[str, Any]] = {}

    async def watch(self) -> Lobby:
        await self.player.connect()
        await self.player.send({"type": "lobby"})
        first = await self.player.until(lambda m: m["type"] == "lobby")
        SERVER_MESSAGE.validate_python(first)
        self.tables = {t["id"]: t for t in first["tables"]}
        return self

    async def until(self, holds: Any) -> None:
        """Read updates until ``holds(self.tables)``."""
        while not holds(self.tables):
            msg = await self.player.until(lambda m: m["type"] == "lobby_update", timeout=180)
            SERVER_MESSAGE.validate_python(msg)
            for table in msg["tables"]:
                self.tables[table["id"]] = table
            for table_id in msg["removed"]:
                self.tables.pop(table_id, None)

    def status(self, table_id: str) -> str | None:
        found = self.tables.get(table_id)
        return None if found is None else str(found["status"])


async def test_the_lobby_is_pushed_to_its_watchers(harness):
    ana, bo, eve = await harness.player(), await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    first = await ana.create([None, None])
    lobby = await Lobby(eve).watch()  # a spectator, not logged in
    assert lobby.status(first) == "waiting"
    second = await ana.create([None, "easy"], sit=False)
    await lobby.until(lambda tables: second in tables)
    assert [(s["user"] or {}).get("name") for s in lobby.tables[second]["slots"]] == [None, "bot-easy"]
    response = await bo.post(f"/api/tables/{first}/sit")
    assert response.status_code == 200, response.text
    await lobby.until(lambda tables: tables.get(first, {}).get("status") == "playing")
    assert sorted(lobby.tables[first]["players"]) == ["ana", "bo"]
    harness.clock.advance(harness.settings.idle_close_seconds)
    assert await harness.ctx.room.sweep() == [second]  # nobody sat: retired
    await lobby.until(lambda tables: second not in tables)
    # Joining a table ends the lobby's messages; asking again gives the list anew.
    snapshot = await eve.join(first)
    assert snapshot["type"] == "snapshot" and not harness.ctx.room.lobby.watchers
    await Lobby(eve).watch()
    assert len(harness.ctx.room.lobby.watchers) == 1


async def test_a_gateway_pushes_what_the_owners_publish(tmp_path):
    """The gateway reads the whole lobby only at its start here: a table's change of status
    reaches the watcher through the bus alone."""
    async with serve_cluster(cluster_settings(tmp_path, lobby_refresh_seconds=3600.0)) as cluster:
        worker = await cluster.worker("w1")
        ana, bo, eve = [await cluster.gateway.player() for _ in range(3)]
        await ana.register("ana")
        await bo.register("bo")
        lobby = await Lobby(eve).watch()
        table = await ana.create([None, None])
        await lobby.until(lambda tables: table in tables)
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")
        response = await bo.post(f"/api/tables/{table}/sit")
        assert response.status_code == 200, response.text
        await lobby.until(lambda tables: tables.get(table, {}).get("status") == "playing")
        listed = (await eve.http.get("/api/tables?status=playing")).json()["tables"]
        assert [t["id"] for t in listed] == [table]


async def test_a_table_no_worker_takes_is_withdrawn(tmp_path):
    """With no worker running, opening a table answers 503 busy and leaves nothing: no open
    table in the database, none in the lobby, nothing for a worker that starts later."""
    async with serve_cluster(cluster_settings(tmp_path, route_timeout_seconds=0.2)) as cluster:
        ana = await (await cluster.gateway.player()).guest()
        lobby = await Lobby(await cluster.gateway.player()).watch()
        response = await ana.post("/api/tables", {"slots": [None, "easy"], "ranked": False, "sit": True})
        assert response.status_code == 503 and response.json()["error"]["code"] == "busy", response.text
        assert await cluster.gateway.ctx.store.log.open_table_logs() == {}
        assert await cluster.bus.lobby.records() == {}
        assert (await ana.http.get("/api/tables")).json()["tables"] == []
        await lobby.until(lambda tables: not tables)
        worker = await cluster.worker("w1")
        assert await worker.claim() == []
        assert not worker.tables
