"""``freezeout serve --role``: a worker process answers health, readiness (the tables it
owns) and metrics; the gateway and worker roles refuse to start without a bus; log lines
carry the process's role and a table's id."""

from __future__ import annotations

import json
import logging
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest

from freeports import free_port
from freezeout.server.clock import FakeClock
from freezeout.server.cluster.bus import Bus
from freezeout.server.logs import JsonFormatter
from freezeout.server.storage.db import create_engine
from freezeout.server.storage.store import LogEntry, Store
from polling import eventually

from clusterkit import cluster_settings
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
    # A lease that cannot run out during the test: with the clusters' 2 s, a process stalled
    # for 2 s on a loaded machine lost the table and took it again (acquired 2).  Expiry and
    # takeovers have their own tests (test_server_cluster.py).
    settings = cluster_settings(tmp_path, role="worker", lease_seconds=600.0)
    clock = FakeClock()
    async with serve(settings, clock, bus=Bus(), name="worker-a") as h, \
            httpx.AsyncClient(base_url=h.base_url, timeout=30) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}

        async def ready() -> bool:
            return (await http.get("/readyz")).status_code == 200

        await eventually(ready, "the worker to be ready")
        store = Store(create_engine(settings.resolved_database_url()))
        await store.start()
        try:
            # Created now by the room's clock: a table last changed long ago (at 1.0) is idle, and
            # the worker's sweep (every follow_refresh_seconds) retired it at any moment, so the
            # counts below raced with it (and failed on a loaded machine).
            await store.log.create_table("t000000000001", LogEntry("t000000000001", 1, clock.now(), "create", {
                "slots": [None, {"user_id": None, "name": "bot-easy", "kind": "bot", "bot": "easy"}], "ranked": False}))
        finally:
            await store.close()

        async def owned() -> bool:
            answer = (await http.get("/readyz")).json()
            return answer["role"] == "worker" and answer["node"] == "worker-a" and "t000000000001" in answer["tables"]

        await eventually(owned, "the worker to own the new table")
        metrics = (await http.get("/metrics")).text
        assert "freezeout_tables 1" in metrics
        assert 'freezeout_lease_changes_total{change="acquired"} 1' in metrics
        assert 'freezeout_info{role="worker"} 1' in metrics


def test_json_log_lines_carry_the_table():
    record = logging.LogRecord("freezeout.server.cluster.worker", logging.INFO, __file__, 1, "took table %s", ("t1",), None)
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


def port_pair() -> int:
    """A claimed port whose next one is claimed too: consecutive calls of free_port() give
    consecutive ports, and the workers' --worker-port was the second gateway's port."""
    first = free_port()
    while (second := free_port()) != first + 1:
        first = second
    return first


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
def test_freezeout_cluster_starts_and_stops_everything(redis_server):
    """``freezeout cluster``: PostgreSQL, Redis, 2 gateways and 2 workers; a player plays
    through a gateway, a worker owns the table; SIGINT stops every process it started."""
    del redis_server  # only its gate (FREEZEOUT_SLOW=1) and its check that redis-server exists
    gateway, worker = port_pair(), port_pair()  # each role takes --port, --port + 1
    base = Path(tempfile.mkdtemp(prefix="fz-cluster-"))
    base.chmod(0o755)  # PostgreSQL runs as the postgres user under it (pytest's tmp_path is private)
    process = subprocess.Popen(
        [sys.executable, "-m", "freezeout.cli", "cluster", "--gateways", "2", "--workers", "2", "--port", str(gateway),
         "--worker-port", str(worker), "--dir", str(base / "cluster")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "Ctrl-C" in line:
                break
        assert sum("gateway " in x for x in lines) == 2 and sum("worker " in x for x in lines) == 2, lines
        with httpx.Client(base_url=f"http://127.0.0.1:{gateway + 1}", timeout=60) as http:
            csrf = http.get("/api/session").json()["csrf"]
            answer = http.post("/api/quickplay", json={"bot": "easy"}, headers={"X-CSRF-Token": csrf})
            assert answer.status_code == 200, answer.text
            table = answer.json()["table"]["id"]
        owners = [httpx.get(f"http://127.0.0.1:{worker + i}/readyz", timeout=30).json()["tables"] for i in range(2)]
        assert sum(table in found for found in owners) == 1
    finally:
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=120)
        shutil.rmtree(base, ignore_errors=True)
    assert process.returncode == 0 and "cluster stopped" in rest
    for port in (gateway, gateway + 1, worker, worker + 1):
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
