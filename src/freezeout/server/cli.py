"""``freezeout serve`` and ``freezeout verify-record`` (registered by
``freezeout.commands``).  Heavy imports happen only when a command runs."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

__all__ = ["cmd_verify_record", "register"]


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn
    from pydantic import ValidationError

    from freezeout.server.app import create_app
    from freezeout.server.httpguard import http_protocol
    from freezeout.server.settings import Settings

    overrides: dict[str, object] = {"host": args.host, "port": args.port}
    if args.db:
        overrides["database_url"] = args.db
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
        settings.resolved_database_url()
    except ValidationError as error:
        print("; ".join(str(e["msg"]).removeprefix("Value error, ") for e in error.errors()), file=sys.stderr)
        return 2
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(name)s: %(message)s")
    uvicorn.run(
        # Only the serve command tunes the process (the GC), and the app undoes it at shutdown.
        create_app(settings, tune_process=True), host=settings.host, port=settings.port, ws_max_size=65536, log_level="info",
        http=http_protocol(settings.http_header_timeout_seconds),
        access_log=settings.access_log, ws_per_message_deflate=settings.ws_compression,
        ws_ping_interval=settings.ws_ping_seconds, ws_ping_timeout=settings.ws_ping_seconds,
    )
    return 0


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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the online poker room (HTTP + WebSocket)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="database URL (sqlite:///path or postgresql://user@host/db); default var/freezeout.db")
    serve.set_defaults(func=cmd_serve)
    verify = sub.add_parser("verify-record", help="verify the fair-dealing commitments of a downloaded game record")
    verify.add_argument("file")
    verify.set_defaults(func=cmd_verify_record)
