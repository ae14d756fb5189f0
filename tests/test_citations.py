"""The words true: every module path (``diplo.x.y``) and file path (``rust/src/...``) cited in the
documentation, the README and the module docs and comments of the Python package and the Rust
crate names something that exists."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Where citations are read: the documents and every source file (its docs and comments).
SOURCES = sorted(
    [
        ROOT / "README.md",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("python/diplo/docs/*.md"),
        *ROOT.glob("benches/*.md"),
        *ROOT.glob("python/diplo/**/*.py"),
        *ROOT.glob("python/diplo/**/*.pyi"),
        *ROOT.glob("rust/src/**/*.rs"),
        *ROOT.glob("rust/tests/**/*.rs"),
        *ROOT.glob("tools/*.py"),
    ]
)
DOTTED = re.compile(r"(?<![\w./-])diplo(?:\.[A-Za-z_]\w*)+")
PATHS = re.compile(
    r"(?<![\w./-])((?:python|rust|tests|tools|benches|docs|\.ci)/[\w./-]*[\w/])(?![\w(])"
)
#: Names that read like citations but are not: the Parquet metadata key of a rollout.
NOT_CITATIONS = frozenset({"diplo.rollout"})


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            obj: object = importlib.import_module(name)
        except ImportError:
            continue
        for attr in parts[cut:]:
            if hasattr(obj, attr):
                obj = getattr(obj, attr)
            elif isinstance(obj, type) and (
                any(attr in getattr(k, "__annotations__", {}) for k in obj.__mro__)
                or re.search(rf"self\.{attr}\b\s*[:=]", inspect.getsource(obj)) is not None
            ):
                return attr == parts[-1]  # a field of the class's instances
            else:
                return False
        return True
    return False


def _citations() -> list[tuple[str, str, str]]:
    found = []
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in DOTTED.finditer(line):
                found.append(("module", f"{rel}:{n}", m.group(0).rstrip(".")))
            for m in PATHS.finditer(line):
                found.append(("path", f"{rel}:{n}", m.group(1).rstrip(".")))
    return found


def test_every_cited_module_name_and_file_path_exists() -> None:
    citations = _citations()
    assert len(citations) > 500  # the scan does read the project
    missing = []
    for kind, where, text in citations:
        if text in NOT_CITATIONS:
            continue
        if kind == "module" and not _resolves(text):
            missing.append(f"{where}: {text}")
        if kind == "path" and not (ROOT / text).exists() and not any(ROOT.glob(text)):
            missing.append(f"{where}: {text}")
    assert not missing, f"{len(missing)} citations name nothing:\n" + "\n".join(missing)


SECTION = re.compile(r"(?<![\w/-])(?:docs/)?([\w-]+\.md)`?,? \(?\"([^\"]+)\"")


def test_every_cited_section_of_a_document_exists() -> None:
    cited = 0
    missing = []
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in SECTION.finditer(line):
                doc = ROOT / "docs" / m.group(1)
                if not doc.exists():
                    continue
                cited += 1
                titles = [
                    t.lstrip("#").strip() if t.startswith("#") else t.strip("*")
                    for t in doc.read_text(encoding="utf-8").splitlines()
                    if t.startswith("#") or t.startswith("**")
                ]
                if not any(t.startswith(m.group(2)) for t in titles):
                    missing.append(f"{rel}:{n}: {m.group(1)} {m.group(2)!r}")
    assert cited >= 5
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize(
    ("text", "real"),
    [
        ("diplo.model.rules.Rules", True),
        ("diplo.model.map.Map.locations", True),
        ("diplo.model.rules.Nope", False),
        ("diplo.nowhere", False),
    ],
)
def test_the_resolver_tells_a_real_name_from_a_stale_one(text: str, real: bool) -> None:
    assert _resolves(text) is real
