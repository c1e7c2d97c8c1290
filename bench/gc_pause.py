"""What a full garbage collection costs with N WebSockets open, with and without the freezer
(issue #32 item 12; server/gctune.py's Freezer).

The server runs in this process (uvicorn, SQLite in a temporary directory); a client in a
separate process (bench/lean_ws.py) makes N guests and opens their WebSockets, then closes
them when told.  The collector is driven by hand, and each collection is timed on this
process's CPU clock (``time.process_time``: a shared machine's other processes do not
count) as well as the wall clock:

1. the connections' objects in the old generation, as before the freezer: a full pass;
2. the same, frozen (what the freezer does after a burst): a full pass;
3. every connection closed: the objects left frozen (cycles), and a thaw (unfreeze,
   full pass, freeze) that takes them back.  ``cyclic_garbage_per_closed`` is what a closed
   connection left in cycles: 85 before they were broken at close, 0 since
   (docs/scaling.md "No freeze").

    .venv/bin/python bench/gc_pause.py --connections 2000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import sys
import tempfile
import time
from pathlib import Path

CLIENT = """
import asyncio, os, random, sys
import httpx
sys.path.insert(0, {bench!r})
from lean_ws import connect

async def main(url, n, go):
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        cookies = []
        for _ in range(n):
            pre = f"{{random.getrandbits(64):016x}}"
            answer = await http.post("/api/guest", headers={{"X-CSRF-Token": pre, "Cookie": f"fz_csrf={{pre}}"}})
            cookies.append(answer.cookies["fz_session"])
    gate = asyncio.Semaphore(64)

    async def one(cookie):
        async with gate:
            return await connect(url.replace("http", "ws") + "/ws", {{"Cookie": f"fz_session={{cookie}}"}},
                                 lambda conn: None, lambda conn, text: None)

    conns = await asyncio.gather(*(one(c) for c in cookies))
    print("OPEN", flush=True)
    while not os.path.exists(go):
        await asyncio.sleep(0.1)
    for conn in conns:
        conn.transport.close()
    await asyncio.gather(*(conn.closed for conn in conns))
    print("CLOSED", flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
"""


def timed(step: str, action: object) -> dict[str, float | str]:
    """Run ``action()`` and time it on the CPU and the wall clock (ms)."""
    cpu, wall = time.process_time(), time.perf_counter()
    found = action()  # type: ignore[operator]
    return {"step": step, "cpu_ms": round((time.process_time() - cpu) * 1000, 1),
            "wall_ms": round((time.perf_counter() - wall) * 1000, 1), "collected": found or 0}


async def settle() -> None:
    for _ in range(40):  # let the server finish what the client's last messages started
        await asyncio.sleep(0.05)


async def measure(connections: int) -> dict[str, object]:
    import uvicorn

    from freezeout.server.app import create_app
    from freezeout.server.settings import Settings

    tmp = Path(tempfile.mkdtemp(prefix="fz-gcpause-"))
    os.environ.update({"FREEZEOUT_SIGNUP_MAX_PER_ADDRESS": "1000000", "FREEZEOUT_WS_MAX_PER_ADDRESS": "1000000"})
    app = create_app(Settings(database_url=f"sqlite:///{tmp / 'db.sqlite'}"))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws_max_size=65536))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.05)
    gc.collect()
    gc.freeze()  # what gctune does at start-up
    gc.disable()  # every collection below is one we time
    start_frozen = gc.get_freeze_count()
    go = tmp / "go"
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENT.format(bench=str(Path(__file__).parent)), f"http://127.0.0.1:{port}",
        str(connections), str(go), stdout=asyncio.subprocess.PIPE)
    assert client.stdout is not None
    assert (await client.stdout.readline()).strip() == b"OPEN"
    await settle()
    steps = [timed("young passes (the burst reaches the old generation)", lambda: gc.collect(1))]
    steps.append(timed("full pass, connections in the old generation (before)", gc.collect))
    steps.append(timed("freeze", gc.freeze))
    frozen = gc.get_freeze_count()
    steps.append(timed("full pass, connections frozen (after)", gc.collect))
    go.touch()
    assert (await client.stdout.readline()).strip() == b"CLOSED"
    await settle()
    left = gc.get_freeze_count()
    steps.append(timed("young and old passes after every connection closed", gc.collect))

    def thaw() -> int:
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        return found

    steps.append(timed("thaw: unfreeze, full pass, freeze", thaw))
    gc.enable()
    server.should_exit = True
    await task
    await client.wait()
    return {
        "connections": connections,
        "objects_per_connection": round((frozen - start_frozen) / connections),
        "freed_by_refcount_per_closed": round((frozen - left) / connections),
        "cyclic_garbage_per_closed": round(steps[-1]["collected"] / connections),  # type: ignore[operator]
        "steps": steps,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    print(json.dumps(asyncio.run(measure(args.connections)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
