"""Which callbacks make one event-loop iteration slow in a connect or disconnect storm
(issue #32 item 12; docs/scaling.md "No freeze", "Storms").

The server runs in this process on asyncio's loop (uvicorn, SQLite in a temporary
directory, the collector tuned as ``freezeout serve`` tunes it); a client process makes
``--players`` guests at tables of 4 (bench/load.py's set-up), then twice: connects them
all, 256 handshakes at a time, each joining its table (a connect storm), and closes them
all at once (a disconnect storm).  The loop's ``_run_once`` and ``Handle._run`` are
wrapped to sum each iteration's callbacks on the loop thread's CPU clock
(``time.thread_time``: a shared machine's other processes do not count); a task's step
is named by where its coroutine was suspended before and after.  Printed per storm: the
iterations over ``--slow-ms`` and the callbacks that filled the worst of them.

    .venv/bin/python bench/storm_probe.py --players 2000            # as served
    .venv/bin/python bench/storm_probe.py --players 2000 --no-pacer # as before transport/wspacer.py
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import socket
import sys
import tempfile
import time
import types
from asyncio import base_events, events
from pathlib import Path
from typing import Any

CLIENT = r"""
import asyncio, sys
sys.path.insert(0, {bench!r})
import load
from lean_ws import connect

async def main(url, n):
    tables = await load.setup_tables(url, n, 4)
    players = [(t[0], c) for t in tables for c in t[1:]]
    for _ in range(2):
        joined = set()

        def opened(conn, table):
            conn.send_text(('{{"type":"join","table":"%s"}}' % table).encode())

        def received(conn, text):
            if b'"snapshot"' in text:
                joined.add(id(conn))

        gate = asyncio.Semaphore(256)

        async def one(table, cookie):
            async with gate:
                return await connect(url.replace("http", "ws") + "/ws", {{"Cookie": f"fz_session={{cookie}}"}},
                                     lambda c, t=table: opened(c, t), received)

        print("CONNECT", flush=True)
        conns = await asyncio.gather(*(one(t, c) for t, c in players))
        for _ in range(2400):  # every player's snapshot, or two minutes (a starved server's database times out)
            if len(joined) == len(conns):
                break
            await asyncio.sleep(0.05)
        print(f"JOINED {{len(joined)}}", file=sys.stderr, flush=True)
        await asyncio.sleep(2)
        print("DISCONNECT", flush=True)
        for conn in conns:
            conn.transport.close()
        await asyncio.gather(*(conn.closed for conn in conns))
        await asyncio.sleep(2)
    print("DONE", flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


class Iterations:
    """The CPU time of each loop iteration's callbacks, and what filled the slow ones."""

    def __init__(self, slow: float) -> None:
        self.slow = slow
        self.current: collections.Counter[str] = collections.Counter()
        self.counts: collections.Counter[str] = collections.Counter()
        self.found: list[dict[str, Any]] = []

    def install(self) -> None:
        run, run_once, probe = events.Handle._run, base_events.BaseEventLoop._run_once, self

        def timed_run(handle: events.Handle) -> None:
            before = _where(handle)
            started = time.thread_time()
            run(handle)
            key = _name(handle) + (f" [{before} -> {_where(handle)}]" if before else "")
            probe.current[key] += time.thread_time() - started
            probe.counts[key] += 1

        def timed_once(loop: base_events.BaseEventLoop) -> None:
            probe.current, probe.counts = collections.Counter(), collections.Counter()
            run_once(loop)
            busy = sum(probe.current.values())
            if busy > probe.slow:
                probe.found.append({"cpu_ms": round(busy * 1000, 1), "callbacks": sum(probe.counts.values()),
                                    "top": [[key, round(t * 1000, 1), probe.counts[key]]
                                            for key, t in probe.current.most_common(3)]})

        events.Handle._run = timed_run  # type: ignore[method-assign]
        base_events.BaseEventLoop._run_once = timed_once  # type: ignore[attr-defined]

    def report(self) -> dict[str, Any]:
        found, self.found = self.found, []
        return {"slow_iterations": len(found), "worst_cpu_ms": max((f["cpu_ms"] for f in found), default=0),
                "worst": sorted(found, key=lambda f: -f["cpu_ms"])[:3]}


def _name(handle: events.Handle) -> str:
    callback = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        return "task:" + getattr(task.get_coro(), "__qualname__", "?")
    return getattr(callback, "__qualname__", None) or repr(callback)


def _where(handle: events.Handle) -> str:
    """Where a task's coroutine waits, in our code (the innermost frame of freezeout's)."""
    task = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
    if not isinstance(task, asyncio.Task):
        return ""
    coro: Any = task.get_coro()
    last = "-"
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if isinstance(frame, types.FrameType) and "freezeout" in frame.f_code.co_filename:
            last = f"{frame.f_code.co_name}:{frame.f_lineno}"
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return last


async def probe(players: int, slow: float) -> dict[str, Any]:
    import uvicorn

    import load
    import serverproc
    from freezeout.server.app import create_app
    from freezeout.server.settings import Settings

    os.environ.update(load.PER_ADDRESS_UNLIMITED)
    os.environ.update(serverproc.BENCH_ENV)
    tmp = Path(tempfile.mkdtemp(prefix="fz-stormprobe-"))
    app = create_app(Settings(database_url=f"sqlite:///{tmp / 'db.sqlite'}"), tune_process=True)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws_max_size=65536))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.05)
    iterations = Iterations(slow)
    iterations.install()
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENT.format(bench=str(Path(__file__).parent)), f"http://127.0.0.1:{port}",
        str(players), stdout=asyncio.subprocess.PIPE)
    assert client.stdout is not None
    phases: list[dict[str, Any]] = []
    phase, cpu = "", time.process_time()
    while True:
        line = (await client.stdout.readline()).decode().strip()
        if phase:
            phases.append({"phase": phase, "cpu_s": round(time.process_time() - cpu, 2), **iterations.report()})
        if line not in ("CONNECT", "DISCONNECT"):
            break
        phase, cpu = line.lower(), time.process_time()
        iterations.report()  # what came before this phase is not its
    server.should_exit = True
    await task
    await client.wait()
    return {"players": players, "slow_ms": slow * 1000, "phases": phases,
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--slow-ms", type=float, default=50.0, help="an iteration's CPU over this is reported")
    parser.add_argument("--no-pacer", action="store_true", help="every handshake at once (as before transport/wspacer.py)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    if args.no_pacer:
        from freezeout.server.transport import wspacer

        wspacer.PER_TURN = 10**9
        wspacer.Pacer.__init__.__defaults__ = (10**9,)
    print(json.dumps(asyncio.run(probe(args.players, args.slow_ms / 1000)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
