"""The board of a drop-in game: its state dictionary, units, centres, powers and hash."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...formats.mila import COMPLETED, position_from_mila
from .base import Face, State
from .copies import copy_board, copy_tree
from .names import STATE_KEYS
from .order import lists_of
from .powers import Power
from .zobrist import zobrist_of

__all__ = ["Board"]


class Board:
    """MILA's board calls: the board calls of :class:`diplo.compat.mila.Game`, over its board
    part ``state``."""

    #: Its fields (see :data:`diplo.compat.mila.game.CARRIED`): the links to the game and its
    #: board part; nothing a copy carries; the hash last worked out, made anew.
    LINKS: Final = ("_game", "_state")
    KEPT: Final = ()
    MADE: Final = ("hash_kept",)
    __slots__ = LINKS + KEPT + MADE

    def __init__(self, state: State, game: Face) -> None:
        self._state = state
        self._game = game
        #: The engine's board (MILA's state lists) last hashed in Python, and its hash.
        self.hash_kept: tuple[dict[str, Any], str] | None = None

    def state_dict(self, note: str) -> dict[str, Any]:
        """The current phase's state dictionary (``get_state``'s) made in Python: the board as
        the power objects hold it, or where the engine cannot keep MILA's lists; ``note`` as
        the game's."""
        state = self._state
        doc = state.doc()
        made: dict[str, Any] = (
            copy_board(doc)  # the engine's board as made (the keys in STATE_KEYS' order)
            if not state.loaded
            else copy_tree({k: doc[k] for k in STATE_KEYS if k in doc})
        )
        name = state.current_phase()
        made.update(
            name=name,
            phase=name,
            note=note,
            timestamp=time.time_ns() // 1000,
            zobrist_hash=self.get_hash(),
        )
        made.setdefault("civil_disorder", {p: 0 for p in state.model_map.powers})
        made.setdefault("builds", {p: {"count": 0, "homes": []} for p in state.model_map.powers})
        return made

    def set_board(self, state: Mapping[str, Any]) -> None:
        """Put the game at the phase state ``state`` (``get_state()``'s form; its ``name`` is the
        phase); pending orders are dropped (MILA's ``set_state``, but for the histories). Raises
        :class:`MilaError` for a state that cannot be read (the game unchanged)."""
        if not isinstance(state, Mapping):
            raise TypeError(f"state must be a dict, got {type(state).__name__}")
        name = str(state.get("name") or "")
        done = name == COMPLETED
        position = position_from_mila(
            state,
            phase=self._state.core.phase if done else None,
            game_map=self._state.model_map,
            rules=self._state.ruling,
        )
        self._state.start(position, lists_of(state, self._state.tables.powers))
        if done:
            self._state.done = True
        self._game.note = str(state.get("note") or "")

    def get_units(self, power_name: str | None = None) -> Any:
        """The units of a power (all powers: a dict), ``"*A GAL"`` for one dislodged."""
        state = self._state
        state.sync()
        units: dict[str, list[str]] = state.doc()["units"]
        if power_name is None:
            return {p: list(u) for p, u in units.items()}
        return list(units[state.power_name(power_name)])

    def get_centers(self, power_name: str | None = None) -> Any:
        """The supply centres a power owns (all powers: a dict)."""
        state = self._state
        state.sync()
        centers: dict[str, list[str]] = state.doc()["centers"]
        if power_name is None:
            return {p: list(c) for p, c in centers.items()}
        return list(centers[state.power_name(power_name)])

    @property
    def powers(self) -> dict[str, Power]:
        """Every power by name (MILA's live power objects)."""
        return self._state.powers

    def get_power(self, power_name: str) -> Power | None:
        """The power named (``None`` for a name the map does not have, as MILA)."""
        return self._state.powers.get(str(power_name).upper()) if power_name is not None else None

    def has_power(self, power_name: str) -> bool:
        return str(power_name).upper() in self._state.powers

    def clear_units(self, power_name: str | None = None) -> None:
        """Take every unit (and dislodged unit) of a power off the board (all powers: every one)."""
        for power in self._selected(power_name):
            power.clear_units()
        self._state.sync()

    def clear_centers(self, power_name: str | None = None) -> None:
        """Make every supply centre of a power (all powers: every centre) unowned."""
        for power in self._selected(power_name):
            power.clear_centers()
        self._state.sync()

    def _selected(self, power_name: str | None) -> list[Power]:
        state = self._state
        if power_name is None:
            return list(state.powers.values())
        name = str(power_name).upper()
        return [state.powers[name]] if name in state.powers else []

    def set_units(self, power_name: str, units: str | Sequence[str], reset: bool = False) -> None:
        """Put units on the board for a power (MILA's ``set_units``): ``"A PAR"``, ``"*A GAS"``
        for a dislodged one; a unit already in a province is taken off first. A unit the map
        cannot hold there is skipped and noted in :attr:`error`. ``reset`` first clears the
        power's units. An unknown power is ignored, as in MILA."""
        state = self._state
        name = str(power_name).upper()
        if name not in state.powers:
            return
        texts = [units] if isinstance(units, str) else list(units)
        if not all(isinstance(t, str) for t in texts):
            raise TypeError("set_units: units must be strings such as 'A PAR'")
        target = state.powers[name]
        if reset:
            target.clear_units()
        regular = [" ".join(t.upper().split()) for t in texts if t and t[0] != "*"]
        dislodged = [" ".join(t[1:].upper().split()) for t in texts if t and t[0] == "*"]
        for power in state.powers.values():
            for unit in regular:
                for other in [u for u in power.units if u[2:5] == unit[2:5]]:
                    power.units.remove(other)
            for unit in dislodged:
                for other in [u for u in power.retreats if u[2:5] == unit[2:5]]:
                    del power.retreats[other]
            for unit in regular + dislodged:
                if unit[2:5] in power.influence:
                    power.influence.remove(unit[2:5])
        for unit in regular:
            if not self._valid_unit(unit):
                state.note_error(f"Invalid unit {unit}")
                continue
            if unit not in target.units:
                target.units.append(unit)
                target.influence.append(unit[2:5])
        for unit in dislodged:
            if not self._valid_unit(unit):
                state.note_error(f"Invalid unit *{unit}")
                continue
            if unit not in target.retreats:
                target.retreats[unit] = []
        state.sync()

    def _valid_unit(self, unit: str) -> bool:
        return self._state.map.is_valid_unit(unit)

    def set_centers(
        self, power_name: str, centers: str | Sequence[str], reset: bool = False
    ) -> None:
        """Give supply centres to a power (MILA's ``set_centers``); a province that is not a
        supply centre is skipped. ``reset`` first clears the power's centres. An unknown power
        is ignored, as in MILA."""
        state = self._state
        name = str(power_name).upper()
        if name not in state.powers:
            return
        wanted = [centers] if isinstance(centers, str) else list(centers)
        if not all(isinstance(c, str) for c in wanted):
            raise TypeError("set_centers: centers must be province names such as 'PAR'")
        wanted = [c.upper() for c in wanted]
        target = state.powers[name]
        if reset:
            target.clear_centers()
        for power in state.powers.values():
            for center in wanted:
                if center in power.centers:
                    power.centers.remove(center)
        scs = set(state.model_map.centers)
        for center in wanted:
            if center in scs and center not in target.centers:
                target.centers.append(center)
        state.sync()

    def unit_owner(self, unit: str, coast_required: int | bool = 1) -> Power | None:
        """The power with ``unit`` on the board (not dislodged), or ``None``; without
        ``coast_required`` ``"F STP"`` finds ``"F STP/SC"``."""
        state = self._state
        state.sync()
        for power in state.powers.values():
            for have in power.units:
                if have == unit or (not coast_required and have.split("/")[0] == unit):
                    return power
        return None

    def occupant(self, site: str, any_coast: int = 0) -> str | None:
        site = site[:3] if any_coast else site
        for power in self._state.powers.values():
            for unit in power.units:
                if unit[2:].startswith(site):
                    return unit
        return None

    # ------------------------------------------------------------------ hashes

    def get_hash(self) -> str:
        """MILA's Zobrist hash of the board (units, dislodged units, centres, homes, per power)
        as a string of digits: the same number as MILA's for the same board
        (:mod:`~diplo.compat.mila.zobrist`)."""
        state = self._state
        state.sync()
        if not state.loaded:
            board = state.engine_board()
            if board is not None:
                return str(board.hash(state.engine_tables(), state.core))
        doc = state.doc()
        kept = self.hash_kept
        if not state.loaded and kept is not None and kept[0] is doc:
            return str(kept[1])  # the engine's board, hashed already
        value = str(zobrist_of(state.map, doc))
        if not state.loaded:  # kept with the engine's board it describes (dropped with it)
            self.hash_kept = (doc, value)
        return value

    def rebuild_hash(self) -> str:
        """The board's hash worked out anew (always equal to :meth:`get_hash` here)."""
        self._state.doc_cache = None
        return self.get_hash()

    def update_hash(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to update: the hash is worked out from the board (kept for MILA's API)."""
