"""MILA 1.1.2 (PyPI ``diplomacy``) behind the JSON contract, in process through its ``Game``.

The position is given to a fresh ``Game`` as a MILA phase state (``set_state``, the form
:func:`diplo.formats.mila.position_to_mila` writes); each order is sent in diplo's short form
(the raw text when diplo cannot read it), one power at a time. MILA drops an order it refuses
and keeps the last of two orders for one unit: an order is legal when MILA kept it. Its result
labels (``bounce``, ``cut``, ``dislodged``, ``void``, ``no convoy``, ``disband``) decide the
success: an order succeeds when its unit has none. The board after, the retreat options, the
centres and the next phase are read from MILA's state after ``process``.

Not expressible in MILA: another map under diplo's name or rule options (MILA has its own).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ...formats.mila import mila_phase, position_to_mila
from ...model.map import Map, standard_map
from ...model.orders import OrderParseError, Waive, format_order, order_unit, parse_order
from .common import Ruling, read_document, result_entry

INSTALL = "pip install '.[compare]' in diplo's checkout (MILA: pip install diplomacy==1.1.2)"

# MILA's labels that mean an order did not do what it said.
_FAILED = {"bounce", "cut", "dislodged", "void", "no convoy", "disband"}
_CODES = {"no convoy": "no_convoy", "disband": "dislodged"}


def available() -> str | None:
    """``None`` when MILA can be imported, else why not and how to install it."""
    try:
        importlib.import_module("diplomacy")
    except ImportError:
        return f"MILA is not installed ({INSTALL})"
    return None


class MilaAdapter:
    """One contract document at a time through a fresh MILA ``Game``."""

    name = "mila"

    def __init__(self, game_map: Map | None = None) -> None:
        self.map = game_map or standard_map()
        self._mila = importlib.import_module("diplomacy")

    def adjudicate(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        position, orders = read_document(doc, self.map)
        game = self._mila.Game(map_name="standard")
        game.set_state(position_to_mila(position))
        sent: list[tuple[str, str, str, str | None]] = []  # power, given text, sent, unit
        by_power: dict[str, list[str]] = {}
        for power, text in orders:
            try:
                order = parse_order(text, self.map)
                unit = order_unit(order)
                said = format_order(order)
                unit_text = "WAIVE" if isinstance(order, Waive) else str(unit)
            except OrderParseError:
                said, unit_text = text, None
            sent.append((power, text, said, unit_text))
            by_power.setdefault(power, []).append(said)
        for power, texts in by_power.items():
            game.set_orders(power, texts)
        kept = {p: list(game.get_orders(p)) for p in by_power}
        game.process()
        labels = {
            str(unit): [str(r) for r in results]
            for unit, results in game.get_phase_history()[-1].results.items()
        }
        state = game.get_state()
        results = []
        for power, text, said, unit_text in sent:
            legal = said in kept.get(power, [])
            if legal:
                kept[power].remove(said)
            got = [x for x in labels.get(unit_text or "", []) if x]
            failed = [x for x in got if x in _FAILED]
            code = _CODES.get(failed[-1], failed[-1]) if failed else "ok"
            if code == "cut" and "dislodged" in failed:
                code = "dislodged"
            why = "MILA refused it" if not legal else "MILA: " + (", ".join(got) or "ok")
            results.append(result_entry(power, unit_text, text, legal, not failed, code, why))
        kind = position.phase.kind
        units: dict[str, list[str]] = {p: [] for p in self.map.powers}
        for power, texts in (state.get("units") or {}).items():
            units[power] = sorted(t for t in texts if not t.startswith("*"))
        # After a convoyed attack MILA also lists occupied provinces, where its own orders
        # never let the unit go (docs/mila-compat.md): the contract has no room for them.
        taken = {self.map.province_of(u.split(" ", 1)[1]) for us in units.values() for u in us}
        dislodged: dict[str, dict[str, list[str]]] = {p: {} for p in self.map.powers}
        if kind == "M":
            retreats = state.get("retreats") or {}
            for piece in position.units.values():
                if "dislodged" in labels.get(str(piece), []):
                    options = (retreats.get(piece.power) or {}).get(str(piece)) or []
                    dislodged[piece.power][str(piece)] = sorted(
                        o for o in options if self.map.province_of(o) not in taken
                    )
        centers = {p: sorted(state.get("centers", {}).get(p, [])) for p in self.map.powers}
        name = str(state.get("name"))
        nxt = None if name == "COMPLETED" else mila_phase(name)
        return Ruling(position.phase, results, dislodged, nxt, units, centers).to_json()
