"""Legal orders for bots, through the front door: the reference lists them as objects
(:func:`~diplo.reference.legal.legal_orders`); :func:`legal_order_texts` lists them as canonical
texts, from the engine when it plays the map (same keys, lists and order: tested).
"""

from __future__ import annotations

from ..model.map import power_named
from ..model.position import Position
from ..reference.legal import ConvoyDiagnostic, RouteStatus, convoy_diagnostic, legal_orders
from .backends import backend_for

__all__ = [
    "ConvoyDiagnostic",
    "RouteStatus",
    "convoy_diagnostic",
    "legal_order_texts",
    "legal_orders",
]


def legal_order_texts(
    position: Position, power: str | None = None, backend: str | None = None
) -> dict[str, list[str]]:
    """:func:`legal_orders` as canonical texts (:func:`~diplo.model.orders.format_order`): the same
    keys and the same lists in the same order. With the Rust backend (the default when built)
    the engine lists them without building an order object; those texts are what
    :func:`~diplo.api.phase.process_phase` reads fastest.
    """
    if power is not None:
        named = power_named(power, position.map)
        if named is None:
            raise ValueError(f"unknown power {power!r}")
        power = named
    return backend_for(backend, position.map).legal_order_texts(position, power)
