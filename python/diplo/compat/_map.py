"""MILA's map query API (``diplomacy.Map``) for the drop-in, over diplo's maps.

:func:`mila_map_for` finds the diplo map a MILA game names (diplo's name or MILA's);
:class:`Map` answers MILA's queries about it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..formats.mila import MILA_MAP_NAMES
from ..model.map import Map as _DiploMap
from ..model.map import MapError, map_named

__all__ = ["Map", "mila_map_for"]

_FROM_MILA: Final = {mila: ours for ours, mila in MILA_MAP_NAMES.items()}
_SEASON_WORDS: Final = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
_KIND_WORDS: Final = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
_SEASON_ORDER: Final = {"S": 0, "F": 1, "W": 2}
_KIND_ORDER: Final = {"M": 0, "R": 1, "A": 2}


def mila_map_for(name: str) -> _DiploMap:
    """The diplo map of a MILA map name (``"standard_fleet_rome"``) or of a diplo name
    (``"fleet_rome"``); :class:`MapError` for a map diplo cannot play."""
    return map_named(_FROM_MILA.get(name, name))


class Map:
    """MILA's ``diplomacy.Map`` queries over a map (see ``docs/mila-compat.md``)."""

    def __init__(self, name: str = "standard") -> None:
        if not isinstance(name, str):
            raise TypeError(f"Map: name must be a string, got {type(name).__name__}")
        self.name = name
        self._map = mila_map_for(name)
        game_map = self._map
        self.powers: list[str] = sorted(game_map.powers)
        self.first_year: int = int(game_map.first_phase[1:-1])
        self.victory: list[int] = [game_map.victory]
        self.scs: list[str] = sorted(game_map.centers)
        self.homes: dict[str, list[str]] = {p: sorted(h) for p, h in game_map.homes.items()}
        self.locs: list[str] = list(game_map.locations)

    @property
    def phase(self) -> str:
        fp = self._map.first_phase
        return f"{_SEASON_WORDS[fp[0]]} {fp[1:-1]} {_KIND_WORDS[fp[-1]]}"

    def is_valid_unit(self, unit: str, no_coast_ok: int = 0, shut_ok: int = 0) -> bool:
        """Whether ``unit`` (``"A PAR"``, ``"F STP/SC"``) can stand where it is written."""
        del shut_ok
        words = str(unit).upper().split()
        if len(words) != 2 or words[0] not in ("A", "F"):
            return False
        unit_type, loc = words
        game_map = self._map
        try:
            prov = game_map.province_of(loc)
        except (MapError, KeyError):
            return False
        if unit_type == "A":
            return loc == prov and not game_map.is_sea(prov)
        if game_map.is_land(prov) and not game_map.is_coastal(prov):
            return False
        if loc == prov and game_map.coasts_of(prov):
            return bool(no_coast_ok)
        return not game_map.is_land(prov) or game_map.is_coastal(prov)

    def phase_long(self, phase_abbr: str, default: str = "?") -> str:
        text = str(phase_abbr).upper()
        try:
            return f"{_SEASON_WORDS[text[0]]} {int(text[1:-1])} {_KIND_WORDS[text[-1]]}"
        except (KeyError, ValueError, IndexError):
            return default

    def phase_abbr(self, phase: str, default: str = "?") -> str:
        words = str(phase).upper().split()
        if len(words) != 3:
            return default
        return f"{words[0][0]}{words[1]}{words[2][0]}"

    def compare_phases(self, phase1: str, phase2: str) -> int:
        """-1, 0 or 1 as ``phase1`` comes before, with or after ``phase2`` (short or long names)."""
        return _cmp(_phase_key(phase1), _phase_key(phase2))


@lru_cache(maxsize=512)
def _phase_key(phase: str) -> tuple[int, int, int]:
    text = str(phase).upper()
    words = text.split()
    if len(words) == 3:
        text = f"{words[0][0]}{words[1]}{words[2][0]}"
    if text == "COMPLETED":
        return (10**9, 0, 0)
    if text == "FORMING":
        return (-(10**9), 0, 0)
    return (int(text[1:-1]), _SEASON_ORDER[text[0]], _KIND_ORDER[text[-1]])


def _cmp(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return (a > b) - (a < b)
