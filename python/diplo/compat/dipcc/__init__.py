"""A drop-in for dipcc's ``pydipcc`` (Meta's engine behind Cicero), ruled by diplo.

Cicero, Diplodocus and the other agents of facebookresearch/diplomacy_cicero play through
``pydipcc.Game``, a C++ module that needs Python 3.7 and torch 1.7.1 to build. This package
answers the same calls on any Python diplo runs on, with no torch, so such code moves by
changing one import::

    from diplo.compat.dipcc import Game        # was: from fairdiplomacy.pydipcc import Game

    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    text = game.to_json()                       # dipcc's JSON, read back by Game.from_json

``docs/dipcc-compat.md`` lists every call, the rulings
(:data:`~diplo.compat.dipcc.state.DIPCC_RULES`) and every place where this drop-in departs
from dipcc.
"""

from __future__ import annotations

from .board import LOCS, POWERS, format_order, parse_order
from .encoding import (
    MAX_INPUT_VERSION,
    ThreadPool,
    board_state_enc_width,
    encode_board_state,
    encode_board_state_from_json,
    encode_board_state_from_phase,
    encode_board_state_pperm_matrices,
    encode_board_states,
    encoding_sc_ownership_idxs,
    encoding_unit_ownership_idxs,
    max_input_version,
)
from .game import ConvoyParadoxException, Game, PhaseData
from .jsonio import DipccJsonError
from .state import DIPCC_RULES
from .timestamp import Timestamp

__all__ = [
    "DIPCC_RULES",
    "LOCS",
    "MAX_INPUT_VERSION",
    "POWERS",
    "ConvoyParadoxException",
    "DipccJsonError",
    "Game",
    "PhaseData",
    "ThreadPool",
    "Timestamp",
    "board_state_enc_width",
    "encode_board_state",
    "encode_board_state_from_json",
    "encode_board_state_from_phase",
    "encode_board_state_pperm_matrices",
    "encode_board_states",
    "encoding_sc_ownership_idxs",
    "encoding_unit_ownership_idxs",
    "format_order",
    "max_input_version",
    "parse_order",
]
