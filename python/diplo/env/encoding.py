"""The observation of :class:`diplo.env.DiplomacyEnv`: fixed-size arrays for one board.

Everything is read from :meth:`diplo.fast.FastGame.state_indices` (map indices, no objects), so
an encoding costs a few microseconds. The layout is documented in ``docs/env.md``:

``board``: ``int8[L, 5 + 3P]`` (``L`` = ``len(map.locations)``, ``P`` = ``len(map.powers)``),
one row per location (provinces and split coasts, in ``Map.locations`` order), columns:

=================  ==============================================================
0, 1               a unit is here: army, fleet (a fleet on a split coast sits on the coast's row)
2 .. 2+P-1         that unit's owner, one-hot over ``Map.powers``
2+P, 3+P           a dislodged unit is here (retreat phases): army, fleet
4+P .. 4+2P-1      the dislodged unit's owner, one-hot
4+2P               this row is a supply centre (on the province's own row)
5+2P .. 5+3P-1     the centre's owner, one-hot (all zero: neutral)
=================  ==============================================================

``phase``: ``int16[7]``: year minus 1901, then season one-hot (spring, fall, winter), then kind
one-hot (movement, retreat, adjustment).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..model.map import Map

__all__ = ["FIRST_YEAR", "PHASE_SIZE", "BoardEncoder"]

PHASE_SIZE = 7
FIRST_YEAR = 1901
_SEASONS = {"S": 1, "F": 2, "W": 3}
_KINDS = {"M": 4, "R": 5, "A": 6}

Int8Array = npt.NDArray[np.int8]
Int16Array = npt.NDArray[np.int16]


class BoardEncoder:
    """Encodes code-API states of one map (see the module documentation)."""

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        self.powers = len(game_map.powers)
        self.locations = len(game_map.locations)
        p = self.powers
        self.owner = 2
        self.dislodged = 2 + p
        self.dislodged_owner = 4 + p
        self.centre = 4 + 2 * p
        self.centre_owner = 5 + 2 * p
        self.channels = 5 + 3 * p
        c = self.channels
        base = bytearray(self.locations * c)
        index = game_map.location_index
        for centre in game_map.centers:
            base[index[centre] * c + self.centre] = 1
        self._base = bytes(base)
        self._phases: dict[tuple[int, str, str], Int16Array] = {}

    @property
    def board_shape(self) -> tuple[int, int]:
        return (self.locations, self.channels)

    def encode(self, state: tuple[Any, ...]) -> tuple[Int8Array, Int16Array]:
        """``(board, phase)`` of a :meth:`~diplo.fast.FastGame.state_indices` tuple; both arrays
        are read-only (the phase array is shared by every board of that phase)."""
        year, season, kind, units, centres, dislodged = state
        c = self.channels
        cells = bytearray(self._base)
        owner = self.owner
        for power, fleet, loc in units:
            row = loc * c
            cells[row + fleet] = 1
            cells[row + owner + power] = 1
        centre_owner = self.centre_owner
        for prov, power in centres:
            cells[prov * c + centre_owner + power] = 1
        for power, fleet, loc, _options in dislodged:
            row = loc * c
            cells[row + self.dislodged + fleet] = 1
            cells[row + self.dislodged_owner + power] = 1
        board = np.frombuffer(bytes(cells), dtype=np.int8).reshape(self.locations, c)
        key = (year, season, kind)
        phase = self._phases.get(key)
        if phase is None:
            phase = np.zeros(PHASE_SIZE, dtype=np.int16)
            phase[0] = year - FIRST_YEAR
            phase[_SEASONS[season]] = 1
            phase[_KINDS[kind]] = 1
            phase.setflags(write=False)
            self._phases[key] = phase
        return board, phase
