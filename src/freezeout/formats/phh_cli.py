"""``freezeout phh replay FILE... [--ruleset house|standard]`` (formats.md §2).

Kept apart from :mod:`freezeout.cli` so that the command can be run and
tested without the rest of the command line; ``freezeout.cli`` delegates
here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from freezeout.formats.phh_replay import dumps_result, replay_phh_files
from freezeout.rules.variant import Ruleset

__all__ = ["cli_phh_replay"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="freezeout phh replay",
        description="Replay PHH hand histories and compare them with their finishing_stacks.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="PHH files (TOML), one hand each")
    parser.add_argument(
        "--ruleset",
        choices=[ruleset.value for ruleset in Ruleset],
        default=Ruleset.STANDARD.value,
        help="rules.md ruleset (default: standard, the ruleset of real-world histories)",
    )
    return parser


def cli_phh_replay(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Print one JSON line per file on ``out`` (stdout) and return the exit status.

    Status 0 when every file replayed and matched (a file without
    ``finishing_stacks`` counts as matched), 2 otherwise — also for bad
    arguments, which argparse reports on stderr.
    """
    stream = out if out is not None else sys.stdout
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exit_:
        return 0 if exit_.code == 0 else 2
    results, status = replay_phh_files(args.files, Ruleset(args.ruleset))
    for result in results:
        stream.write(dumps_result(result) + "\n")
    stream.flush()
    return status
