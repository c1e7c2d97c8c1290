"""``freezeout moderation list|ban ACCOUNT|unban ACCOUNT``: an operator reads the chat reports
and bans or unbans an account (issue #37; docs/moderation.md).

An account is named by its id or its registered name, never by a display name (which its
owner may change, and another account may have shown before).  A banned account cannot
chat (its lines are refused as ``banned``) nor open a table (``403 banned``); a ban takes
effect at once in every process, because both refusals read the database.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime

__all__ = ["cmd_moderation", "register"]


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M")


async def _run(url: str, action: str, account: str | None) -> tuple[int, list[str]]:
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
    """Exit status 0 when done, 1 for an unknown account, 2 when the database cannot be read."""
    from freezeout.server.settings import Settings

    try:
        url = Settings(**({"database_url": args.db} if args.db else {})).resolved_database_url()
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    try:
        status, lines = asyncio.run(_run(url, args.moderation_command, getattr(args, "account", None)))
    except Exception as error:
        print(f"cannot read the moderation list: {error}", file=sys.stderr)
        return 2
    print("\n".join(lines), file=sys.stderr if status else sys.stdout)
    return status


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
