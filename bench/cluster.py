"""Failover drill (issue #13): kill -9 workers and gateways of a local cluster mid-hand.

Starts PostgreSQL and redis-server on loopback, 2 gateways and 3 workers
(``freezeout serve --role …``, as ``freezeout cluster`` does), opens
``--tables`` tables of two scripted humans and a bot, each human on a gateway
of its own, and plays.  Then, ``--kills`` times, at a random moment, it
SIGKILLs a worker that owns tables (``--gateway-kills``: a gateway) and
starts a new one in its place (``--redis-restarts``: kills redis-server and
starts it again empty; every table must move on and be listed again).  It measures, per worker kill, how long until
every table of the dead worker is owned by another (``/readyz`` of the
others), and checks against PostgreSQL's log:

* **lost**: every version a client was told is in the log, with the moves
  the client saw (write before tell survives the owner's death);
* **duplicated**: every human move in the log was sent by that seat's client
  decided on the version just before it (a move resent after an outage is
  refused as stale, never applied twice);
* **stuck**: every table of a killed worker makes a move again within 30 s;
* no turn was forfeited (the humans always move within a second or resend).

Clients resend a move that got no answer within ``--resend`` seconds (the bus
delivers at most once; the version makes the resend safe) and reconnect to
the other gateway, with ``since``, when theirs dies.

    .venv/bin/python bench/cluster.py --kills 20 --gateway-kills 20 --redis-restarts 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import websockets

from freezeout.server.localcluster import Process, readiness, start_process, stop_processes, wait_ready
from freezeout.server.localservers import LocalPostgres, LocalRedis

ENV = {"FREEZEOUT_TURN_SECONDS": "8", "FREEZEOUT_PAUSE_SECONDS": "1", "FREEZEOUT_BOT_DELAY_MIN": "0.2",
       "FREEZEOUT_BOT_DELAY_MAX": "0.6", "FREEZEOUT_LEASE_SECONDS": "3", "FREEZEOUT_RENEW_SECONDS": "1",
       "FREEZEOUT_CLAIM_SECONDS": "0.25", "FREEZEOUT_FOLLOW_REFRESH_SECONDS": "1", "FREEZEOUT_ACCESS_LOG": "0",
       "FREEZEOUT_SIGNUP_MAX_PER_ADDRESS": "100000", "FREEZEOUT_MAX_OPEN_TABLES_PER_ADDRESS": "1000"}


@dataclass
class Seen:
    """Per table: what its clients were told (version -> moves, None: a catch-up) and sent."""

    updates: dict[int, list[tuple[int, str]] | None] = field(default_factory=dict)
    sent: set[tuple[int, int]] = field(default_factory=set)  # (version decided on, seat)
    last_version: int = 0


class Human:
    def __init__(self, gateways: list[Process], first: int, table: str, cookie: str, seen: Seen, rng: random.Random,
                 resend: float) -> None:
        self.gateways, self.index, self.table, self.cookie = gateways, first, table, cookie
        self.seen, self.rng, self.resend = seen, rng, resend
        self.version: int | None = None
        self.reconnects = 0

    async def run(self) -> None:
        while True:
            url = self.gateways[self.index % len(self.gateways)].url.replace("http", "ws") + "/ws"
            try:
                async with websockets.connect(url, additional_headers={"Cookie": f"fz_session={self.cookie}"},
                                              open_timeout=5, ping_interval=2, ping_timeout=4) as ws:
                    await ws.send(json.dumps({"type": "join", "table": self.table, "since": self.version}))
                    pending: asyncio.Task[None] | None = None
                    async for text in ws:
                        msg = json.loads(text)
                        if msg["type"] in ("snapshot", "update") and pending is not None:
                            pending.cancel()
                            pending = None
                        move = self.on_message(msg)
                        if move is not None:
                            pending = asyncio.create_task(self.act(ws, move))
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, TimeoutError):
                pass
            self.reconnects += 1
            self.index += 1  # the other gateway
            await asyncio.sleep(0.1)

    def on_message(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        if msg["type"] not in ("snapshot", "update"):
            return None
        previous, version = self.version, msg["version"]
        self.version = version
        self.seen.last_version = max(self.seen.last_version, version)
        if msg["type"] == "update":
            single = previous is not None and version == previous + 1
            moves = [(e["seat"], e["kind"]) for e in msg["events"] if e["type"] == "action_taken"] if single else None
            if self.seen.updates.get(version) is None:
                self.seen.updates[version] = moves
        view = msg["view"]
        if view is None:
            return None
        if view["finished"]:
            return {"type": "rematch"}
        if view["legal"] is not None and view["to_act"] == view["viewer"]:
            moves = view["legal"]["moves"]
            move = "check" if "check" in moves else "call" if self.rng.random() < 0.85 else "fold"
            self.seen.sent.add((version, view["viewer"]))
            return {"type": "act", "version": version, "move": move}
        return None

    async def act(self, ws: Any, move: dict[str, Any]) -> None:
        """Send, and send again while no answer comes (at most once on the way; the version dedupes).
        A connection that closes meanwhile ends it: the reconnect's catch-up asks again."""
        await asyncio.sleep(self.rng.uniform(0.05, 0.3))
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await ws.send(json.dumps(move))
                await asyncio.sleep(self.resend)


async def read_log(pg: str, table: str) -> dict[int, tuple[str, dict[str, Any]]]:
    conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://"))
    try:
        rows = await conn.fetch("SELECT seq, kind, data, at FROM table_log WHERE table_id = $1 ORDER BY seq", table)
    finally:
        await conn.close()
    return {r["seq"]: (r["kind"], {**json.loads(r["data"]), "_at": r["at"]}) for r in rows}


def check(log: dict[int, tuple[str, dict[str, Any]]], seen: Seen) -> dict[str, list[str]]:
    lost, doubled = [], []
    for version, moves in seen.updates.items():
        if version not in log:
            lost.append(f"version {version} was told but is not in the log")
            continue
        kind, data = log[version]
        for seat, _ in moves or ():
            if kind != "act" or int(data["seat"]) != seat:
                lost.append(f"version {version}: a client saw seat {seat} move, the log has {kind} {data}")
    bot: int | None = None  # the bot's seat in the game being played (slot 2; seats move at a rematch)
    for seq, (kind, data) in sorted(log.items()):
        if kind == "start":
            bot = list(data["seat_slots"]).index(2)
        human = kind == "act" and int(data["seat"]) != bot and data.get("move") != "timeout"
        if human and (seq - 1, int(data["seat"])) not in seen.sent:
            doubled.append(f"seq {seq}: seat {data['seat']} moved without a move sent on version {seq - 1}")
    return {"lost": lost, "doubled": doubled}


async def owners(workers: list[Process]) -> dict[str, str]:
    found: dict[str, str] = {}
    answers = await asyncio.gather(*(asyncio.to_thread(readiness, w) for w in workers))
    for answer in answers:
        for table in (answer or {}).get("tables", {}) or {}:
            found[table] = str(answer["node"])  # type: ignore[index]
    return found


async def open_tables(gateway: Process, count: int) -> list[tuple[str, list[str]]]:
    tables = []
    async with httpx.AsyncClient(base_url=gateway.url, timeout=60) as http:
        for _ in range(count):
            guests = []
            for _ in range(2):
                http.cookies.clear()
                csrf = (await http.get("/api/session")).json()["csrf"]
                response = await http.post("/api/guest", headers={"X-CSRF-Token": csrf})
                guests.append((response.json()["csrf"], response.cookies["fz_session"]))
            headers = [{"X-CSRF-Token": c, "Cookie": f"fz_session={s}"} for c, s in guests]
            http.cookies.clear()
            for _ in range(5):  # busy (503): no worker has taken the new table yet; a client tries again
                response = await http.post("/api/tables", json={"slots": [None, None, "easy"]}, headers=headers[0])
                if response.status_code != 503:
                    break
            if response.status_code != 200:
                raise RuntimeError(f"opening a table: {response.status_code} {response.text}")
            table = response.json()["table"]["id"]
            (await http.post(f"/api/tables/{table}/sit", headers=headers[1])).raise_for_status()
            tables.append((table, [s for _, s in guests]))
    return tables


async def drill(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="fz-cluster-") as tmp:
        base = Path(tmp)
        base.chmod(0o755)  # PostgreSQL runs as the postgres user under it
        postgres, redis = LocalPostgres(base / "pg"), LocalRedis(base / "redis")
        postgres.start()
        redis.start()
        from freezeout.server.localcluster import cluster_env  # passwords and the bus secret (issue #23)

        env = {**os.environ, **ENV, **cluster_env(postgres, redis, base / "secrets")}
        gateways = [start_process("gateway", args.port + i, env, base / f"gateway-{i}.log") for i in range(2)]
        workers = [start_process("worker", args.port + 100 + i, env, base / f"worker-{i}.log") for i in range(3)]
        tasks: list[asyncio.Task[None]] = []
        try:
            await asyncio.to_thread(wait_ready, [*gateways, *workers])
            tables = await open_tables(gateways[0], args.tables)
            seen = {table: Seen() for table, _ in tables}
            humans = [Human(gateways, i, table, cookie, seen[table], random.Random(rng.random()), args.resend)
                      for table, cookies in tables for i, cookie in enumerate(cookies)]
            tasks = [asyncio.create_task(h.run()) for h in humans]
            takeovers: list[float] = []
            stuck: list[str] = []
            kills: list[tuple[float, str]] = []
            plan = ["worker"] * args.kills + ["gateway"] * args.gateway_kills + ["redis"] * args.redis_restarts
            rng.shuffle(plan)
            for number, kind in enumerate(plan, 1):
                await asyncio.sleep(rng.uniform(0.5, args.max_up))
                if kind == "redis":  # kill -9 and start again empty, on the same port
                    before = {t: max(s.updates, default=0) for t, s in seen.items()}
                    kills.append((time.time(), "redis"))
                    redis.stop()
                    redis.start()
                    stuck.extend(await _stalled(seen, before, f"kill {number} (redis)"))
                    stuck.extend(await _unlisted(gateways[0], set(seen), f"kill {number} (redis)"))
                    print(json.dumps({"kill": number, "redis": True}), flush=True)
                    continue
                if kind == "gateway":
                    index = rng.randrange(len(gateways))
                    kills.append((time.time(), f"gateway {index}"))
                    os.kill(gateways[index].popen.pid, signal.SIGKILL)
                    gateways[index].popen.wait()
                    gateways[index] = start_process("gateway", gateways[index].port, env, base / f"gateway-{index}.log")
                    await asyncio.to_thread(wait_ready, [gateways[index]])
                    print(json.dumps({"kill": number, "gateway": index}), flush=True)
                    continue
                owned = await owners(workers)
                by_node = {str((readiness(w) or {}).get("node")): i for i, w in enumerate(workers)}
                victims = [n for n in by_node if any(o == n for o in owned.values())]
                if not victims:
                    continue
                node = rng.choice(victims)
                index = by_node[node]
                theirs = [t for t, o in owned.items() if o == node and t in seen]  # not a table left by a 503
                before = {t: max(s.updates, default=0) for t, s in seen.items()}
                killed = time.monotonic()
                kills.append((time.time(), f"worker {node}"))
                os.kill(workers[index].popen.pid, signal.SIGKILL)
                workers[index].popen.wait()
                others = [w for i, w in enumerate(workers) if i != index]
                while True:
                    now_owned = await owners(others)
                    if all(t in now_owned for t in theirs):
                        break
                    if time.monotonic() - killed > 60:
                        stuck.extend(f"kill {number}: {t} not taken over in 60 s" for t in theirs if t not in now_owned)
                        break
                    await asyncio.sleep(0.05)
                took = time.monotonic() - killed
                takeovers.append(took)
                workers[index] = start_process("worker", workers[index].port, env, base / f"worker-{index}.log")
                stuck.extend(await _stalled({t: seen[t] for t in theirs}, before, f"kill {number}"))
                print(json.dumps({"kill": number, "worker": node, "tables": len(theirs), "takeover_s": round(took, 2)}),
                      flush=True)
                await asyncio.to_thread(wait_ready, [workers[index]])
            await asyncio.sleep(3)
            problems: dict[str, list[str]] = {"lost": [], "doubled": [], "stuck": stuck, "forfeits": []}
            entries = moves = 0
            for table, _ in tables:
                log = await read_log(postgres.url, table)
                entries += len(log)
                moves += sum(1 for k, _ in log.values() if k == "act")
                found = check(log, seen[table])
                for key, values in found.items():
                    problems[key] += [f"{table} {v}" for v in values]
                problems["forfeits"] += [f"{table} seq {s}: {d} ({_after_kill(kills, d['_at'])})" for s, (k, d) in log.items()
                                         if k == "act" and d.get("move") == "timeout"]
            ordered = sorted(takeovers)
            return {
                "worker_kills": len(takeovers), "gateway_kills": plan.count("gateway"), "redis_restarts": plan.count("redis"), "tables": len(tables),
                "log_entries": entries, "moves": moves, "reconnects": sum(h.reconnects for h in humans),
                "takeover_s_median": round(ordered[len(ordered) // 2], 2) if ordered else None,
                "takeover_s_max": round(ordered[-1], 2) if ordered else None,
                "counts": {key: len(values) for key, values in problems.items()}, "problems": problems,
            }
        finally:
            for task in tasks:
                task.cancel()
            stop_processes([*gateways, *workers])
            if args.logs:
                for log in sorted(base.glob("*.log")):
                    print(f"== {log.name}\n" + log.read_text(errors="replace")[-3000:], file=sys.stderr)
            redis.stop()
            postgres.stop()


async def _stalled(seen: dict[str, Seen], before: dict[str, int], what: str) -> list[str]:
    """The tables of ``seen`` that tell no new version within 30 s."""
    deadline = time.monotonic() + 30
    while any(max(s.updates, default=0) <= before[t] for t, s in seen.items()) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return [f"{what}: {t} made no move in 30 s" for t, s in seen.items() if max(s.updates, default=0) <= before[t]]


async def _unlisted(gateway: Process, tables: set[str], what: str) -> list[str]:
    """The tables missing from the gateway's lobby 30 s on (its Redis copy is rewritten by the owners)."""
    deadline = time.monotonic() + 30
    listed: set[str] = set()
    async with httpx.AsyncClient(base_url=gateway.url, timeout=10) as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                listed = {t["id"] for t in (await http.get("/api/tables?limit=200")).json()["tables"]}
            if tables <= listed:
                return []
            await asyncio.sleep(0.5)
    return [f"{what}: {t} is not in the lobby 30 s on" for t in sorted(tables - listed)]


def _after_kill(kills: list[tuple[float, str]], at: float) -> str:
    before = [(t, what) for t, what in kills if t <= at]
    return f"{at - before[-1][0]:.1f} s after killing {before[-1][1]}" if before else "before any kill"


def main() -> int:
    parser = argparse.ArgumentParser(description="kill -9 workers and gateways of a local cluster (issue #13)")
    parser.add_argument("--kills", type=int, default=20, help="workers killed")
    parser.add_argument("--gateway-kills", type=int, default=20)
    parser.add_argument("--redis-restarts", type=int, default=0, help="times redis-server is killed and started empty")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--max-up", type=float, default=4.0, help="longest time between kills (s)")
    parser.add_argument("--resend", type=float, default=1.5, help="a client resends an unanswered move after (s)")
    parser.add_argument("--port", type=int, default=18500)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--logs", action="store_true", help="print the end of each process's log at the end")
    args = parser.parse_args()
    report = asyncio.run(drill(args))
    print(json.dumps(report, indent=2))
    bad = sum(report["counts"].values())
    print(f"{report['worker_kills']} worker and {report['gateway_kills']} gateway kills, "
          f"{report['redis_restarts']} Redis restarts: "
          f"{'nothing lost, duplicated or stuck, no forfeit' if not bad else f'{bad} problems'}", file=sys.stderr)
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
