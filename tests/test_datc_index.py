"""The DATC index (docs/datc-index.md) against the fixture and the code it names.

Every one of the 164 cases of DATC v3.0 chapter 6 must have exactly one row, in fixture order,
naming functions that exist; and no comment in the sources may cite a case that does not exist.
Pure text and ``ast`` checks: nothing here imports ``diplo`` (nor its Rust core).
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).parent.parent
INDEX = ROOT / "docs" / "datc-index.md"
FIXTURE = ROOT / "python" / "diplo" / "data" / "datc_cases.json"

_ROW = re.compile(r"^\|\s*(6\.[A-Z]\.\d+)\s*\|(.*)\|\s*$")
_TICKED = re.compile(r"`([^`]+)`")
_CITATION = re.compile(r"(?<![\w.])6\.[A-Z]\.\d+\b")


def _fixture() -> list[tuple[str, str]]:
    cases = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return [(str(case["id"]), str(case["title"])) for case in cases]


def _rows() -> list[tuple[str, str, list[str], list[str]]]:
    """(id, title, Python references, Rust references) per table row."""
    rows = []
    for line in INDEX.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match is None:
            continue
        cells = [c.strip() for c in match.group(2).split("|")]
        assert len(cells) == 3, f"{INDEX.name}: a row needs 4 cells: {line}"
        title, python, rust = cells
        assert python.startswith("Python:"), f"third cell must start 'Python:': {line}"
        assert rust.startswith("Rust:"), f"fourth cell must start 'Rust:': {line}"
        rows.append((match.group(1), title, _TICKED.findall(python), _TICKED.findall(rust)))
    return rows


@cache
def _python_names(path: Path) -> frozenset[str]:
    """``name`` for each top-level def or class, ``Class.method`` for each method."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(f"{node.name}.{item.name}")
    return frozenset(names)


def _reference_problem(ref: str, language: str) -> str | None:
    """Why ``path::function`` does not name an existing function, or ``None``."""
    path_text, sep, name = ref.partition("::")
    if not sep or not name:
        return f"{ref!r} is not of the form path::function"
    suffix = ".py" if language == "Python" else ".rs"
    if not path_text.endswith(suffix):
        return f"{ref!r}: a {language} reference must name a {suffix} file"
    path = ROOT / path_text
    if not path.is_file():
        return f"{ref!r}: no file {path_text}"
    if language == "Python":
        if name not in _python_names(path):
            return f"{ref!r}: no def or class method {name} in {path_text}"
        return None
    function = name.rsplit("::", 1)[-1]
    if not re.search(rf"\bfn {re.escape(function)}\b", path.read_text(encoding="utf-8")):
        return f"{ref!r}: no `fn {function}` in {path_text}"
    return None


def test_index_lists_every_fixture_case_once_in_order() -> None:
    expected = _fixture()
    assert len(expected) == 164, f"the fixture has {len(expected)} cases, not 164"
    rows = _rows()
    listed = [row[0] for row in rows]
    problems = []
    wanted = [case_id for case_id, _ in expected]
    missing = [i for i in wanted if i not in listed]
    unknown = [i for i in listed if i not in wanted]
    twice = sorted({i for i in listed if listed.count(i) > 1})
    if missing:
        problems.append(f"missing: {', '.join(missing)}")
    if unknown:
        problems.append(f"not in the fixture: {', '.join(unknown)}")
    if twice:
        problems.append(f"listed more than once: {', '.join(twice)}")
    if not problems and listed != wanted:
        first = next(i for i, (a, b) in enumerate(zip(listed, wanted, strict=True)) if a != b)
        problems.append(f"out of fixture order from row {first + 1}: {listed[first]}")
    titles = dict(expected)
    for case_id, title, _, _ in rows:
        if case_id in titles and title != titles[case_id]:
            problems.append(f"{case_id}: title {title!r}, the fixture says {titles[case_id]!r}")
    assert not problems, f"{INDEX.relative_to(ROOT)}:\n  " + "\n  ".join(problems)


def test_index_names_existing_functions() -> None:
    problems = []
    for case_id, _, python, rust in _rows():
        for language, refs in (("Python", python), ("Rust", rust)):
            if not 1 <= len(refs) <= 2:
                problems.append(f"{case_id}: {len(refs)} {language} references (want 1 or 2)")
            for ref in refs:
                problem = _reference_problem(ref, language)
                if problem is not None:
                    problems.append(f"{case_id}: {problem}")
    assert not problems, f"{INDEX.relative_to(ROOT)}:\n  " + "\n  ".join(problems)


def _sources() -> list[Path]:
    python = sorted((ROOT / "python" / "diplo").rglob("*.py"))
    rust = sorted((ROOT / "rust" / "src").rglob("*.rs"))
    return python + rust


def test_source_citations_name_existing_cases() -> None:
    known = {case_id for case_id, _ in _fixture()}
    sources = _sources()
    assert sources, "no Python or Rust sources found"
    problems = []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for cited in _CITATION.findall(line):
                if cited not in known:
                    where = path.relative_to(ROOT)
                    problems.append(f"{where}:{number}: cites {cited}, which is no DATC case")
    assert not problems, "citations of cases that do not exist:\n  " + "\n  ".join(problems)
