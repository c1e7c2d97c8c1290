"""The project carries its own rules and formats (docs/), and cites them right.

Code, tests and issues cite rules by number (R19, D3, V7, C5); each number
must be defined exactly once in docs/rules.md, in order, and every number
cited anywhere in the project must exist there.  Nothing may point outside
the repository for them: a fresh clone has only what it carries.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
SERIES = {"R": 30, "D": 11, "V": 20, "C": 14}
DEFINITION = re.compile(r"^- \*\*([RDVC])(\d+) [—(]", re.MULTILINE)
CITATION = re.compile(r"\b([RDVC])(\d{1,3})\b")


def tracked(*patterns: str) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed]


def test_rules_define_every_number_once_in_order() -> None:
    defined = [(letter, int(number)) for letter, number in DEFINITION.findall(RULES)]
    expected = [(letter, number) for letter, last in SERIES.items() for number in range(1, last + 1)]
    assert defined == expected


def test_every_cited_rule_exists() -> None:
    files = tracked("src/*.py", "src/*.js", "src/*.html", "tests/*.py", "*.md")
    unknown = {
        f"{path.relative_to(ROOT)}: {letter}{number}"
        for path in files
        for letter, number in CITATION.findall(path.read_text(encoding="utf-8", errors="replace"))
        if not 1 <= int(number) <= SERIES[letter]
    }
    assert not unknown


def test_formats_keep_their_sections() -> None:
    titles = re.findall(r"^## (.+)$", FORMATS, re.MULTILINE)
    assert titles[:7] == [
        "Cards",
        "1. Tournament record — `freezeout.record/1` (JSON)",
        "Records of other games — `freezeout.record/2`",
        "2. Poker Hand History — PHH (TOML)",
        "3. Range chart — `freezeout.chart/1` (JSON)",
        "4. PokerStars hand histories (text)",
        "Command-line conventions",
    ]


def test_nothing_points_outside_the_repository() -> None:
    for path in tracked("README.md", "docs/*", "src/*"):
        if path.suffix in {".py", ".js", ".md", ".html", ".css"}:
            assert "shared/spec" not in path.read_text(encoding="utf-8"), path
