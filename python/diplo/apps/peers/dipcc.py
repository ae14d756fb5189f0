"""dipcc, Meta's C++ engine (facebookresearch/diplomacy_cicero, ``fairdiplomacy/pydipcc``):
found only when a user has built it; otherwise reported as missing with how to build it.

dipcc ships no package on a registry: it is built from Cicero's sources (CMake and pybind11)
into a Python module ``pydipcc`` (``fairdiplomacy.pydipcc`` inside Cicero's tree). When neither
can be imported the engine is *missing*, and the comparison says so by name.
"""

from __future__ import annotations

import importlib
from types import ModuleType

BUILD = (
    "dipcc is not built: clone facebookresearch/diplomacy_cicero, build dipcc "
    "(`make` at its root builds fairdiplomacy/pydipcc with CMake and pybind11), and put that "
    "folder on PYTHONPATH"
)


def module() -> ModuleType | None:
    """The built ``pydipcc`` module, or ``None``."""
    for name in ("pydipcc", "fairdiplomacy.pydipcc"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def available() -> str | None:
    """``None`` when dipcc is built and importable, else how to build it."""
    return None if module() is not None else BUILD
