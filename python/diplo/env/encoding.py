"""The observation of :class:`diplo.env.DiplomacyEnv`: fixed-size arrays for one board.

Everything is read from :meth:`diplo.engine.codes.CodeGame.state_indices` (map indices, no objects),
so an encoding costs a few microseconds. The layout is documented in ``docs/env.md``:

``board``: ``int8[L, 5 + 3P]`` (``L`` = ``len(map.locations)``, ``P`` = ``len(map.powers)``),
one row per location (provinces and split coasts, in ``Map.locations`` order), columns:

=================  ==============================================================
0, 1               a unit is here: army, fleet (a fleet on a split coast sits on the coast's row)
2 .. 2+P-1         that unit's owner, one-hot over ``Map.powers``
2+P, 3+P           a dislodged unit is here (retreat phases): army, fleet
4+P .. 4+2P-1      the dislodged unit's owner, one-hot
4+2P               this row is a supply centre (on the province's own row)
5+2P .. 5+3P-1     the centre's owner, one-hot (all zero: neutral)
5+3P .. 5+4P-1     the centre is a home centre of that power, one-hot
5+4P .. 12+4P      the previous phase's order of the unit that stood here: hold, move,
                   support hold, support move, convoy, retreat, disband, build
13+4P              that order succeeded
14+4P              this location was the destination of a previous move or retreat
=================  ==============================================================

``phase``: ``int16[7]``: year minus the first year (the map's first year: 1901 on the standard
map, 1 on ancmed), then season one-hot (spring, fall, winter), then kind one-hot (movement,
retreat, adjustment).

The environments' observations are made by the Rust core (``rust/src/engine/observe.rs``);
this encoder gives the same arrays for any code-API state, except the previous-order columns,
which a state alone does not know (they are zero here). ``tests/test_env_vector.py`` holds the
two together.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..model.map import Map

__all__ = ["FIRST_YEAR", "PHASE_SIZE", "BoardEncoder"]

PHASE_SIZE = 7
#: The standard map's first year (the default of ``BoardEncoder(first_year=)``).
FIRST_YEAR = 1901
#: The previous-order kinds shown (hold .. build).
PREV_KINDS = 8
_SEASONS = {"S": 1, "F": 2, "W": 3}
_KINDS = {"M": 4, "R": 5, "A": 6}

Int8Array = npt.NDArray[np.int8]
Int16Array = npt.NDArray[np.int16]


class BoardEncoder:
    """Encodes code-API states of one map (see the module documentation)."""

    def __init__(self, game_map: Map, first_year: int | None = None) -> None:
        from ..model.position import Position

        self.map = game_map
        self.first_year = (
            Position.initial(game_map).phase.year if first_year is None else first_year
        )
        self.powers = len(game_map.powers)
        self.locations = len(game_map.locations)
        p = self.powers
        self.owner = 2
        self.dislodged = 2 + p
        self.dislodged_owner = 4 + p
        self.centre = 4 + 2 * p
        self.centre_owner = 5 + 2 * p
        self.home = 5 + 3 * p
        self.prev_kind = 5 + 4 * p
        self.prev_success = self.prev_kind + PREV_KINDS
        self.prev_target = self.prev_success + 1
        self.channels = self.prev_target + 1
        c = self.channels
        base = bytearray(self.locations * c)
        index = game_map.location_index
        for centre in game_map.centers:
            base[index[centre] * c + self.centre] = 1
        for power, homes in game_map.homes.items():
            column = self.home + game_map.powers.index(power)
            for centre in homes:
                base[index[centre] * c + column] = 1
        self._base = bytes(base)
        self._phases: dict[tuple[int, str, str], Int16Array] = {}

    @property
    def board_shape(self) -> tuple[int, int]:
        return (self.locations, self.channels)

    def encode(self, state: tuple[Any, ...]) -> tuple[Int8Array, Int16Array]:
        """``(board, phase)`` of a :meth:`~diplo.engine.codes.CodeGame.state_indices` tuple; both
        arrays are read-only (the phase array is shared by every board of that phase)."""
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
            phase[0] = max(0, min(year - self.first_year, 32767))
            phase[_SEASONS[season]] = 1
            phase[_KINDS[kind]] = 1
            phase.setflags(write=False)
            self._phases[key] = phase
        return board, phase
