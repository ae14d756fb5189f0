"""MILA's inner names that harnesses call (``Game._get_convoy_destinations``, ``Game.lost``),
worked out from the drop-in's board and MILA's map queries.

MILA lists convoy routes from its map: chains of at most 13 water locations (``WATER``, a
``PORT`` next to the army, or the start itself when it is a ``PORT``: reached from a sea, any
other port is a destination, the start is a carrier) from a coastal location to the coastal
locations next to the chain's last one, each destination kept with the smallest sets of
fleets that reach it; a route is possible when a fleet stands on every location of it. Facts
read in MILA's ``diplomacy/utils/convoy_paths.py`` and ``Game._build_list_possible_convoys``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from .._map import Map

if TYPE_CHECKING:
    from .powers import Power

__all__ = ["convoy_fleets", "convoy_reach", "convoyer_reach", "lost_centres"]

#: The longest chain of fleets MILA lists (``MAX_CONVOY_LENGTH``).
MAX_CHAIN: Final = 13
#: How many chains :func:`convoyer_reach` follows at most (a board with every fleet in one sea
#: area could have very many; MILA lists them all ahead, once per map).
_CHAIN_LIMIT: Final = 200_000
_COAST: Final = ("COAST", "PORT")
_WATER: Final = ("WATER", "PORT")


def convoy_fleets(game: Any) -> set[str]:
    """The locations of the fleets that may convoy: every fleet on a ``WATER`` or ``PORT``
    location (MILA's ``convoying_locs``)."""
    area = game.map.area_type
    out = set()
    for power in game.powers.values():
        for unit in power.units:
            if unit[0] == "F" and area(unit[2:]) in _WATER:
                out.add(unit[2:])
    return out


def _near(game_map: Map, loc: str) -> list[str]:
    return [n.upper() for n in game_map.abut_list(loc, incl_no_coast=True)]


def _is_coast(game_map: Map, loc: str) -> bool:
    return game_map.area_type(loc) in _COAST and "/" not in loc


def convoy_reach(game_map: Map, start: str, fleets: set[str]) -> set[str]:
    """The coastal locations an army at ``start`` reaches through chains of the ``fleets``."""
    if not _is_coast(game_map, start):
        return set()
    area = game_map.area_type
    first = [n for n in _near(game_map, start) if area(n) in _WATER and n in fleets]
    depth = {loc: 1 for loc in first}
    queue = list(first)
    out: set[str] = set()
    for loc in queue:
        for near in _near(game_map, loc):
            if _is_coast(game_map, near) and near != start:
                out.add(near)
            elif (
                area(near) in _WATER
                and near in fleets
                and near not in depth
                and depth[loc] < MAX_CHAIN
            ):
                depth[near] = depth[loc] + 1
                queue.append(near)
    return out


def _minimal_routes(game_map: Map, start: str, fleets: set[str]) -> dict[str, list[frozenset[str]]]:
    """Destination -> the smallest sets of ``fleets`` that carry an army from ``start`` there,
    as MILA lists its routes (breadth first; a set with a smaller one for the same destination
    is not a route)."""
    area = game_map.area_type
    routes: dict[str, list[frozenset[str]]] = {}
    level = [
        (frozenset((n,)), n) for n in _near(game_map, start) if area(n) in _WATER and n in fleets
    ]
    followed = 0
    while level:
        following = []
        for chain, last in level:
            followed += 1
            if followed > _CHAIN_LIMIT:
                return routes
            for near in _near(game_map, last):
                if _is_coast(game_map, near) and near != start:
                    kept = routes.setdefault(near, [])
                    if not any(r <= chain for r in kept):
                        kept.append(chain)
                elif (
                    area(near) in _WATER
                    and near in fleets
                    and near not in chain
                    and len(chain) < MAX_CHAIN
                ):
                    following.append((chain | {near}, near))
        level = following
    return routes


def convoyer_reach(game_map: Map, fleet: str, fleets: set[str]) -> set[str]:
    """Every coastal location some army reaches on a route of the ``fleets`` through the fleet
    at ``fleet`` (MILA's destinations with ``unit_is_convoyer``)."""
    if fleet not in fleets:
        return set()
    starts = {n for f in fleets for n in _near(game_map, f) if _is_coast(game_map, n)}
    out: set[str] = set()
    for start in sorted(starts):
        for dest, routes in _minimal_routes(game_map, start, fleets).items():
            if any(fleet in r for r in routes):
                out.add(dest)
    return out


def lost_centres(game: Any, history: Any, board: dict[str, Any]) -> dict[str, Power]:
    """The centres that changed hands as the game last went into a winter: centre -> its
    owner before (MILA's ``Game.lost``, reset at each change of hands); ``history`` is the
    game's histories (:class:`~.history.Histories`), ``board`` its current board as MILA's
    state lists."""
    records = history.records
    names = [r.name for r in records] + [game.get_current_phase()]
    for index in range(len(records) - 1, -1, -1):
        name, following = names[index], names[index + 1]
        if name[0] != "F" or (following[0] == "F" and following.endswith("R")):
            continue
        before = history.state_of(records[index])["centers"]
        if index + 1 < len(records):
            after = history.state_of(records[index + 1])["centers"]
        else:
            after = board["centers"]
        owner_after = {c: p for p, cs in after.items() for c in cs}
        return {
            c: game.powers[p]
            for p, cs in before.items()
            for c in _each(cs)
            if owner_after.get(c) not in (None, p)
        }
    return {}


def _each(items: Iterable[str]) -> list[str]:
    return list(items)
