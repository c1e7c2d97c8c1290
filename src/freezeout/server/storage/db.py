"""The database schema (SQLAlchemy Core) and Alembic migrations on start.

The schema here mirrors ``migrations/versions``; the migrations are what
creates it.  ``table_log`` is the heart: an append-only log per table whose
primary key ``(table_id, seq)`` makes a doubled write impossible.  Past one
process a table has an owner (``table_owner``: a lease with a fencing epoch,
see cluster/ownership.py) and the database refuses a log entry whose ``epoch`` is not
the owner's (migration 0003's trigger), so a stale owner can never write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
)
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy import false as sa_false
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = ["api_tokens", "create_engine", "games", "metadata", "rating_history", "ratings", "run_migrations", "sessions", "sightings", "sync_sqlite_engine", "table_log", "table_owner", "tables", "user_names", "users"]

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),  # as registered (the display spelling)
    # The name case-folded after Unicode NFKC (accounts.name_key): unique, so "Ana" and "ana"
    # cannot both exist.  Nullable only because SQLite cannot tighten it in place (0002).
    Column("name_key", String(80), nullable=True, unique=True),
    Column("kind", String(8), nullable=False),  # user | guest | bot
    Column("password_hash", Text, nullable=True),
    Column("rating", Float, nullable=False, default=1500.0),
    Column("ranked_games", Integer, nullable=False, default=0),
    Column("created_at", Float, nullable=False),
    Column("display", String(64), nullable=True),  # the name chosen to be shown (0004); null: the name
)

# Every name an account has gone by (registered name, display names), with its look-alike
# fold (accounts.confusable_key): a new name must not fold like another account's (0004).
user_names = Table(
    "user_names",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("name", String(64), nullable=False, unique=True),  # one account's, for good
    Column("fold", String(80), nullable=False, index=True),
    Column("at", Float, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

api_tokens = Table(
    "api_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("label", String(64), nullable=False, default=""),
    Column("expires_at", Float, nullable=True),
    Column("last_used_at", Float, nullable=True),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("closed", Boolean, nullable=False, default=False),
)

table_log = Table(
    "table_log",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
    # The writer's fencing epoch: must equal table_owner.epoch, or be NULL for a table that
    # has never had an owner (one process, no leases); the database refuses anything else.
    Column("epoch", BigInteger, nullable=True),
)

# One row per table that has ever been owned; never deleted, its epoch only grows (0003).
table_owner = Table(
    "table_owner",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("epoch", BigInteger, nullable=False),
    Column("worker", String(128), nullable=False),
    Column("expires_at", Float, nullable=False, index=True),  # seconds since 1970 by the database's clock
)

games = Table(
    "games",
    metadata,
    Column("id", String(48), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("players", Text, nullable=False),
    Column("ranked", Boolean, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("places", Text, nullable=True),
    Column("record", Text, nullable=True),  # the full record (every card): for audits, never sent as is
    Column("pair", String(32), nullable=True),  # a ranked game's accounts, "low id:high id" (the daily pair limit)
    Column("unrated", String(16), nullable=True),  # a ranked game that did not change ratings: why
    Column("game", String(16), nullable=True),  # the table's game code (0006); null: the house game
    Column("family", String(16), nullable=False, server_default="house"),  # its rating family (elo.family, 0006)
)

# Where an account was seen lately (0005): a game between two accounts seen at one address or
# device is not rated (elo.py "Rings").  Only digests are kept, never an address itself.
sightings = Table(
    "sightings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("kind", String(8), primary_key=True),  # "address" | "device"
    Column("digest", String(64), primary_key=True),  # sha256 of kind and value
    Column("last_at", Float, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("game_id", String(48), nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("at", Float, nullable=False),
    Column("family", String(16), nullable=False, server_default="house"),  # 0006
    # The other player, and whether they vouched for this rating (elo.vouches, 0009): eight
    # distinct ones that did make a rating established (elo.established).
    Column("opponent", Integer, nullable=True),
    Column("vouched", Boolean, nullable=False, server_default=sa_false()),
)

# An account's rating in each family but the house game's (0006; the house rating is
# ``users.rating``): a row appears with the account's first counted game in the family.
ratings = Table(
    "ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("family", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("ranked_games", Integer, nullable=False),
)


def create_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite gets WAL and a busy timeout (one writer process)."""
    if url.startswith("sqlite"):
        # A pool big enough that connections are reused, not opened (each is a thread) per burst.
        engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=20, max_overflow=20)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=10)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # a killed process loses nothing committed
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run beside the writer (TableLog)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sync_sqlite_engine(engine: AsyncEngine) -> Engine:
    """A plain (pysqlite) engine on the same file for the log writer's thread."""
    url = engine.url.set(drivername="sqlite")
    # Two connections: the writer keeps one for plain log inserts, the other writes games (TableLog._commit).
    sync = sa_create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, pool_size=2, max_overflow=0)
    event.listen(sync, "connect", _sqlite_pragmas)
    return sync


def _alembic_config() -> Config:
    here = Path(__file__).parent
    config = Config(str(here / "alembic.ini"))
    config.set_main_option("script_location", str(here / "migrations"))
    return config


def _upgrade(connection: Connection) -> None:
    config = _alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


# Held while migrating on PostgreSQL: the processes of a cluster start together, and two
# upgrades at once would both try to create the same tables.
_MIGRATION_LOCK = 0x465A4D49  # "FZMI"


async def run_migrations(engine: AsyncEngine) -> None:
    """Apply every migration up to head (idempotent; runs on each start).  On PostgreSQL one
    process at a time (a transaction-scoped advisory lock): the others wait, then find the
    schema at head."""
    async with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            await connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        await connection.run_sync(_upgrade)
