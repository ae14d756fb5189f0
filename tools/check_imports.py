"""The package's import graph: no cycle, and every arrow pointing down the layers.

    python tools/check_imports.py          # exit 0 when the graph is clean, 1 with the reasons
    python tools/check_imports.py --graph  # also print every module's imports

Every import counts, wherever it stands: top-level, inside a function, under
``if TYPE_CHECKING:``, and ``importlib.import_module`` / ``__import__`` of a literal name. The
layers (``docs/design.md``, "Layers"), lowest first:

    core          diplo._core, diplo._version
    model         diplo.model
    reference     diplo.reference     } side by side: neither imports the other
    engine        diplo.engine        }
    api           diplo.api (the front door)
    formats       diplo.formats
    applications  diplo.apps, diplo.render, diplo.rollouts, diplo.env, diplo.compat
    top           diplo itself, ``python -m diplo`` and the aliases of earlier releases

A module may import its own layer and the layers below it, never one above; the aliases and the
top are imported by nobody inside the package.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("diplo._core", "diplo._version")),
    ("model", ("diplo.model",)),
    ("reference", ("diplo.reference",)),
    ("engine", ("diplo.engine",)),
    ("api", ("diplo.api",)),
    ("formats", ("diplo.formats",)),
    ("applications", ("diplo.apps", "diplo.render", "diplo.rollouts", "diplo.env", "diplo.compat")),
)
#: Layers of one rank: implementations side by side, which must not know each other.
SIBLINGS = frozenset({("reference", "engine"), ("engine", "reference")})
#: Arrows the layering still has, each with the work that removes it. Printed on every run; an
#: arrow listed here that is gone is an error too, so the list can only shrink.
PENDING: dict[tuple[str, str], str] = {}
RANK = {"core": 0, "model": 1, "reference": 2, "engine": 2, "api": 3, "formats": 4}
RANK["applications"] = 5
RANK["top"] = 6


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package under ``root`` (the folder holding ``diplo/``)."""
    out: dict[str, Path] = {}
    for path in sorted((root / "diplo").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    for stub in sorted((root / "diplo").glob("*.pyi")):
        name = "diplo." + stub.stem
        out.setdefault(name, stub)
    return out


def layer_of(module: str) -> str:
    for name, prefixes in LAYERS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    return "top"


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _known(name: str, known: Mapping[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its text."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        names: Iterable[str] = ()
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            names = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
        ):
            names = [node.args[0].value]
        for name in names:
            target = _known(name, known)
            # A module always imports the packages it sits in; that is no arrow of its own.
            if target and target != module and not module.startswith(target + "."):
                found.add(target)
    return found


def graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {m: imports(m, p, known) for m, p in known.items()}


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def upward(edges: Mapping[str, set[str]], pending: Mapping[tuple[str, str], str]) -> list[str]:
    """Every import that points up the layers or across to a sibling, as a sentence (but the
    ``pending`` ones)."""
    problems = []
    for module in sorted(edges):
        here = layer_of(module)
        for target in sorted(edges[module]):
            if (module, target) in pending:
                continue
            there = layer_of(target)
            if (here, there) in SIBLINGS:
                problems.append(f"{module} ({here}) imports {target} ({there}): siblings")
            elif RANK[there] > RANK[here] or (there == "top" and here != "top"):
                problems.append(f"{module} ({here}) imports {target} ({there}): points up")
    return problems


def check(root: Path, pending: Mapping[tuple[str, str], str] | None = None) -> list[str]:
    """Every cycle and every arrow up or across, as sentences; none means a clean graph."""
    pending = PENDING if pending is None else pending
    edges = graph(root)
    problems = [f"import cycle: {' <-> '.join(c)}" for c in cycles(edges)]
    problems += [
        f"{a} -> {b} is listed as pending but no longer imported: take it off the list"
        for a, b in pending
        if b not in edges.get(a, set())
    ]
    return problems + upward(edges, pending)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).parent.parent / "python")
    parser.add_argument("--graph", action="store_true", help="print every module's imports")
    args = parser.parse_args(argv)
    if args.graph:
        for module, targets in sorted(graph(args.root).items()):
            print(f"{module} [{layer_of(module)}] -> {', '.join(sorted(targets)) or '-'}")
    problems = check(args.root)
    for (module, target), why in PENDING.items():
        print(f"pending: {module} -> {target}: {why}")
    for problem in problems:
        print(problem)
    count = len(graph(args.root))
    print(
        f"{count} modules: "
        + (f"{len(problems)} problems" if problems else "no cycle, no arrow up")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
