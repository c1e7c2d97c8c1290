"""``freezeout serve --role``: a worker process answers health, readiness (the tables it
owns) and metrics; the gateway and worker roles refuse to start without a bus; log lines
carry the process's role and a table's id."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import httpx

from freezeout.server.bus import Bus
from freezeout.server.clock import FakeClock
from freezeout.server.db import create_engine
from freezeout.server.logs import JsonFormatter
from freezeout.server.store import LogEntry, Store

from clusterkit import cluster_settings, wait_for
from serverkit import serve


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "freezeout.cli", *args], capture_output=True, text=True, timeout=120,
                          check=False)


def test_a_cluster_role_needs_redis(tmp_path):
    for role in ("gateway", "worker"):
        result = run_cli("serve", "--role", role, "--db", f"sqlite:///{tmp_path / 'db.sqlite'}")
        assert result.returncode == 2 and "needs Redis" in result.stderr
    assert run_cli("serve", "--role", "leader").returncode == 2


async def test_a_worker_says_which_tables_it_owns(tmp_path):
    settings = cluster_settings(tmp_path, role="worker")
    async with serve(settings, FakeClock(), bus=Bus(), name="worker-a") as h, \
            httpx.AsyncClient(base_url=h.base_url, timeout=30) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}

        async def ready() -> bool:
            return (await http.get("/readyz")).status_code == 200

        await wait_for(ready, "the worker to be ready")
        store = Store(create_engine(settings.resolved_database_url()))
        await store.start()
        try:
            await store.create_table("t000000000001", LogEntry("t000000000001", 1, 1.0, "create", {
                "slots": [None, {"user_id": None, "name": "bot-easy", "kind": "bot", "bot": "easy"}], "ranked": False}))
        finally:
            await store.close()

        async def owned() -> bool:
            answer = (await http.get("/readyz")).json()
            return answer["role"] == "worker" and answer["node"] == "worker-a" and "t000000000001" in answer["tables"]

        await wait_for(owned, "the worker to own the new table")
        metrics = (await http.get("/metrics")).text
        assert "freezeout_tables 1" in metrics
        assert 'freezeout_lease_changes_total{change="acquired"} 1' in metrics
        assert 'freezeout_info{role="worker"} 1' in metrics


def test_json_log_lines_carry_the_table():
    record = logging.LogRecord("freezeout.server.worker", logging.INFO, __file__, 1, "took table %s", ("t1",), None)
    record.table, record.role, record.node = "t1", "worker", "w-1"
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "took table t1" and line["table"] == "t1" and line["role"] == "worker"


async def test_one_process_counts_its_actions(harness):
    await harness.heads_up_with_a_spectator()  # two places taken: two intents applied
    async with httpx.AsyncClient(base_url=harness.base_url, timeout=30) as http:
        metrics = (await http.get("/metrics")).text
        ready = (await http.get("/readyz")).json()
    assert "freezeout_actions_total 2" in metrics and "freezeout_action_seconds_count 2" in metrics
    assert "freezeout_connections 3" in metrics and "freezeout_tables 1" in metrics
    assert ready["role"] == "all" and len(ready["tables"]) == 1
