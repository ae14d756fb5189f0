"""MILA's module paths for the drop-in: ``install()`` makes ``import diplomacy`` and
``from diplomacy.engine.renderer import Renderer`` (and MILA's other paths harnesses import
from) give the drop-in's names, so that a harness runs unchanged after one call (or, with no
code change at all, ``python -m diplo.compat.mila.run harness.py``).

The modules are made here (``types.ModuleType``) and put in ``sys.modules`` under MILA's
names; MILA's own package, when installed, is not imported and is hidden for the process
(``uninstall()`` puts back what was there)."""

from __future__ import annotations

import sys
import types
from typing import Any, Final

__all__ = ["MODULE_PATHS", "install", "installed", "uninstall"]


def _names() -> dict[str, dict[str, Any]]:
    from ...formats.mila import MilaError
    from .._map import Map
    from .._press import GLOBAL, OBSERVER, OMNISCIENT, SYSTEM, GamePhaseData, Message
    from .game import Game
    from .names import GamePhaseException, MapPowerException
    from .powers import Power
    from .renderer import Renderer
    from .saved import (
        from_saved_game_format,
        is_valid_saved_game,
        load_saved_games_from_disk,
        to_saved_game_format,
    )

    export = {
        "to_saved_game_format": to_saved_game_format,
        "from_saved_game_format": from_saved_game_format,
        "load_saved_games_from_disk": load_saved_games_from_disk,
        "is_valid_saved_game": is_valid_saved_game,
    }
    return {
        "diplomacy": {
            "Game": Game,
            "Map": Map,
            "Message": Message,
            "Power": Power,
            "GamePhaseData": GamePhaseData,
        },
        "diplomacy.engine": {},
        "diplomacy.engine.game": {"Game": Game},
        "diplomacy.engine.map": {"Map": Map},
        "diplomacy.engine.message": {
            "Message": Message,
            "GLOBAL": GLOBAL,
            "SYSTEM": SYSTEM,
            "OBSERVER": OBSERVER,
            "OMNISCIENT": OMNISCIENT,
        },
        "diplomacy.engine.power": {"Power": Power},
        "diplomacy.engine.renderer": {"Renderer": Renderer},
        "diplomacy.utils": {},
        "diplomacy.utils.export": export,
        "diplomacy.utils.game_phase_data": {"GamePhaseData": GamePhaseData},
        "diplomacy.utils.exceptions": {
            "MapPowerException": MapPowerException,
            "GamePhaseException": GamePhaseException,
            "DiplomacyException": MilaError,
        },
    }


#: MILA's module paths the drop-in answers (each a module of the names harnesses import).
MODULE_PATHS: Final = (
    "diplomacy",
    "diplomacy.engine",
    "diplomacy.engine.game",
    "diplomacy.engine.map",
    "diplomacy.engine.message",
    "diplomacy.engine.power",
    "diplomacy.engine.renderer",
    "diplomacy.utils",
    "diplomacy.utils.export",
    "diplomacy.utils.game_phase_data",
    "diplomacy.utils.exceptions",
)
_saved: dict[str, types.ModuleType] = {}
_MARK: Final = "__diplo_drop_in__"


def installed() -> bool:
    """Whether ``diplomacy`` is the drop-in in this process."""
    return bool(getattr(sys.modules.get("diplomacy"), _MARK, False))


def install() -> None:
    """Answer MILA's module paths (:data:`MODULE_PATHS`) with the drop-in's names in this
    process; a second call changes nothing."""
    if installed():
        return
    names = _names()
    for key in [k for k in sys.modules if k == "diplomacy" or k.startswith("diplomacy.")]:
        _saved[key] = sys.modules.pop(key)
    made: dict[str, types.ModuleType] = {}
    for path in MODULE_PATHS:
        module = types.ModuleType(path, f"MILA's {path}, answered by diplo.compat.mila")
        module.__dict__.update(names[path])
        setattr(module, _MARK, True)
        if path != "diplomacy":
            module.__package__ = path.rpartition(".")[0]
        module.__path__ = []  # a package: its submodules are found in sys.modules
        made[path] = module
        sys.modules[path] = module
    for path, module in made.items():
        parent, _, child = path.rpartition(".")
        if parent:
            setattr(made[parent], child, module)


def uninstall() -> None:
    """Put back the modules :func:`install` replaced (MILA's, when it was imported)."""
    if not installed():
        return
    for path in MODULE_PATHS:
        sys.modules.pop(path, None)
    sys.modules.update(_saved)
    _saved.clear()
