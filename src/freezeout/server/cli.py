"""``freezeout serve``, ``freezeout cluster``, ``freezeout verify-record``, ``freezeout
ledger check`` and ``freezeout moderation`` (registered by ``freezeout.commands``).  Heavy
imports happen only when a command runs."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

__all__ = ["cmd_cluster", "cmd_ledger_check", "cmd_moderation", "cmd_verify_record", "register"]


def cmd_serve(args: argparse.Namespace) -> int:
    # The settings are checked before the app (and everything it imports) is loaded: a refused
    # command line is answered at once.
    from pydantic import ValidationError

    from freezeout.server.settings import Settings

    overrides: dict[str, object] = {"host": args.host, "port": args.port}
    for option, setting in (("db", "database_url"), ("role", "role"), ("redis", "redis_url"), ("name", "node_name")):
        if getattr(args, option, None):
            overrides[setting] = getattr(args, option)
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
        settings.resolved_database_url()
        if settings.role != "all":
            if not settings.redis_url:
                raise ValueError(f"--role {settings.role} needs Redis: --redis URL or FREEZEOUT_REDIS_URL (docs/scaling.md)")
            from freezeout.server.cluster.sealing import Seal

            settings.redis_connection_url()  # its password file is readable
            Seal(settings.bus_secrets())  # a secret, long enough: refused here rather than at the first message
    except ValidationError as error:
        print("; ".join(str(e["msg"]).removeprefix("Value error, ") for e in error.errors()), file=sys.stderr)
        return 2
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    import uvicorn

    from freezeout.server.app import create_app
    from freezeout.server.cluster.ownership import worker_name
    from freezeout.server.logs import configure_logging
    from freezeout.server.transport.httpguard import http_protocol

    node = settings.node_name or (worker_name() if settings.role != "all" else "room")
    configure_logging(role=settings.role, node=node, json_lines=settings.json_logs)
    logging.getLogger(__name__).info("serving as %s on %s:%d", settings.role, settings.host, settings.port)
    uvicorn.run(
        # Only the serve command tunes the process (the GC), and the app undoes it at shutdown.
        create_app(settings, tune_process=True, name=node), host=settings.host, port=settings.port, ws_max_size=65536,
        log_level="info",
        http=http_protocol(settings.http_header_timeout_seconds),
        access_log=settings.access_log, ws_per_message_deflate=settings.ws_compression,
        ws_ping_interval=settings.ws_ping_seconds, ws_ping_timeout=settings.ws_ping_seconds,
    )
    return 0


def cmd_cluster(args: argparse.Namespace) -> int:
    """Start PostgreSQL, redis-server, the gateways and the workers; stop them all on Ctrl-C."""
    from freezeout.server.cluster.local import run_cluster

    return run_cluster(gateways=args.gateways, workers=args.workers, port=args.port, worker_port=args.worker_port,
                       directory=Path(args.dir))


def cmd_verify_record(args: argparse.Namespace) -> int:
    """Check every hand's commitment, deck and deal; print the report as JSON.
    Exit status 0 when every hand verifies, else 2."""
    from freezeout.server.fairness import verify_record

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    report = verify_record(text)
    print(json.dumps(report))
    if not report["ok"]:
        bad = next((h for h in report["hands"] if not h["ok"]), None)
        reason = report.get("error") or (f"hand {bad['hand']}: {bad['reason']}" if bad else "the record has no hands")
        print(reason, file=sys.stderr)
        return 2
    return 0


def cmd_ledger_check(args: argparse.Namespace) -> int:
    """Prove conservation of play chips over the whole database (C9, storage/ledger.py
    ``check``).  Exit status 0 when it holds; 1 naming the first difference (then the
    others); 2 when the database cannot be read."""
    import asyncio

    from freezeout.server.settings import Settings

    try:
        settings = Settings(**({"database_url": args.db} if args.db else {}))
        url = settings.resolved_database_url()
    except ValueError as error:  # pydantic's ValidationError is one
        print(str(error), file=sys.stderr)
        return 2
    try:
        found, counts = asyncio.run(_ledger_check(url))
    except Exception as error:
        print(f"cannot check the ledger: {error}", file=sys.stderr)
        return 2
    if found:
        print(f"ledger check FAILED: {found[0]}", file=sys.stderr)
        for more in found[1:]:
            print(f"  also: {more}", file=sys.stderr)
        return 1
    print(f"ledger check: conservation holds ({counts[0]} balances, {counts[1]} ledger rows)")
    return 0


async def _ledger_check(url: str) -> tuple[list[str], tuple[int, int]]:
    from sqlalchemy import func, inspect, select

    from freezeout.server.storage.db import create_engine
    from freezeout.server.storage.ledger import Ledger, balances, ledger
    from freezeout.server.table.chips import holdings

    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda c: inspect(c).get_table_names())
            if "ledger" not in names:
                raise RuntimeError("the database has no ledger yet (freezeout serve migrates it at start)")
            counts = (int((await conn.execute(select(func.count()).select_from(balances))).scalar_one()),
                      int((await conn.execute(select(func.count()).select_from(ledger))).scalar_one()))
        return await Ledger(engine, holdings=holdings).check(), counts
    finally:
        await engine.dispose()


def _when(at: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M")


async def _moderate(url: str, action: str, account: str | None) -> tuple[int, list[str]]:
    import time

    from freezeout.server.storage.chat import Chat
    from freezeout.server.storage.db import create_engine, run_migrations
    from freezeout.server.storage.users import Accounts

    engine = create_engine(url)
    try:
        await run_migrations(engine)
        chat, accounts = Chat(engine), Accounts(engine)
        if action == "list":
            reports = await chat.reports()
            if not reports:
                return 0, ["no reports"]
            lines = []
            for r in reports:
                who = f"{r.author} (account {r.author_id}{', banned' if r.banned else ''})"
                lines.append(f"#{r.id} {_when(r.at)} table {r.table_id}: {who} said {r.text!r} at {_when(r.said_at)}; "
                             f"reported by {r.reporter} (account {r.reporter_id})")
            return 0, lines
        assert account is not None
        user = await accounts.by_id(int(account)) if account.isdigit() else None
        if user is None:
            user = await accounts.by_name(account)
        if user is None:
            return 1, [f"no account {account!r} (give its id or its registered name, not a display name)"]
        named = f"account {user.id} ({user.name})"
        if action == "ban":
            done = await chat.ban(user.id, time.time())
            return 0, [f"banned {named}" if done else f"{named} is banned already"]
        undone = await chat.unban(user.id)
        return 0, [f"unbanned {named}" if undone else f"{named} is not banned"]
    finally:
        await engine.dispose()


def cmd_moderation(args: argparse.Namespace) -> int:
    """``freezeout moderation list|ban ACCOUNT|unban ACCOUNT`` (issue #37; docs/moderation.md): the
    chat reports, and bans by account id or registered name, never a display name.  Exit status 0 when done, 1 for an unknown account, 2 when the database cannot be read."""
    import asyncio

    from freezeout.server.settings import Settings

    try:
        url = Settings(**({"database_url": args.db} if args.db else {})).resolved_database_url()
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    try:
        status, lines = asyncio.run(_moderate(url, args.moderation_command, getattr(args, "account", None)))
    except Exception as error:
        print(f"cannot read the moderation list: {error}", file=sys.stderr)
        return 2
    print("\n".join(lines), file=sys.stderr if status else sys.stdout)
    return status


def _register_moderation(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    moderation = sub.add_parser("moderation", help="chat reports and bans (issue #37)")
    moderation_sub = moderation.add_subparsers(dest="moderation_command", required=True)
    db_help = "database URL (sqlite:///path or postgresql://user@host/db); default var/freezeout.db"
    listing = moderation_sub.add_parser("list", help="the reported chat messages, newest first")
    listing.add_argument("--db", help=db_help)
    for name, what in (("ban", "ban an account from chat and from opening tables"), ("unban", "lift a ban")):
        command = moderation_sub.add_parser(name, help=what)
        command.add_argument("account", help="the account's id or registered name (not a display name)")
        command.add_argument("--db", help=db_help)
    moderation.set_defaults(func=cmd_moderation)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the online poker room (HTTP + WebSocket)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="database URL (sqlite:///path or postgresql://user@host/db); default var/freezeout.db")
    serve.add_argument("--role", choices=["all", "gateway", "worker"],
                       help="all: one process (default); gateway: connections, no game state; worker: owns tables")
    serve.add_argument("--redis", help="Redis URL of a cluster's bus (gateway and worker roles)")
    serve.add_argument("--name", help="this process's name on the bus (default: host-pid-random)")
    serve.set_defaults(func=cmd_serve)
    cluster = sub.add_parser("cluster", help="run a local cluster: PostgreSQL, redis-server, gateways and workers")
    cluster.add_argument("--gateways", type=int, default=2)
    cluster.add_argument("--workers", type=int, default=3)
    cluster.add_argument("--port", type=int, default=8000, help="the first gateway's port (the others follow)")
    cluster.add_argument("--worker-port", type=int, default=8100, help="the first worker's health port")
    cluster.add_argument("--dir", default="var/cluster", help="where PostgreSQL keeps its data between runs")
    cluster.set_defaults(func=cmd_cluster)
    verify = sub.add_parser("verify-record", help="verify the fair-dealing commitments of a downloaded game record")
    verify.add_argument("file")
    verify.set_defaults(func=cmd_verify_record)
    ledger = sub.add_parser("ledger", help="play chips (C9): check the ledger")
    ledger_sub = ledger.add_subparsers(dest="ledger_command", required=True)
    check = ledger_sub.add_parser("check", help="prove conservation of play chips over the whole database")
    check.add_argument("--db", help="database URL (sqlite:///path or postgresql://user@host/db); default var/freezeout.db")
    check.set_defaults(func=cmd_ledger_check)
    _register_moderation(sub)  # freezeout moderation list|ban|unban (issue #37)
