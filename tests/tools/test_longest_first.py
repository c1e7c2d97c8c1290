"""The order ``make test``'s workers take the tests in (tests/longest_first.py): longest first,
a module's tests that share a fixture kept together, unknown tests guessed, the file merged."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from longest_first import DEFAULT_SECONDS, estimates, known_durations, longest_first, record


def item(nodeid: str, *scopes: str) -> Any:
    """A stand-in for a collected test: its id and the scopes of the fixtures it uses."""
    defs = {f"fixture{i}": [SimpleNamespace(scope=scope)] for i, scope in enumerate(scopes)}
    return SimpleNamespace(nodeid=nodeid, _fixtureinfo=SimpleNamespace(name2fixturedefs=defs))


def test_the_longest_tests_come_first_and_equal_ones_keep_their_order():
    items = [item("a.py::short"), item("a.py::long"), item("b.py::one"), item("b.py::two")]
    known = {"a.py::short": 0.1, "a.py::long": 30.0, "b.py::one": 2.0, "b.py::two": 2.0}
    assert [i.nodeid for i in longest_first(items, known)] == ["a.py::long", "b.py::one", "b.py::two", "a.py::short"]


def test_tests_sharing_a_module_fixture_stay_together_as_one_block_of_their_summed_length():
    items = [item("m.py::x", "module", "function"), item("m.py::y", "module"), item("n.py::z", "session"),
             item("m.py::w", "function")]
    known = {"m.py::x": 3.0, "m.py::y": 3.0, "n.py::z": 5.0, "m.py::w": 4.0}
    # x and y share the module's fixture: one block of 6 s, before z (5 s; a session fixture is shared by all)
    assert [i.nodeid for i in longest_first(items, known)] == ["m.py::x", "m.py::y", "n.py::z", "m.py::w"]


def test_an_unknown_test_is_guessed_at_its_modules_median_or_the_default():
    known = {"m.py::a": 1.0, "m.py::b": 9.0, "m.py::c": 2.0}
    guess = estimates(["m.py::new", "other.py::new", "m.py::a"], known)
    assert guess == {"m.py::new": 2.0, "other.py::new": DEFAULT_SECONDS, "m.py::a": 1.0}


def test_recording_merges_into_the_file_and_forgets_the_tests_of_deleted_files(tmp_path: Path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "kept.py").write_text("")
    path = tmp_path / "tests" / "durations.json"
    path.write_text(json.dumps({"tests/kept.py::old": 1.0, "tests/kept.py::rerun": 5.0, "tests/gone.py::x": 2.0}))
    record({"tests/kept.py::rerun": 0.123, "tests/kept.py::new": 3.0}, path)
    assert known_durations(path) == {"tests/kept.py::old": 1.0, "tests/kept.py::rerun": 0.12, "tests/kept.py::new": 3.0}
    assert known_durations(tmp_path / "missing.json") == {}
