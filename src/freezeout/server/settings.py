"""Server settings from the environment (``FREEZEOUT_*``), with the defaults
of rules.md for the clocks (R15, R26, R29, R30).

Every duration is configurable so that tests and the load bench can run the
same code with short or fake clocks.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "async_database_url", "parse_secrets", "with_password"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FREEZEOUT_", extra="ignore")

    database_url: str = Field(default="", description="SQLAlchemy URL; empty = SQLite file under var/")
    host: str = "127.0.0.1"
    port: int = 8000
    # Clocks (seconds).
    turn_seconds: float = 30.0  # R15
    dont_wait_bot_seconds: float = 3.0  # R26: a bot presses Don't wait this long after the deadline
    inactivity_seconds: float = 10 * 3600.0  # R29
    pause_seconds: float = 4.0  # R30
    bot_delay_min: float = 0.8  # human-like thinking time of the bots
    bot_delay_max: float = 2.5
    # Accounts.
    session_days: float = 30.0
    cookie_secure: bool | None = None  # None: Secure exactly when the request came over HTTPS
    # Failed log-ins: per account and client address (the owner elsewhere is never locked
    # out), and per address over all accounts (guessing many names from one place).
    login_max_failures: int = 5
    login_max_failures_per_address: int = 30
    login_window_seconds: float = 300.0
    # New accounts (guests and registrations) per client address and window: a
    # flood of sign-ups from one address is refused with 429 (the load bench,
    # thousands of guests from loopback, raises it).
    signup_max_per_address: int = 300
    signup_window_seconds: float = 3600.0
    session_sweep_seconds: float = 3600.0  # how often expired sessions (and API tokens) are deleted
    api_token_days: float = 90.0  # an API token's default lifetime (at most api_token_max_days)
    api_token_max_days: float = 365.0
    api_tokens_per_user: int = 20  # live tokens an account may hold
    # Play chips (C9, storage/ledger.py): each new account's starting grant, and the daily reload
    # (once per UTC day) of ledger_reload_amount chips for a balance below ledger_reload_floor.
    ledger_grant: int = Field(default=10_000, ge=0)
    ledger_reload_floor: int = Field(default=1_000, ge=0)
    ledger_reload_amount: int = Field(default=5_000, ge=0)
    # Cash tables (server/table/bots.py): bots fill a table where a human has sat alone this many
    # seconds (None: only when a player adds one; docs/ledger.md "Bots at cash tables").
    cash_bot_fill_seconds: float | None = Field(default=20.0, gt=0)  # a lone human at a cash table gets bots after this (None: only when asked)
    # Ratings (R25): the same two accounts' ranked games count at most this often in 24 h.
    elo_pair_daily_limit: int = 5
    # Tables: a guest or user may keep this many waiting or playing tables they created, and one
    # client address this many (an address may be many people behind one NAT).
    max_open_tables_per_user: int = 5
    max_open_tables_per_address: int = 20
    tables_per_hour_per_address: int = 120  # new tables from one client address in an hour
    # "No such table" answers to one client address (a guessed private table's secret is one:
    # issue #37) before its table requests are refused as rate_limited for the window's rest.
    table_misses_per_address: int = Field(default=30, ge=1)
    table_miss_window_seconds: float = Field(default=600.0, gt=0)
    table_queue_limit: int = 64  # commands waiting at one table; beyond it a move is refused as busy
    conn_queue_limit: int = 4  # commands of one connection waiting at its table
    # WebSocket connections: messages a client may send (a token bucket: a steady rate and a
    # burst; a client that keeps flooding is closed), connections per account and per address,
    # and how long a send may stay blocked before the connection is cut off (a stalled reader).
    ws_messages_per_second: float = 10.0
    ws_message_burst: int = 30
    ws_max_per_user: int = 16
    # Table chat (issue #37, storage/chat.py): at most this many lines an account writes in
    # chat_window_seconds, at all its tables together (checked in the database: a cluster too).
    chat_messages_per_window: int = 5
    chat_window_seconds: float = 10.0
    ws_max_per_address: int = 256
    ws_send_timeout_seconds: float = 10.0
    ws_outbox_bytes: int = 262144  # what may wait to be sent to one connection; beyond, it cannot keep up: cut off
    ws_send_buffer_bytes: int = 65536  # a connection's kernel send buffer (Linux doubles it; never autotuned to MBs)
    # After a restart every running turn starts again in full, and nobody is forfeited for
    # being offline (R26) before this many seconds: time to reconnect after the outage.
    restore_grace_seconds: float = 60.0
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    # Tests only: derive every deck, seating and bot decision from this seed (per game, hand
    # and version, the same at every table) instead of the OS CSPRNG.  Refused unless
    # ``test_mode`` is on (a server with predictable decks must never run by accident).
    deck_seed: str | None = None
    # An explicit test mode: allows ``deck_seed`` (and tables of bots alone, for benches) and
    # says so loudly in the log when the server starts.  Never in production.
    test_mode: bool = False
    bot_only_tables: bool = False  # test mode only: tables without a human place (bench/load.py)
    # Catch-up after a reconnect: how many recent log entries a table keeps (serialised, about
    # 150 bytes each): a minute or more of play; a client that missed more gets a snapshot.
    catchup_entries: int = 128
    # The odds calculator (GET /api/odds, server/oddsdesk.py): new questions per client address and minute,
    # and how many may wait behind the one that computes (more: 503 busy).
    odds_per_minute: int = Field(default=30, ge=1)
    odds_queue_limit: int = Field(default=8, ge=0)
    max_body_bytes: int = 65536  # larger HTTP request bodies are refused with 413 before they are read
    # A connection whose request head (line and headers) has not arrived this long after it
    # opened or the request began is cut off; a body that takes longer than its own limit is a 408.
    http_header_timeout_seconds: float = 10.0
    http_body_timeout_seconds: float = 30.0
    web_dir: str | None = None  # default: the package's web/ directory
    # A finished (or never started) table nobody follows is retired after this long idle.
    idle_close_seconds: float = 3600.0
    # An open cash table with nobody seated closes after this long (table/cashlobby.py).
    cash_idle_seconds: float = Field(default=1800.0, gt=0)
    # Messages are small JSON documents: compressing each one costs more CPU than it saves.
    ws_compression: bool = False
    # A text goes straight to the socket's transport as one frame when nothing waits before it
    # (transport/wsoutbox.py DirectWriter); off: every message through the ASGI send.
    ws_direct_send: bool = True
    # Keepalive pings find connections that died without a goodbye (presence, R26's instant
    # forfeit).  Each is a frame out and one back per connection and period: at 10,000
    # connections and 20 s that is 500 pings a second, a third of the messages of a busy room.
    ws_ping_seconds: float = 20.0
    access_log: bool = True
    # Cluster (issue #13, docs/scaling.md).  ``all``: one process, no Redis (``make run``);
    # ``gateway``: connections and HTTP, no game state; ``worker``: owns tables.
    role: str = "all"
    # The bus of a cluster (gateway and worker roles): redis://user:password@host:port/0, or
    # rediss:// for TLS.  ``{role}`` in it or in the password file's path is replaced by this
    # process's role, so one environment serves gateways and workers (each its own ACL user).
    redis_url: str = ""
    redis_password_file: str = ""  # the Redis password, read from this file (not the URL)
    # Every bus message is sealed under this secret (cluster/sealing.py): a command is authenticated,
    # a hole card is never in clear in Redis.  One or more, separated by commas or lines (the
    # first seals, all open: a rotation); from a file rather than the environment in production.
    bus_secret: str = ""
    bus_secret_file: str = ""
    bus_max_age_seconds: float = 60.0  # a bus message older than this (or a replay) is refused
    database_password_file: str = ""  # the database password, read from this file (not the URL)
    node_name: str = ""  # this process's name on the bus; empty: host-pid-random, new at every start
    lease_seconds: float = 3.0  # a worker's hold on a table; another takes it over this long after a crash
    renew_seconds: float = 1.0  # how often an owner renews its leases
    claim_seconds: float = 0.5  # how often a worker looks for tables without a live owner
    worker_max_tables: int = 5000  # a worker takes no more tables than this
    follow_refresh_seconds: float = 2.0  # how often a gateway tells each owner who follows its table
    route_timeout_seconds: float = 5.0  # how long a gateway waits for a table's owner (a takeover) before "busy"
    # A gateway hears lobby changes on the bus at once; it also reads the whole lobby this often,
    # which repairs a change the bus lost (pub/sub is at most once) or a Redis restart.
    lobby_refresh_seconds: float = 10.0
    lobby_push_seconds: float = 0.5  # lobby changes are gathered this long before they go to the watchers
    json_logs: bool = False  # one JSON object per log line (table ids as fields)
    gc_tuning: bool = True  # fewer, cheaper cyclic garbage collections (see app.py)
    gc_full_seconds: float = Field(default=600.0, gt=0)  # a full collection this often (gctune.py)
    # A diagnosis (looplag.StallStacks): while the event loop is over 100 ms late, log what it runs.
    loop_stall_stacks: bool = False
    gc_freeze: bool = True  # keep long-lived objects (connections) out of the full collection (gctune.Freezer)

    @model_validator(mode="after")
    def _cluster_settings(self) -> Settings:
        if self.role not in ("all", "gateway", "worker"):
            raise ValueError(f"role must be all, gateway or worker, not {self.role!r}")
        if not 0 < self.renew_seconds < self.lease_seconds:
            raise ValueError("renew_seconds must be positive and shorter than lease_seconds")
        return self

    @model_validator(mode="after")
    def _test_only_settings(self) -> Settings:
        """``deck_seed`` and bot-only tables make a server predictable or farmable: test mode only."""
        if not self.test_mode:
            if self.deck_seed is not None:
                raise ValueError("deck_seed (a fixed deck) is allowed only in test mode (FREEZEOUT_TEST_MODE=1)")
            if self.bot_only_tables:
                raise ValueError("bot_only_tables is allowed only in test mode (FREEZEOUT_TEST_MODE=1)")
        return self

    def resolved_database_url(self) -> str:
        """The async URL to connect to (with the password of ``database_password_file``);
        creates ``var/`` for the default SQLite file."""
        if self.database_url:
            url = self.database_url
            if self.database_password_file:
                url = with_password(url, _read_secret(self.database_password_file))
            return async_database_url(url)
        Path("var").mkdir(exist_ok=True)
        return async_database_url(f"sqlite:///{Path('var/freezeout.db').resolve()}")


    def redis_connection_url(self) -> str:
        """``redis_url`` for this process's role, with the password of ``redis_password_file``."""
        url = self.redis_url.replace("{role}", self.role)
        if self.redis_password_file:
            url = with_password(url, _read_secret(self.redis_password_file.replace("{role}", self.role)))
        return url

    def bus_secrets(self) -> list[str]:
        """The bus secrets (``bus_secret`` then ``bus_secret_file``'s); the first one seals."""
        found = parse_secrets(self.bus_secret)
        if self.bus_secret_file:
            found += parse_secrets(_read_secret(self.bus_secret_file))
        return found


def parse_secrets(text: str) -> list[str]:
    """Secrets separated by commas or lines (a secret file may hold several during a
    rotation: the first seals, every one opens); blank lines and ``#`` comments ignored."""
    found = [part.strip() for line in text.splitlines() if not line.lstrip().startswith("#")
             for part in line.split(",")]
    return [secret for secret in found if secret]


def _read_secret(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as error:
        raise ValueError(f"cannot read the secret file {path}: {error.strerror}") from None


def with_password(url: str, password: str) -> str:
    """``url`` with ``password`` as its password (the user name kept)."""
    parts = urlsplit(url)
    if parts.hostname is None:
        # A unix socket: Redis's ``unix://user@/path/redis.sock``, PostgreSQL's ``?host=/dir``.
        if parts.scheme != "unix" and "host=" not in parts.query:
            raise ValueError("a URL with a password file needs a host (or a unix socket)")
        host = ""
    else:
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    netloc = f"{quote(parts.username or '', safe='')}:{quote(password, safe='')}@{host}"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def async_database_url(url: str) -> str:
    """Accept plain URLs and choose the async driver for them."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    base = scheme.split("+", 1)[0]
    if base == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    if base in ("postgresql", "postgres"):
        return f"postgresql+asyncpg://{rest}"
    raise ValueError(f"unsupported database {base!r}: use sqlite:// or postgresql://")
