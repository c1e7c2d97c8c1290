"""``tools/structure.py`` counts what issue #33 measures, on a small made-up server tree."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "structure.py"


@pytest.fixture(scope="module")
def structure() -> ModuleType:
    spec = importlib.util.spec_from_file_location("structure_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _tree(root: Path, files: dict[str, str]) -> Path:
    server = root / "server"
    for name, text in {"__init__.py": "", **files}.items():
        path = server / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return server


def test_a_clean_tree_counts_nothing(structure: ModuleType, tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "table/__init__.py": "",
        "table/state.py": "from freezeout.server.settings import X\n",
        "transport/__init__.py": "",
        "transport/ws.py": "from freezeout.server.table import state\n",
        "settings.py": "X = 1\n",
    })
    counts = structure.measure(root).counts()
    assert counts == {"modules": 6, "format_branches": 0, "function_imports": 0, "any_function_imports": 0,
                      "circle_breaking_imports": 0, "circles": 0, "modules_in_circles": 0, "arrows_back_up": 0}


def test_circles_imports_inside_functions_and_arrows_back_up(structure: ModuleType, tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "table/__init__.py": "",
        # a circle held together by an import inside a function
        "table/state.py": "from . import cash\n",
        "table/cash.py": "def f():\n    from freezeout.server.table.state import S\n    import json\n    return S\n",
        # an arrow back up: the table knows the transport
        "table/room.py": "from freezeout.server.transport.protocol import Msg\n",
        "transport/__init__.py": "",
        "transport/protocol.py": "Msg = 1\n",
        # storage imports the table: also back up
        "storage/__init__.py": "",
        "storage/log.py": "from ..table import state\n",
    })
    report = structure.measure(root)
    assert report.circles == [["table.cash", "table.state"]]
    assert report.circle_breaking_imports == ["table.cash:2 -> table.state"]
    assert report.counts()["any_function_imports"] == 2
    assert report.arrows_back_up == ["storage.log -> table.state", "table.room -> transport.protocol"]


def test_format_branches_outside_the_games(structure: ModuleType, tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "table/__init__.py": "",
        "table/bots.py": (
            "def f(state, game, t):\n"
            "    if isinstance(game, CashGame):\n        return 1\n"
            "    if state.spec.format == 'cash':\n        return 2\n"
            "    if 'freezeout' != data.get('format'):\n        return 3\n"
            "    if cash.is_cash(t):\n        return 4\n"
            "    if state.cash is None:\n        return 5\n"
            "    if state.name == 'cash':\n        return 6\n"  # not a format test
        ),
        # the games themselves may know their format
        "table/cash.py": "def g(spec):\n    return spec.format == 'cash'\n",
    })
    assert [b.split(" ", 1)[1] for b in structure.measure(root).format_branches] == [
        "isinstance(…, CashGame)", "format == 'cash'", "format != 'freezeout'", "is_cash(…)", "….cash is None"]


def test_the_command_refuses_a_directory_that_is_not_the_server(structure: ModuleType, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert structure.main(["--root", str(tmp_path)]) == 2
    assert "is not the freezeout/server package" in capsys.readouterr().err


def test_the_server_has_no_circle_no_arrow_back_up_and_one_door_per_game(structure: ModuleType) -> None:
    """Issue #33: the server's own tree, as it stands, keeps what the reshape reached — every
    arrow points inward, no import circle (so no import inside a function to hold one), and
    the table asks its game instead of testing which format it holds (the lobby words of a
    cash table's summary, table/gameinfo.py, are the one check left, for the view contract)."""
    report = structure.measure(TOOL.parents[1] / "src" / "freezeout" / "server")
    assert report.circles == []
    assert report.arrows_back_up == []
    assert report.circle_breaking_imports == []
    assert {branch.split(":")[0] for branch in report.format_branches} <= {"table.gameinfo"}
