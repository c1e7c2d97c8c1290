"""A cash table's "add a bot" through a cluster's gateway (issue #25): the gateway asks the
table's owner, which seats the bot as a one-process room does (table/room.py
``seat_cash_bot``), and answers with the table's summary or the refusal."""

from __future__ import annotations

from freezeout.server.storage.ledger import HOUSE
from polling import eventually

from clusterkit import cluster_settings, serve_cluster

OPTIONS = {"big_blind": 200, "min_buy_in": 2000, "max_buy_in": 8000}


async def test_a_bot_is_added_to_a_cash_table_through_the_gateway(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        worker = await cluster.worker("w1")
        ana = await (await cluster.gateway.player()).register("ana")
        response = await ana.post("/api/tables", {"format": "cash", "game": "NT", "seats": 3, "cash": OPTIONS})
        assert response.status_code == 200, response.text
        table = response.json()["table"]["id"]
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")
        response = await ana.post(f"/api/tables/{table}/bots", {"level": "hard"})
        assert response.status_code == 409 and "buy in" in response.json()["error"]["message"], response.text
        assert (await ana.post(f"/api/tables/{table}/buy_in", {"chips": 4000})).status_code == 200
        response = await ana.post(f"/api/tables/{table}/bots", {"level": "shark"})
        assert response.status_code == 400 and "unknown bot level" in response.json()["error"]["message"], response.text
        response = await ana.post(f"/api/tables/{table}/bots", {"level": "hard"})
        assert response.status_code == 200, response.text
        assert response.json()["table"]["id"] == table
        state = worker.tables[table].state
        assert [(s.kind, s.bot) for s in state.slots if s.taken] == [("user", None), ("bot", "hard")]
        response = await ana.post(f"/api/tables/{table}/bots", {"level": "hard"})  # one seat stays free
        assert response.status_code == 409 and "no seat for a bot" in response.json()["error"]["message"], response.text
        await cluster.settle(table)
        assert await worker.store.ledger.check() == [] and HOUSE not in {s.user_id for s in state.slots}
