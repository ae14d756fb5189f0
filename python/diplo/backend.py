"""The two backends: the Rust game engine (default when built) and the Python reference.

``backend="rust"`` runs every phase in the engine (:mod:`diplo.engine`), ``backend="python"`` in
the readable reference (:mod:`diplo.validation`, :mod:`diplo.resolver`, :mod:`diplo.retreats`,
:mod:`diplo.adjustments`); the cross-check tests hold them to one meaning.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, TypeAlias

Backend: TypeAlias = Literal["rust", "python"]
BACKENDS: tuple[Backend, ...] = ("rust", "python")


@cache
def rust_available() -> bool:
    """Whether the compiled core can be imported."""
    try:
        from . import _core  # noqa: F401
    except ImportError:
        return False
    return True


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
