"""The examples in the public API's docstrings run and pass (design: doctests on the public API).

``make test`` runs pytest only, so the doctests are collected here, one
test per module: the package, the cards and every module of the evaluator.
"""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import freezeout
import freezeout.evaluate

MODULES = [
    "freezeout",
    "freezeout.cards",
    "freezeout.evaluate",
    *sorted(f"freezeout.evaluate.{info.name}" for info in pkgutil.iter_modules(freezeout.evaluate.__path__)),
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_evaluator_modules_have_examples() -> None:
    """Guard against the collection above silently finding nothing."""
    finder = doctest.DocTestFinder()
    examples = sum(len(test.examples) for test in finder.find(freezeout.evaluate))
    assert examples >= 3
    assert any(finder.find(importlib.import_module("freezeout.evaluate.rankings")))


@pytest.mark.parametrize(
    "before",
    [
        "",
        "import freezeout.evaluate",
        "import freezeout.evaluate.high",
        "from freezeout.evaluate import hand_rank",
        "from freezeout.evaluate.rankings import get_ranking",
        "from freezeout import evaluate as first",
    ],
)
def test_from_freezeout_import_evaluate_works_in_any_import_order(before: str) -> None:
    """``from freezeout import evaluate`` (the package docstring's example) evaluates a hand
    whatever was imported first; the subpackage keeps working as a package."""
    code = "\n".join(
        [
            before,
            "from freezeout import evaluate",
            "assert evaluate('AsKsQsJsTs').category == 'straight flush'",
            "import freezeout.evaluate",
            "assert evaluate is freezeout.evaluate",
            "assert freezeout.evaluate.hand_rank([48, 44, 40, 36, 32]) == 7462",
        ]
    )
    src = str(Path(freezeout.__file__).resolve().parent.parent)
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": src}, cwd=src)
