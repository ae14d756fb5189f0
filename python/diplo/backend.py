"""The two resolvers behind one call: the Rust core (default when built) and the Python reference.

Both return a :class:`~diplo.resolver.MovementResolution` with the same meaning; the
cross-check tests hold them to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Literal, TypeAlias

from .map import Map
from .orders import Order
from .position import Piece
from .resolver import MovementResolution
from .resolver import resolve_movement as _resolve_python

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


def resolve_movement(
    backend: Backend | str | None,
    game_map: Map,
    units: Mapping[str, Piece],
    orders: Mapping[str, Order],
) -> MovementResolution:
    """Resolve a movement phase with the chosen backend."""
    chosen = check_backend(backend)
    if chosen == "rust":
        from .rust_backend import resolve_movement_rust

        return resolve_movement_rust(game_map, units, orders)
    return _resolve_python(game_map, units, orders)
