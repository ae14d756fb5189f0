"""dipcc, Meta's C++ engine (facebookresearch/diplomacy_cicero, ``fairdiplomacy/pydipcc``):
found only when a user has built it; otherwise reported as missing with how to build it.

dipcc ships no package on a registry: it is built from Cicero's sources (CMake and pybind11)
into a Python module ``pydipcc`` (``fairdiplomacy.pydipcc`` inside Cicero's tree). When neither
can be imported the engine is *missing*, and the comparison says so by name.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

BUILD = (
    "dipcc is not built: clone facebookresearch/diplomacy_cicero, build dipcc "
    "(`make` at its root builds fairdiplomacy/pydipcc with CMake and pybind11), and put that "
    "folder on PYTHONPATH"
)


def module() -> ModuleType | None:
    """The built ``pydipcc`` module, or ``None``."""
    for name in ("pydipcc", "fairdiplomacy.pydipcc"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def available() -> str | None:
    """``None`` when dipcc is built and importable, else how to build it."""
    return None if module() is not None else BUILD


class DipccAdapter:
    """One contract document at a time through dipcc's ``Game`` (``pydipcc``), in process.

    The position goes in as a one-phase game in MILA's saved-game form (``Game.from_json``: the
    last phase's state is the current one); the orders through ``set_orders``, which drops an
    order for a location the power cannot order: an order is legal when dipcc kept it. dipcc
    records no result per order: a move succeeds when its unit stands at its destination after
    ``process``, any other order when its unit was not dislodged (what dipcc's board says). The
    board after, the retreat options, the centres and the next phase are its state after
    ``process``. Untested on this project's machines (dipcc is built by hand); the conversion is
    tested on a stand-in module (``tests/test_peers.py``).
    """

    name = "dipcc"

    def __init__(self, pydipcc: ModuleType | None = None) -> None:
        from ...model.map import standard_map

        found = pydipcc or module()
        if found is None:
            raise LookupError(BUILD)
        self._dipcc = found
        self.map = standard_map()

    def adjudicate(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        from ...formats.mila import mila_phase, mila_phase_name, position_to_mila
        from ...model.orders import Move, OrderParseError, format_order, order_unit, parse_order
        from .common import Ruling, read_document, result_entry

        position, orders = read_document(doc, self.map)
        phase = mila_phase_name(position.phase)
        saved = {
            "map": "standard",
            "phases": [
                {"name": phase, "state": position_to_mila(position), "orders": {}, "messages": []}
            ],
        }
        game = self._dipcc.Game.from_json(json.dumps(saved))
        sent: list[tuple[str, str, str, str | None, str | None]] = []
        by_power: dict[str, list[str]] = {}
        for power, text in orders:
            try:
                order = parse_order(text, self.map)
                ordered = order_unit(order)
                said = format_order(order)
                dest = order.dest if isinstance(order, Move) else None
                sent.append((power, text, said, None if ordered is None else str(ordered), dest))
            except OrderParseError:
                sent.append((power, text, text, None, None))
                said = text
            by_power.setdefault(power, []).append(said)
        for power, texts in by_power.items():
            game.set_orders(power, texts)
        kept = {p: list(v) for p, v in dict(game.get_orders()).items()}
        game.process()
        state = game.get_state()
        units: dict[str, list[str]] = {p: [] for p in self.map.powers}
        stays: set[str] = set()
        for power, texts in (state.get("units") or {}).items():
            units[power] = sorted(t for t in texts if not t.startswith("*"))
            stays.update(t.split(" ", 1)[1] for t in units[power])
        retreats = state.get("retreats") or {}
        dislodged: dict[str, dict[str, list[str]]] = {p: {} for p in self.map.powers}
        for power, entries in retreats.items():
            for unit, options in (entries or {}).items():
                dislodged.setdefault(power, {})[unit] = sorted(options)
        gone = {u for v in dislodged.values() for u in v}
        results = []
        for power, text, said, unit, dest in sent:
            legal = said in kept.get(power, [])
            if legal:
                kept[power].remove(said)
            if dest is not None:
                ok = dest in stays and unit is not None and unit.split(" ", 1)[1] not in stays
            else:
                ok = unit is not None and unit not in gone
            code = "ok" if ok else ("dislodged" if unit in gone else "bounce")
            why = "dipcc dropped it" if not legal else f"dipcc's board: {code}"
            results.append(result_entry(power, unit, text, legal, ok, code, why))
        centers = {p: sorted(state.get("centers", {}).get(p, [])) for p in self.map.powers}
        name = str(state.get("name"))
        nxt = None if name in ("COMPLETED", "") else mila_phase(name)
        return Ruling(position.phase, results, dislodged, nxt, units, centers).to_json()
