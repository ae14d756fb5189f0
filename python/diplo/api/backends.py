"""The choice between the two backends: the Rust game engine (default when built) and the
Python reference. The one place that decides which implementation rules a phase.

``backend="rust"`` runs every phase in the engine (:mod:`diplo.engine`), ``backend="python"`` in
the readable reference (:mod:`diplo.reference`); the cross-check tests hold them to one meaning.
"""

from __future__ import annotations

from types import ModuleType
from weakref import WeakKeyDictionary

from ..model.backend import BACKENDS, Backend
from ..model.map import Map

try:
    from ..engine import compile as _compile
    from ..engine import objects as _objects
except ImportError:  # the compiled core is not built: only the reference plays
    _compile = _objects = None  # type: ignore[assignment]

__all__ = [
    "BACKENDS",
    "Backend",
    "available_backends",
    "backend_for",
    "check_backend",
    "default_backend",
    "engine",
    "rust_available",
]


def rust_available() -> bool:
    """Whether the compiled core can be imported."""
    return _objects is not None


def engine() -> ModuleType:
    """The engine's object API (:mod:`diplo.engine.objects`); only called once
    :func:`backend_for` chose ``"rust"``."""
    if _objects is None:
        raise ValueError("the Rust backend is not built (install diplo with its compiled core)")
    return _objects


def available_backends() -> list[Backend]:
    return [b for b in BACKENDS if b == "python" or rust_available()]


def default_backend() -> Backend:
    """The fastest backend that is built."""
    return "rust" if rust_available() else "python"


def check_backend(backend: Backend | str | None) -> Backend:
    if backend is None:
        return default_backend()
    if backend == "python":
        return "python"
    if backend == "rust":
        if not rust_available():
            raise ValueError("the Rust backend is not built (install diplo with its compiled core)")
        return "rust"
    raise ValueError(f"unknown backend {backend!r} (expected 'rust' or 'python')")


#: Maps the engine cannot hold, with the reason (it takes up to 1,024 locations).
_TOO_BIG: WeakKeyDictionary[Map, str] = WeakKeyDictionary()


#: The map last found to fit the engine (almost every call asks about the same map): answered
#: without a lookup. Keeping it keeps that map alive, as one map at most.
_FITS: Map | None = None


def backend_for(backend: Backend | str | None, game_map: Map) -> Backend:
    """The backend that rules on ``game_map``: :func:`check_backend`'s choice, except on a map
    the engine cannot hold (more locations or powers than its encoding has room for): there the
    default is the reference, and asking for ``"rust"`` raises ``ValueError`` naming the limit."""
    global _FITS
    chosen = check_backend(backend)
    if chosen == "rust":
        if game_map is _FITS:
            return "rust"
        problem = _TOO_BIG.get(game_map)
        if problem is None:
            try:
                _compile.tables(game_map)
                _FITS = game_map
                return "rust"
            except ValueError as exc:
                problem = _TOO_BIG[game_map] = str(exc)
        if backend is None:
            return "python"
        raise ValueError(f"the Rust backend cannot play the map {game_map.name!r}: {problem}")
    return chosen
