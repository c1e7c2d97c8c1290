"""``freezeout phh replay FILE...``: one JSON line per file and the exit status (formats.md §2)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from freezeout.formats.phh_cli import cli_phh_replay
from freezeout.formats.phh_replay import replay_phh_files

DATA = Path(__file__).resolve().parent.parent / "data" / "phh"
HALF_CHIP = str(DATA / "pluribus" / "102_0.phh")
NO_OUTCOME = str(DATA / "papers" / "test_dwan_ivey_2009.phh")
DATA_ERROR = str(DATA / "wsop-2023-43" / "03-50-24.phh")  # FR, README data error 1


def run(*argv: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = cli_phh_replay(list(argv), out=out)
    return status, out.getvalue().splitlines()


def test_one_line_per_file_in_order_status_zero_when_all_match() -> None:
    status, lines = run(HALF_CHIP, NO_OUTCOME)
    assert status == 0  # matches null (no finishing_stacks) is not a failure
    assert [json.loads(line) for line in lines] == [
        {
            "file": HALF_CHIP,
            "variant": "NT",
            "finishing_stacks": [10112.5, 9775, 10000, 10000, 10112.5, 10000],
            "matches": True,
        },
        {
            "file": NO_OUTCOME,
            "variant": "NT",
            "finishing_stacks": [572100, 1997500, 1109500],
            "matches": None,
        },
    ]
    # exact decimals on the wire, no float noise, default json separators
    assert '"finishing_stacks": [10112.5, 9775, 10000, 10000, 10112.5, 10000]' in lines[0]


def test_status_two_when_a_file_mismatches(tmp_path: Path) -> None:
    text = Path(HALF_CHIP).read_text(encoding="utf-8").replace("10112.5, 9775.0", "10113, 9774.5")
    wrong = tmp_path / "wrong.phh"
    wrong.write_text(text, encoding="utf-8")
    status, lines = run(str(wrong), HALF_CHIP)
    assert status == 2
    assert json.loads(lines[0])["matches"] is False and json.loads(lines[1])["matches"] is True


def test_errors_are_lines_not_crashes(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = 'NT'\nactions = [\n", encoding="utf-8")
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\xff\xfe\x00variant")
    missing = str(tmp_path / "missing.phh")
    status, lines = run(DATA_ERROR, str(broken), missing, str(binary), HALF_CHIP)
    assert status == 2
    results = [json.loads(line) for line in lines]
    assert results[0]["file"] == DATA_ERROR and "not a fixed-limit size" in results[0]["error"]
    assert results[1]["file"] == str(broken) and results[1]["error"].startswith("malformed TOML")
    assert results[2] == {"file": missing, "error": "cannot read the file: No such file or directory"}
    assert results[3]["error"].startswith("cannot read the file: not UTF-8")
    assert results[4]["matches"] is True


def test_action_errors_name_the_action(tmp_path: Path) -> None:
    text = Path(NO_OUTCOME).read_text(encoding="utf-8").replace('"p3 cbr 7000"', '"p3 cbr 3000"')
    bad = tmp_path / "bad.phh"
    bad.write_text(text, encoding="utf-8")
    status, lines = run(str(bad))
    assert status == 2
    assert json.loads(lines[0]) == {
        "file": str(bad),
        "error": "action 4 'p3 cbr 3000': raise to 3000 is below the minimum raise to 4000",
    }


def test_ruleset_option() -> None:
    # R17: the house ruleset plays the same hands; bad values are usage errors (status 2).
    assert run("--ruleset", "house", HALF_CHIP)[0] == 0
    assert run("--ruleset", "standard", HALF_CHIP)[0] == 0
    assert run("--ruleset", "casino", HALF_CHIP) == (2, [])
    assert run() == (2, [])


def test_the_function_api_returns_dicts_and_status() -> None:
    results, status = replay_phh_files([HALF_CHIP, DATA_ERROR])
    assert status == 2
    assert results[0]["matches"] is True and "error" in results[1]
    assert replay_phh_files([]) == ([], 0)
