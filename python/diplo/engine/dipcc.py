"""dipcc's encoders (the ``ThreadPool`` of Meta's ``pydipcc``, Cicero's engine) on the engine
(``rust/src/engine/dipcc_encode.rs``, the class ``_core.DipccEncoder``): the door
``diplo.compat.dipcc.encoding`` goes through. The engine is handed dipcc's board (made by the
caller from ``diplo.compat.dipcc.board.board()``) and the caller's order vocabulary, parsed; it
reads games packed as bytes (the layout is at the top of the Rust module) and writes every
array in place, the GIL released.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeAlias

from .. import _core
from ..model.map import standard_map
from ..model.rules import Rules
from .compile import code_map

__all__ = ["CoreDipccEncoder", "standard_game"]

#: The engine's dipcc encoders: ``board_states``, ``encode`` (every field of
#: ``encode_inputs_*_multi``), ``encode_orders``, ``possible_orders``.
CoreDipccEncoder: TypeAlias = _core.DipccEncoder


@lru_cache(maxsize=8)
def _rules_document(rules: Rules) -> dict[str, Any]:
    """``rules`` as the engine's constructor reads them, written out once per rules value."""
    return rules.to_json()


def standard_game(
    year: int,
    season: str,
    kind: str,
    units: Sequence[tuple[int, int, int]],
    centers: Sequence[tuple[int, int]],
    rules: Rules,
) -> _core.CodeGame:
    """The engine's game of a standard-map board given as the engine's indices (units
    ``(power, is_fleet, location)``, centres ``(province, power)``), no dislodged unit, under
    ``rules``: the board checked once, by the engine (a bad one raises ``ValueError``)."""
    return _core.CodeGame(
        code_map(standard_map()),
        year,
        season,
        kind,
        list(units),
        list(centers),
        [],
        None,
        _rules_document(rules),
    )
