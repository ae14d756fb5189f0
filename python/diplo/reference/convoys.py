"""Convoy geometry: which seas could ever carry an army from one coast to another.

These are questions about the map and the fleets on it, not about orders: validation asks them
(is this convoyed move, this convoy order, this support possible at all?) and so does legal-order
generation, both through one :class:`ConvoyTable` per set of seas holding a fleet. Whether a
convoy actually carries an army depends on the other orders and is the resolver's business.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from ..model.map import Map

_EMPTY: frozenset[str] = frozenset()
_CACHE_SIZE = 256  # convoy tables kept per map (one per set of seas holding a fleet)


class _Geometry:
    """What convoys need to know about a map, computed once per map.

    A convoy runs between coastal provinces that touch a sea (``shore_seas``), through seas
    (and ports: every province where :meth:`Map.may_convoy`).
    """

    def __init__(self, game_map: Map) -> None:
        provinces = game_map.provinces
        seas = frozenset(p for p in provinces if game_map.may_convoy(p))
        self.shore_seas: dict[str, frozenset[str]] = {
            p: game_map.sea_neighbours(p)
            for p in provinces
            if game_map.is_coastal(p) and game_map.sea_neighbours(p)
        }
        self.sea_adj: dict[str, frozenset[str]] = {
            s: frozenset(n for n in game_map.fleet_neighbours(s) if n in seas) for s in seas
        }
        self.sea_shores: dict[str, frozenset[str]] = {
            s: frozenset(
                game_map.province_of(n)
                for n in game_map.fleet_neighbours(s)
                if game_map.province_of(n) in self.shore_seas
            )
            for s in seas
        }
        self.tables: OrderedDict[frozenset[str], ConvoyTable] = OrderedDict()


_GEOMETRY: WeakKeyDictionary[Map, _Geometry] = WeakKeyDictionary()


def convoy_table(game_map: Map, fleets: Collection[str]) -> ConvoyTable:
    """The convoy answers for ``fleets`` (the sea provinces holding a fleet), cached per map in a
    small LRU: they depend on nothing else (DATC 6.D.32: routes run only through fleets)."""
    geometry = _GEOMETRY.get(game_map)
    if geometry is None:
        geometry = _GEOMETRY[game_map] = _Geometry(game_map)
    key = fleets if isinstance(fleets, frozenset) else frozenset(fleets)
    tables = geometry.tables
    table = tables.get(key)
    if table is None:
        table = tables[key] = ConvoyTable(geometry, key)
        if len(tables) > _CACHE_SIZE:
            tables.popitem(last=False)
    else:
        tables.move_to_end(key)
    return table


def shores(game_map: Map) -> frozenset[str]:
    """The provinces a convoy can start from or land on: coastal, touching a sea."""
    convoy_table(game_map, _EMPTY)
    return frozenset(_GEOMETRY[game_map].shore_seas)


def sea_route_exists(
    game_map: Map, src: str, dst: str, fleets: Collection[str], avoid: str | None = None
) -> bool:
    """Whether a chain of seas holding fleets links coastal ``src`` to coastal ``dst``.

    ``fleets`` are the sea provinces with a fleet in them: DATC 6.D.32 makes a convoyed move
    illegal when the fleets on the board could not carry it, whatever they are ordered.
    DATC 6.D.31: a fleet cannot both convoy an army and support that army's move, so a support
    of a convoyed move is only possible when a route exists without the supporter (``avoid``).
    """
    return dst in convoy_table(game_map, fleets).reach(src, avoid)


def route_fleets(game_map: Map, src: str, dst: str, fleets: Collection[str]) -> frozenset[str]:
    """The seas of ``fleets`` that lie on some *minimal* convoy route from ``src`` to ``dst``.

    DATC 4.E.1 and 6.G.19: a convoy order by a fleet that is not necessary for any route is
    illegal. A route is minimal when no proper subset of its seas is also a route, which is the
    same as being an induced path: no sea touches the army's province except the first, none
    touches the destination except the last, and no two seas touch unless they follow each other.
    An empty answer means no convoy from ``src`` to ``dst`` is possible at all.
    """
    return convoy_table(game_map, fleets).route_seas(src).get(dst, _EMPTY)


class ConvoyTable:
    """Convoy answers for one set of seas holding fleets, computed on demand and kept.

    ``reach(src, avoid)`` answers :func:`sea_route_exists` for every destination at once;
    ``route_seas(src)`` answers :func:`route_fleets` for every destination at once. Validation
    asks one destination, legal-order generation all of them: both read the same table.
    """

    def __init__(self, tables: _Geometry, fleets: frozenset[str]) -> None:
        self.tables = tables
        self.fleets = fleets
        self.adj: dict[str, frozenset[str]] = {s: tables.sea_adj[s] & fleets for s in fleets}
        self._reach: dict[tuple[str, str | None], frozenset[str]] = {}
        self._routes: dict[str, dict[str, frozenset[str]]] = {}

    def reach(self, src: str, avoid: str | None = None) -> frozenset[str]:
        """Coastal provinces an army in ``src`` could be convoyed to over seas holding fleets,
        never through ``avoid`` (DATC 6.D.32; 6.D.31 for the avoided supporter)."""
        key = (src, avoid)
        found = self._reach.get(key)
        if found is None:
            found = self._compute_reach(src, avoid)
            self._reach[key] = found
        return found

    def _compute_reach(self, src: str, avoid: str | None) -> frozenset[str]:
        shore = self.tables.shore_seas.get(src)
        if not shore:
            return _EMPTY
        seen = {s for s in shore & self.fleets if s != avoid}
        frontier = list(seen)
        while frontier:
            nxt: list[str] = []
            for sea in frontier:
                for other in self.adj[sea]:
                    if other not in seen and other != avoid:
                        seen.add(other)
                        nxt.append(other)
            frontier = nxt
        dests: set[str] = set()
        sea_shores = self.tables.sea_shores
        for sea in seen:
            dests |= sea_shores[sea]
        dests.discard(src)
        return frozenset(dests)

    def route_seas(self, src: str) -> dict[str, frozenset[str]]:
        """Per destination, the seas lying on some minimal convoy route from ``src`` (DATC 4.E.1,
        6.G.19: only such a fleet may legally convoy). Destinations without a route are absent."""
        found = self._routes.get(src)
        if found is None:
            useful: dict[str, set[str]] = {}
            for path in self._induced_paths(src):
                for dst in path.ends:
                    useful.setdefault(dst, set()).update(path.seas)
            found = {dst: frozenset(seas) for dst, seas in useful.items()}
            self._routes[src] = found
        return found

    def minimal_routes(self, src: str, dst: str) -> list[tuple[str, ...]]:
        """Every minimal convoy route from ``src`` to ``dst``, shortest first."""
        routes = [p.seas for p in self._induced_paths(src) if dst in p.ends]
        routes.sort(key=lambda r: (len(r), r))
        return routes

    def _induced_paths(self, src: str) -> list[_Path]:
        """Every chain of fleet seas that is a minimal route to at least one destination.

        A route is minimal when no proper subset of its seas is a route (see
        :func:`route_fleets`): only its first sea touches ``src``, no two of its seas
        touch unless consecutive, and only its last sea touches the destination. So one
        depth-first walk over such chains answers for every destination: a chain is a minimal
        route to each shore its last sea touches and no earlier sea (nor ``src``) does.
        """
        shore = self.tables.shore_seas.get(src)
        if not shore:
            return []
        src_seas = shore & self.fleets
        adj = self.adj
        sea_shores = self.tables.sea_shores
        out: list[_Path] = []

        def walk(path: tuple[str, ...], blocked: frozenset[str], touched: frozenset[str]) -> None:
            last = path[-1]
            shores = sea_shores[last]
            ends = shores - touched
            if ends:
                out.append(_Path(path, ends))
            touched = touched | shores
            for nxt in adj[last]:
                if nxt not in blocked and nxt not in src_seas and nxt not in path:
                    walk((*path, nxt), blocked | adj[last], touched)

        for first in sorted(src_seas):
            walk((first,), frozenset((first,)), frozenset((src,)))
        return out


@dataclass(frozen=True, slots=True)
class _Path:
    seas: tuple[str, ...]
    ends: frozenset[str]
