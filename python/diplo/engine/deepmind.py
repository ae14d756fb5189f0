"""DeepMind's ``DiplomacyState`` protocol for many games at once on the engine
(``rust/src/engine/deepmind.rs``, the class ``_core.DeepMindEnv``): the door
``diplo.env.deepmind.batched`` goes through. The engine is handed their encoding's tables (made
by the caller from ``data/deepmind_actions.json``); it never reads them itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from .. import _core
from .codes import CodeGame, core_of

__all__ = ["CoreDeepMindEnv", "deepmind_env"]

#: The engine's batched DeepMind games (buffers filled in place, the GIL released).
CoreDeepMindEnv: TypeAlias = _core.DeepMindEnv


def deepmind_env(
    start: CodeGame,
    num_games: int,
    actions: Sequence[int],
    loc_byte: Sequence[int],
    loc_main: Sequence[int],
    loc_coast: Sequence[int],
    area_kind: Sequence[int],
    theirs: Sequence[int],
    max_actions: int,
    max_orders: int,
    threads: int = 1,
) -> CoreDeepMindEnv:
    """``num_games`` games from ``start`` (the standard map) in DeepMind's protocol: ``actions``
    their list's low 32 bits by index; per location of the map (its index in
    ``Map.locations``) its area byte (province id << 1 | the south-coast flag), its
    province's area and its coast's area (255: none); per area its kind (0 land, 1 sea, 2 a
    coast); per power of the map its place in their alphabetical order. The engine checks the
    tables against the map (``ValueError``)."""
    return _core.DeepMindEnv(
        core_of(start),
        num_games,
        list(actions),
        list(loc_byte),
        list(loc_main),
        list(loc_coast),
        list(area_kind),
        list(theirs),
        max_actions,
        max_orders,
        threads,
    )
