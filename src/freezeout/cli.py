"""The ``freezeout`` command line: ``serve | play | record | phh | bot | eval``.

Every subcommand prints errors as one clear line on stderr and exits with
status 2 for bad input, as formats.md asks for the public commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from freezeout.formats.record import ReplayResult


def _fail(message: str) -> int:
    print(message.replace("\n", " "), file=sys.stderr)
    return 2


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        _fail(f"cannot read {path}: {error.strerror if isinstance(error, OSError) else error}")
        return None


def _replay_file(path: str) -> ReplayResult | None:
    """Read and replay a record; on failure print the one-line error."""
    from freezeout.formats.record import RecordError, parse_record, replay_record

    text = _read(path)
    if text is None:
        return None
    try:
        return replay_record(parse_record(text))
    except RecordError as error:
        _fail(str(error))
        return None


def _cash_hand_file(path: str) -> dict[str, Any] | None:
    """The file as one cash hand's history (``freezeout.cash_hand/1``), or None for anything
    else (a record, or a file that does not read: the record's reader names the problem)."""
    from freezeout.formats.cash_hand import is_cash_hand

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return data if is_cash_hand(data) else None


def _replayed_cash_hand(cash: dict[str, Any]) -> dict[str, Any] | None:
    """The cash hand replayed (formats/cash_hand.py), or None once the first difference is said."""
    from freezeout.formats.cash_hand import replay_cash_hand
    from freezeout.formats.record import RecordError

    try:
        return replay_cash_hand(cash)
    except RecordError as error:
        _fail(str(error))
        return None


def cmd_record_replay(args: argparse.Namespace) -> int:
    cash = _cash_hand_file(args.file)
    if cash is not None:
        replayed = _replayed_cash_hand(cash)
        if replayed is None:
            return 2
        print(json.dumps(replayed, ensure_ascii=False))
        return 0
    result = _replay_file(args.file)
    if result is None:
        return 2
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0


def _write_output(path: str | None, output: str) -> int:
    """Write a command's output to ``path`` (``--output``) or to stdout; 0, or a clear error."""
    if path:
        try:
            Path(path).write_text(output, encoding="utf-8")
        except OSError as error:
            return _fail(f"cannot write {path}: {error.strerror}")
    else:
        sys.stdout.write(output)
    return 0


def cmd_record_phh(args: argparse.Namespace) -> int:
    from freezeout.formats.phh_export import record_to_phh

    cash = _cash_hand_file(args.file)
    if cash is not None:  # a cash hand carries its PHH: checked by replaying it, then written as it is
        return 2 if _replayed_cash_hand(cash) is None else _write_output(args.output, str(cash["phh"]))
    result = _replay_file(args.file)
    if result is None:
        return 2
    output = record_to_phh(result, event=args.file)
    return _write_output(args.output, output)


def cmd_record_stars(args: argparse.Namespace) -> int:
    """``freezeout record stars FILE``: the record's hands as PokerStars hand
    histories (docs/formats.md §4), for trackers."""
    from datetime import UTC, datetime

    from freezeout.formats.record import RecordError
    from freezeout.formats.stars import record_json_to_stars

    cash = _cash_hand_file(args.file)
    if cash is not None:  # a cash hand: checked by replaying it, then written as a ring game's hand
        from freezeout.formats.stars_cash import cash_hand_to_stars

        if _replayed_cash_hand(cash) is None:
            return 2
        if args.hero is not None and args.hero not in cash.get("players", ()):
            return _fail(f"hero {args.hero!r} is not a player of this hand (players: {', '.join(cash['players'])})")
        try:
            output = cash_hand_to_stars(cash, hero=args.hero, table=str(cash.get("table_name") or "Freezeout"),
                                        table_size=cash.get("table_size"))
        except RecordError as error:
            return _fail(str(error))
        return _write_output(args.output, output)
    text = _read(args.file)
    if text is None:
        return 2
    try:
        when = (datetime.fromisoformat(args.date) if args.date
                else datetime.fromtimestamp(Path(args.file).stat().st_mtime, UTC))
    except (ValueError, OSError) as error:
        return _fail(f"invalid --date {args.date!r}: {error}")
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        if args.summary:
            from freezeout.formats.stars_summary import record_json_to_summary

            output = record_json_to_summary(text, hero=args.hero, when=when, tournament=args.tournament)
        else:
            output = record_json_to_stars(text, hero=args.hero, when=when, tournament=args.tournament)
    except RecordError as error:
        return _fail(str(error))
    return _write_output(args.output, output)


def cmd_record_verify(args: argparse.Namespace) -> int:
    from freezeout.server.cli import cmd_verify_record

    return cmd_verify_record(args)


def cmd_phh_replay(args: argparse.Namespace) -> int:
    from freezeout.formats.phh_cli import cli_phh_replay

    argv = [*args.files, "--ruleset", args.ruleset]
    return int(cli_phh_replay(argv))


def cmd_eval(args: argparse.Namespace) -> int:
    from freezeout.cards import CardError
    from freezeout.evaluate import evaluate

    try:
        value = evaluate("".join(args.cards))
    except (CardError, ValueError) as error:
        return _fail(f"cannot evaluate {' '.join(args.cards)}: {error}")
    print(json.dumps({"category": value.category, "description": value.describe(), "rank": value.rank}))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="freezeout", description="No-Limit Texas Hold'em freezeout tournaments.")
    sub = parser.add_subparsers(dest="command", required=True)

    record = sub.add_parser("record", help="tournament records (freezeout.record/1)")
    record_sub = record.add_subparsers(dest="record_command", required=True)
    replay = record_sub.add_parser("replay", help="validate and replay a record; print the results as JSON")
    replay.add_argument("file")
    replay.set_defaults(func=cmd_record_replay)
    to_phh = record_sub.add_parser("phh", help="convert a record into one PHH hand per dealt hand")
    to_phh.add_argument("file")
    to_phh.add_argument("-o", "--output", help="write to this file instead of stdout")
    to_phh.set_defaults(func=cmd_record_phh)
    to_stars = record_sub.add_parser("stars", help="convert a record into PokerStars hand histories (for trackers)")
    to_stars.add_argument("file")
    to_stars.add_argument("-o", "--output", help="write to this file instead of stdout")
    to_stars.add_argument("--hero", help="the player whose hole cards the histories show (default: none, as an observer)")
    to_stars.add_argument("--tournament", type=int, help="the tournament number (default: made from the record's game_id)")
    to_stars.add_argument("--date", help="the time of hands that carry none, ISO 8601 (default: the file's modification time)")
    to_stars.add_argument("--summary", action="store_true",
                          help="write the tournament summary (entrants, times, places) instead of the hands")
    to_stars.set_defaults(func=cmd_record_stars)
    verify = record_sub.add_parser("verify", help="check every hand's fair-dealing commitment (deck hash + salt)")
    verify.add_argument("file")
    verify.set_defaults(func=cmd_record_verify)

    phh = sub.add_parser("phh", help="poker hand histories (PHH)")
    phh_sub = phh.add_subparsers(dest="phh_command", required=True)
    phh_replay = phh_sub.add_parser("replay", help="replay PHH files; one JSON line per file")
    phh_replay.add_argument("files", nargs="+")
    phh_replay.add_argument("--ruleset", choices=["standard", "house"], default="standard")
    phh_replay.set_defaults(func=cmd_phh_replay)

    evaluate = sub.add_parser("eval", help="evaluate a 5-7 card hand")
    evaluate.add_argument("cards", nargs="+")
    evaluate.set_defaults(func=cmd_eval)

    _add_optional_commands(sub)
    return parser


def _add_optional_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Commands implemented in other packages register here (server, bots, terminal)."""
    try:
        from freezeout import commands
    except ImportError:
        return
    commands.register(sub)


# Exit status when the reader of our output goes away (`freezeout … | head`):
# 128 + SIGPIPE, what a shell reports for a program that SIGPIPE ends.
READER_GONE = 141


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        status: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return status


def _reader_gone() -> int:
    """The reader of stdout closed the pipe: stop quietly, as a Unix filter does.

    Python ignores SIGPIPE, so the write raised instead of ending the
    process.  Any output still buffered cannot be written; pointing stdout at
    /dev/null lets the interpreter's final flush succeed instead of printing
    a second traceback.  The status is 141 (128 + SIGPIPE), the one a shell
    shows for ``yes | head``: the output was cut short, which is not a
    success (``set -o pipefail`` sees it as it sees any other program ended
    by its reader), and it is not 2, which means bad input.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return READER_GONE


if __name__ == "__main__":
    sys.exit(main())
