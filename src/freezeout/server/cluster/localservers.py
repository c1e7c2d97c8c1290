"""A local PostgreSQL and redis-server, for ``freezeout cluster`` and the tests.

PostgreSQL runs from Debian's binaries (``initdb``, ``pg_ctl``), as the
``postgres`` user when we are root (it refuses to run as root), with a socket
directory of its own: it never touches a system cluster.  redis-server runs
without persistence (a restart loses everything: the worst case the bus must
survive).

Neither listens on TCP (issue #32: any local user could open 11,000 idle
sockets to Redis, or 100 to PostgreSQL, and lock the room out before saying a
word).  Each listens only on a unix socket in a directory of mode 0700 (the
socket itself 0700 too), so only the room's OS user (and root) can connect at
all; PostgreSQL has ``listen_addresses=''`` and Redis ``port 0``.  Behind
that, a connection that does not authenticate goes: Redis closes clients idle
for :data:`REDIS_IDLE_SECONDS` (``timeout``; its pub/sub and blocked readers
are exempt, and the room's pooled connections reconnect by themselves) and
PostgreSQL ends an unfinished authentication after
:data:`PG_AUTHENTICATION_SECONDS`.

Neither trusts the machine's other users (issue #23: a local user ran a shell
command as PostgreSQL's superuser through ``COPY ... TO PROGRAM``, and
steered and read the bus).  Their passwords are made at the first start and
kept in a ``secrets/`` directory beside the data (mode 0700, files 0600),
never on a command line (``ps`` shows those to everyone):

- PostgreSQL authenticates every connection, local socket included, by
  password (``scram-sha-256``).  The superuser's password is for setting up
  only; the room connects as ``freezeout``, a role that is not a superuser,
  cannot create roles or databases, and owns the ``freezeout`` database
  (its tables, created by the migrations it runs) and nothing else.
- redis-server's default user is off; each role has an ACL user
  (``gateway``, ``worker``) allowed only the commands, keys and channels the
  bus uses (no ``CONFIG``, ``MODULE``, ``KEYS``, ``FLUSHALL``, ``MONITOR``),
  and ``admin`` (everything) is for an operator or a test.
"""

from __future__ import annotations

import glob
import hashlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["REDIS_ACL", "REDIS_IDLE_SECONDS", "ROOM_DATABASE", "ROOM_ROLE", "LocalPostgres", "LocalRedis",
           "ServerUnavailable", "free_port", "pg_binary", "private_directory", "secret_file", "with_database"]

START_SECONDS = 60  # generous: a loaded machine; a healthy start takes a second or two
REDIS_IDLE_SECONDS = 30  # Redis's ``timeout``: an idle client (one that never authenticated too) is closed
PG_AUTHENTICATION_SECONDS = 10  # PostgreSQL's ``authentication_timeout``
SOCKET_PATH_MAX = 100  # a unix socket's path must fit in sun_path (108 bytes on Linux)


class ServerUnavailable(Exception):
    """The binaries are missing or the server would not start (the message says why)."""


ROOM_ROLE = "freezeout"  # PostgreSQL role the room connects as
ROOM_DATABASE = "freezeout"  # owned by ROOM_ROLE


def secret_file(path: Path) -> str:
    """The secret kept in ``path``, made (random, 256 bits) at the first call; the file is
    readable by its owner only, in a directory only its owner may enter."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o700)
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
    path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def private_directory(path: Path, owner: pwd.struct_passwd | None = None) -> Path:
    """``path`` made (if missing) with mode 0700, owned by ``owner`` (else by us): where a server's
    unix socket lives, so that nobody else can even reach it."""
    path.mkdir(parents=True, exist_ok=True)
    if owner is not None:
        os.chown(path, owner.pw_uid, owner.pw_gid)
    path.chmod(0o700)
    return path


def _short_enough(socket_path: Path) -> None:
    if len(str(socket_path)) > SOCKET_PATH_MAX:
        raise ServerUnavailable(f"the socket path {socket_path} is longer than {SOCKET_PATH_MAX} characters: "
                                "choose a shorter --dir")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_database(url: str, database: str) -> str:
    """``url`` (a PostgreSQL URL, its server's socket in the query or not) naming ``database``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


def pg_binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class LocalPostgres:
    """A PostgreSQL server whose data lives in ``base`` (created on first start, kept after),
    password-authenticated; the room's role and database are made at every start if missing."""

    def __init__(self, base: Path, port: int | None = None, *, fsync: bool = False) -> None:
        self.base, self.port, self.fsync = base, port or free_port(), fsync
        self.data = base / "data"
        self.secrets = base / "secrets"
        self.socket_dir = base / "run"  # mode 0700: the only way in (no TCP listener)
        self.moved_aside: Path | None = None  # a data directory of an older, trusting setup
        initdb, pg_ctl, psql = pg_binary("initdb"), pg_binary("pg_ctl"), pg_binary("psql")
        if not initdb or not pg_ctl or not psql:
            raise ServerUnavailable("PostgreSQL binaries (initdb, pg_ctl, psql) are not installed: "
                                    "apt-get install -y postgresql")
        self.initdb, self.pg_ctl, self.psql = initdb, pg_ctl, psql
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self._user = pwd.getpwnam("postgres")
            except KeyError:
                raise ServerUnavailable("no 'postgres' system user to run the PostgreSQL server as") from None

    @property
    def password_file(self) -> Path:
        """The room role's password."""
        return self.secrets / f"{ROOM_ROLE}.password"

    @property
    def socket_path(self) -> Path:
        return self.socket_dir / f".s.PGSQL.{self.port}"

    def url_for(self, user: str, database: str, password: str | None = None) -> str:
        """A URL through the server's unix socket (``host`` names its directory; the port
        names the socket), as asyncpg, SQLAlchemy and libpq read it."""
        credentials = user if password is None else f"{user}:{password}"
        return f"postgresql://{credentials}@/{database}?host={self.socket_dir}&port={self.port}"

    @property
    def url(self) -> str:
        """The room's URL: its role (not a superuser) and database, the password in it."""
        return self.url_for(ROOM_ROLE, ROOM_DATABASE, secret_file(self.password_file))

    @property
    def admin_url(self) -> str:
        """The superuser's URL, for setting up (and tests that make databases of their own:
        :func:`with_database`)."""
        return self.url_for("postgres", "postgres", self._superuser_password())

    def env(self) -> dict[str, str]:
        """The room's database for ``freezeout serve``: the URL without its password, and the
        file that holds it (kept out of the environment and the command line)."""
        return {"FREEZEOUT_DATABASE_URL": self.url_for(ROOM_ROLE, ROOM_DATABASE),
                "FREEZEOUT_DATABASE_PASSWORD_FILE": str(self.password_file)}

    def _superuser_password(self) -> str:
        return secret_file(self.secrets / "postgres.password")

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = list(args)
        if self._user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    def start(self) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        if self._user is not None:
            os.chown(self.base, self._user.pw_uid, self._user.pw_gid)
        self._move_trusting_data_aside()
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        _short_enough(self.socket_path)
        private_directory(self.socket_dir, self._user)
        # No TCP at all (listen_addresses empty); the socket in a private directory, itself private.
        options = (f"-c listen_addresses='' -p {self.port} -k {self.socket_dir} -c unix_socket_permissions=0700"
                   f" -c authentication_timeout={PG_AUTHENTICATION_SECONDS}s" + ("" if self.fsync else " -c fsync=off"))
        started = self._run(self.pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.base / "log"),
                            "-w", "-t", str(START_SECONDS), "start")
        if started.returncode != 0:
            raise ServerUnavailable(f"pg_ctl start failed: {(started.stderr or started.stdout).strip()[:300]}")
        self._set_up_room()

    def _move_trusting_data_aside(self) -> None:
        """A data directory made by an older ``freezeout cluster`` lets any local user in as the
        superuser (``trust``): it is moved aside, untouched, and a new one made."""
        hba = self.data / "pg_hba.conf"
        if not hba.exists():
            return
        methods = [line.split()[-1] for line in hba.read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.lstrip().startswith("#")]
        if "trust" in methods:
            self.moved_aside = self.base / f"data.trust-{time.strftime('%Y%m%d-%H%M%S')}"
            self.data.rename(self.moved_aside)

    def _initdb(self) -> None:
        """initdb with password authentication for every connection (local socket and TCP); the
        superuser's password passes through a file only the server's user can read."""
        password = self._superuser_password()
        pwfile = self.base / ".initdb-password"
        descriptor = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(password + "\n")
        try:
            if self._user is not None:
                os.chown(pwfile, self._user.pw_uid, self._user.pw_gid)
            init = self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=scram-sha-256",
                             f"--pwfile={pwfile}", "--no-sync")
        finally:
            pwfile.unlink(missing_ok=True)
        if init.returncode != 0:
            raise ServerUnavailable(f"initdb failed: {init.stderr.strip()[:300]}")

    def _set_up_room(self) -> None:
        """The room's role (no superuser, no new roles or databases) and its database, which it
        owns (PostgreSQL 15: and so its ``public`` schema); nobody else may connect to it, and
        only the superuser to the others.  Idempotent: run at every start."""
        password = secret_file(self.password_file)
        sql = f"""
SELECT 'CREATE ROLE {ROOM_ROLE}' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{ROOM_ROLE}') \\gexec
ALTER ROLE {ROOM_ROLE} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD '{password}';
SELECT 'CREATE DATABASE {ROOM_DATABASE} OWNER {ROOM_ROLE}'
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '{ROOM_DATABASE}') \\gexec
REVOKE ALL ON DATABASE {ROOM_DATABASE} FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE {ROOM_DATABASE} TO {ROOM_ROLE};
REVOKE ALL ON DATABASE postgres FROM PUBLIC;
REVOKE CONNECT ON DATABASE template1 FROM PUBLIC;
"""
        # The password travels in the environment of psql (readable by this user only) and the
        # statements on its standard input: neither is on a command line.
        env = {**os.environ, "PGPASSWORD": self._superuser_password(), "PGCONNECT_TIMEOUT": "10"}
        done = subprocess.run([self.psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", str(self.socket_dir), "-p", str(self.port),
                               "-U", "postgres", "-d", "postgres", "-f", "-"],
                              input=sql, capture_output=True, text=True, timeout=120, env=env, check=False)
        if done.returncode != 0:
            raise ServerUnavailable(f"setting up the room's role failed: {done.stderr.strip()[:300]} (a data "
                                    f"directory whose superuser password is not in {self.secrets}? move {self.data} away)")

    def stop(self) -> None:
        self._run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")


# What each role may do on Redis (cluster/redisbus.py): its commands (and redis-py's handshake and
# health checks), the inbox streams and the lobby's hash, the tables' channels and its own.
# A gateway also reads the whole lobby.  Nothing else: no CONFIG (which writes files where it
# is told), no MODULE, DEBUG, KEYS, FLUSHALL, MONITOR, SCRIPT, EVAL.
_BUS_COMMANDS = ("+ping +xadd +expire +xgroup|create +xreadgroup"
                 " +publish +subscribe +unsubscribe +hset +hdel")
REDIS_ACL = {
    "gateway": f"resetkeys ~fz:inbox:* ~fz:lobby resetchannels &fz:table:* &fz:bus:* -@all {_BUS_COMMANDS} +hgetall",
    "worker": f"resetkeys ~fz:inbox:* ~fz:lobby resetchannels &fz:table:* &fz:bus:* -@all {_BUS_COMMANDS}",
    "admin": "~* &* +@all",
}


class LocalRedis:
    """A redis-server whose default user is off: every client is one of :data:`REDIS_ACL`'s
    users, with a password kept in ``directory/secrets`` (hashed in the server's config).
    It listens on ``directory/run/redis.sock`` only (the directory 0700), and closes a
    client idle for ``idle_seconds``."""

    def __init__(self, directory: Path, *, idle_seconds: int = REDIS_IDLE_SECONDS) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ServerUnavailable("redis-server is not installed: apt-get install -y redis-server")
        self.binary, self.directory, self.idle_seconds = binary, directory, idle_seconds
        self.secrets = directory / "secrets"
        self.socket_path = directory / "run" / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    def password(self, user: str) -> str:
        return secret_file(self.secrets / f"{user}.password")

    def url_for(self, user: str) -> str:
        """A URL with ``user``'s name and password (a gateway's, a worker's, the admin's)."""
        return f"unix://{user}:{self.password(user)}@{self.socket_path}?db=0"

    @property
    def url(self) -> str:
        """The URL for ``freezeout serve``: its user is its role, its password in :meth:`env`'s file."""
        return f"unix://{{role}}@{self.socket_path}?db=0"

    def env(self) -> dict[str, str]:
        return {"FREEZEOUT_REDIS_URL": self.url, "FREEZEOUT_REDIS_PASSWORD_FILE": str(self.secrets / "{role}.password")}

    def config(self) -> str:
        """redis.conf: a private unix socket and no TCP port, idle clients closed, no
        persistence, the default user off, one ACL user per role."""
        lines = [f"port 0\nunixsocket {self.socket_path}\nunixsocketperm 700\ntimeout {self.idle_seconds}",
                 "protected-mode yes\nsave \"\"\nappendonly no",
                 f"dir {self.directory}\ndaemonize no\nloglevel warning",
                 "user default off resetkeys resetchannels -@all"]
        for user, rules in REDIS_ACL.items():
            digest = hashlib.sha256(self.password(user).encode()).hexdigest()
            lines.append(f"user {user} on #{digest} {rules}")
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        _short_enough(self.socket_path)
        private_directory(self.socket_path.parent)
        conf = self.directory / "redis.conf"
        descriptor = os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(self.config())
        self.process = subprocess.Popen([self.binary, str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.process.poll() is not None:
                raise ServerUnavailable(f"redis-server exited with {self.process.returncode} ({self.socket_path})")
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.settimeout(1)
                    probe.connect(str(self.socket_path))
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"-NOAUTH"):  # up, and asks who we are
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise ServerUnavailable(f"redis-server did not answer on {self.socket_path}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kill it hard (SIGKILL), as a crash would: it keeps nothing anyway."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
