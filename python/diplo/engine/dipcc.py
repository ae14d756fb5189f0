"""dipcc's encoders (the ``ThreadPool`` of Meta's ``pydipcc``, Cicero's engine) on the engine
(``rust/src/engine/dipcc_encode.rs``, the class ``_core.DipccEncoder``): the door
``diplo.compat.dipcc.encoding`` goes through. The engine is handed dipcc's board (made by the
caller from ``diplo.compat.dipcc.board.board()``) and the caller's order vocabulary, parsed; it
reads games packed as bytes (the layout is at the top of the Rust module) and writes every
array in place, the GIL released.
"""

from __future__ import annotations

from typing import TypeAlias

from .. import _core

__all__ = ["CoreDipccEncoder"]

#: The engine's dipcc encoders: ``board_states``, ``encode`` (every field of
#: ``encode_inputs_*_multi``), ``encode_orders``, ``possible_orders``.
CoreDipccEncoder: TypeAlias = _core.DipccEncoder
