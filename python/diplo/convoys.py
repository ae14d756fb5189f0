"""Convoy geometry: which seas could ever carry an army from one coast to another.

These are questions about the map alone, asked by validation (is this convoyed move, this
convoy order, this support possible at all?) and by legal-order generation. Whether a convoy
actually carries an army depends on the other orders and is the resolver's business.
"""

from __future__ import annotations

from collections.abc import Collection
from weakref import WeakKeyDictionary

from .map import Map

_RouteKey = tuple[str, str, frozenset[str]]
_ROUTE_FLEETS: WeakKeyDictionary[Map, dict[_RouteKey, frozenset[str]]] = WeakKeyDictionary()


def _convoy_ends(game_map: Map, src: str, dst: str) -> bool:
    return (
        src != dst
        and game_map.is_coastal(src)
        and game_map.is_coastal(dst)
        and bool(game_map.sea_neighbours(src))
        and bool(game_map.sea_neighbours(dst))
    )


def sea_route_exists(
    game_map: Map, src: str, dst: str, fleets: Collection[str], avoid: str | None = None
) -> bool:
    """Whether a chain of seas holding fleets links coastal ``src`` to coastal ``dst``.

    ``fleets`` are the sea provinces with a fleet in them: DATC 6.D.32 makes a convoyed move
    illegal when the fleets on the board could not carry it, whatever they are ordered.
    DATC 6.D.31: a fleet cannot both convoy an army and support that army's move, so a support
    of a convoyed move is only possible when a route exists without the supporter (``avoid``).
    """
    if not _convoy_ends(game_map, src, dst):
        return False
    start = [s for s in game_map.sea_neighbours(src) if s != avoid and s in fleets]
    seen = set(start)
    frontier = start
    while frontier:
        nxt: list[str] = []
        for sea in frontier:
            if dst in _sea_touches(game_map, sea):
                return True
            for other in game_map.fleet_neighbours(sea):
                if other not in seen and other != avoid and other in fleets:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return False


def _sea_touches(game_map: Map, sea: str) -> frozenset[str]:
    return frozenset(game_map.province_of(loc) for loc in game_map.fleet_neighbours(sea))


def route_fleets(game_map: Map, src: str, dst: str, fleets: frozenset[str]) -> frozenset[str]:
    """The seas of ``fleets`` that lie on some *minimal* convoy route from ``src`` to ``dst``.

    ``fleets`` are the sea provinces holding a fleet: routes run only through them (DATC 6.D.32).

    DATC 4.E.1 and 6.G.19: a convoy order by a fleet that is not necessary for any route is
    illegal. A route is minimal when no proper subset of its seas is also a route, which is the
    same as being an induced path: no sea touches the army's province except the first, none
    touches the destination except the last, and no two seas touch unless they follow each other.
    An empty answer means no convoy from ``src`` to ``dst`` is possible at all.
    """
    cache = _ROUTE_FLEETS.setdefault(game_map, {})
    key = (src, dst, fleets)
    found = cache.get(key)
    if found is None:
        if len(cache) > 100_000:
            cache.clear()
        ends = _convoy_ends(game_map, src, dst)
        found = _minimal_route_seas(game_map, src, dst, fleets) if ends else frozenset()
        cache[key] = found
    return found


def _minimal_route_seas(
    game_map: Map, src: str, dst: str, fleets: frozenset[str]
) -> frozenset[str]:
    src_seas = game_map.sea_neighbours(src) & fleets
    dst_seas = game_map.sea_neighbours(dst) & fleets
    sea_adj = {sea: game_map.fleet_neighbours(sea) & fleets for sea in fleets}
    useful: set[str] = set()

    def extend(path: list[str], blocked: frozenset[str]) -> None:
        last = path[-1]
        if last in dst_seas:
            # The route ends here; going on would make `last` a shortcut to the destination.
            useful.update(path)
            return
        for nxt in sea_adj[last]:
            # `blocked` holds every sea touching an earlier member of the path (or the army's
            # province): stepping onto one would leave a chord, i.e. a shorter route.
            if nxt not in path and nxt not in blocked and nxt not in src_seas:
                extend([*path, nxt], blocked | sea_adj[last])

    for first in src_seas:
        extend([first], frozenset({first}))
    return frozenset(useful)
