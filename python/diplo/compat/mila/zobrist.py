"""MILA's Zobrist hash of a board, the number its ``get_hash()`` and every state's
``zobrist_hash`` give.

MILA keeps the hash up to date as units, centres and homes come and go, by XOR with numbers drawn
once per map: six tables over its powers (sorted) and its passable locations (upper case,
sorted), drawn with Python's ``random.randint(1, sys.maxsize)`` in a fixed order after seeding
from the map (its number of locations and its sorted centres). The hash of a board is the XOR of
one number per unit (its type and its power at its location), dislodged unit (the same, from two
other tables), centre and home centre (per power, at the province). So it is a function of the
board alone, worked out here from the state dictionary's lists, the same number as MILA's.
"""

from __future__ import annotations

import random
import sys
from typing import Any, Protocol
from weakref import WeakKeyDictionary

__all__ = ["ZobristTables", "tables_for", "zobrist_of"]


class _MilaMap(Protocol):
    powers: list[str]
    locs: list[str]
    scs: list[str]

    def area_type(self, loc: str) -> str | None: ...


class ZobristTables:
    """One map's numbers, keyed as the state dictionary writes its entries: per power, a unit
    (``"F STP/SC"``), a dislodged unit (the same text) and a centre or home (``"STP"``)."""

    def __init__(self, game_map: _MilaMap) -> None:
        powers = sorted(game_map.powers)
        locs = sorted(loc.upper() for loc in game_map.locs if game_map.area_type(loc) != "SHUT")
        centres = "-".join(sorted(sc.upper() for sc in game_map.scs))
        seed = (12345 + len(locs) + sum(ord(c) * 7**i for i, c in enumerate(centres))) % 2**32
        draw = random.Random(seed).randint

        def table(rows: int) -> list[list[int]]:
            return [[draw(1, sys.maxsize) for _ in locs] for _ in range(rows)]

        # Drawn in MILA's order: unit types, units, dislodged types, dislodged units, centres,
        # homes.
        n = len(powers)
        kinds, units, dis_kinds, dis_units = table(2), table(n), table(2), table(n)
        centre_rows, home_rows = table(n), table(n)
        self.units: dict[str, dict[str, int]] = {}
        self.dislodged: dict[str, dict[str, int]] = {}
        self.centres: dict[str, dict[str, int]] = {}
        self.homes: dict[str, dict[str, int]] = {}
        for p, power in enumerate(powers):
            self.units[power] = {
                f"{t} {loc}": kinds[k][i] ^ units[p][i]
                for k, t in enumerate("AF")
                for i, loc in enumerate(locs)
            }
            self.dislodged[power] = {
                f"{t} {loc}": dis_kinds[k][i] ^ dis_units[p][i]
                for k, t in enumerate("AF")
                for i, loc in enumerate(locs)
            }
            self.centres[power] = {loc: centre_rows[p][i] for i, loc in enumerate(locs)}
            self.homes[power] = {loc: home_rows[p][i] for i, loc in enumerate(locs)}

    def hash_of(self, doc: dict[str, Any]) -> int:
        """The hash of a state dictionary's ``units`` (``*`` for dislodged), ``centers`` and
        ``homes``. An entry MILA could not hold (no such location) adds nothing."""
        value = 0
        for power, listed in doc["units"].items():
            units, dislodged = self.units.get(power, {}), self.dislodged.get(power, {})
            for unit in listed:
                if unit[:1] == "*":
                    value ^= dislodged.get(unit[1:].upper(), 0)
                else:
                    value ^= units.get(unit.upper(), 0)
        for key, tables in (("centers", self.centres), ("homes", self.homes)):
            for power, listed in doc[key].items():
                numbers = tables.get(power, {})
                for loc in listed:
                    value ^= numbers.get(loc[:3].upper(), 0)
        return value


_TABLES: WeakKeyDictionary[Any, ZobristTables] = WeakKeyDictionary()


def tables_for(game_map: _MilaMap) -> ZobristTables:
    """The numbers of ``game_map`` (MILA's map view: the drop-in's ``game.map``), drawn once."""
    tables = _TABLES.get(game_map)
    if tables is None:
        tables = _TABLES[game_map] = ZobristTables(game_map)
    return tables


def zobrist_of(game_map: _MilaMap, doc: dict[str, Any]) -> int:
    """MILA's Zobrist hash of the state dictionary ``doc`` on ``game_map``."""
    return tables_for(game_map).hash_of(doc)
