"""Convoy geometry: which seas could ever carry an army from one coast to another.

These are questions about the map and the fleets on it, not about orders: validation asks them
(is this convoyed move, this convoy order, this support possible at all?) and so does the
legal-order listing, both through one :class:`ConvoyTable` per set of seas holding a fleet.
Whether a convoy actually carries an army depends on the other orders and is the resolver's
business.

Every answer is a breadth-first search over the fleets at sea, so each costs time polynomial in
the map (no convoy route is ever enumerated):

* **reach** (DATC 6.D.32): an army in ``src`` can be convoyed to ``dst`` when a chain of seas
  holding fleets, each next to the one before, runs from a sea touching ``src`` to a sea
  touching ``dst``;
* **necessary fleets** (DATC 4.E.1, 6.G.19: a fleet no route needs cannot legally convoy): a
  fleet may convoy an army from ``src`` to ``dst`` when it lies on a *minimal* route (no proper
  subset of its seas is a route: a chain of seas whose first alone touches ``src``, whose last
  alone touches ``dst``, and no two of which touch unless they follow each other, a chordless
  chain). Deciding that for one sea is NP-complete on arbitrary maps, so it is decided by
  listing the chordless chains only on maps whose seas form at most :data:`MAX_SEA_CHAINS` of
  them (standard 375, ancmed 954, MILA's colonial 5,635 and known_world_901 34,094, but not
  MILA's world, 193,343), which bounds the work: the bound on which the engine is to refuse a
  map. On a map with more (a grid of seas has
  millions), a fleet may convoy when it lies on a *shortest* chain between a pair of *end seas*
  (a first sea touching ``src`` and not ``dst``, a last sea touching ``dst`` and not ``src``)
  through seas touching neither end, or alone touches both: two breadth-first searches per
  pair. Every such chain is a minimal route, so this never admits a fleet 6.G.19 rejects; it
  leaves out the fleets lying only on longer chordless chains between the same end seas.

Which provinces a fleet may convoy from is :func:`convoy_provinces` (the seas, DATC 6.F.1, and
ports: :meth:`Map.may_convoy`). Under MILA's rule ``port_convoy="first"``
(:attr:`diplo.model.rules.Rules.port_convoy`, every function's ``port_first``) a port's fleet is
a link of a chain only as its first (MILA's ``utils/convoy_paths.py``): no chain passes on to a
port, so the links are one-way into the seas; but a chain from a port holding a fleet may pass
back on to that fleet and so to the port's shores (MILA's search queues its start, a port, as a
carrier), which only routes read from a destination back to an army meet (an army's own
province holds no fleet).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterator
from weakref import WeakKeyDictionary

from ..model.map import Map
from ..model.position import Position

_EMPTY: frozenset[str] = frozenset()
_CACHE_SIZE = 256  # convoy tables kept per map (one per set of seas holding a fleet)
#: The most chordless chains of seas a map may have for the minimal routes to be listed (see the
#: module docstring). The engine lists the same chains and is to refuse maps with more (issue 20:
#: ``MAX_SEA_CHAINS`` in ``rust/src/engine/game_map.rs``): keep the two equal, so that both
#: engines decide the same way on every map both play.
MAX_SEA_CHAINS = 500_000


def convoying_fleets(position: Position) -> frozenset[str]:
    """The provinces of ``position`` holding a fleet that may convoy (a fleet at sea or in a
    port): the only places a convoy route can run through (DATC 6.D.32)."""
    game_map = position.map
    return frozenset(
        prov
        for prov, piece in position.units.items()
        if piece.type == "F" and game_map.may_convoy(prov)
    )


def convoy_provinces(game_map: Map) -> frozenset[str]:
    """The provinces from which a fleet may convoy (DATC 6.F.1: the seas; and the ports of a map
    that has them, :meth:`Map.may_convoy`, the one rule of it)."""
    return frozenset(p for p in game_map.provinces if game_map.may_convoy(p))


class _Geometry:
    """What convoys need to know about a map, computed once per map.

    A convoy runs between coastal provinces that touch a convoying province (``shore_seas``),
    through convoying provinces (``sea_adj``): seas and ports (:func:`convoy_provinces`).
    """

    def __init__(self, game_map: Map, port_first: bool = False) -> None:
        seas = convoy_provinces(game_map)
        #: The ports no chain passes on to (``port_convoy="first"``), else none.
        self.barred = game_map.ports if port_first else _EMPTY
        self.seas = seas
        # Map.sea_neighbours: the convoying provinces a province borders (a port is a shore too).
        self.shore_seas: dict[str, frozenset[str]] = {
            p: game_map.sea_neighbours(p)
            for p in game_map.provinces
            if game_map.is_coastal(p) and game_map.sea_neighbours(p)
        }
        # Two-way links only (Map.convoy_links): a one-way fleet edge carries no army.
        links = {s: frozenset(n for n in game_map.convoy_links(s) if n in seas) for s in seas}
        self.sea_adj: dict[str, frozenset[str]] = {s: n - self.barred for s, n in links.items()}
        self.sea_shores: dict[str, frozenset[str]] = {
            s: frozenset(n for n in game_map.convoy_links(s) if n in self.shore_seas) for s in seas
        }
        self.tables: OrderedDict[frozenset[str], ConvoyTable] = OrderedDict()
        #: Whether minimal routes are listed on this map (few enough chains), see the module
        #: docstring; else the shortest chains between end seas decide.
        self.exact = sea_chains(links, MAX_SEA_CHAINS) is not None


def sea_chains(sea_adj: dict[str, frozenset[str]], limit: int) -> int | None:
    """The number of chordless chains of seas (paths none of whose seas touches another of the
    path but its neighbours on it, counted from each end and one sea alone), or ``None`` once
    there are more than ``limit``. Every minimal convoy route on any board is such a chain."""
    stack = [(sea, frozenset((sea,)), frozenset((sea,))) for sea in sea_adj]
    count = 0
    while stack:
        last, path, blocked = stack.pop()
        count += 1
        if count > limit:
            return None
        later = blocked | sea_adj[last]
        for sea in sea_adj[last] - blocked - path:
            stack.append((sea, path | {sea}, later))
    return count


_GEOMETRY: WeakKeyDictionary[Map, dict[bool, _Geometry]] = WeakKeyDictionary()


def _geometry(game_map: Map, port_first: bool = False) -> _Geometry:
    kinds = _GEOMETRY.get(game_map)
    if kinds is None:
        kinds = _GEOMETRY[game_map] = {}
    geometry = kinds.get(port_first)
    if geometry is None:
        geometry = kinds[port_first] = _Geometry(game_map, port_first)
    return geometry


#: The table last returned, with the map and the very ``fleets`` object it was asked for:
#: validation asks with one frozenset for a whole phase (every army's move and support), and
#: the lookup below is most of what such a question costs. It is also the LRU's newest entry.
_last: tuple[Map, Collection[str], bool, ConvoyTable] | None = None


def convoy_table(game_map: Map, fleets: Collection[str], port_first: bool = False) -> ConvoyTable:
    """The convoy answers for ``fleets`` (the sea provinces holding a fleet), cached per map (and
    ``port_first``, MILA's ``port_convoy="first"``) in a small LRU: they depend on nothing else
    (DATC 6.D.32: routes run only through fleets)."""
    global _last
    last = _last
    if last is not None and last[1] is fleets and last[0] is game_map and last[2] is port_first:
        return last[3]
    geometry = _geometry(game_map, port_first)
    key = fleets if isinstance(fleets, frozenset) else frozenset(fleets)
    tables = geometry.tables
    table = tables.get(key)
    if table is None:
        table = tables[key] = ConvoyTable(geometry, key & geometry.seas)
        if len(tables) > _CACHE_SIZE:
            tables.popitem(last=False)
    else:
        tables.move_to_end(key)
    if key is fleets:  # only a frozenset cannot change after it was looked up
        _last = (game_map, fleets, port_first, table)
    return table


def shores(game_map: Map) -> frozenset[str]:
    """The provinces a convoy can start from or land on: coastal, touching a convoying sea."""
    return frozenset(_geometry(game_map).shore_seas)


def sea_route_exists(
    game_map: Map,
    src: str,
    dst: str,
    fleets: Collection[str],
    avoid: str | None = None,
    port_first: bool = False,
) -> bool:
    """Whether a chain of seas holding fleets links coastal ``src`` to coastal ``dst``.

    ``fleets`` are the sea provinces with a fleet in them: DATC 6.D.32 makes a convoyed move
    illegal when the fleets on the board could not carry it, whatever they are ordered.
    DATC 6.D.31: a fleet cannot both convoy an army and support that army's move, so a support
    of a convoyed move is only possible when a route exists without the supporter (``avoid``).
    """
    return dst in convoy_table(game_map, fleets, port_first).reach(src, avoid)


def route_fleets(
    game_map: Map, src: str, dst: str, fleets: Collection[str], port_first: bool = False
) -> frozenset[str]:
    """The fleets of ``fleets`` necessary for the convoy of an army from ``src`` to ``dst`` (see
    the module docstring): those that may legally convoy it (DATC 4.E.1, 6.G.19). An empty
    answer means no convoy from ``src`` to ``dst`` is possible at all."""
    return convoy_table(game_map, fleets, port_first).necessary(src, dst)


def _distances(
    adj: dict[str, frozenset[str]], start: str, allowed: Collection[str]
) -> dict[str, int]:
    """Breadth-first distances from ``start`` over the seas of ``allowed`` (``start`` itself may
    lie outside it: it is where the walk begins, never a step)."""
    dist = {start: 0}
    frontier = [start]
    step = 0
    while frontier:
        step += 1
        nxt: list[str] = []
        for sea in frontier:
            for other in adj[sea]:
                if other not in dist and other in allowed:
                    dist[other] = step
                    nxt.append(other)
        frontier = nxt
    return dist


class ConvoyTable:
    """Convoy answers for one set of seas holding fleets, computed on demand and kept.

    ``reach(src, avoid)`` answers :func:`sea_route_exists` for every destination at once;
    ``route_seas(src)`` answers :func:`route_fleets` for every destination at once (what the
    listing reads) and ``necessary(src, dst)`` for one (what validation asks): one computation.
    """

    def __init__(self, tables: _Geometry, fleets: frozenset[str]) -> None:
        self.tables = tables
        self.fleets = fleets
        self.adj: dict[str, frozenset[str]] = {s: tables.sea_adj[s] & fleets for s in fleets}
        self._reach: dict[tuple[str, str | None], frozenset[str]] = {}
        self._necessary: dict[tuple[frozenset[str], frozenset[str]], frozenset[str]] = {}
        self._routes: dict[str, dict[str, frozenset[str]]] = {}
        self._dist: dict[tuple[str, frozenset[str]], dict[str, int]] = {}
        self._minimal: dict[str, dict[str, frozenset[str]]] = {}

    def reach(self, src: str, avoid: str | None = None) -> frozenset[str]:
        """Coastal provinces an army in ``src`` could be convoyed to over seas holding fleets,
        never through ``avoid`` (DATC 6.D.32; 6.D.31 for the avoided supporter)."""
        if avoid is not None and avoid not in self.fleets:
            avoid = None  # avoiding a sea without a fleet changes nothing
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
        sea_shores = self.tables.sea_shores
        if (
            src in self.tables.barred
            and src in self.fleets
            and src != avoid
            and seen & self.adj[src]
        ):
            # MILA's routes from a port holding a fleet (the destination of a support it lists,
            # read back to the army): a sea of the chain passes back on to the start port's own
            # fleet, which carries on to the port's shores (utils/convoy_paths.py queues the
            # start as a carrier where any other port is a destination).
            seen.add(src)
        dests: set[str] = set()
        for sea in seen:
            dests |= sea_shores[sea]
        dests.discard(src)
        return frozenset(dests)

    def _touching(self, prov: str) -> frozenset[str]:
        """The fleets an army in (or landing in) ``prov`` could board from (or land from)."""
        return self.tables.shore_seas.get(prov, _EMPTY) & self.fleets

    def _from(self, start: str, corridor: frozenset[str]) -> dict[str, int]:
        key = (start, corridor)
        found = self._dist.get(key)
        if found is None:
            found = self._dist[key] = _distances(self.adj, start, corridor)
        return found

    def _pairs(
        self, first: frozenset[str], last: frozenset[str]
    ) -> Iterator[tuple[str, str, int, dict[str, int], dict[str, int]]]:
        """Every pair of end seas (one of ``first`` not in ``last``, one of ``last`` not in
        ``first``) joined by a chain through the corridor (the fleets in neither), with the
        chain's shortest length (in steps) and the distances from either end over the
        corridor."""
        # (a port, under port_first, ends no chain it does not begin)
        starts, ends = first - last, last - first - self.tables.barred
        if not starts or not ends:
            return
        corridor = self.fleets - first - last
        for a in sorted(starts):
            from_a = self._from(a, corridor)
            for b in sorted(ends):
                if b in self.adj[a]:
                    yield a, b, 1, from_a, {b: 0}
                    continue
                steps = [from_a[u] for u in self.adj[b] if u in from_a and u != a]
                if steps:
                    yield a, b, min(steps) + 1, from_a, self._from(b, corridor)

    def necessary(self, src: str, dst: str) -> frozenset[str]:
        """The fleets that may convoy an army from ``src`` to ``dst`` (module docstring)."""
        if src == dst:
            return _EMPTY
        if self.tables.exact:
            return self._minimal_fleets(src).get(dst, _EMPTY)
        # The answer depends only on the fleets touching either end: kept by those.
        key = (self._touching(src), self._touching(dst))
        found = self._necessary.get(key)
        if found is None:
            found = self._necessary[key] = self._compute_necessary(*key)
        return found

    def _compute_necessary(self, first: frozenset[str], last: frozenset[str]) -> frozenset[str]:
        useful = set(first & last)  # a sea touching both ends is a route by itself
        for a, b, length, from_a, from_b in self._pairs(first, last):
            useful.add(a)
            useful.add(b)
            for sea, da in from_a.items():
                db = from_b.get(sea)
                if db is not None and da + db == length:
                    useful.add(sea)
        return frozenset(useful)

    def route_seas(self, src: str) -> dict[str, frozenset[str]]:
        """Per destination, the fleets that may convoy an army from ``src`` there (DATC 4.E.1,
        6.G.19). Destinations without a route are absent."""
        found = self._routes.get(src)
        if found is None:
            found = {dst: self.necessary(src, dst) for dst in self.reach(src)}
            self._routes[src] = found
        return found

    def minimal_routes(self, src: str, dst: str) -> list[tuple[str, ...]]:
        """Minimal routes from ``src`` to ``dst``, shortest first (the convoy diagnostic shows
        them): every one where they are listed, else one shortest per pair of end seas (module
        docstring)."""
        if src == dst:
            return []
        if self.tables.exact:
            routes = [seas for seas, ends in self._chains(src) if dst in ends]
            routes.sort(key=lambda r: (len(r), r))
            return routes
        first, last = self._touching(src), self._touching(dst)
        routes = [(s,) for s in sorted(first & last)]
        for a, b, length, from_a, from_b in self._pairs(first, last):
            route = [a]
            for i in range(1, length):
                # The first (by name) neighbour one step further on a shortest chain.
                route.append(
                    min(
                        s
                        for s in self.adj[route[-1]]
                        if from_a.get(s) == i and from_b.get(s) == length - i
                    )
                )
            route.append(b)
            routes.append(tuple(route))
        routes.sort(key=lambda r: (len(r), r))
        return routes

    def _minimal_fleets(self, src: str) -> dict[str, frozenset[str]]:
        """Per destination, the fleets on some minimal route from ``src`` (maps with few enough
        chains only, see the module docstring)."""
        found = self._minimal.get(src)
        if found is None:
            useful: dict[str, set[str]] = {}
            for seas, ends in self._chains(src):
                for dst in ends:
                    useful.setdefault(dst, set()).update(seas)
            found = self._minimal[src] = {d: frozenset(f) for d, f in useful.items()}
        return found

    def _chains(self, src: str) -> list[tuple[tuple[str, ...], frozenset[str]]]:
        """Every chain of fleet seas that is a minimal route from ``src`` to some destination,
        with those destinations: only its first sea touches ``src``, no two of its seas touch
        unless consecutive, and it ends at each shore its last sea touches and no earlier sea
        (nor ``src``) does. A walk on an explicit stack, at most as long as the map's chains."""
        first = self._touching(src)
        adj = self.adj
        sea_shores = self.tables.sea_shores
        out: list[tuple[tuple[str, ...], frozenset[str]]] = []
        # (the chain, the seas no later step may take, the shores touched before its last sea)
        stack: list[tuple[tuple[str, ...], frozenset[str], frozenset[str]]] = [
            ((sea,), frozenset((sea,)), frozenset((src,))) for sea in sorted(first)
        ]
        while stack:
            path, blocked, touched = stack.pop()
            last = path[-1]
            shores = sea_shores[last]
            ends = shores - touched
            if ends:
                out.append((path, ends))
            touched = touched | shores
            later = blocked | adj[last]
            for sea in adj[last]:
                if sea not in blocked and sea not in first and sea not in path:
                    stack.append(((*path, sea), later, touched))
        return out
