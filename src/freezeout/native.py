"""The rules engine compiled to C with mypyc, used only while it matches the source.

The hand engine is pure Python and stays the reference: every rule lives in
the ``.py`` files.  ``make install`` also compiles its hot modules
(:data:`MODULES`) with `mypyc <https://mypyc.readthedocs.io>`_ into
``<venv>/freezeout-native`` — never next to the sources, where a stale
``.so`` would shadow an edited ``.py``.  :func:`install` (called by
``freezeout.rules`` before it imports anything; this loader lives outside
the rules package because it reads files) puts the compiled modules
in front of the sources only when the manifest written at build time names
exactly the current source of every one of them (SHA-256), the same Python
and the same mypyc; otherwise the pure modules load, as they do when no
compiler is at hand.  ``FREEZEOUT_PURE=1`` forces the pure modules.

Why compile at all: issue #9 asks for at least 10x PokerKit's random
complete hands per second in every game, and in interpreted Python the
draw games stall near 6x whatever the engine's code does (bench/README.md).

Build by hand: ``python -m freezeout.native build`` (``--check``
only reports whether the build in place matches).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["MODULES", "build", "install", "native_dir", "status"]

#: The modules compiled together (they call each other natively).
MODULES: tuple[str, ...] = tuple(
    f"freezeout.rules.{name}"
    for name in (
        "errors", "state", "legal", "setupcheck", "hand", "runtwice", "dealing", "order", "pots", "showdown", "draws",
        "timebank", "cashpositions",
    )
)
_SOURCE_ROOT = Path(__file__).resolve().parent / "rules"
_MANIFEST = "manifest.json"
_state: dict[str, str] = {"status": "not checked"}


def native_dir() -> Path:
    """Where the compiled modules live: ``FREEZEOUT_NATIVE_DIR`` or ``<venv>/freezeout-native``."""
    return Path(os.environ.get("FREEZEOUT_NATIVE_DIR") or Path(sys.prefix) / "freezeout-native")


def _source(module: str) -> Path:
    return _SOURCE_ROOT / f"{module.rsplit('.', 1)[1]}.py"


def _fingerprint() -> dict[str, str]:
    """What a build must have been made from to be used now."""
    import mypyc  # only present where the build could have been made

    prints = {module: hashlib.sha256(_source(module).read_bytes()).hexdigest() for module in MODULES}
    prints["python"] = sys.implementation.cache_tag or sys.version
    prints["mypyc"] = getattr(mypyc, "__version__", "") or _mypy_version()
    return prints


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled module of each name in ``paths`` (and the shared library mypyc links them through)."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self._paths = paths

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        where = self._paths.get(fullname)
        if where is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(where))
        return importlib.util.spec_from_file_location(fullname, where, loader=loader)


def _compiled_paths(directory: Path) -> dict[str, Path]:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    paths = {module: directory / (module.replace(".", "/") + suffix) for module in MODULES}
    for shared in directory.glob(f"*__mypyc{suffix}"):
        paths[shared.name[: -len(suffix)]] = shared
    return paths


def install() -> str:
    """Load the compiled engine if it matches the sources; returns (and keeps) why or why not."""
    if any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path):
        return _state["status"]
    if os.environ.get("FREEZEOUT_PURE"):
        return _set("pure: FREEZEOUT_PURE is set")
    directory = native_dir()
    manifest = directory / _MANIFEST
    if not manifest.is_file():
        return _set(f"pure: no compiled engine in {directory}")
    try:
        built = json.loads(manifest.read_text())
        current = _fingerprint()
    except (OSError, ValueError, ImportError) as error:
        return _set(f"pure: cannot check the compiled engine ({error})")
    if built != current:
        changed = sorted(key for key in current if built.get(key) != current[key])
        return _set(f"pure: the compiled engine is out of date ({', '.join(changed)})")
    paths = _compiled_paths(directory)
    if not all(path.is_file() for path in paths.values()) or len(paths) == len(MODULES):
        return _set(f"pure: the compiled engine in {directory} is incomplete")
    sys.meta_path.insert(0, _CompiledFinder(paths))
    return _set(f"compiled: {directory}")


def _set(status: str) -> str:
    _state["status"] = status
    return status


def status() -> str:
    """How the engine runs in this process: ``compiled: …`` or ``pure: <why>``."""
    return _state["status"]


def build(directory: Path | None = None) -> Path:
    """Compile :data:`MODULES` with mypyc into ``directory`` (default :func:`native_dir`)
    and write the manifest that :func:`install` checks."""
    import shutil
    import tempfile

    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    target = directory or native_dir()
    prints = _fingerprint()
    src = _SOURCE_ROOT.parent.parent  # the directory holding the freezeout package
    work = Path(tempfile.mkdtemp(prefix="freezeout-native-"))
    cwd = Path.cwd()
    try:
        os.chdir(src)  # mypyc names modules after the paths it is given
        sources = [str(_source(module).relative_to(src)) for module in MODULES]
        config = work / "mypy.ini"  # the project's config warns about sections this build does not use
        config.write_text("[mypy]\n")
        extensions = mypycify(["--config-file", str(config), *sources], opt_level="3", target_dir=str(work / "c"))
        command = build_ext(Distribution({"name": "freezeout-native", "ext_modules": extensions}))
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "tmp")
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(cwd)
    # Move the finished build into place whole: it is assembled beside the
    # target (same file system) and renamed, so a loader sees the old build,
    # no build (and runs pure) or the new one — never a half-written one.
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{target.name}-new-", dir=target.parent))
    staged.chmod(0o755)
    shutil.copytree(work / "lib", staged, dirs_exist_ok=True)
    shutil.rmtree(work, ignore_errors=True)
    (staged / _MANIFEST).write_text(json.dumps(prints, indent=1, sort_keys=True))
    old = target.parent / f".{target.name}-old-{os.getpid()}"
    if target.exists():
        os.replace(target, old)
    os.replace(staged, target)
    shutil.rmtree(old, ignore_errors=True)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["build"]:
        print(f"compiled the rules engine into {build()}")
        return 0
    if args[:1] == ["--check"] or not args:
        import freezeout.rules  # noqa: F401  (runs install() in the module instance the package uses)
        from freezeout import native as loaded  # this file may be running as __main__

        print(loaded.status())
        return 0 if loaded.status().startswith("compiled") else 1
    print("usage: python -m freezeout.native [build | --check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
