"""The JSON contract of ``diplo adjudicate`` (``docs/json-contract.md``, compatible with
``../shared/spec/adjudicate-json.md``): a document in, the ruling and the next position out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.backends import Backend, backend_for
from ..api.phase import process_phase
from ..model.limits import MAX_YEAR, clip, show
from ..model.map import Map, MapError, map_named, power_named
from ..model.orders import Order
from ..model.position import Position, PositionError
from ..model.results import PhaseOutcome


class DocumentError(ValueError):
    """A malformed adjudicate document (not an order problem: orders are ruled on, not rejected)."""

    def __init__(self, message: str) -> None:
        super().__init__(clip(message))


def adjudicate_document(
    doc: Mapping[str, Any],
    backend: Backend | str | None = None,
    maps: Mapping[str, Map] | None = None,
) -> dict[str, Any]:
    """Rule on one phase given as a JSON document; returns the output document."""
    return _document_outcome(doc, backend, maps).to_json()


def adjudicate_document_text(
    doc: Mapping[str, Any],
    backend: Backend | str | None = None,
    maps: Mapping[str, Map] | None = None,
) -> str:
    """:func:`adjudicate_document`'s output as JSON text: ``json.dumps`` of it, byte for byte
    (the engine writes a movement phase's text without building the dictionaries)."""
    return _document_outcome(doc, backend, maps).to_json_text()


def _document_outcome(
    doc: Mapping[str, Any],
    backend: Backend | str | None,
    maps: Mapping[str, Map] | None,
) -> PhaseOutcome:
    if not isinstance(doc, Mapping):
        raise DocumentError(f"the document must be a JSON object, not {show(doc)}")
    name = doc.get("map", "standard")
    if not isinstance(name, str) or len(name) > 100:
        raise DocumentError(f"unknown map {show(name)}")
    try:
        game_map = map_named(name, maps)
    except MapError as exc:
        raise DocumentError(str(exc)) from exc
    chosen = backend_for(backend, game_map)
    # The engine reads a document written in the canonical form itself; any other is read (or
    # refused, with the reason) by Position.from_json.
    position = chosen.read_position(doc, game_map)
    if position is None:
        try:
            # The contract takes retreat options as given; one into an occupied province
            # is left out, so a retreat there is ruled illegal (adjudicate-json.md).
            position = Position.from_json(doc, game_map, "position", occupied_options=True)
        except PositionError as exc:
            raise DocumentError(str(exc)) from exc
    if position.phase.kind == "A" and "centers" not in doc:
        raise DocumentError("'centers' is required for an adjustment phase")
    orders = _document_orders(doc.get("orders", {}), game_map)
    try:
        return process_phase(position, orders, chosen.name)
    except PositionError as exc:
        if position.phase.year < MAX_YEAR:
            raise  # not the input's fault: a bug, reported as one
        # The year limit: the next phase would be no valid input.
        raise DocumentError(str(exc)) from exc


_STRINGS = frozenset({str})


def _document_orders(raw: Any, game_map: Map) -> dict[str, list[str | Order]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise DocumentError("'orders' must be an object keyed by power")
    out: dict[str, list[str | Order]] = {}
    powers = game_map.powers
    for name, texts in raw.items():
        if (
            type(name) is str
            and name in powers
            and name not in out
            and type(texts) is list
            and {*map(type, texts)} <= _STRINGS
        ):
            out[name] = list(texts)  # the common case: the map's name and a list of strings
            continue
        power = power_named(name, game_map)
        if power is None:
            raise DocumentError(f"orders: unknown power {show(name)}")
        if not isinstance(texts, list):
            raise DocumentError(f"orders.{power} must be a list of order strings")
        # A non-string entry is still an order to rule on (illegal), not a reason to reject.
        out.setdefault(power, []).extend(t if isinstance(t, str) else show(t) for t in texts)
    return out
