"""The ledger's two tables (migration 0007) and the words of its rows, apart from what
moves chips (:mod:`.ledger`) and what checks them (:mod:`.ledgercheck`), which both read them."""

from __future__ import annotations

import math

from sqlalchemy import BigInteger, CheckConstraint, Column, Float, ForeignKey, Integer, String, Table

from freezeout.server.storage.db import metadata

__all__ = ["CREDITS", "DAY", "DEBITS", "HOUSE", "KINDS", "MAX_AMOUNT", "TABLE_KINDS", "balances", "ledger", "utc_day"]

HOUSE = 0  # the house's account: rake goes here, and nothing else does
DAY = 86400.0
MAX_AMOUNT = 10**12  # far above any stake; keeps every sum inside a BIGINT
KINDS = ("grant", "reload", "buy_in", "top_up", "cash_out", "rake")
CREDITS = frozenset({"grant", "reload", "cash_out", "rake"})  # chips onto a balance
DEBITS = frozenset({"buy_in", "top_up"})  # chips off a balance, onto a table
TABLE_KINDS = frozenset({"buy_in", "top_up", "cash_out", "rake"})

# The schema of migration 0007 (on db.metadata, beside the other tables).
balances = Table(
    "balances",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),  # users.id, or HOUSE
    Column("balance", BigInteger, nullable=False),
    Column("reload_day", Integer, nullable=True),  # the UTC day (days since 1970) of the last reload
    CheckConstraint("balance >= 0", name="ck_balances_not_negative"),
)

ledger = Table(
    "ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # the order rows were written in
    Column("transfer_id", String(128), nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("balances.account_id"), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("amount", BigInteger, nullable=False),  # always positive; the kind says which way
    Column("balance_after", BigInteger, nullable=False),  # the account's balance after this row (the plot)
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=True),
    Column("table_epoch", BigInteger, nullable=True),  # the writer's fencing epoch (0007's trigger)
    Column("table_seq", Integer, nullable=True),  # the table's log entry this row rides with
    Column("at", Float, nullable=False),
)


def utc_day(at: float) -> int:
    """Days since 1970-01-01 in UTC: the reload's "once a day"."""
    return math.floor(at / DAY)
