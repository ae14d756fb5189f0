"""The engines ``diplo bench`` knows, the optional ones found here (the code API, MILA), and
which of those asked for can run."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Protocol

from ...model.position import Position
from .measure import Engine

ENGINES = ("diplo-rust", "diplo-rust-objects", "diplo-python", "mila")
#: Why an engine cannot run here, as the notes and the errors of ``diplo bench`` say it.
MILA_MISSING = "the MILA engine is not installed (pip install '.[compare]')"


class CodeGame(Protocol):
    """The part of :class:`diplo.engine.codes.CodeGame` the benchmark uses."""

    @property
    def is_over(self) -> bool: ...
    def legal_orders(self) -> list[list[int]]: ...
    def slots(self) -> list[tuple[str, str]]: ...
    def set_orders(self, orders: Sequence[int]) -> None: ...
    def process(self) -> None: ...
    def clone(self) -> CodeGame: ...
    def position(self) -> Position: ...


def codes_module() -> ModuleType | None:
    """:mod:`diplo.engine.codes` when it is built, else ``None``."""
    return optional_module("diplo.engine.codes")


def mila_module() -> ModuleType | None:
    """The MILA engine (``diplomacy``) when it is installed, else ``None``."""
    return optional_module("diplomacy")


def optional_module(name: str) -> ModuleType | None:
    """The module ``name`` when it can be imported, else ``None``."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def missing_engines(engines: Iterable[str]) -> dict[str, str]:
    """The engines among ``engines`` that cannot run here, each with the reason (MILA not
    installed)."""
    out: dict[str, str] = {}
    for name in engines:
        if name == "mila" and mila_module() is None:
            out[name] = MILA_MISSING
    return out


def object_engines(
    wanted: Iterable[str],
    objects: Callable[[str, str], Engine],
    mila: Callable[[], Engine] | None,
) -> list[Engine]:
    """The object API on each built backend (``diplo-rust-objects``, ``diplo-python``) and MILA,
    as asked for (``diplo-rust`` asks for the Rust backend too: there is no code path here)."""
    wanted = set(wanted)
    out: list[Engine] = []
    if wanted & {"diplo-rust", "diplo-rust-objects"}:
        out.append(objects("rust", "diplo-rust-objects"))
    if "diplo-python" in wanted:
        out.append(objects("python", "diplo-python"))
    if mila is not None and "mila" in wanted:
        out.append(mila())
    return out


def pick_engines(
    wanted: Iterable[str],
    objects: Callable[[str, str], Engine],
    fast: Callable[[], Engine] | None,
    mila: Callable[[], Engine] | None,
) -> list[Engine]:
    """The engines asked for that can run here, in the order of ``ENGINES``: ``objects(backend,
    name)`` makes an engine on the object API; ``fast`` and ``mila`` are ``None`` when absent."""
    wanted = set(wanted)
    out: list[Engine] = []
    if fast is not None:
        if "diplo-rust" in wanted:
            out.append(fast())
        if "diplo-rust-objects" in wanted:
            out.append(objects("rust", "diplo-rust-objects"))
    elif "diplo-rust" in wanted:
        out.append(objects("rust", "diplo-rust"))
    if "diplo-python" in wanted:
        out.append(objects("python", "diplo-python"))
    if mila is not None and "mila" in wanted:
        out.append(mila())
    return out
