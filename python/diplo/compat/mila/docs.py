"""MILA's state dictionary of the engine's board, made straight from the engine's raw state
(:func:`board_doc`): what :func:`diplo.formats.mila.position_to_mila` makes of the position,
without making the position (``get_state`` asks for it once per phase)."""

from __future__ import annotations

from typing import Any

from ...engine.codes import CodeState
from .turn import Tables

__all__ = ["board_doc"]


def board_doc(
    tables: Tables,
    state: CodeState,
    name: str,
    builds: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The state dictionary of the raw ``state``, named ``name``; an adjustment phase's
    ``builds`` are given (:func:`~diplo.formats.mila.mila_builds`: they need the position's
    rules), a movement or retreat phase has none. Its lists are sorted and its ``influence``
    empty: MILA's order and influence come from the game's history
    (:func:`~diplo.compat.mila.order.arrange`)."""
    _year, _season, _kind, units, centers, dislodged = state
    locations = tables.locations
    powers = tables.powers
    unit_texts = tables.unit_texts
    texts: dict[str, list[str]] = {p: [] for p in powers}
    for power, fleet, loc in units:
        texts[powers[power]].append(unit_texts[fleet][loc])
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for power, fleet, loc, options in dislodged:
        owner, text = powers[power], unit_texts[fleet][loc]
        texts[owner].append("*" + text)
        retreats[owner][text] = [locations[o] for o in options]
    owned: dict[str, list[str]] = {p: [] for p in powers}
    for province, power in centers:
        owned[powers[power]].append(locations[province])
    for held in owned.values():
        held.sort()
    homes = tables.map.homes
    return {
        "name": name,
        "units": {p: sorted(u) for p, u in texts.items()},
        "retreats": retreats,
        "centers": owned,
        "homes": {p: list(homes.get(p, ())) for p in powers},
        "influence": {p: [] for p in powers},  # MILA's, from the game's history (order.py)
        "civil_disorder": dict.fromkeys(powers, 0),
        "builds": builds if builds is not None else {p: {"count": 0, "homes": []} for p in powers},
        "note": "",
    }
