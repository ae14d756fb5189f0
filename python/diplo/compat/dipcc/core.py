"""The engine's side of the dipcc drop-in: dipcc's board handed to the engine's dipcc module
(``rust/src/engine/dipcc_encode.rs``, through :mod:`diplo.engine.dipcc`) once, and the engine
with no vocabulary that lists possible orders and encodes boards."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...engine.dipcc import CoreDipccEncoder
from .board import ARMY, FLEET, LOCS, POWERS, board

__all__ = ["board_encoder", "board_tables"]


def board_tables() -> dict[str, Any]:
    """dipcc's board for the engine, from its one home (:func:`board`)."""
    b = board()
    return {
        "names": list(LOCS),
        "root": list(b.root),
        "coasts": [list(c) for c in b.coasts],
        "water": sorted(b.water),
        "centers": sorted(b.centers),
        "army_adjacent": [list(x) for x in b.adjacent[ARMY]],
        "fleet_adjacent": [list(x) for x in b.adjacent[FLEET]],
        "army_adjacent_all": [list(x) for x in b.adjacent_all[ARMY]],
        "fleet_adjacent_all": [list(x) for x in b.adjacent_all[FLEET]],
        "homes": [list(b.homes[p]) for p in POWERS],
        "army_builds": [list(b.army_builds[p]) for p in POWERS],
        "fleet_builds": [list(b.fleet_builds[p]) for p in POWERS],
    }


@lru_cache(maxsize=1)
def board_encoder() -> CoreDipccEncoder:
    """The engine's encoder with no vocabulary, for the board-state encodings."""
    return CoreDipccEncoder(**board_tables(), vocabulary=[], threads=1)
