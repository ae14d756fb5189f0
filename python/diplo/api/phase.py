"""One phase in, the ruling and the next position out: the one front door to both backends.

:func:`process_phase` checks the powers, chooses the backend
(:func:`~diplo.api.backends.backend_for`) and hands the phase to it: the engine
(:mod:`diplo.engine.objects`) or the reference (:mod:`diplo.reference.phase`); both return a
:class:`~diplo.model.results.PhaseOutcome`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..model.limits import MAX_YEAR, show
from ..model.map import power_named
from ..model.orders import Order
from ..model.position import Position, PositionError
from ..model.results import PhaseOutcome
from .backends import Backend, backend_for


def check_order_list(power: object, given: object) -> None:
    """Refuse one power's orders that are not a list of orders: a single string (``"A PAR -
    BUR"``, whose characters would each be ruled an order), bytes, a mapping or a non-iterable
    raise ``ValueError`` naming the power. The one check behind every entry point that takes
    orders by power (:func:`process_phase`, ``Game.set_orders``, the JSON contract)."""
    if isinstance(given, str | bytes | bytearray | Mapping) or not isinstance(given, Iterable):
        hint = f" (for one order write [{show(given)}])" if isinstance(given, str) else ""
        what = "one string" if isinstance(given, str) else show(given)
        raise ValueError(f"the orders of {show(power)} must be a list of orders, not {what}{hint}")


def check_orders(orders: object) -> None:
    """Refuse ``orders`` that are not a mapping of power to a list of orders
    (:func:`check_order_list` for each power)."""
    # A dict of lists is the common case, on every phase's hot path: checked without the ABC's
    # isinstance or a call per power (0.22 µs a phase against 0.45).
    if type(orders) is not dict and not isinstance(orders, Mapping):
        raise ValueError(
            f"orders must be a mapping of power to a list of orders, not a {type(orders).__name__}"
        )
    for given in orders.values():
        if type(given) is not list:
            break
    else:
        return
    for power, given in orders.items():
        if type(given) is not list:
            check_order_list(power, given)


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
    joined); an unknown power raises ``ValueError``, and so does a power's orders given as one
    string instead of a list of orders (:func:`check_orders`), while the orders themselves are
    only ever ruled on. A phase whose next phase would fall after
    :data:`~diplo.model.limits.MAX_YEAR` raises :class:`~diplo.model.position.PositionError`.
    """
    powers = position.map.powers
    # Every phase's case, a dict of lists keyed by the map's powers, is seen in one plain pass;
    # anything else is checked (check_orders) and its power names read.
    plain = type(orders) is dict
    if plain:
        for power, given in orders.items():
            if type(given) is not list or power not in powers:
                plain = False
                break
    if not plain:
        check_orders(orders)
    if not plain and any(power not in powers for power in orders):
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
