"""Floods against a running ``freezeout serve`` (issue #10): what each achieves,
what it costs the server, and what it does to everyone else.

Starts the server on a fresh SQLite database (its own settings: the shipped
defaults, cheap password hashing), seats two guests at a *victim* table that
plays on throughout, and runs each flood in turn for ``--seconds``:

* ``moves``   one guest floods its own table with sit/stand (reconnecting when closed);
* ``tables``  guests from one address open tables as fast as they can;
* ``bodies``  three concurrent 300 MB JSON bodies to ``POST /api/login``;
* ``stalls``  200 WebSockets that follow the victim table, ask for snapshots, never read;
* ``frames``  deeply nested JSON and binary frames on one connection;
* ``elo``     a farmer and sock puppets (registered accounts, each from its own
  address): each puppet opens a ranked table, the farmer sits, and the puppet
  resigns at once (the issue's attack); then, the smarter way, folds the first
  hand and resigns, 8 puppets over and over and then a fresh puppet every game;
  then fresh puppets that fold five hands before resigning.

For each it prints what the flood achieved, the server's peak RSS during it,
and the p99 latency of the victim table's moves (a move sent to both players
having its update).  Clients get distinct addresses through ``X-Forwarded-For``
(uvicorn trusts it from loopback), as they would have behind a proxy.

    .venv/bin/python bench/abuse.py                      # this checkout's server
    .venv/bin/python bench/abuse.py --server-src /tmp/main/src --only moves,bodies   # another one's (before/after)

Every request goes to 127.0.0.1 only; every phase is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
import websockets

from serverproc import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
FLOODS = ("moves", "tables", "bodies", "stalls", "frames", "elo")


def start_server(workdir: Path, src: str | None) -> ServerProcess:
    server = ServerProcess(workdir, src=src, FREEZEOUT_PAUSE_SECONDS="0.5")
    server.start()
    return server


class Client:
    """A guest with its own address; HTTP with its cookies."""

    def __init__(self, server: ServerProcess, address: str) -> None:
        self.server, self.address = server, address
        self.http = httpx.AsyncClient(base_url=server.url, timeout=60, headers={"X-Forwarded-For": address})
        self.csrf = ""
        self.cookie: str | None = None

    async def guest(self) -> Client:
        self.csrf = (await self.http.get("/api/session")).json()["csrf"]
        response = await self.http.post("/api/guest", headers={"X-CSRF-Token": self.csrf})
        response.raise_for_status()
        self.csrf, self.cookie = response.json()["csrf"], self.http.cookies.get("fz_session")
        return self

    async def register(self, name: str) -> Client:
        self.csrf = (await self.http.get("/api/session")).json()["csrf"]
        response = await self.http.post("/api/register", json={"name": name, "password": "farm-password"},
                                        headers={"X-CSRF-Token": self.csrf})
        response.raise_for_status()
        self.csrf, self.cookie = response.json()["csrf"], self.http.cookies.get("fz_session")
        return self

    async def post(self, path: str, body: Any = None) -> httpx.Response:
        return await self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    async def connect(self, **kwargs: Any) -> Any:
        headers = {"X-Forwarded-For": self.address, **({"Cookie": f"fz_session={self.cookie}"} if self.cookie else {})}
        return await websockets.connect(self.server.ws_url, additional_headers=headers, max_size=2**22, **kwargs)


@dataclass
class Victim:
    """Two guests playing a heads-up table on and on; the latency of each move."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    pending: dict[int, float] = field(default_factory=dict)  # version acted on -> when
    seen: dict[int, set[int]] = field(default_factory=dict)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    table: str = ""

    async def start(self, server: ServerProcess) -> None:
        ana, bo = await Client(server, "10.1.0.1").guest(), await Client(server, "10.1.0.2").guest()
        table = self.table = (await ana.post("/api/tables", {"slots": [None, None]})).json()["table"]["id"]
        (await bo.post(f"/api/tables/{table}/sit")).raise_for_status()
        self.tasks = [asyncio.create_task(self._play(c, table)) for c in (ana, bo)]

    async def _play(self, client: Client, table: str) -> None:
        rng = random.Random(client.address)
        while True:
            try:
                async with await client.connect() as ws:
                    await ws.send(json.dumps({"type": "join", "table": table}))
                    async for text in ws:
                        msg = json.loads(text)
                        if msg["type"] == "error":
                            self.errors[msg["code"]] += 1
                            continue
                        if msg["type"] not in ("snapshot", "update") or msg["view"] is None:
                            continue
                        view, version = msg["view"], msg["version"]
                        for acted, sent in list(self.pending.items()):
                            if version > acted:
                                seen = self.seen.setdefault(acted, set())
                                seen.add(view["viewer"])
                                if len(seen) == 2:
                                    self.latencies.append(time.perf_counter() - sent)
                                    del self.pending[acted], self.seen[acted]
                        if view["finished"]:
                            await ws.send('{"type": "rematch"}')
                        elif view["legal"] is not None and view["to_act"] == view["viewer"]:
                            await asyncio.sleep(rng.uniform(0.1, 0.3))
                            moves = view["legal"]["moves"]
                            move = "check" if "check" in moves else "call" if rng.random() < 0.8 else "fold"
                            self.pending[version] = time.perf_counter()
                            await ws.send(json.dumps({"type": "act", "version": version, "move": move}))
            except (OSError, websockets.ConnectionClosed):
                self.errors["disconnected"] += 1
                await asyncio.sleep(0.5)

    def take(self) -> list[float]:
        done, self.latencies = self.latencies, []
        return done

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


def p99_ms(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1)


async def rss_peak(server: ServerProcess, stop: asyncio.Event) -> float:
    peak = 0.0
    while not stop.is_set():
        peak = max(peak, server.rss_mb())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.2)
    return peak


# -- the floods ------------------------------------------------------------------------
async def flood_moves(server: ServerProcess, seconds: float) -> dict[str, Any]:
    attacker = await Client(server, "10.66.0.1").guest()
    table = (await attacker.post("/api/tables", {"slots": [None, None, None]})).json()["table"]["id"]
    sent = connections = 0
    codes: Counter[str] = Counter()
    start = (await attacker.http.get(f"/api/tables/{table}")).json()["table"]["version"]
    deadline = time.monotonic() + seconds

    async def drain(ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                msg = json.loads(text)
                if msg["type"] == "error":
                    codes[msg["code"]] += 1

    while time.monotonic() < deadline:
        connections += 1
        try:
            async with await attacker.connect() as ws:
                reader = asyncio.create_task(drain(ws))
                await ws.send(json.dumps({"type": "join", "table": table}))
                i = 0
                while time.monotonic() < deadline and not reader.done():
                    await ws.send('{"type":"sit"}' if i % 2 == 0 else '{"type":"stand"}')
                    sent += 1
                    i += 1
                    if i % 200 == 0:
                        await asyncio.sleep(0)
                reader.cancel()
        except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus):
            await asyncio.sleep(0.05)
    at_end = (await attacker.http.get(f"/api/tables/{table}")).json()["table"]["version"]
    # The backlog: how much longer the table kept writing what was queued (bounded wait).
    settled, last, quiet_since = time.monotonic(), at_end, time.monotonic()
    while time.monotonic() - settled < 120 and time.monotonic() - quiet_since < 2:
        await asyncio.sleep(0.5)
        now = (await attacker.http.get(f"/api/tables/{table}", timeout=120)).json()["table"]["version"]
        if now != last:
            last, quiet_since = now, time.monotonic()
    return {"messages_sent": sent, "connections_opened": connections, "moves_written_during_flood": at_end - start,
            "moves_written_in_all": last - start, "backlog_seconds": round(quiet_since - settled, 1),
            "errors_by_code": dict(codes)}


async def flood_tables(server: ServerProcess, seconds: float) -> dict[str, Any]:
    created = 0
    statuses: Counter[int] = Counter()
    deadline = time.monotonic() + seconds
    guests = 0
    while time.monotonic() < deadline:
        guest = Client(server, "10.66.0.2")
        try:
            await guest.guest()
        except httpx.HTTPStatusError as error:
            statuses[error.response.status_code] += 1
            break
        guests += 1
        while time.monotonic() < deadline:
            response = await guest.post("/api/tables", {"slots": [None, "random"], "sit": False})
            statuses[response.status_code] += 1
            if response.status_code != 200:
                break
            created += 1
        await guest.http.aclose()
    bots_only = Client(server, "10.66.0.3")
    await bots_only.guest()
    bot_table = await bots_only.post("/api/tables", {"slots": ["random", "random"], "sit": False})
    started = time.perf_counter()
    listing = await bots_only.http.get("/api/tables")
    listed = len(listing.json().get("tables", []))
    return {"tables_created": created, "guests_used": guests, "answers": dict(statuses),
            "bots_only_table": bot_table.status_code, "listing_entries": listed,
            "listing_ms": round((time.perf_counter() - started) * 1000, 1), "listing_kb": round(len(listing.content) / 1024, 1)}


async def flood_bodies(server: ServerProcess, seconds: float) -> dict[str, Any]:
    size = 300 * 2**20
    chunk = b"[" * 2**20

    async def body() -> Any:
        for _ in range(size // len(chunk)):
            yield chunk

    async def one(i: int) -> tuple[int | str, float]:
        started = time.perf_counter()
        async with httpx.AsyncClient(base_url=server.url, timeout=300, headers={"X-Forwarded-For": f"10.66.1.{i}"}) as http:
            try:
                response = await http.post("/api/login", content=body(),
                                           headers={"Content-Type": "application/json", "Content-Length": str(size)})
                return response.status_code, time.perf_counter() - started
            except httpx.HTTPError as error:
                return type(error).__name__, time.perf_counter() - started

    results = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(3))), max(seconds, 300))
    # What the server answers to such a request's headers (a client streaming the body sees the
    # connection close under it, above): read on a raw socket after a little of the body.
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(f"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {size}\r\n\r\n".encode() + b"[" * 1000)
        try:
            status = sock.recv(4096).split(b"\r\n")[0].decode()
        except OSError as error:
            status = type(error).__name__
    return {"answers": [r[0] for r in results], "seconds": [round(r[1], 2) for r in results], "status_line": status}


def ws_text_frame(text: str) -> bytes:
    """One masked client text frame (RFC 6455), for raw sockets."""
    payload, mask = text.encode(), os.urandom(4)
    n = len(payload)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_websocket(server: ServerProcess, cookie: str | None, address: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a tiny receive buffer; nothing is read after the handshake."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: {address}\r\n"
                  + (f"Cookie: fz_session={cookie}\r\n" if cookie else "") + "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("handshake refused")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.split(b"\r\n")[0].decode())
    sock.setblocking(False)
    return sock


async def flood_stalls(server: ServerProcess, seconds: float, table: str, count: int = 200) -> dict[str, Any]:
    """Sockets that follow the victim table and ask for a snapshot 8 times a second
    (within the message rate), but never read what the server sends: each a guest of its
    own (one account may keep only so many connections, at its own message rate)."""
    clients = [await Client(server, "10.66.0.4").guest() for _ in range(count)]
    before = _established(server)
    socks = [raw_websocket(server, client.cookie, "10.66.0.4") for client in clients]
    join = ws_text_frame(json.dumps({"type": "join", "table": table}))
    started = time.monotonic()
    deadline = started + max(seconds, 40.0)  # long enough for buffers to fill and a send to stay blocked
    sent = refused = 0
    all_cut_after: float | None = None
    next_count = started
    unsent = {sock: b"" for sock in socks}  # a frame partly sent is finished first (else the stream is garbage)
    while time.monotonic() < deadline:
        for sock in socks:
            data = unsent[sock] or join
            try:
                done = sock.send(data)
            except (BlockingIOError, OSError):
                refused += 1
                continue
            unsent[sock] = data[done:]
            sent += not unsent[sock]
        if all_cut_after is None and time.monotonic() >= next_count:  # the server's side, once a second
            next_count += 1.0
            if _established(server) - before <= 0:
                all_cut_after = round(time.monotonic() - started, 1)
        await asyncio.sleep(0.125)  # 8 a second (for each socket): within the message rate of one client
    await asyncio.sleep(1)
    established = _established(server) - before
    rss = server.rss_mb()
    cut = 0
    for sock in socks:
        cut += _tcp_state(sock) != TCP_ESTABLISHED  # our side: the server closed or reset it
        sock.close()
    return {"stalled_sockets": count, "joins_sent": sent, "still_established_at_the_end": max(0, established),
            "closed_by_the_server": cut, "all_cut_after_seconds": all_cut_after,
            "server_rss_at_the_end_mb": round(rss, 1)}


TCP_ESTABLISHED = 1  # tcpi_state, the first byte of Linux's TCP_INFO


def _tcp_state(sock: socket.socket) -> int:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]


def _established(server: ServerProcess) -> int:
    """The server's established connections (its side of each)."""
    return sum(1 for c in server.ps.net_connections("tcp") if c.status == psutil.CONN_ESTABLISHED and c.laddr.port == server.port)


async def flood_frames(server: ServerProcess, seconds: float) -> dict[str, Any]:
    client = await Client(server, "10.66.0.5").guest()
    replies: Counter[str] = Counter()
    sent = pongs = reconnects = 0
    deadline = time.monotonic() + seconds
    frames: list[Any] = ["[" * 3000 + "]" * 3000, b"\x00\x01\x02binary", '{"type":"ping","id":' + "[" * 2000 + "]" * 2000 + "}"]
    while time.monotonic() < deadline:
        try:
            async with await client.connect() as ws:
                while time.monotonic() < deadline:
                    for frame in frames:
                        await ws.send(frame)
                        sent += 1
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        replies[msg.get("code", msg["type"])] += 1
                    await ws.send('{"type":"ping"}')
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                        replies[msg.get("code", msg["type"])] += 1
                    pongs += 1
                    await asyncio.sleep(0.35)  # within the message rate a client is allowed
        except (OSError, websockets.ConnectionClosed, TimeoutError):
            reconnects += 1
            await asyncio.sleep(0.1)
    return {"bad_frames_sent": sent, "replies": dict(replies), "pings_answered": pongs, "connections_dropped": reconnects}


async def farm_game(farmer: Client, puppet: Client, *, hands: int) -> dict[str, Any] | str:
    """One ranked game of the farmer against a puppet who resigns once ``hands`` hands are
    complete (0: at once), folding until then; the Game as the server lists it, or why there
    was no game.  The puppet opens the table, so the farmer's own table caps never bind."""
    created = await puppet.post("/api/tables", {"slots": [None, None], "ranked": True})
    if created.status_code != 200:
        return f"create {created.status_code}"
    table = created.json()["table"]["id"]
    sat = await farmer.post(f"/api/tables/{table}/sit")
    if sat.status_code != 200:
        return f"sit {sat.status_code}"

    async def play(client: Client, *, resigns: bool) -> None:
        async with await client.connect() as ws:
            await ws.send(json.dumps({"type": "join", "table": table}))
            resigned = False
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if msg["type"] == "error" and msg["code"] == "rate_limited":  # faster than the account may: slow down
                    await asyncio.sleep(1.0)
                    await ws.send(json.dumps({"type": "join", "table": table}))
                    continue
                if any(e["type"] == "game_over" for e in msg.get("events", [])) or \
                        msg.get("table", {}).get("status") == "finished":  # (over before this client joined)
                    return
                view = msg.get("view")
                if msg["type"] not in ("snapshot", "update") or view is None:
                    continue
                done = view["hand_number"] > hands or (view["hand_number"] == hands and view["hand_over"])
                if resigns and not resigned and done:
                    await ws.send('{"type": "resign"}')
                    resigned = True
                elif view["legal"] is not None and view["to_act"] == view["viewer"]:
                    moves = view["legal"]["moves"]
                    move = "fold" if resigns else "check" if "check" in moves else "call"
                    await ws.send(json.dumps({"type": "act", "version": msg["version"], "move": move}))

    await asyncio.gather(play(farmer, resigns=False), play(puppet, resigns=True))
    games = (await farmer.http.get(f"/api/tables/{table}/games")).json()["games"]
    return dict(games[-1])


# (name, hands the puppet plays before resigning, fresh puppets?): the issue's attack, the
# smarter one of the same 8 puppets, the smarter one with a new puppet every game (the pair
# limit never binds), and fresh puppets that sit out the short-game hands (elo.py) first.
ELO_ATTACKS = (("resign_at_once", 0, False), ("fold_one_hand_then_resign", 1, False),
               ("fresh_puppets_fold_one_hand", 1, True), ("fresh_puppets_fold_five_hands", 5, True))


async def flood_elo(server: ServerProcess, seconds: float) -> dict[str, Any]:
    puppets = [await Client(server, f"10.66.2.{10 + i}").register(f"puppet{i}") for i in range(8)]
    report: dict[str, Any] = {}
    fresh = 0
    for n, (attack, hands, new_puppets) in enumerate(ELO_ATTACKS):
        name = f"farmer{n}"  # a farmer per attack, each from its own address
        farmer = await Client(server, f"10.66.3.{n}").register(name)
        games, rated, refused = 0, 0, Counter[str]()
        curve: dict[int, float] = {}  # the farmer's rating after 5, 10, 20, 40, ... games
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and sum(refused.values()) <= 50:
            if new_puppets:
                fresh += 1
                opponents = [await Client(server, f"10.67.{fresh // 250}.{fresh % 250 + 1}").register(f"fresh{fresh}")]
            else:
                opponents = puppets
            for puppet in opponents:
                over = await farm_game(farmer, puppet, hands=hands)
                if isinstance(over, str):
                    refused[over] += 1
                    continue
                games += 1
                rated += bool(over.get("rated", over["ranked"]))  # (an older server rates every ranked game)
                if games % 5 == 0 and (games // 5) & (games // 5 - 1) == 0:
                    curve[games] = (await farmer.http.get(f"/api/users/{name}/ratings")).json()["rating"]
            if refused and not games:
                break
        me = (await farmer.http.get(f"/api/users/{name}/ratings")).json()
        board = (await farmer.http.get("/api/leaderboard")).json()["players"]
        # the place among established ratings (an older server numbers every entry)
        rank = next((p.get("place", i + 1) for i, p in enumerate(board) if p["name"] == name), None)
        report[attack] = {"games": games, "rated": rated, "refused": dict(refused), "farmer_rating": me.get("rating"),
                          "farmer_rated_games": me.get("games"), "provisional": me.get("provisional"),
                          "leaderboard_place": rank, "rating_after_games": curve}
    return report


def ring_estimate(*, best: bool = True) -> dict[str, Any]:
    """What the attack the rating rules leave open costs, by this checkout's rules (no server;
    docs/protocol.md "Ratings"), as bench/elo_ring.py builds it: the farmer's rating after the
    issue's ring (6 puppets, 5 games each) from one address and from own addresses, and (with
    ``best``, about a minute) the smallest ring of own addresses that puts a fresh farmer above
    the best of 200 honest players, in one sitting and over 180 days."""
    import elo_ring

    report: dict[str, Any] = {"issue_ring": {
        "one_address": round(elo_ring.issue_ring(True, one_address=True)),
        "own_addresses": round(elo_ring.issue_ring(True, one_address=False))}}
    if best:
        target = elo_ring.leaderboard_top(True)
        report["honest_top"] = round(target)
        for name, days in (("one_sitting", None), ("180_days", 180.0)):
            found, _ = elo_ring.best_ring(True, target, one_address=False, campaign_days=days, max_puppets=30)
            report[f"own_addresses_{name}"] = None if found is None else {
                "accounts": found.puppets + 1, "games": found.games, "farmer": round(found.farmer)}
    return report


async def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="fz-abuse-") as tmp:
        server = start_server(Path(tmp), args.server_src)
        victim = Victim()
        try:
            await victim.start(server)
            await asyncio.sleep(3)
            victim.take()
            await asyncio.sleep(args.seconds)
            quiet = victim.take()
            report["baseline"] = {"server_rss_mb": round(server.rss_mb(), 1), "victim_moves": len(quiet),
                                  "victim_p99_ms": p99_ms(quiet)}
            print(json.dumps({"baseline": report["baseline"]}), flush=True)
            for name in args.only:
                stop = asyncio.Event()
                peak = asyncio.create_task(rss_peak(server, stop))
                victim.take()
                started = time.monotonic()
                try:
                    if name == "stalls":
                        result = await flood_stalls(server, args.seconds, victim.table)
                    else:
                        result = await {"moves": flood_moves, "tables": flood_tables, "bodies": flood_bodies,
                                        "frames": flood_frames, "elo": flood_elo}[name](server, args.seconds)
                except Exception as error:  # a flood that breaks the bench is a result too
                    result = {"failed": f"{type(error).__name__}: {error}"}
                stop.set()
                if name == "elo" and args.server_src is None:
                    result["ring_estimate"] = ring_estimate()
                moves = victim.take()
                result.update(seconds=round(time.monotonic() - started, 1), server_rss_peak_mb=round(await peak, 1),
                              server_alive=server.alive(), victim_moves=len(moves), victim_p99_ms=p99_ms(moves))
                report[name] = result
                print(json.dumps({name: result}), flush=True)
                await asyncio.sleep(2)
            report["victim_errors"] = dict(victim.errors)
        finally:
            victim.stop()
            server.stop()
            report["server_warnings"] = Counter(
                " ".join(w for w in line.split() if not w[0].isdigit())[:80]
                for line in Path(tmp, "server.log").read_text(errors="replace").splitlines()
                if line.startswith(("WARNING", "ERROR")) or "Traceback" in line)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description="Floods against the Freezeout server (issue #10)")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each flood lasts")
    parser.add_argument("--only", default=",".join(FLOODS), help=f"floods to run, of {', '.join(FLOODS)}")
    parser.add_argument("--server-src", help="run the server from another checkout's src/ (PYTHONPATH)")
    args = parser.parse_args()
    args.only = [name for name in args.only.split(",") if name]
    report = asyncio.run(run(args))
    print(json.dumps(report, indent=2, default=dict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
