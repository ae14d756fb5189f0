"""One phase in, the ruling and the next position out: the one front door to both backends.

:func:`process_phase` checks the powers, chooses the backend
(:func:`~diplo.api.backends.backend_for`) and hands the phase to it: the engine
(:mod:`diplo.engine.objects`) or the reference (:mod:`diplo.reference.phase`); both return a
:class:`~diplo.model.results.PhaseOutcome`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model.limits import MAX_YEAR, show
from ..model.map import power_named
from ..model.orders import Order
from ..model.position import Position, PositionError
from ..model.results import PhaseOutcome
from .backends import Backend, backend_for


def process_phase(
    position: Position,
    orders: Mapping[str, Sequence[str | Order]],
    backend: Backend | str | None = None,
) -> PhaseOutcome:
    """Rule on one phase: validate every order, resolve, and compute the next position.

    With the Rust backend (the default when built) the whole phase runs in the game engine
    (:mod:`diplo.engine`); with ``backend="python"`` in the readable reference
    (:mod:`diplo.reference`). Both give
    the same outcome (``tests/test_engine.py``).

    ``orders`` is keyed by power names in any case (``"england"`` is ``ENGLAND``, as in
    ``Game.set_orders`` and the JSON contract; two keys naming one power have their orders
    joined); an unknown power raises ``ValueError``, while the orders themselves are only ever
    ruled on. A phase whose next phase would fall after
    :data:`~diplo.model.limits.MAX_YEAR` raises :class:`~diplo.model.position.PositionError`.
    """
    powers = position.map.powers
    if any(power not in powers for power in orders):
        joined: dict[str, list[str | Order]] = {}
        for power, given in orders.items():
            name = power_named(power, position.map)
            if name is None:
                raise ValueError(
                    f"process_phase: unknown power {show(power)} "
                    f"(the powers are {', '.join(powers)})"
                )
            joined.setdefault(name, []).extend(given)
        orders = joined
    try:
        return backend_for(backend, position.map).process_phase(position, orders)
    except PositionError:
        if position.phase.year >= MAX_YEAR:
            raise PositionError(
                f"{position.phase}: the game cannot go past the year {MAX_YEAR}"
            ) from None
        raise
