"""MILA's lists and state dictionaries made by the engine: the tables a map needs for them
(:func:`engine_tables`) and the engine's lists of a board (:func:`engine_board`).

The rules are those of :mod:`~diplo.compat.mila.order` (MILA's order of the lists, its sticky
influence) and :mod:`~diplo.compat.mila.zobrist` (its hash), the readable reference; the engine
(``rust/src/engine/mila_lists.rs``) applies them on its indices and builds ``get_state``'s
dictionary in one call. The tables hand the engine MILA's facts of the map: its centres in
MILA's order, the rank of each retreat option among a location's neighbours (MILA's
``loc_abut``), the Zobrist numbers on the engine's indices and the homes. Lists naming what the
map does not have (a save's odd entry) stay in Python (:func:`engine_board` gives ``None``).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ...engine import mila as engine
from .order import Lists, initial_lists, neighbour_ranks
from .turn import Tables
from .zobrist import tables_for

__all__ = ["engine_board", "engine_tables", "python_lists"]

_TABLES: WeakKeyDictionary[Any, tuple[Tables, engine.MilaTables]] = WeakKeyDictionary()


def _ranks(mila_map: Any, locations: tuple[str, ...]) -> list[tuple[list[tuple[int, int]], int]]:
    """Per location, the ranks of its retreat options among MILA's neighbours of it (as
    :func:`~diplo.compat.mila.order.arrange` ranks them) and the rank of any other option."""
    index = {loc: i for i, loc in enumerate(locations)}
    out: list[tuple[list[tuple[int, int]], int]] = []
    neighbours = mila_map.loc_abut
    for site in locations:
        rank = neighbour_ranks(site, neighbours)
        known = [(index[name], r) for name, r in rank.items() if name in index]
        out.append((known, len(rank)))
    return out


def engine_tables(mila_map: Any, tables: Tables, core: engine.EngineGame) -> engine.MilaTables:
    """The engine's tables of ``mila_map`` (MILA's map view of the game, ``game.map``) over the
    map of ``tables`` (``core`` a game on it), made once per map."""
    kept = _TABLES.get(mila_map)
    if kept is not None and kept[0] is tables:
        return kept[1]
    locations, powers = tables.locations, tables.powers
    index = tables.map.location_index
    zobrist = tables_for(mila_map)
    units: list[int] = []
    dislodged: list[int] = []
    for power in powers:
        for kind in "AF":
            mine, gone = zobrist.units.get(power, {}), zobrist.dislodged.get(power, {})
            units.extend(mine.get(f"{kind} {loc}", 0) for loc in locations)
            dislodged.extend(gone.get(f"{kind} {loc}", 0) for loc in locations)
    centres: list[int] = []
    homes: list[int] = []
    for power in powers:
        centres.extend(zobrist.centres.get(power, {}).get(loc[:3], 0) for loc in locations)
        homes.extend(zobrist.homes.get(power, {}).get(loc[:3], 0) for loc in locations)
    scs = [index[sc.upper()] for sc in mila_map.scs if sc.upper() in index]
    home_lists = [[index[h] for h in tables.map.homes.get(p, ())] for p in powers]
    made = engine.MilaTables(
        core, scs, _ranks(mila_map, locations), (units, dislodged, centres, homes), home_lists
    )
    _TABLES[mila_map] = (tables, made)
    return made


def engine_board(made: engine.MilaTables, lists: Lists) -> engine.MilaBoard | None:
    """The engine's form of ``lists`` (``None`` when they name what the map does not have)."""
    return engine.MilaBoard.of_lists(
        made, lists.units, lists.dislodged, lists.centers, lists.influence
    )


_INITIAL: WeakKeyDictionary[Any, tuple[engine.MilaTables, engine.MilaBoard | None]] = (
    WeakKeyDictionary()
)


def initial_board(
    mila_map: Any, made: engine.MilaTables, powers: tuple[str, ...]
) -> engine.MilaBoard | None:
    """The engine's lists of a new game on ``mila_map`` (its units and centres in the map's
    order), made once per map and shared by its new games (the engine's boards are not
    changed: each phase makes a new one); ``None`` when the engine cannot hold them."""
    kept = _INITIAL.get(mila_map)
    if kept is not None and kept[0] is made:
        return kept[1]
    board = engine_board(made, initial_lists(mila_map.units, mila_map.centers, powers))
    _INITIAL[mila_map] = (made, board)
    return board


def python_lists(made: engine.MilaTables, board: engine.MilaBoard) -> Lists:
    """The lists of the engine's ``board`` as :class:`~diplo.compat.mila.order.Lists`."""
    return Lists(*board.lists(made))
