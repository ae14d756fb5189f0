"""The package's layers: ``tools/check_imports.py`` finds no cycle, no arrow up, no core import
outside the engine, no private name across modules, no application arrow off the line and no
circle in the Rust bindings in the real tree (but the pending ones it names), and finds each in
a package made to have it; the aliases of earlier releases give the very objects of the modules
that replaced them."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from tool_modules import load_tool

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    return load_tool("check_imports")


def test_the_package_has_no_cycle_and_no_arrow_up() -> None:
    assert _tool().check(ROOT / "python") == []


def test_the_checker_runs_as_ci_runs_it() -> None:
    assert _tool().main(["--tree", str(ROOT)]) == 0


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
    assert _tool().check(root, {}, pending_problems={}) == [
        "import cycle: diplo.model.a <-> diplo.model.b"
    ]


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
    assert _tool().check(root, {}, pending_problems={}) == [
        "diplo.model.m (model) imports diplo.api.door (api): points up",
        "diplo.reference.r (reference) imports diplo.engine.e (engine): siblings",
    ]


def test_a_pending_arrow_that_is_gone_must_leave_the_list(tmp_path: Path) -> None:
    root = _package(tmp_path, {"__init__.py": "", "model/__init__.py": "", "model/m.py": ""})
    problems = _tool().check(
        root, {("diplo.model.m", "diplo.api.door"): "why"}, pending_problems={}
    )
    assert problems == [
        "diplo.model.m -> diplo.api.door is listed as pending but no longer imported: "
        "take it off the list"
    ]


def test_a_name_from_a_package_is_an_import_of_the_package(tmp_path: Path) -> None:
    # ``from .. import __version__`` reads the package top (which imports everything): an arrow
    # up, and here a cycle through it, where ``from .._version import`` is neither.
    root = _package(
        tmp_path,
        {
            "__init__.py": "from .formats import f\n__version__ = '1'\n",
            "_version.py": "__version__ = '1'\n",
            "formats/__init__.py": "",
            "formats/f.py": "from .. import __version__\n",
            "formats/g.py": "from .._version import __version__\n",
        },
    )
    assert _tool().check(root, {}, pending_problems={}) == [
        "import cycle: diplo <-> diplo.formats.f",
        "diplo.formats.f (formats) imports diplo (top): points up",
    ]


def test_only_the_engine_imports_the_core(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "_core.pyi": "X: int\n",
            "engine/__init__.py": "",
            "engine/codes.py": "from .. import _core\nCore = _core.X\n",
            "engine/deep/__init__.py": "import diplo._core\n",
            "api/__init__.py": "",
            "api/game.py": "from .._core import X\n",
            "env/__init__.py": "",
            "env/vector.py": "from .. import _core\n",
        },
    )
    assert _tool().check(root, {}, pending_problems={}) == [
        "diplo.api.game imports diplo._core: only diplo.engine may (the one door)",
        "diplo.env.vector imports diplo._core: only diplo.engine may (the one door)",
    ]


def test_private_names_stay_in_their_module(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "engine/__init__.py": "",
            "engine/codes.py": (
                "_KIND = 15\n"
                "class CodeGame:\n"
                "    __slots__ = ('_core',)\n"
                "    @classmethod\n"
                "    def _wrap(cls, core):\n"
                "        game = cls.__new__(cls)\n"
                "        game._core = core\n"
                "        return game\n"
                "    def clone(self):\n"
                "        return CodeGame._wrap(self._core)\n"  # its own module: allowed
            ),
            "env/__init__.py": "",
            "env/_shapes.py": "ROWS = 1\n",
            "env/vector.py": (
                "from ..engine.codes import _KIND, CodeGame\n"  # a private name imported
                "from ..engine import codes\n"
                "from ._shapes import ROWS\n"  # a private module of its own package: allowed
                "class Env:\n"
                "    def __init__(self, game):\n"
                "        self._core = game\n"  # its own attribute: allowed
                "        self.__dict__['x'] = codes.__name__\n"  # dunder names: allowed
                "    def game(self):\n"
                "        return CodeGame._wrap(self._core)\n"  # another module's classmethod
                "def mask(game):\n"
                "    return codes._KIND, CodeGame(1)._core\n"  # even where it has a _core
            ),
            "env/parallel.py": "def core(game):\n    return game._core\n",  # not its own
            "apps/__init__.py": "",
            "apps/bench.py": "from ..env import _shapes\n",  # another package's private
        },
    )
    assert _tool().check(root, {}, pending_problems={}) == [
        "diplo.apps.bench imports diplo.env._shapes, a module private to diplo.env",
        "diplo.env.parallel uses game._core, a private name it does not define",
        "diplo.env.vector uses CodeGame(1)._core, a private name it does not define",
        "diplo.env.vector uses CodeGame._wrap, a private name it does not define",
        "diplo.env.vector uses _KIND, a private name of diplo.engine.codes",
        "diplo.env.vector uses codes._KIND, a private name it does not define",
    ]


def test_sibling_modules_of_one_class_share_no_private_attribute(
    tmp_path: Path,
) -> None:
    tool = _tool()
    files = {
        "__init__.py": "",
        "compat/__init__.py": "",
        "compat/mila/__init__.py": "",
        "compat/mila/base.py": "class Base:\n    def __init__(self):\n        self._core = 1\n",
        "compat/mila/board.py": (
            "from .base import Base\n"
            "class Board(Base):\n"
            "    def hash(self):\n"
            "        return self._core\n"  # a sibling mixin's attribute
        ),
        "compat/other.py": "def core(game):\n    return game._core\n",  # outside the package
    }
    root = _package(tmp_path, files)
    assert tool.check(root, {}, pending_problems={}) == [
        "diplo.compat.mila.board uses self._core, a private name it does not define",
        "diplo.compat.other uses game._core, a private name it does not define",
    ]


def test_the_applications_import_each_other_only_along_the_line(tmp_path: Path) -> None:
    tool = _tool()
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "apps/__init__.py": "",
            "apps/cli.py": "from ..render import cli\nfrom ..rollouts import cli as r\n",
            "apps/common.py": "",
            "render/__init__.py": "",
            "render/cli.py": "from ..apps import common\n",  # no module cycle, a package loop
            "rollouts/__init__.py": "",
            "rollouts/cli.py": "",
            "env/__init__.py": "",
            "env/vector.py": "from ..compat import mila\n",
            "compat/__init__.py": "",
            "compat/mila.py": "from ..render import cli\n",
        },
    )
    assert tool.check(root, {}, pending_problems={}) == [
        "diplo.env.vector imports diplo.compat.mila: diplo.env -> diplo.compat is no allowed "
        "arrow between the applications (APP_ARROWS)",
        "diplo.render.cli imports diplo.apps.common: diplo.render -> diplo.apps is no allowed "
        "arrow between the applications (APP_ARROWS)",
    ]
    # The allowed arrows themselves may not make a loop.
    allowed = frozenset({("diplo.apps", "diplo.env"), ("diplo.env", "diplo.apps")})
    assert tool.app_arrows({}, allowed, {}) == ["APP_ARROWS has a loop: diplo.apps <-> diplo.env"]
    assert tool.app_arrows({}, tool.APP_ARROWS, {}) == []


def _bindings(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "rust" / "src" / "bindings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "rust" / "src" / "bindings"


def test_a_circle_among_the_rust_bindings_is_found(tmp_path: Path) -> None:
    tool = _tool()
    bindings = _bindings(
        tmp_path,
        {
            "mod.rs": "mod errors;\nmod game;\nmod map;\nmod shared;\n",
            "errors.rs": "pub fn guarded() {}\n",
            "shared/mod.rs": "pub mod texts;\n",
            "shared/texts.rs": "use super::super::errors::guarded;\n",
            # a grouped use and a path in code; the comment's path is no import
            "game.rs": (
                "use super::{errors::guarded, shared::texts};\n"
                "// use super::mila::Cache;\n"
                "fn f() { super::map::PyCodeMap::new(); }\n"
            ),
            "map.rs": "use crate::bindings::game::PyCodeGame;\n",
        },
    )
    assert tool.rust_graph(bindings) == {
        "": set(),
        "errors": set(),
        "game": {"errors", "shared::texts", "map"},
        "map": {"game"},
        "shared": set(),
        "shared::texts": set(),
    }
    assert tool.rust_cycles(bindings) == ["rust bindings circle: game <-> map"]
    (bindings / "map.rs").write_text("use super::errors::guarded;\n")
    assert tool.rust_cycles(bindings) == []


def test_the_checker_reports_a_rust_circle_with_the_package(tmp_path: Path) -> None:
    root = _package(tmp_path / "python", {"__init__.py": ""})
    _bindings(tmp_path, {"a.rs": "use super::b::X;\n", "b.rs": "use super::a::Y;\n"})
    assert _tool().check(root, {}, pending_problems={}) == ["rust bindings circle: a <-> b"]
    # A pending problem is not reported while it is there, and must leave the list once gone.
    assert _tool().check(root, {}, pending_problems={"rust bindings circle: a <-> b": "why"}) == []
    (tmp_path / "rust" / "src" / "bindings" / "b.rs").write_text("")
    assert _tool().check(root, {}, pending_problems={"rust bindings circle: a <-> b": "why"}) == [
        "pending problem gone: take it off the list: rust bindings circle: a <-> b"
    ]


#: The first layout's module paths at the package's top: star-import copies that no release
#: shipped, removed so that each module has one path (issue 45).
FIRST_LAYOUT = (
    "diplo.adjudicate",
    "diplo.cli",
    "diplo.conformance",
    "diplo.fast",
    "diplo.game",
    "diplo.gamefile",
    "diplo.legal",
    "diplo.map",
    "diplo.mila",
    "diplo.orders",
    "diplo.player",
    "diplo.position",
    "diplo.rules",
    "diplo.variants",
)


@pytest.mark.parametrize("old", FIRST_LAYOUT)
def test_the_first_layouts_copies_are_gone(old: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_the_package_top_holds_only_the_package() -> None:
    top = Path(importlib.import_module("diplo").__file__ or "").parent
    modules = sorted(p.stem for p in top.glob("*.py"))
    assert modules == ["__init__", "__main__", "_corecheck", "_version"], modules
