"""The fencing trigger's cost per log entry (docs/scaling.md, "Measured").

    python bench/log_fence.py sqlite:///var/fence.db off|unowned|owned
    python bench/log_fence.py postgresql://user@host/emptydb off|unowned|owned

Use a new, empty database per run.  ``off`` drops the trigger (the baseline),
``unowned`` writes as one process does (no leases), ``owned`` gives every table
a lease and stamps its epoch on every entry.
"""

from __future__ import annotations

import asyncio
import sys
import time

from freezeout.server.cluster.ownership import Leases
from freezeout.server.settings import async_database_url
from freezeout.server.storage.db import create_engine, run_migrations
from freezeout.server.storage.store import LogEntry, Store

TABLES, ROUNDS, REPEATS = 200, 50, 3


async def measure(url: str, mode: str) -> float:
    engine = create_engine(async_database_url(url))
    await run_migrations(engine)
    if mode == "off":
        async with engine.begin() as conn:
            on = "" if engine.dialect.name == "sqlite" else " ON table_log"
            await conn.exec_driver_sql(f"DROP TRIGGER table_log_fence{on}")
    store = Store(engine)
    await store.start()
    leases = Leases(engine, worker="bench", ttl=3600)
    epochs: dict[str, int | None] = {}
    for n in range(TABLES):
        table_id = f"t{n}"
        await store.log.create_table(table_id, LogEntry(table_id, 1, 1.0, "create", {}))
        lease = await leases.acquire(table_id) if mode == "owned" else None
        epochs[table_id] = lease.epoch if lease is not None else None
    best = float("inf")
    for repeat in range(REPEATS):
        started = time.perf_counter()
        for r in range(ROUNDS):
            seq = 2 + repeat * ROUNDS + r
            await asyncio.gather(*(store.log.append([LogEntry(t, seq, 1.0, "note", {"n": r}, e)]) for t, e in epochs.items()))
        best = min(best, time.perf_counter() - started)
    await store.close()
    return TABLES * ROUNDS / best


def main() -> None:
    url, mode = sys.argv[1], sys.argv[2]
    if mode not in ("off", "unowned", "owned"):
        raise SystemExit(__doc__)
    rate = asyncio.run(measure(url, mode))
    print(f"{url.split(':', 1)[0]} {mode}: {rate:,.0f} entries/s ({TABLES} tables, group commit)")


if __name__ == "__main__":
    main()
