"""Count what makes ``freezeout.server`` hard to live in, by reading the code.

The one-door reshape (issue #33) is measured by four numbers, taken before
and after each step with ``python tools/structure.py`` (``--json`` for a
machine-readable report, ``--root`` for another tree):

* **format branches** outside the two games: a test of which format a table
  holds (``isinstance(x, CashGame)``, ``spec.format == "cash"``,
  ``cash.is_cash(t)``, ``x.cash is None``) in any module but the games
  themselves (``table/cash*.py``, ``table/freezeout.py``, ``table/game.py``, ``gamespec.py``'s
  spec, where the format is declared).  Each one is a place the table knows
  which game it holds.
* **in-function imports**: every import inside a function, those of the
  server's own modules, and how many of them exist only to break a circle (hoisting them to the module's top would close
  an import cycle).
* **circles**: strongly connected sets of server modules in the import graph
  (every import, wherever it stands, since a function-level import is still a
  dependency), largest first.
* **arrows back up**: imports from a lower layer to a higher one.  The layers
  (lowest first) are the server's leaf modules, ``storage``, ``table``, then
  ``cluster`` and ``transport``, then the modules that wire the process
  (``app``, ``cli``).  An adapter (storage, transport, cluster)
  may know the table; the table knows none of them.

Nothing is imported or run: the script parses the files with :mod:`ast`, so it
works on any checkout, broken or not.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "freezeout.server"

# Layer of each top-level part of the server, lowest first (see the docstring).
LAYERS: dict[str, int] = {"storage": 1, "table": 2, "cluster": 3, "transport": 3, "app": 4, "cli": 4}
LEAF_LAYER = 0

# The games themselves may test their own format; every other test is a branch.
GAME_MODULES = ("gamespec", "table.cash", "table.cashlobby_rules", "table.freezeout", "table.game")
FORMAT_WORDS = frozenset({"cash", "freezeout"})
GAME_CLASSES = frozenset({"CashGame", "FreezeoutGame"})


@dataclass
class Module:
    """One parsed server module: its name below ``freezeout.server`` and imports."""

    name: str
    path: Path
    top_imports: set[str] = field(default_factory=set)
    function_imports: list[tuple[int, str]] = field(default_factory=list)
    any_function_imports: int = 0
    format_branches: list[tuple[int, str]] = field(default_factory=list)


def _resolve(module: str, level: int, importer: str, is_package: bool) -> str | None:
    """The absolute dotted name an import statement names, or None outside the package."""
    if level:
        base = importer.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (level - 1)] if level > 1 else base
        absolute = ".".join([*base, module] if module else base)
    else:
        absolute = module
    return absolute if absolute == PACKAGE or absolute.startswith(PACKAGE + ".") else None


def _targets(node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """Server modules (short names) an import reaches, submodules of ``from x import y`` included."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            resolved = _resolve(alias.name, 0, importer, is_package)
            if resolved:
                yield resolved
        return
    resolved = _resolve(node.module or "", node.level, importer, is_package)
    if resolved is None:
        return
    for alias in node.names:
        sub = f"{resolved}.{alias.name}"
        yield sub if sub.removeprefix(PACKAGE + ".") in known else resolved


def _short(name: str) -> str:
    return name.removeprefix(PACKAGE).lstrip(".") or "__init__"


def _format_test(node: ast.AST) -> str | None:
    """A description of ``node`` when it tests which format a table holds."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
        classes = node.args[1] if len(node.args) > 1 else None
        names = {n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else ""
                 for n in (classes.elts if isinstance(classes, ast.Tuple) else [classes])}
        if names & GAME_CLASSES:
            return "isinstance(…, " + "/".join(sorted(names & GAME_CLASSES)) + ")"
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "is_cash":
            return "is_cash(…)"
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = node.left, node.comparators[0]
        if isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            for a, b in ((left, right), (right, left)):
                if isinstance(b, ast.Constant) and b.value in FORMAT_WORDS and _mentions_format(a):
                    return f"format {'==' if isinstance(node.ops[0], ast.Eq) else '!='} {b.value!r}"
        if (isinstance(node.ops[0], (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None
                and isinstance(left, ast.Attribute) and left.attr == "cash"):
            return "….cash is None" if isinstance(node.ops[0], ast.Is) else "….cash is not None"
    return None


def _mentions_format(node: ast.AST) -> bool:
    """Whether an expression reads a ``format`` (an attribute, a name or ``.get("format")``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == "format":
            return True
        if isinstance(sub, ast.Name) and sub.id == "format":
            return True
        if isinstance(sub, ast.Constant) and sub.value == "format":
            return True
    return False


def parse(root: Path) -> dict[str, Module]:
    """Every module below ``root`` (the ``freezeout/server`` directory), parsed."""
    paths = sorted(root.rglob("*.py"))
    names = {}
    for path in paths:
        parts = path.relative_to(root).with_suffix("").parts
        names[path] = ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "__init__"
    known = set(names.values())
    modules: dict[str, Module] = {}
    for path, short in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        dotted = PACKAGE if short == "__init__" else f"{PACKAGE}.{short}"
        module = Module(short, path)
        is_package = path.name == "__init__.py"
        _collect(tree, module, dotted, is_package, known)
        modules[short] = module
    return modules


def _collect(tree: ast.Module, module: Module, dotted: str, is_package: bool, known: set[str]) -> None:
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            in_function.update(id(sub) for sub in ast.walk(node) if sub is not node)
    type_checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_checking.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in type_checking:
            module.any_function_imports += id(node) in in_function
            for target in sorted(set(_targets(node, dotted, is_package, known))):
                short = _short(target)
                if short == module.name:
                    continue
                if id(node) in in_function:
                    module.function_imports.append((node.lineno, short))
                else:
                    module.top_imports.add(short)
        elif module.name not in GAME_MODULES:
            described = _format_test(node)
            if described:
                module.format_branches.append((getattr(node, "lineno", 0), described))


def graph(modules: dict[str, Module], *, with_functions: bool) -> dict[str, set[str]]:
    """Module → the server modules it imports (at the top, or anywhere)."""
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, module in modules.items():
        targets: Iterable[str] = module.top_imports
        if with_functions:
            targets = [*targets, *(t for _, t in module.function_imports)]
        edges[name].update(t for t in targets if t in modules)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected sets of two or more modules (Tarjan), largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                members.append(top)
                if top == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges) + 100))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found, key=lambda c: (-len(c), c))


def _reaches(edges: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges[todo.pop()]:
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def layer(name: str) -> int:
    return LAYERS.get(name.split(".")[0], LEAF_LAYER)


@dataclass(frozen=True)
class Report:
    modules: int
    format_branches: list[str]
    function_imports: int
    any_function_imports: int
    circle_breaking_imports: list[str]
    circles: list[list[str]]
    arrows_back_up: list[str]

    def counts(self) -> dict[str, int]:
        return {"modules": self.modules, "format_branches": len(self.format_branches),
                "function_imports": self.function_imports, "any_function_imports": self.any_function_imports,
                "circle_breaking_imports": len(self.circle_breaking_imports),
                "circles": len(self.circles), "modules_in_circles": sum(len(c) for c in self.circles),
                "arrows_back_up": len(self.arrows_back_up)}


def measure(root: Path) -> Report:
    """The four counts of the module docstring for the server tree at ``root``."""
    modules = parse(root)
    top = graph(modules, with_functions=False)
    every = graph(modules, with_functions=True)
    breaking = [f"{m.name}:{line} -> {target}" for m in modules.values() for line, target in m.function_imports
                if target in modules and _reaches(top, target, m.name)]
    back_up = sorted({f"{source} -> {target}" for source, targets in every.items() for target in targets
                      if layer(target) > layer(source)})
    branches = [f"{m.name}:{line} {what}" for m in modules.values() for line, what in m.format_branches]
    return Report(len(modules), branches, sum(len(m.function_imports) for m in modules.values()),
                  sum(m.any_function_imports for m in modules.values()), breaking, circles(every), back_up)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1] / "src/freezeout/server")
    parser.add_argument("--json", action="store_true", help="the whole report as JSON")
    parser.add_argument("--details", action="store_true", help="list every branch, import, circle and arrow")
    args = parser.parse_args(argv)
    if not (args.root / "__init__.py").is_file():
        print(f"structure: {args.root} is not the freezeout/server package", file=sys.stderr)
        return 2
    report = measure(args.root)
    if args.json:
        print(json.dumps({"counts": report.counts(), **report.__dict__}, indent=2))
        return 0
    for key, value in report.counts().items():
        print(f"{key:24} {value}")
    if args.details:
        by_file: dict[str, int] = defaultdict(int)
        for branch in report.format_branches:
            by_file[branch.split(":")[0]] += 1
        print("\nformat branches by module:", ", ".join(f"{k} {v}" for k, v in sorted(by_file.items(), key=lambda kv: -kv[1])))
        print("\ncircles:", *(" ".join(c) for c in report.circles), sep="\n  ")
        print("\narrows back up:", *report.arrows_back_up, sep="\n  ")
        print("\nimports inside functions that break a circle:", *report.circle_breaking_imports, sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
