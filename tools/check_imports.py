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
    top           diplo itself and ``python -m diplo``

A module may import its own layer and the layers below it, never one above; the top is imported
by nobody inside the package. A ``from PKG import NAME`` of a name that is no module
(``from .. import __version__``) is an import of ``PKG`` itself.

The other rules, each shown firing in ``tests/test_layers.py``:

* **one door**: only ``diplo.engine`` (and its modules) imports the compiled core ``diplo._core``;
* **private names stay home**: no module imports another module's ``_name``
  (``from m import _x``), nor reads or calls a ``_name`` it does not define itself (``m._x``,
  ``Class._method``, ``game._core``: an attribute ``_x`` is one of this module's own when the
  module defines it: a ``def``/``class``, an assignment, ``self._x = ...``, ``__slots__``, a
  field set by ``object.__setattr__``; sibling modules share none, not even the parts of one
  class). Dunder names are no private names; a private module (``diplo._version``,
  ``diplo.compat._map``) may be imported from inside its own package, the core only by the
  engine;
* **applications in a line**: the application packages import each other only along
  ``APP_ARROWS`` (so never in a loop);
* **the Rust bindings are a tree**: no circle among the modules of ``rust/src/bindings`` (the
  ``use super::X`` / ``use crate::bindings::X`` paths of every ``.rs`` file below it).

    python tools/check_imports.py --tree DIR   # check another checkout (DIR/python, DIR/rust)
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator, Mapping
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
#: The arrows allowed between the application packages (a line, so no loop): the command line
#: (``apps``) on top of everything; the drop-in draws with the renderer.
APP_ARROWS: frozenset[tuple[str, str]] = frozenset(
    {
        ("diplo.apps", "diplo.render"),
        ("diplo.apps", "diplo.rollouts"),
        ("diplo.apps", "diplo.env"),
        ("diplo.apps", "diplo.compat"),
        ("diplo.compat", "diplo.render"),
    }
)
#: The one package allowed to import the compiled core.
DOOR = "diplo.engine"
CORE = "diplo._core"
#: Private names that are another module's public API (a named tuple's methods, os._exit).
PUBLIC_PRIVATE = frozenset(
    {"_asdict", "_replace", "_fields", "_make", "_field_defaults", "_exit"}  # and os._exit
)
#: Problems (other than arrows) the code still has, each with the work that removes it, as the
#: sentences ``check`` would print. Printed on every run; one that is gone is an error too.
PENDING_PROBLEMS: dict[str, str] = {}
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
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            for a in node.names:
                if f"{base}.{a.name}" in known:
                    names.append(f"{base}.{a.name}")
                elif base in known and base != module:
                    # A name that is no module comes from the package's own text: an import of
                    # the package itself, even of one this module sits in.
                    found.add(base)
                else:
                    names.append(base)
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


def core_importers(edges: Mapping[str, set[str]]) -> list[str]:
    """Every module outside the engine that imports the compiled core, as a sentence."""
    return [
        f"{module} imports {CORE}: only {DOOR} may (the one door)"
        for module in sorted(edges)
        if CORE in edges[module] and not (module == DOOR or module.startswith(DOOR + "."))
    ]


def _package_of(module: str) -> str:
    """The application package a module belongs to (``diplo.apps.cli`` -> ``diplo.apps``)."""
    return ".".join(module.split(".")[:2])


def app_arrows(
    edges: Mapping[str, set[str]],
    allowed: frozenset[tuple[str, str]],
    pending: Mapping[tuple[str, str], str],
) -> list[str]:
    """Every import from one application package into another that ``allowed`` does not list
    (but the ``pending`` ones), as a sentence; and a loop in ``allowed`` itself."""
    apps = {p for name, prefixes in LAYERS if name == "applications" for p in prefixes}
    problems = []
    for loop in cycles({a: {b for x, b in allowed if x == a} for a, _ in allowed}):
        problems.append(f"APP_ARROWS has a loop: {' <-> '.join(loop)}")
    for module in sorted(edges):
        here = _package_of(module)
        if here not in apps:
            continue
        for target in sorted(edges[module]):
            there = _package_of(target)
            if (
                there in apps
                and there != here
                and (here, there) not in allowed
                and (module, target) not in pending
            ):
                problems.append(
                    f"{module} imports {target}: {here} -> {there} is no allowed arrow "
                    "between the applications (APP_ARROWS)"
                )
    return problems


#: IPython's display hooks (``_repr_svg_``): a protocol's names, not private ones.
_DISPLAY_HOOK = re.compile(r"_repr_\w+_")


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_names(tree: ast.AST) -> set[str]:
    """The names a module defines itself: what it may use as ``x._name`` anywhere."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.alias):
            own.add((node.asname or node.name).split(".")[0])
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            own.add(node.attr)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            own.update(
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__setattr__"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            own.add(node.args[1].value)
    return own


def private_uses(module: str, path: Path, known: Mapping[str, Path]) -> list[str]:
    """Every private name ``module`` takes from another module, as a sentence: imported
    (``from m import _x``, a private module from outside its package), or read, written or
    called as an attribute it does not define itself (``m._x``, ``Class._m()``,
    ``game._core``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    problems: set[str] = set()

    def private_module(target: str) -> None:
        parts = target.split(".")
        for i, part in enumerate(parts):
            if _is_private(part) and target != CORE:
                home = ".".join(parts[:i])
                if not (module == home or module.startswith(home + ".")):
                    problems.add(f"{module} imports {target}, a module private to {home}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if _known(a.name, known):
                    private_module(a.name)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            if not _known(base, known):
                continue
            private_module(base)
            for a in node.names:
                if f"{base}.{a.name}" in known:
                    private_module(f"{base}.{a.name}")
                elif _is_private(a.name) and base != module:
                    problems.add(f"{module} uses {a.name}, a private name of {base}")
    own = _own_names(tree)
    # Names bound by an import: ``X._y`` on one of them (or on what calling one made,
    # ``CodeGame(p)._core``) is another module's private name even where this module has a
    # ``_y`` of its own.
    imported = {
        (a.asname or a.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for a in node.names
    }
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Attribute)
            and _is_private(node.attr)
            and node.attr not in PUBLIC_PRIVATE
            and not _DISPLAY_HOOK.fullmatch(node.attr)
        ):
            continue
        value = node.value.func if isinstance(node.value, ast.Call) else node.value
        foreign = isinstance(value, ast.Name) and value.id in imported
        if foreign or node.attr not in own:
            where = ast.unparse(node.value)
            problems.add(f"{module} uses {where}.{node.attr}, a private name it does not define")
    return sorted(problems)


def private_names(root: Path) -> list[str]:
    known = modules(root)
    return [problem for m, p in known.items() for problem in private_uses(m, p, known)]


#: ``use super::a::b``, ``use crate::bindings::{a, b::c}``, ``super::a::f()``: the paths.
_RUST_PATH = re.compile(r"\b(super|self|crate::bindings)((?:::(?:\w+|\{[^;]*?\}))+)", re.S)


def _rust_heads(tail: str) -> Iterator[list[str]]:
    """The paths in ``::a::{b, c::d}`` (the part after ``super``), split at ``::``."""
    tail = tail.lstrip(":")
    if tail.startswith("{"):
        depth, start = 0, 1
        for i, ch in enumerate(tail):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if (ch == "," and depth == 1) or (ch == "}" and depth == 0):
                part = tail[start:i].strip()
                if part:
                    yield from _rust_heads(part)
                start = i + 1
        return
    head, _, rest = tail.partition("::")
    head = head.strip()
    if not head or not re.fullmatch(r"\w+", head):
        return
    if rest:
        for more in _rust_heads(rest):
            yield [head, *more]
    else:
        yield [head]


def rust_graph(bindings: Path) -> dict[str, set[str]]:
    """The modules of the Rust bindings under ``bindings`` (``a`` for ``a.rs`` or
    ``a/mod.rs``, ``a::b`` for ``a/b.rs``; the root ``mod.rs`` is ``""``) and the modules each
    one uses (``use``/paths through ``super``, ``self`` and ``crate::bindings``)."""
    files: dict[str, Path] = {}
    for path in sorted(bindings.rglob("*.rs")):
        parts = list(path.relative_to(bindings).with_suffix("").parts)
        if parts[-1] in ("mod", "lib"):
            parts.pop()
        files["::".join(parts)] = path
    edges: dict[str, set[str]] = {}
    for name, path in files.items():
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"//[^\n]*", "", text)  # comments (and doc comments) name paths too
        here = name.split("::") if name else []
        is_dir = path.stem == "mod" or not name
        found: set[str] = set()
        for match in _RUST_PATH.finditer(text):
            anchor = match.group(1)
            if anchor == "crate::bindings":
                base: list[str] = []
            elif anchor == "self":
                base = here if is_dir else here[:-1]
            else:  # super: the parent of this module
                base = (here if is_dir else here[:-1])[:-1] if here else []
            for path_parts in _rust_heads(match.group(2)):
                target = [*base]
                for part in path_parts:
                    if "::".join([*target, part]) in files:
                        target.append(part)
                    else:
                        break
                dest = "::".join(target)
                if dest != name and not name.startswith(dest + "::" if dest else ""):
                    found.add(dest)
        edges[name] = found
    return edges


def rust_cycles(bindings: Path) -> list[str]:
    """Every circle among the Rust bindings' modules, as a sentence (none: they form a tree)."""
    if not bindings.is_dir():
        return []
    edges = rust_graph(bindings)
    return [
        "rust bindings circle: " + " <-> ".join(m or "bindings" for m in c) for c in cycles(edges)
    ]


def check(
    root: Path,
    pending: Mapping[tuple[str, str], str] | None = None,
    bindings: Path | None = None,
    pending_problems: Mapping[str, str] | None = None,
) -> list[str]:
    """Every cycle, arrow up or across, core import outside the engine, private name taken
    across modules, application arrow off the line and circle in the Rust bindings
    (``bindings``, by default ``ROOT/../rust/src/bindings`` when it exists), as sentences; none
    means a clean package."""
    pending = PENDING if pending is None else pending
    pending_problems = PENDING_PROBLEMS if pending_problems is None else pending_problems
    if bindings is None:
        bindings = root.parent / "rust" / "src" / "bindings"
    edges = graph(root)
    problems = [f"import cycle: {' <-> '.join(c)}" for c in cycles(edges)]
    problems += [
        f"{a} -> {b} is listed as pending but no longer imported: take it off the list"
        for a, b in pending
        if b not in edges.get(a, set())
    ]
    problems += upward(edges, pending)
    problems += app_arrows(edges, APP_ARROWS, pending)
    found = core_importers(edges) + private_names(root)
    if bindings is not None:
        found += rust_cycles(bindings)
    problems += [p for p in found if p not in pending_problems]
    problems += [
        f"pending problem gone: take it off the list: {p}"
        for p in pending_problems
        if p not in found
    ]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tree", type=Path, default=Path(__file__).parent.parent, help="the checkout to check"
    )
    parser.add_argument("--root", type=Path, help="the folder holding diplo/ (TREE/python)")
    parser.add_argument("--bindings", type=Path, help="the Rust bindings (TREE/rust/src/bindings)")
    parser.add_argument("--graph", action="store_true", help="print every module's imports")
    args = parser.parse_args(argv)
    args.root = args.root or args.tree / "python"
    args.bindings = args.bindings or args.tree / "rust" / "src" / "bindings"
    if args.graph:
        for module, targets in sorted(graph(args.root).items()):
            print(f"{module} [{layer_of(module)}] -> {', '.join(sorted(targets)) or '-'}")
        for module, used in sorted(rust_graph(args.bindings).items()):
            print(f"rust bindings::{module or '(mod.rs)'} -> {', '.join(sorted(used)) or '-'}")
    problems = check(args.root, bindings=args.bindings)
    for (module, target), why in PENDING.items():
        print(f"pending: {module} -> {target}: {why}")
    for problem, why in PENDING_PROBLEMS.items():
        print(f"pending: {problem}: {why}")
    for problem in problems:
        print(problem)
    count = len(graph(args.root))
    print(
        f"{count} modules: "
        + (
            f"{len(problems)} problems"
            if problems
            else "no cycle, no arrow up, one door, no private name across modules"
        )
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
