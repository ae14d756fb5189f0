"""The package's layers: ``tools/check_imports.py`` finds no cycle and no arrow up in the real
package, and does find them in a package made to have them; the aliases of earlier releases give
the very objects of the modules that replaced them."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "check_imports", ROOT / "tools" / "check_imports.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_imports"] = module
    spec.loader.exec_module(module)
    return module


def test_the_package_has_no_cycle_and_no_arrow_up() -> None:
    assert _tool().check(ROOT / "python") == []


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "diplo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_cycle_through_a_function_local_import_is_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "model/__init__.py": "",
            "model/a.py": "from . import b\n",
            "model/b.py": "def f():\n    from .a import x\n",
        },
    )
    assert _tool().check(root, {}) == ["import cycle: diplo.model.a <-> diplo.model.b"]


def test_arrows_up_across_and_hidden_are_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "model/__init__.py": "",
            "model/m.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from ..api import door\n",
            "reference/__init__.py": "",
            "reference/r.py": "import importlib\nE = importlib.import_module('diplo.engine.e')\n",
            "engine/__init__.py": "",
            "engine/e.py": "X = 1\n",
            "api/__init__.py": "",
            "api/door.py": "from ..engine import e\nfrom ..reference import r\n",
        },
    )
    assert _tool().check(root, {}) == [
        "diplo.model.m (model) imports diplo.api.door (api): points up",
        "diplo.reference.r (reference) imports diplo.engine.e (engine): siblings",
    ]


def test_a_pending_arrow_that_is_gone_must_leave_the_list(tmp_path: Path) -> None:
    root = _package(tmp_path, {"__init__.py": "", "model/__init__.py": "", "model/m.py": ""})
    problems = _tool().check(root, {("diplo.model.m", "diplo.api.door"): "why"})
    assert problems == [
        "diplo.model.m -> diplo.api.door is listed as pending but no longer imported: "
        "take it off the list"
    ]


ALIASES = {
    "diplo.adjudicate": ("diplo.model.results", "diplo.api.phase", "diplo.formats.contract"),
    "diplo.cli": ("diplo.apps.cli",),
    "diplo.conformance": ("diplo.apps.conformance",),
    "diplo.fast": ("diplo.engine.codes",),
    "diplo.game": ("diplo.api.game",),
    "diplo.gamefile": ("diplo.formats.gamefile",),
    "diplo.legal": ("diplo.api.legal",),
    "diplo.map": ("diplo.model.map",),
    "diplo.mila": ("diplo.formats.mila",),
    "diplo.orders": ("diplo.model.orders",),
    "diplo.player": ("diplo.api.player",),
    "diplo.position": ("diplo.model.position",),
    "diplo.rules": ("diplo.model.rules",),
    "diplo.variants": ("diplo.model.variants",),
}


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_an_old_module_path_gives_the_new_homes_objects(alias: str) -> None:
    old = importlib.import_module(alias)
    names = 0
    for home in ALIASES[alias]:
        new = importlib.import_module(home)
        public = getattr(new, "__all__", [n for n in vars(new) if not n.startswith("_")])
        for name in public:
            assert getattr(old, name) is getattr(new, name), f"{alias}.{name}"
            names += 1
    assert names > 0


def test_the_documented_old_paths_still_import() -> None:
    from diplo.adjudicate import adjudicate_document, process_phase
    from diplo.fast import FastGame, process_batch
    from diplo.game import Game
    from diplo.legal import legal_order_texts, legal_orders

    assert process_phase is importlib.import_module("diplo").process_phase
    assert Game is importlib.import_module("diplo").Game
    assert FastGame is importlib.import_module("diplo").FastGame
    assert callable(adjudicate_document) and callable(process_batch)
    assert callable(legal_order_texts) and callable(legal_orders)
