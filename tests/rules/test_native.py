"""The compiled engine (freezeout.native) is used only when it was built from
exactly the sources in the tree; otherwise the pure engine runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import freezeout.rules.hand
from freezeout import native


def _status_with(env: dict[str, str]) -> str:
    """How a fresh process would run the engine under ``env``."""
    code = "import freezeout.rules; from freezeout import native; print(native.status())"
    clean = {key: value for key, value in os.environ.items() if not key.startswith("FREEZEOUT_")}
    done = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_no_build_runs_the_pure_engine(tmp_path: Path) -> None:
    assert _status_with({"FREEZEOUT_NATIVE_DIR": str(tmp_path)}).startswith("pure: no compiled engine")


def test_a_build_of_other_sources_is_never_used(tmp_path: Path) -> None:
    stale = {module: "0" * 64 for module in native.MODULES}
    (tmp_path / "manifest.json").write_text(json.dumps(stale))
    status = _status_with({"FREEZEOUT_NATIVE_DIR": str(tmp_path)})
    assert status.startswith("pure: the compiled engine is out of date")
    assert "freezeout.rules.hand" in status


def test_freezeout_pure_forces_the_pure_engine() -> None:
    assert _status_with({"FREEZEOUT_PURE": "1"}) == "pure: FREEZEOUT_PURE is set"


@pytest.mark.skipif(not os.environ.get("FREEZEOUT_EXPECT_NATIVE"), reason="no compiled engine expected (make test sets FREEZEOUT_EXPECT_NATIVE when it built one)")
def test_make_install_runs_the_compiled_engine() -> None:
    assert native.status().startswith("compiled"), native.status()
    assert freezeout.rules.hand.__file__.endswith(".so")
