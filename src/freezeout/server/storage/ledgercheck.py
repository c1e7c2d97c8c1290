"""Conservation of play chips over the whole database (C9; ``freezeout ledger check``).

Split from :mod:`.ledger`, which moves chips: this module only reads, and says
where the books do not balance.  Per account, its balance is the sum of its
rows; per table, what the ledger put on it is what the table's own log says it
holds; over everything, balances + chips on tables = grants + reloads (rake is
the house's balance).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from sqlalchemy import Connection, func, select

from freezeout.server.entries import LogEntry
from freezeout.server.storage.db import table_log, users
from freezeout.server.storage.ledgerschema import CREDITS, DEBITS, HOUSE, balances, ledger, utc_day

__all__ = ["TableHoldings", "check"]


TableHoldings = Callable[[str, Sequence[LogEntry]], int | None]
"""What a table's own log says it holds: the chips of every seat (stacks and anything in
the pot), from the table's entries — or None when the log is not a cash table's.  The table
provides it (:func:`freezeout.server.table.chips.holdings`, wired by the process: storage
does not fold a table's log); :func:`check` compares it with the ledger."""


def check(conn: Connection, holdings: TableHoldings) -> list[str]:
    """Every difference from conservation over the whole database, most basic first (an
    empty list: the ledger balances).  Per account: its balance is the sum of its rows,
    row by row (``balance_after``), and it reloaded at most once a UTC day.  Per table
    with ledger rows: what the ledger puts on it (buy-ins + top-ups - cash-outs - rake)
    is not negative and is what its log says it holds (``holdings``).  Over everything:
    balances + chips on tables = grants + reloads (rake is the house's balance)."""
    found: list[str] = []
    sums = _account_sums(conn)
    held = {int(r.account_id): int(r.balance) for r in conn.execute(select(balances).order_by(balances.c.account_id))}
    known_users = {int(r.id) for r in conn.execute(select(users.c.id))}
    for account in sorted(set(held) | set(sums)):
        credits, debits, _ = sums.get(account, (0, 0, 0))
        if account not in held:
            found.append(f"account {account}: ledger rows but no balance")
            continue
        if account != HOUSE and account not in known_users:
            found.append(f"account {account}: a balance of {held[account]} but no such account")
        if held[account] != credits - debits:
            found.append(f"account {account}: balance {held[account]} but its ledger rows sum to {credits - debits}")
    found += _chains(conn)
    found += _house_and_reloads(conn)
    grants = reloads = 0
    for r in conn.execute(select(ledger.c.kind, func.sum(ledger.c.amount).label("total"))
                          .where(ledger.c.kind.in_(["grant", "reload"])).group_by(ledger.c.kind)):
        if r.kind == "grant":
            grants = int(r.total)
        else:
            reloads = int(r.total)
    on_tables = 0
    for table_id, by_ledger in _table_sums(conn):
        if by_ledger < 0:
            found.append(f"table {table_id}: its ledger rows take out {-by_ledger} chips more than went in")
        entries = [LogEntry(r.table_id, r.seq, r.at, r.kind, json.loads(r.data), r.epoch) for r in conn.execute(
            select(table_log).where(table_log.c.table_id == table_id).order_by(table_log.c.seq))]
        by_log = holdings(table_id, entries)
        if by_log is None:
            found.append(f"table {table_id}: the ledger puts {by_ledger} chips on it but its log is not a cash table's")
            on_tables += by_ledger
        elif by_log != by_ledger:
            found.append(f"table {table_id}: the ledger puts {by_ledger} chips on it, its log says {by_log}")
            on_tables += by_log
        else:
            on_tables += by_log
    total = sum(held.values())
    if total + on_tables != grants + reloads:
        found.append(f"over everything: balances {total} (the house's rake included) + chips on tables {on_tables}"
                     f" = {total + on_tables}, but grants {grants} + reloads {reloads} = {grants + reloads}")
    return found


def _account_sums(conn: Connection) -> dict[int, tuple[int, int, int]]:
    """Per account: the sum of its credit rows, of its debit rows, and how many rows."""
    out: dict[int, tuple[int, int, int]] = {}
    for r in conn.execute(select(ledger.c.account_id, ledger.c.kind, func.sum(ledger.c.amount).label("total"),
                                 func.count().label("n")).group_by(ledger.c.account_id, ledger.c.kind)):
        credits, debits, n = out.get(int(r.account_id), (0, 0, 0))
        if r.kind in CREDITS:
            credits += int(r.total)
        else:
            debits += int(r.total)
        out[int(r.account_id)] = (credits, debits, n + int(r.n))
    return out


def _chains(conn: Connection) -> list[str]:
    """Each row's ``balance_after`` against the running sum of its account's rows."""
    found: list[str] = []
    running: dict[int, int] = {}
    reported: set[int] = set()
    for r in conn.execute(select(ledger).order_by(ledger.c.account_id, ledger.c.id)):
        account = int(r.account_id)
        signed = int(r.amount) if r.kind in CREDITS else -int(r.amount)
        running[account] = running.get(account, 0) + signed
        if int(r.balance_after) != running[account] and account not in reported:
            reported.add(account)
            found.append(f"account {account}: ledger row {r.transfer_id!r} says the balance became {int(r.balance_after)},"
                         f" but the rows up to it sum to {running[account]}")
    return found


def _house_and_reloads(conn: Connection) -> list[str]:
    found: list[str] = []
    for r in conn.execute(select(ledger.c.transfer_id, ledger.c.account_id, ledger.c.kind)
                          .where((ledger.c.account_id == HOUSE) != (ledger.c.kind == "rake")).order_by(ledger.c.id)):
        found.append(f"ledger row {r.transfer_id!r}: a {r.kind} for account {r.account_id} (rake goes to the house, and only rake)")
    days: dict[tuple[int, int], str] = {}
    for r in conn.execute(select(ledger.c.transfer_id, ledger.c.account_id, ledger.c.at)
                          .where(ledger.c.kind == "reload").order_by(ledger.c.id)):
        key = (int(r.account_id), utc_day(float(r.at)))
        if key in days:
            found.append(f"account {key[0]}: two reloads on one UTC day ({days[key]!r} and {r.transfer_id!r})")
        days[key] = str(r.transfer_id)
    return found


def _table_sums(conn: Connection) -> list[tuple[str, int]]:
    """Per table with ledger rows: the chips the ledger puts on it."""
    totals: dict[str, int] = {}
    for r in conn.execute(select(ledger.c.table_id, ledger.c.kind, func.sum(ledger.c.amount).label("total"))
                          .where(ledger.c.table_id.is_not(None)).group_by(ledger.c.table_id, ledger.c.kind)):
        totals[str(r.table_id)] = totals.get(str(r.table_id), 0) + (int(r.total) if r.kind in DEBITS else -int(r.total))
    return sorted(totals.items())
