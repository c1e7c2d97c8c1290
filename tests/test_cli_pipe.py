"""``freezeout … | head``: a subcommand whose reader goes away stops quietly.

Python ignores SIGPIPE, so writing to a closed pipe raises BrokenPipeError;
``freezeout`` catches it at the top and exits with status 141 (128 +
SIGPIPE, what a shell shows for a program its reader ended) and nothing on
stderr.  Each test runs the real command in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from freezeout.cli import READER_GONE

DATA = Path(__file__).resolve().parent / "data" / "phh"
PHH = sorted(str(path) for path in DATA.glob("*/*.phh"))
FREEZEOUT = [sys.executable, "-m", "freezeout.cli"]
RECORD = {
    "format": "freezeout.record/1",
    "players": ["ana", "bo"],
    "button": "ana",
    "hands": [{"hole": {"ana": "AsKd", "bo": "7c7d"}, "board": "QsJsTs4c4d", "actions": [["ana", "fold"]]}],
}


def run_with_reader_gone(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run ``freezeout args`` with stdout a pipe whose reading end is already closed."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([*FREEZEOUT, *args], stdout=write, stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write)


@pytest.fixture
def record_file(tmp_path: Path) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "args",
    [
        ["eval", "AsKsQsJsTs"],
        ["record", "replay", "RECORD"],
        ["record", "phh", "RECORD"],
        ["phh", "replay", PHH[0]],
    ],
    ids=["eval", "record replay", "record phh", "phh replay"],
)
def test_a_command_whose_reader_is_gone_exits_141_without_a_traceback(args: list[str], record_file: str) -> None:
    done = run_with_reader_gone([record_file if arg == "RECORD" else arg for arg in args])
    assert (done.returncode, done.stderr.decode()) == (READER_GONE, "")


def test_help_whose_reader_is_gone_is_quiet_too() -> None:
    # argparse ignores errors writing its help and exits 0 itself.
    done = run_with_reader_gone(["record", "--help"])
    assert (done.returncode, done.stderr.decode()) == (0, "")


def test_phh_replay_into_head_ends_quietly() -> None:
    # More output than a pipe holds (every dataset file, twice), read one line and close.
    producer = subprocess.Popen(
        [*FREEZEOUT, "phh", "replay", *PHH, *PHH], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert producer.stdout is not None and producer.stderr is not None
    head = subprocess.run(["head", "-n", "1"], stdin=producer.stdout, capture_output=True, timeout=120, check=True)
    producer.stdout.close()  # head has exited: now nobody reads the pipe
    errors = producer.stderr.read().decode()
    assert producer.wait(timeout=120) == READER_GONE
    assert errors == ""
    assert json.loads(head.stdout)["file"] == PHH[0]


def test_bad_input_still_fails_with_one_line_and_status_2(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    done = subprocess.run([*FREEZEOUT, "record", "phh", missing], capture_output=True, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and done.stderr.decode().startswith(f"cannot read {missing}")
