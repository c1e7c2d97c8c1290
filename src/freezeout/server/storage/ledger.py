"""Play chips and their ledger (C9, issue #25 step 1; docs/ledger.md).

Every account has a balance of play chips (``balances``; account 0 is the house,
which only ever receives rake).  Every movement of chips between a balance and a
table — the starting grant, the daily reload, a buy-in, a top-up, a cash-out,
and rake to the house — is one append-only ``ledger`` row with its own unique
``transfer_id``.  Three guards, each in the database rather than in Python:

* a debit is one conditional ``UPDATE ... SET balance = balance - :amount WHERE
  balance >= :amount``: two buy-ins racing for the same chips cannot both pass
  (PostgreSQL re-evaluates the condition once the first commits; SQLite has one
  writer at a time), and ``CHECK (balance >= 0)`` backs it up;
* ``transfer_id`` is UNIQUE: a retried transfer moves nothing the second time
  (:func:`move` answers the first result; the same id with other content is a
  :class:`TransferMismatch`);
* a row that names a table carries the table's fencing epoch and the database
  refuses it unless that is the owner's (migration 0007, like ``table_log``'s).

The operations are synchronous functions of an open :class:`~sqlalchemy.Connection`
so that the cash table's writer can move chips in the SAME transaction as the
log entry they belong to (``TableLog.append(entries, [Transfer(...)])``,
storage/tablelog.py); :class:`Ledger` wraps them for the HTTP API.
:func:`.ledgercheck.check` proves conservation over the whole database
(``freezeout ledger check``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Connection,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from freezeout.server.storage.db import tables, users
from freezeout.server.storage.ledgercheck import TableHoldings, check
from freezeout.server.storage.ledgerschema import (
    CREDITS,
    DAY,
    DEBITS,
    HOUSE,
    KINDS,
    MAX_AMOUNT,
    TABLE_KINDS,
    balances,
    ledger,
    utc_day,
)

if TYPE_CHECKING:
    from freezeout.server.settings import Settings

__all__ = [
    "CREDITS",
    "DAY",
    "DEBITS",
    "HOUSE",
    "KINDS",
    "Amounts",
    "BadTransfer",
    "Insufficient",
    "Ledger",
    "LedgerError",
    "Moved",
    "NoAccount",
    "ReloadRefused",
    "Transfer",
    "TransferMismatch",
    "balances",
    "client_transfer",
    "ledger",
    "move",
    "open_account",
    "reload",
]

_TRANSFER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9:._-]{0,127}")

# -- errors ----------------------------------------------------------------
class LedgerError(Exception):
    """A refused transfer: nothing was moved.  ``code`` is the API's error code."""

    code = "bad_transfer"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadTransfer(LedgerError):
    """Malformed input: an amount that is not a positive whole number, an unknown kind,
    a transfer id of the wrong shape, a table where none belongs (or none where one must)."""


class Insufficient(LedgerError):
    code, status = "insufficient", 409


class TransferMismatch(LedgerError):
    """A transfer id used before for a different movement (another account, kind, amount
    or table): a forged or confused retry."""

    code, status = "transfer_mismatch", 409


class NoAccount(LedgerError):
    code, status = "not_found", 404


class ReloadRefused(LedgerError):
    code, status = "reload_refused", 409


# -- values ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Amounts:
    """The ledger's settings (server/settings.py ``FREEZEOUT_LEDGER_*``): each new account's
    starting grant, and the daily reload of ``reload_amount`` for a balance below ``reload_floor``."""

    grant: int = 10_000
    reload_floor: int = 1_000
    reload_amount: int = 5_000

    @classmethod
    def of(cls, settings: Settings) -> Amounts:
        return cls(settings.ledger_grant, settings.ledger_reload_floor, settings.ledger_reload_amount)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of chips.  ``epoch`` and ``seq`` tie a table's movement to the log entry
    it rides with (the ``sit``/``stand`` entry, in the same transaction)."""

    transfer_id: str
    account_id: int
    kind: str
    amount: int
    at: float
    table_id: str | None = None
    epoch: int | None = None
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class Moved:
    """A written ledger row; ``replayed``: this transfer id had moved the chips already, and
    this is that first result, unchanged."""

    id: int
    transfer_id: str
    account_id: int
    kind: str
    amount: int
    balance: int  # the account's balance right after this row
    at: float
    table_id: str | None = None
    replayed: bool = field(default=False, compare=False)

    def signed(self) -> int:
        return self.amount if self.kind in CREDITS else -self.amount

    def public(self) -> dict[str, Any]:
        """The row as the API shows it to its account (docs/protocol.md "Play chips")."""
        return {"id": self.id, "transfer": self.transfer_id, "kind": self.kind, "amount": self.signed(),
                "balance": self.balance, "table": self.table_id, "at": self.at}


def client_transfer(kind: str, account_id: int, transfer: str) -> str:
    """The ledger's id of a transfer a client named ``transfer``: filed under its kind and the
    client's account, so no client's id can reach another account's transfer, nor a grant's
    (a retry of the same request by the same account still finds its row: C9 idempotency)."""
    return f"{kind}:{account_id}:{transfer}"


def whole_amount(amount: object, what: str = "amount") -> int:
    """``amount`` if it is a positive whole number of chips (at most MAX_AMOUNT), else a
    :class:`BadTransfer` saying why.  ``True``, ``2.0``, NaN and ``"5"`` are not chips."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        if isinstance(amount, float) and math.isnan(amount):
            raise BadTransfer(f"the {what} is NaN, not a number of chips")
        raise BadTransfer(f"the {what} must be a whole number of chips, not {amount!r}")
    if amount <= 0:
        raise BadTransfer(f"the {what} must be positive, not {amount}")
    if amount > MAX_AMOUNT:
        raise BadTransfer(f"the {what} {amount} is more than {MAX_AMOUNT}")
    return amount


def validate(t: Transfer) -> None:
    """Every refusal that needs no database (:class:`BadTransfer`)."""
    if not isinstance(t.transfer_id, str) or not _TRANSFER_ID.fullmatch(t.transfer_id):
        raise BadTransfer(f"bad transfer id {t.transfer_id!r}: 1-128 letters, digits and :._- (starting with a letter or digit)")
    if t.kind not in KINDS:
        raise BadTransfer(f"unknown kind of transfer {t.kind!r} (kinds: {', '.join(KINDS)})")
    whole_amount(t.amount)
    if isinstance(t.account_id, bool) or not isinstance(t.account_id, int) or t.account_id < 0:
        raise BadTransfer(f"bad account {t.account_id!r}")
    if (t.kind == "rake") != (t.account_id == HOUSE):
        raise BadTransfer("rake goes to the house, and only rake does")
    if (t.kind in TABLE_KINDS) != (t.table_id is not None):
        raise BadTransfer(f"a {t.kind} {'needs' if t.kind in TABLE_KINDS else 'has no'} table")
    if not (isinstance(t.at, (int, float)) and math.isfinite(t.at)):
        raise BadTransfer(f"bad time {t.at!r}")


# -- operations on an open connection (inside the caller's transaction) ----
def _moved(row: Any, *, replayed: bool = False) -> Moved:
    return Moved(int(row.id), str(row.transfer_id), int(row.account_id), str(row.kind), int(row.amount),
                 int(row.balance_after), float(row.at), row.table_id, replayed)


def _existing(conn: Connection, t: Transfer) -> Moved | None:
    """The first result of ``t.transfer_id`` if it was written already (same content), else
    None; :class:`TransferMismatch` if it moved something else."""
    row = conn.execute(select(ledger).where(ledger.c.transfer_id == t.transfer_id)).first()
    if row is None:
        return None
    first = _moved(row, replayed=True)
    if (first.account_id, first.kind, first.amount, first.table_id) != (t.account_id, t.kind, t.amount, t.table_id):
        raise TransferMismatch(
            f"transfer {t.transfer_id!r} was a {first.kind} of {first.amount} for account {first.account_id}"
            f"{f' at table {first.table_id}' if first.table_id else ''}; it cannot be reused for a {t.kind} of {t.amount}"
            f" for account {t.account_id}{f' at table {t.table_id}' if t.table_id else ''}")
    return first


def _write_row(conn: Connection, t: Transfer, balance: int) -> Moved:
    result = conn.execute(insert(ledger).values(
        transfer_id=t.transfer_id, account_id=t.account_id, kind=t.kind, amount=t.amount, balance_after=balance,
        table_id=t.table_id, table_epoch=t.epoch, table_seq=t.seq, at=float(t.at)))
    return Moved(int(result.inserted_primary_key[0]), t.transfer_id, t.account_id, t.kind, t.amount, balance,  # type: ignore[index]
                 float(t.at), t.table_id)


def _ensure_balance(conn: Connection, account_id: int) -> bool:
    """Create the account's balance row (at zero) unless it has one; True if it was created."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    result = conn.execute(dialect.insert(balances).values(account_id=account_id, balance=0)
                          .on_conflict_do_nothing(index_elements=["account_id"]))
    return bool(result.rowcount)


def move(conn: Connection, t: Transfer) -> Moved:
    """Move ``t``'s chips on or off its account's balance and write its ledger row, in the
    caller's transaction.  A transfer id seen before with the same content answers the
    first result and moves nothing; refusals (:class:`LedgerError`) write nothing — the
    caller's transaction should roll back, and the table's log entry with it."""
    validate(t)
    first = _existing(conn, t)
    if first is not None:
        return first
    if t.kind in DEBITS:
        # One statement decides: two buy-ins racing for the same chips cannot both pass.
        statement = (update(balances)
                     .where(balances.c.account_id == t.account_id, balances.c.balance >= t.amount)
                     .values(balance=balances.c.balance - t.amount))
    else:
        statement = update(balances).where(balances.c.account_id == t.account_id).values(balance=balances.c.balance + t.amount)
    after = conn.execute(statement.returning(balances.c.balance)).scalar()
    if after is None:
        have = conn.execute(select(balances.c.balance).where(balances.c.account_id == t.account_id)).scalar()
        if have is None:
            raise NoAccount(f"account {t.account_id} has no play chips (no balance)")
        raise Insufficient(f"a {t.kind} of {t.amount} is more than the balance of {have}")
    return _write_row(conn, t, int(after))


def open_account(conn: Connection, account_id: int, at: float, amounts: Amounts) -> Moved | None:
    """Give ``account_id`` its balance and its starting grant (transfer ``grant:<id>``: once
    per account, however often this runs).  Called in the account's own creation
    transaction (storage/users.py), and for an account older than the ledger the first
    time its balance is asked for."""
    _ensure_balance(conn, account_id)
    if amounts.grant <= 0:
        return None
    return move(conn, Transfer(f"grant:{account_id}", account_id, "grant", amounts.grant, at))


def reload_state(balance: int, reload_day: int | None, at: float, amounts: Amounts) -> tuple[bool, float, str | None]:
    """Whether a balance may reload at ``at``, from when (the start of the next UTC day after
    a reload today, else ``at``), and why not (None when it may)."""
    today = utc_day(at)
    if reload_day is not None and reload_day >= today:
        return False, (today + 1) * DAY, f"already reloaded today (UTC); next reload from {(today + 1) * DAY:.0f}"
    if balance >= amounts.reload_floor:
        return False, at, f"a reload is for a balance below {amounts.reload_floor}; this one is {balance}"
    if amounts.reload_amount <= 0:
        return False, at, "reloads are switched off"
    return True, at, None


def reload(conn: Connection, account_id: int, transfer_id: str, at: float, amounts: Amounts) -> Moved:
    """The daily reload: ``reload_amount`` chips for a balance below ``reload_floor``, once per
    UTC day.  The conditions are one conditional UPDATE, so two tabs reloading at once get
    one reload; a retried transfer id answers the first result."""
    t = Transfer(transfer_id, account_id, "reload", amounts.reload_amount, at)
    if amounts.reload_amount <= 0:
        raise ReloadRefused("reloads are switched off")
    validate(t)
    first = _existing(conn, t)
    if first is not None:
        return first
    day = utc_day(at)
    after = conn.execute(
        update(balances)
        .where(balances.c.account_id == account_id, balances.c.balance < amounts.reload_floor,
               (balances.c.reload_day.is_(None)) | (balances.c.reload_day < day))
        .values(balance=balances.c.balance + t.amount, reload_day=day)
        .returning(balances.c.balance)
    ).scalar()
    if after is None:
        row = conn.execute(select(balances).where(balances.c.account_id == account_id)).first()
        if row is None:
            raise NoAccount(f"account {account_id} has no play chips (no balance)")
        _, _, why = reload_state(int(row.balance), row.reload_day, at, amounts)
        raise ReloadRefused(why or "no reload now")
    return _write_row(conn, t, int(after))


# -- reading -----------------------------------------------------------------
def balance_row(conn: Connection, account_id: int) -> tuple[int, int | None] | None:
    row = conn.execute(select(balances.c.balance, balances.c.reload_day).where(balances.c.account_id == account_id)).first()
    return None if row is None else (int(row.balance), row.reload_day)


def history(conn: Connection, account_id: int, limit: int, before: int | None = None) -> list[Moved]:
    """The account's rows, newest first, each with the balance right after it (the plot)."""
    query = select(ledger).where(ledger.c.account_id == account_id)
    if before is not None:
        query = query.where(ledger.c.id < before)
    return [_moved(r) for r in conn.execute(query.order_by(ledger.c.id.desc()).limit(limit))]


def sessions(conn: Connection, account_id: int) -> list[dict[str, Any]]:
    """The account's cash sessions, newest first: at one table, from a buy-in to the cash-out
    that ends it, with what went in (bought in, topped up), what came out and the net; a
    session without its cash-out yet is ``open``."""
    rows = conn.execute(select(ledger).where(ledger.c.account_id == account_id, ledger.c.table_id.is_not(None))
                        .order_by(ledger.c.id)).all()
    found: list[dict[str, Any]] = []
    current: dict[str, dict[str, Any]] = {}
    for r in rows:
        session = current.get(r.table_id)
        if session is None:
            session = {"table": r.table_id, "started_at": float(r.at), "ended_at": None, "bought_in": 0, "topped_up": 0,
                       "cashed_out": 0, "net": 0, "open": True}
            current[r.table_id] = session
            found.append(session)
        key = {"buy_in": "bought_in", "top_up": "topped_up", "cash_out": "cashed_out"}[r.kind]
        session[key] += int(r.amount)
        session["net"] = session["cashed_out"] - session["bought_in"] - session["topped_up"]
        if r.kind == "cash_out":
            session["open"], session["ended_at"] = False, float(r.at)
            del current[r.table_id]
        else:
            session["_seq"] = session.get("_seq") or r.table_seq
    for table_id, session in current.items():  # no cash-out yet: perhaps one of 0 chips, which has no row
        left = _left_at(conn, table_id, account_id, session.get("_seq") or 0)
        if left is not None:
            session["open"], session["ended_at"] = False, left
    for session in found:
        session.pop("_seq", None)
    return found[::-1]


def _left_at(conn: Connection, table_id: str, account_id: int, since: int) -> float | None:
    """When the account's seat at ``table_id`` (taken at or after entry ``since``) was left, by
    the table's log: a player who leaves with 0 chips writes no ``cash_out`` row (amounts are
    positive), but the ``stand`` entry is there (docs/ledger.md).  None: still seated."""
    import json

    from freezeout.server.storage.db import table_log

    slot: int | None = None
    rows = conn.execute(select(table_log.c.kind, table_log.c.data, table_log.c.at)
                        .where(table_log.c.table_id == table_id, table_log.c.seq >= since,
                               table_log.c.kind.in_(("sit", "stand"))).order_by(table_log.c.seq))
    for kind, data, at in rows:
        body = json.loads(data)
        if kind == "sit" and body.get("user_id") == account_id:
            slot = body.get("slot")
        elif kind == "stand" and slot is not None and body.get("slot") == slot:
            return float(at)
    return None


def table_sheet(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    """Per player at ``table_id``: chips bought in, topped up and cashed out, and the net
    (cashed out minus what went in), in the order they first sat down; then the rake."""
    rows = conn.execute(
        select(ledger.c.account_id, ledger.c.kind, func.sum(ledger.c.amount).label("total"), func.min(ledger.c.id).label("first"))
        .where(ledger.c.table_id == table_id).group_by(ledger.c.account_id, ledger.c.kind)
    ).all()
    names = {int(r.id): str(r.display or r.name) for r in conn.execute(
        select(users.c.id, users.c.name, users.c.display).where(users.c.id.in_({int(r.account_id) for r in rows})))}
    sheet: dict[int, dict[str, Any]] = {}
    for r in sorted(rows, key=lambda r: int(r.first)):
        account = int(r.account_id)
        line = sheet.setdefault(account, {"account": account, "player": "house" if account == HOUSE else names.get(account, f"#{account}"),
                                          "bought_in": 0, "topped_up": 0, "cashed_out": 0, "rake": 0, "first": int(r.first)})
        line[{"buy_in": "bought_in", "top_up": "topped_up", "cash_out": "cashed_out", "rake": "rake"}[str(r.kind)]] += int(r.total)
        line["first"] = min(line["first"], int(r.first))
    for line in sheet.values():
        line["net"] = line["cashed_out"] + line["rake"] - line["bought_in"] - line["topped_up"]
        del line["first"]
    return sorted(sheet.values(), key=lambda line: (line["account"] == HOUSE,))


# -- the storage part ----------------------------------------------------------
_T = TypeVar("_T")


class Ledger:
    """The ``balances`` and ``ledger`` tables for the rest of the server: each method one
    transaction of its own (the cash table's writer calls :func:`move` inside its log
    transaction instead, through ``TableLog``)."""

    def __init__(self, engine: AsyncEngine, amounts: Amounts | None = None,
                 holdings: TableHoldings | None = None) -> None:
        self.engine = engine
        self.amounts = amounts or Amounts()
        self.holdings = holdings  # what a table's log says it holds: the table's own fold (.ledgercheck)

    # Hooks for the other parts' transactions (synchronous, on their connection).
    def open_in(self, conn: Connection, account_id: int, at: float) -> None:
        """storage/users.py: a new account's balance and grant, in its creation transaction."""
        open_account(conn, account_id, at, self.amounts)

    def move_in(self, conn: Connection, transfer: Transfer) -> Moved:
        """storage/tablelog.py: a table's transfer in its log entry's transaction (an account
        older than the ledger gets its balance and grant first)."""
        if transfer.account_id != HOUSE and balance_row(conn, transfer.account_id) is None:
            open_account(conn, transfer.account_id, transfer.at, self.amounts)
        return move(conn, transfer)

    async def _run(self, fn: Callable[[Connection], _T]) -> _T:
        """``fn`` in a transaction of its own, run again once if a concurrent transaction with
        the same transfer id won the race (the retry then finds its row and answers it)."""
        for attempt in (1, 2):
            try:
                async with self.engine.begin() as conn:
                    return await conn.run_sync(fn)
            except IntegrityError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def account(self, account_id: int, at: float) -> dict[str, Any]:
        """The account's balance and whether (and from when) it may reload; an account older
        than the ledger gets its balance and starting grant now."""
        def run(conn: Connection) -> dict[str, Any]:
            found = balance_row(conn, account_id)
            if found is None:
                open_account(conn, account_id, at, self.amounts)
                found = balance_row(conn, account_id)
                assert found is not None
            balance, day = found
            can, when, why = reload_state(balance, day, at, self.amounts)
            return {"balance": balance, "can_reload": can, "next_reload_at": when, "reload_refused": why,
                    "reload_floor": self.amounts.reload_floor, "reload_amount": self.amounts.reload_amount}

        return await self._run(run)

    async def reload(self, account_id: int, transfer_id: str, at: float) -> Moved:
        def run(conn: Connection) -> Moved:
            if balance_row(conn, account_id) is None:
                open_account(conn, account_id, at, self.amounts)
            return reload(conn, account_id, transfer_id, at, self.amounts)

        return await self._run(run)

    async def move(self, transfer: Transfer) -> Moved:
        """One transfer in a transaction of its own (tests, tools; a table uses ``TableLog``)."""
        return await self._run(lambda conn: self.move_in(conn, transfer))

    async def history(self, account_id: int, limit: int, before: int | None = None) -> list[Moved]:
        async with self.engine.connect() as conn:
            return await conn.run_sync(lambda c: history(c, account_id, limit, before))

    async def sessions(self, account_id: int) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            return await conn.run_sync(lambda c: sessions(c, account_id))

    async def table_sheet(self, table_id: str) -> list[dict[str, Any]] | None:
        """:func:`table_sheet`, or None when there is no such table."""
        async with self.engine.connect() as conn:
            if (await conn.execute(select(tables.c.id).where(tables.c.id == table_id))).first() is None:
                return None
            return await conn.run_sync(lambda c: table_sheet(c, table_id))

    async def check(self, holdings: TableHoldings | None = None) -> list[str]:
        """:func:`.ledgercheck.check` in one read transaction (a consistent view on PostgreSQL);
        ``holdings`` defaults to the reader the ledger was made with (the process wires the
        table's: storage does not fold a table's log itself)."""
        reader = holdings or self.holdings
        if reader is None:
            raise RuntimeError("the ledger check needs a reader of what each table's log holds")
        async with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execution_options(isolation_level="REPEATABLE READ")
            else:  # pysqlite begins only before a write: begin here, so every read sees one snapshot
                await conn.exec_driver_sql("BEGIN")
            return await conn.run_sync(lambda c: check(c, reader))
