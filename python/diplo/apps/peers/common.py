"""What every peer adapter shares: reading a contract document, the phase that follows, and the
output document written back.

An adapter converts one input document of the JSON contract (``docs/json-contract.md``) into its
engine's own input, asks the engine, and writes the engine's rulings back as an output document.
It decides nothing the engine decides: legality, success, dislodgements, retreat options, the
board after and the centres are the engine's. A document the engine cannot express (a phase
kind it has no rule for, a map it does not know, an order form it cannot take) raises
:class:`Unsupported` with the reason: the case is then listed as *not expressible*, never as
passed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ...model.map import Map, power_named, standard_map
from ...model.position import Phase, Position
from ...model.results import Result

__all__ = [
    "Adapter",
    "Ruling",
    "Unsupported",
    "following_phase",
    "grouped",
    "read_document",
    "result_entry",
]


class Unsupported(Exception):
    """The engine cannot express this document (the reason is the message)."""


class Adapter(Protocol):
    """A peer engine behind the contract: one input document in, one output document out."""

    name: str

    def adjudicate(self, doc: Mapping[str, Any]) -> dict[str, Any]: ...


def read_document(
    doc: Mapping[str, Any], game_map: Map | None = None
) -> tuple[Position, list[tuple[str, str]]]:
    """The position of an input document (read as diplo reads it: the board is the input, not
    a ruling) and its orders as ``(power, text)`` pairs in input order. Only the standard map:
    the peers know no other (:class:`Unsupported` otherwise)."""
    name = doc.get("map", "standard")
    if name != "standard":
        raise Unsupported(f"the engine knows only the standard map, not {name!r}")
    if doc.get("rules"):
        raise Unsupported("the engine has no rule options (the document names 'rules')")
    game_map = game_map or standard_map()
    position = Position.from_json(doc, game_map, "position", occupied_options=True)
    orders: list[tuple[str, str]] = []
    raw = doc.get("orders") or {}
    if not isinstance(raw, Mapping):
        raise ValueError("'orders' must be an object keyed by power")
    for key, texts in raw.items():
        power = power_named(key, game_map)
        if power is None:
            raise ValueError(f"orders: unknown power {key!r}")
        if not isinstance(texts, list):
            raise ValueError(f"orders.{power} must be a list of order strings")
        orders.extend((power, str(t)) for t in texts)
    return position, orders


def result_entry(
    power: str, unit: str | None, order: str, legal: bool, success: bool, code: str, reason: str
) -> dict[str, Any]:
    """One given order's entry of ``results`` (written by :meth:`Result.to_json`, the one writer
    of a result)."""
    code = code if legal else "illegal"
    return Result(power, unit, order, True, legal, legal and success, code, reason).to_json()


def following_phase(phase: Phase, retreats: bool, adjustments: bool) -> Phase:
    """The phase after ``phase`` as the engine's facts have it: a retreat phase when a unit has
    somewhere to retreat, a winter when the engine owes a power builds or disbands."""
    if phase.kind == "M" and retreats:
        return Phase(phase.year, phase.season, "R")
    if phase.season == "S":
        return Phase(phase.year, "F", "M")
    if phase.season == "F" and adjustments:
        return Phase(phase.year, "W", "A")
    return Phase(phase.year + 1, "S", "M")


def grouped(game_map: Map, pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """``(power, item)`` pairs as ``{power: sorted items}`` with every power of the map."""
    out: dict[str, list[str]] = {p: [] for p in game_map.powers}
    for power, item in pairs:
        out[power].append(item)
    return {p: sorted(v) for p, v in out.items()}


@dataclass
class Ruling:
    """An engine's ruling of one phase, in diplo's names, before it is written as a document."""

    phase: Phase
    results: list[dict[str, Any]]
    #: power -> {unit: retreat options} of every unit dislodged (options possibly empty)
    dislodged: dict[str, dict[str, list[str]]]
    next_phase: Phase | None
    units: dict[str, list[str]]
    centers: dict[str, list[str]]

    def to_json(self) -> dict[str, Any]:
        retreating = {
            p: {u: opts for u, opts in units.items() if opts} for p, units in self.dislodged.items()
        }
        retreating = {p: v for p, v in retreating.items() if v}
        nxt: dict[str, Any] = {
            "phase": None if self.next_phase is None else str(self.next_phase),
            "units": self.units,
            "centers": self.centers,
            "dislodged": retreating if self.next_phase and self.next_phase.kind == "R" else {},
        }
        return {
            "phase": str(self.phase),
            "results": self.results,
            "dislodged": {p: v for p, v in self.dislodged.items() if v},
            "next": nxt,
        }
