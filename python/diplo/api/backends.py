"""The choice between the two backends: the Rust game engine (the default) and the Python
reference. The one place that decides which implementation rules a phase.

``backend="rust"`` runs every phase in the engine (:mod:`diplo.engine`), ``backend="python"`` in
the readable reference (:mod:`diplo.reference`); the cross-check tests hold them to one meaning.

:func:`backend_for` makes the choice once and returns the chosen implementation, an
:class:`Implementation` (:data:`ENGINE` or :data:`REFERENCE`): every front end then calls its
methods (``backend_for(b, m).process_phase(position, orders)``), one call a reader and a type
checker can follow, never a test of the backend's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from ..engine import compile as _compile
from ..engine import objects as _objects
from ..model.backend import BACKENDS, Backend
from ..model.map import Map
from ..model.orders import Order, format_order
from ..model.position import Position
from ..model.results import PhaseOutcome
from ..reference.adjustments import adjustment_counts
from ..reference.legal import legal_orders
from ..reference.phase import process_phase_reference

__all__ = [
    "BACKENDS",
    "ENGINE",
    "REFERENCE",
    "Backend",
    "BackendError",
    "EngineBackend",
    "Implementation",
    "ReferenceBackend",
    "available_backends",
    "backend_for",
    "check_backend",
    "default_backend",
]


class BackendError(ValueError):
    """The backend asked for cannot play the map: the engine's limit it passes, named (the
    command-line tools exit 2 with it; the reference plays every map)."""


class Implementation(Protocol):
    """What a backend does for the front door (:mod:`diplo.api`, :mod:`diplo.formats`)."""

    #: The backend's name, as ``backend=`` arguments take it.
    name: Backend

    def process_phase(
        self, position: Position, orders: Mapping[str, Sequence[str | Order]]
    ) -> PhaseOutcome:
        """Rule on one phase (the powers are the map's: :func:`diplo.api.phase.process_phase`
        checks them)."""
        ...

    def legal_order_texts(self, position: Position, power: str | None) -> dict[str, list[str]]:
        """:func:`diplo.api.legal.legal_order_texts` (``power`` a map's power or ``None``)."""
        ...

    def orderable_powers(self, position: Position) -> list[str]:
        """The powers with something to order in ``position``'s phase, in map order
        (:meth:`diplo.api.game.Game.orderable_powers` before resignations)."""
        ...

    def read_position(self, doc: Mapping[str, Any], game_map: Map) -> Position | None:
        """The position of a JSON-contract document when this backend reads it itself (the
        canonical form), else ``None``: :meth:`Position.from_json` reads it."""
        ...


class EngineBackend:
    """The Rust game engine (:mod:`diplo.engine.objects`)."""

    name: Backend = "rust"

    def process_phase(
        self, position: Position, orders: Mapping[str, Sequence[str | Order]]
    ) -> PhaseOutcome:
        return _objects.process_phase_engine(position, orders)

    def legal_order_texts(self, position: Position, power: str | None) -> dict[str, list[str]]:
        return _objects.legal_order_texts_engine(position, power)

    def orderable_powers(self, position: Position) -> list[str]:
        return _objects.orderable_powers_engine(position)

    def read_position(self, doc: Mapping[str, Any], game_map: Map) -> Position | None:
        return _objects.read_position(doc, game_map)

    def __repr__(self) -> str:
        return "ENGINE"


class ReferenceBackend:
    """The readable Python reference (:mod:`diplo.reference`)."""

    name: Backend = "python"

    def process_phase(
        self, position: Position, orders: Mapping[str, Sequence[str | Order]]
    ) -> PhaseOutcome:
        return process_phase_reference(position, orders)

    def legal_order_texts(self, position: Position, power: str | None) -> dict[str, list[str]]:
        return {k: [format_order(o) for o in v] for k, v in legal_orders(position, power).items()}

    def orderable_powers(self, position: Position) -> list[str]:
        kind = position.phase.kind
        if kind == "M":
            active = {p.power for p in position.units.values()}
        elif kind == "R":
            active = {d.piece.power for d in position.dislodged.values()}
        else:
            active = {p for p, n in adjustment_counts(position).items() if n != 0}
        return [p for p in position.map.players if p in active]

    def read_position(self, doc: Mapping[str, Any], game_map: Map) -> Position | None:
        return None

    def __repr__(self) -> str:
        return "REFERENCE"


#: The two implementations (one of each: :func:`backend_for` returns them).
ENGINE: Implementation = EngineBackend()
REFERENCE: Implementation = ReferenceBackend()


def available_backends() -> list[Backend]:
    return list(BACKENDS)


def default_backend() -> Backend:
    """The fastest backend: the engine."""
    return "rust"


def check_backend(backend: Backend | str | None) -> Backend:
    """The backend ``backend`` names (``None``: the default); ``ValueError`` for another
    name."""
    if backend is None:
        return default_backend()
    if backend == "python":
        return "python"
    if backend == "rust":
        return "rust"
    raise ValueError(f"unknown backend {backend!r} (expected 'rust' or 'python')")


#: Maps the engine cannot hold, with the reason (it takes up to 1,024 locations).
_TOO_BIG: WeakKeyDictionary[Map, str] = WeakKeyDictionary()


#: The map last found to fit the engine (almost every call asks about the same map): answered
#: without a lookup. Keeping it keeps that map alive, as one map at most.
_FITS: Map | None = None


def backend_for(backend: Backend | str | None, game_map: Map) -> Implementation:
    """The implementation that rules on ``game_map``: :func:`check_backend`'s choice, except on
    a map the engine cannot hold (more locations or powers than its encoding has room for):
    there the default is the reference, and asking for ``"rust"`` raises :class:`BackendError`
    (a ``ValueError``) naming the limit. ``.name`` says which it is."""
    global _FITS
    if backend is None or backend == "rust":
        if game_map is _FITS:
            return ENGINE
        problem = _TOO_BIG.get(game_map)
        if problem is None:
            try:
                _compile.tables(game_map)
                _FITS = game_map
                return ENGINE
            except ValueError as exc:
                problem = _TOO_BIG[game_map] = str(exc)
        if backend is None:
            return REFERENCE
        raise BackendError(f"the Rust backend cannot play the map {game_map.name!r}: {problem}")
    if backend == "python":
        return REFERENCE
    raise ValueError(f"unknown backend {backend!r} (expected 'rust' or 'python')")
