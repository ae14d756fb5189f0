"""Where every province of a map is drawn.

A map may ship a geometry file beside it (``diplo/data/<map>.geometry.json``, format
``diplo-geometry``): sites given as [longitude, latitude] of the real places, one or more per
province, projected onto the page; each province is drawn as the Voronoi cells of its sites. A map
without one gets a schematic computed from its adjacency graph (:func:`graph_layout`: stress
majorisation of the graph distances from a fixed start, so the same map always gives the same
picture). The map loader never reads these files.
"""

from __future__ import annotations

import json
import math
import re
import weakref
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..model.map import SHIPPED_MAPS, Map, shipped_map
from .voronoi import FRAME, Point, area, cells

__all__ = ["Border", "Geometry", "GeometryError", "geometry_for", "graph_layout", "load_geometry"]

WIDTH = 1150.0
FORMAT = "diplo-geometry"
#: The largest page, either way: a frame that would draw taller (or wider) is refused, so that no
#: picture and no Voronoi grid grows without bound (the shipped pages are at most 4054 wide).
MAX_PAGE = 10000.0
#: The most sites a geometry may give, all provinces and impassable places together (the
#: shipped ones give at most about 24,000).
MAX_SITES = 100_000


class GeometryError(ValueError):
    """A geometry file that does not fit its map; the message names the entry."""


@dataclass(frozen=True)
class Border:
    """One straight piece of border between two provinces (or a province and the frame)."""

    a: Point
    b: Point
    kind: str  # "land" (both land), "coast" (land and sea or off the board), "sea" (both sea)
    between: tuple[str, str]  # the two provinces ("#name" for impassable land)


Label = tuple[float, float, float]  # a name's centre (x, y) and its font size


@dataclass
class Geometry:
    """Page coordinates for one map: unit anchors, province shapes and their borders."""

    width: float
    height: float
    anchors: dict[str, Point]  # location (province or coast) -> where its unit stands
    shapes: dict[str, list[list[Point]]]  # province -> polygons
    borders: list[Border]
    impassable: list[list[Point]] = field(default_factory=list)
    schematic: bool = False  # True when computed from the graph, not read from a file
    labels: dict[str, Label] = field(default_factory=dict)  # province -> its name's place
    # A name may stand just outside a province too small for it beside its unit (an island on
    # a map drawn from a picture's plane), clear of every unit, dot and name.
    spill_labels: bool = False


# Where a picture may put things around a location's anchor (see ``render/svg.py``): the unit
# (and the ring of a hold) within ``UNIT_R``; a unit dislodged from the province at ``ASIDE``;
# a supply centre's dot at ``DOT``; a port's mark at ``PORT``. Labels are placed clear of all
# of them.
UNIT_R = 13.5
ASIDE = (15.0, 17.0)
DOT = (15.0, -12.0)
DOT_R = 5.5
PORT = (-15.0, -8.0)  # the port mark (render/svg.py: a ring and an arc left of the unit)
PORT_R = 7.0
LABEL_SIZE = 10.0  # font size of a province's name (smaller only where it would not fit)
_SMALLER = (8.0, 6.5)


def label_box(
    name: str, centre: Point, size: float = LABEL_SIZE
) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) a province's name takes at ``size`` centred on ``centre``."""
    half = 0.36 * size * len(name) + 1.0
    tall = 0.55 * size
    return (centre[0] - half, centre[1] - tall, centre[0] + half, centre[1] + tall)


# --------------------------------------------------------------------------- loading

# Held by the map object itself (weakly): an entry lives exactly as long as its map, so a
# later map can never be drawn with an earlier one's geometry (as an ``id()`` key allowed).
_CACHE: weakref.WeakKeyDictionary[Map, Geometry] = weakref.WeakKeyDictionary()
# A map's name becomes a file name only when it is a plain word: never a path.
_DATA_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def geometry_for(game_map: Map) -> Geometry:
    """The geometry of ``game_map``: its data file when one ships, else the graph layout.

    A shipped geometry is read for the shipped map of that name, and for a map of one's own
    (a map file) of the same name only when it has exactly the shipped map's places: any other
    map named like a shipped one (a ``canton`` of one's own) is drawn as a schematic."""
    cached = _CACHE.get(game_map)
    if cached is not None:
        return cached
    data = _shipped(game_map.name)
    geometry: Geometry | None = None
    if data is not None and _is_shipped(game_map):
        geometry = load_geometry(data, game_map)
    elif data is not None and set(data["provinces"]) == set(game_map.locations):
        try:
            geometry = load_geometry(data, game_map)
        except GeometryError:
            geometry = None
    if geometry is None:
        geometry = _standard_board(game_map) or schematic(game_map)
    _CACHE[game_map] = geometry
    return geometry


def _is_shipped(game_map: Map) -> bool:
    """Whether ``game_map`` is the map shipped under its name (not a file of one's own)."""
    return game_map.name in SHIPPED_MAPS and shipped_map(game_map.name) is game_map


def _standard_board(game_map: Map) -> Geometry | None:
    """A variant played on the standard board (same provinces and coasts, other powers or
    units) is drawn with the standard geometry."""
    if game_map.name == "standard":
        return None
    data = _shipped("standard")
    if data is None or set(data["provinces"]) != set(game_map.locations):
        return None
    try:
        return load_geometry(data, game_map)
    except GeometryError:
        return None


def _shipped(name: str) -> dict[str, Any] | None:
    """The geometry shipped in the package's data for a map called ``name``, if any. Only a
    plain name is looked up (``../x`` or ``/etc/x`` never is), so no file outside the
    package's data is ever read."""
    if _DATA_NAME.fullmatch(name) is None:
        return None
    resource = resources.files("diplo.data").joinpath(f"{name}.geometry.json")
    if not resource.is_file():
        return None
    loaded: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return loaded


def load_geometry(source: Mapping[str, Any] | str | Path, game_map: Map) -> Geometry:
    """Read a geometry document (a parsed one or a path) and check it against ``game_map``."""
    if isinstance(source, str | Path):
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise GeometryError(f"{source}: {exc}") from exc
    else:
        data = source
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise GeometryError(f"not a {FORMAT} document")
    frame = data.get("frame")
    raw = data.get("provinces")
    if not isinstance(frame, Mapping) or not isinstance(raw, Mapping):
        raise GeometryError("a geometry needs 'frame' and 'provinces'")
    extra = data.get("impassable") or {}
    if not isinstance(extra, Mapping):
        raise GeometryError("'impassable' maps names to lists of sites")
    given = sum(len(v) for v in (*raw.values(), *extra.values()) if isinstance(v, list))
    if given > MAX_SITES:
        raise GeometryError(f"{given} sites: a geometry gives at most {MAX_SITES}")
    if frame.get("kind", "globe") == "plane":
        project, width, height = _plane(frame)
    elif frame.get("kind", "globe") == "globe":
        project, width, height = _globe(frame)
    else:
        raise GeometryError(f"bad frame: kind is 'globe' or 'plane', not {frame.get('kind')!r}")
    sites: dict[str, list[Point]] = {}
    for loc, points in raw.items():
        if not isinstance(points, list) or not points:
            raise GeometryError(f"{loc}: expected a list of sites")
        sites[loc] = [project(p, str(loc)) for p in points]
    missing = [loc for loc in game_map.locations if loc not in sites]
    unknown = [loc for loc in sites if loc not in game_map.locations]
    if missing or unknown:
        raise GeometryError(
            f"geometry does not fit map {game_map.name!r}: "
            f"missing {missing or 'nothing'}, unknown {unknown or 'nothing'}"
        )
    blocked: dict[str, list[Point]] = {}
    for name, points in extra.items():
        if not isinstance(points, list):
            raise GeometryError(f"impassable {name}: expected a list of sites")
        blocked[f"#{name}"] = [project(p, str(name)) for p in points]
    spill = frame.get("kind") == "plane"
    return _build(game_map, sites, blocked, width, height, schematic=False, spill=spill)


Projection = Callable[[Any, str], Point]


def _globe(frame: Mapping[str, Any]) -> tuple[Projection, float, float]:
    """Sites as [longitude, latitude]: equirectangular, then the frame's radial warp."""
    try:
        west, east = _number(frame["west"]), _number(frame["east"])
        south, north = _number(frame["south"]), _number(frame["north"])
        mid = _number(frame["mid_latitude"])
        focus = frame.get("focus", [0.0, 0.0])
        if not _pair(focus):
            raise ValueError(f"focus is [longitude, latitude], not {focus!r}")
        focus_lon, focus_lat = float(focus[0]), float(focus[1])
        power = _number(frame.get("warp", 1.0))
    except (KeyError, TypeError, ValueError) as exc:
        raise GeometryError(f"bad frame: {exc}") from exc
    if not (-180.0 <= west < east <= 540.0 and -90.0 <= south < north <= 90.0):
        raise GeometryError(
            "bad frame: west < east (degrees of longitude) and south < north (latitudes from "
            f"-90 to 90), not west {west}, east {east}, south {south}, north {north}"
        )
    if not -85.0 <= mid <= 85.0:
        raise GeometryError(f"bad frame: mid_latitude {mid} is not between -85 and 85")
    if not 0.1 <= power <= 10.0:
        raise GeometryError(f"bad frame: warp {power} is not between 0.1 and 10")
    if not (-540.0 <= focus_lon <= 540.0 and -90.0 <= focus_lat <= 90.0):
        raise GeometryError(f"bad frame: focus {focus!r} is not a place on the globe")
    squeeze = math.cos(math.radians(mid))

    def warp(lon: float, lat: float) -> Point:
        # Equirectangular, then a radial stretch around the focus (exponent below 1 gives the
        # crowded middle of the board more room, as printed boards do).
        dx, dy = (lon - focus_lon) * squeeze, focus_lat - lat
        r = math.hypot(dx, dy)
        if r == 0 or power == 1.0:
            return (dx, dy)
        k = 20.0 * (r / 20.0) ** power / r
        return (dx * k, dy * k)

    left, right = warp(west, focus_lat)[0], warp(east, focus_lat)[0]
    top, bottom = warp(focus_lon, north)[1], warp(focus_lon, south)[1]
    if not right - left > 1e-9 or not bottom - top > 1e-9:
        raise GeometryError("bad frame: it draws no area (west to east or north to south)")
    # WIDTH wide, unless that would make the page taller than MAX_PAGE: then MAX_PAGE tall.
    scale = min(WIDTH / (right - left), MAX_PAGE / (bottom - top))
    width, height = (right - left) * scale, (bottom - top) * scale
    _check_page(width, height)

    def project(pair: Any, where: str) -> Point:
        if not _pair(pair):
            raise GeometryError(f"{where}: a site is [longitude, latitude], not {pair!r}")
        lon, lat = float(pair[0]), float(pair[1])
        if not (-540.0 <= lon <= 540.0 and -90.0 <= lat <= 90.0):
            raise GeometryError(f"{where}: site {pair!r} is not a place on the globe")
        x, y = warp(lon, lat)
        point = ((x - left) * scale, (y - top) * scale)
        _check_site(point, width, height, pair, where)
        return point

    return project, width, height


def _finite(value: Any) -> bool:
    """Whether ``value`` is a JSON number that is a finite float (not NaN, not an infinity,
    not an integer too large for a float, not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _check_page(width: float, height: float) -> None:
    """A page of at least 10 units either way (it is at most :data:`MAX_PAGE` by its scale)."""
    if not (math.isfinite(width) and math.isfinite(height) and min(width, height) >= 10.0):
        raise GeometryError(
            f"bad frame: the page would be {width:.3g} wide and {height:.3g} tall (a frame far "
            "wider than tall, or far taller than wide, draws no picture)"
        )


def _number(value: Any) -> float:
    """A finite number of a frame (``ValueError`` for anything else: NaN, infinities, text)."""
    if not _finite(value):
        raise ValueError(f"expected a finite number, got {str(value)[:40]}")
    return float(value)


def _check_site(point: Point, width: float, height: float, pair: Any, where: str) -> None:
    """A site drawn within a page's size of the page (a site far off it can only be a
    mistake, and would strain the Voronoi cells' arithmetic)."""
    x, y = point
    if not (-width <= x <= 2 * width and -height <= y <= 2 * height):
        raise GeometryError(f"{where}: site {pair!r} lies far outside the frame")


def _plane(frame: Mapping[str, Any]) -> tuple[Projection, float, float]:
    """Sites as [x, y] in a picture's plane (y down): the rectangle ``x``, ``y``, ``width``,
    ``height`` drawn ``page_width`` wide."""
    try:
        x0, y0 = _number(frame["x"]), _number(frame["y"])
        w, h = _number(frame["width"]), _number(frame["height"])
        page = _number(frame.get("page_width", WIDTH))
    except (KeyError, TypeError, ValueError) as exc:
        raise GeometryError(f"bad frame: {exc}") from exc
    if min(w, h) <= 0 or not math.isfinite(w / h) or not math.isfinite(h / w):
        raise GeometryError("bad frame: width and height must be positive numbers")
    if not 100.0 <= page <= MAX_PAGE:
        raise GeometryError(f"bad frame: page_width {page} is not between 100 and {MAX_PAGE:.0f}")
    # page_width wide, unless that would make the page taller than MAX_PAGE: then MAX_PAGE tall
    # (and as much narrower), so that a frame far taller than wide still makes a bounded page.
    scale = min(page / w, MAX_PAGE / h)
    page = w * scale
    _check_page(page, h * scale)

    def project(pair: Any, where: str) -> Point:
        if not _pair(pair):
            raise GeometryError(f"{where}: a site is [x, y], not {pair!r}")
        x, y = float(pair[0]), float(pair[1])
        if not (x0 <= x <= x0 + w and y0 <= y <= y0 + h):
            raise GeometryError(f"{where}: site {pair!r} lies outside the frame")
        return ((x - x0) * scale, (y - y0) * scale)

    return project, page, h * scale


def _pair(pair: Any) -> bool:
    """Two finite numbers in a list."""
    return isinstance(pair, list) and len(pair) == 2 and all(_finite(v) for v in pair)


def schematic(game_map: Map) -> Geometry:
    """A geometry computed from the adjacency graph alone, for maps that ship none."""
    spots = graph_layout(game_map)
    # Room for a unit and its name in every province: the page grows with the map beyond the
    # standard board's size (about 100 provinces on a page 1150 wide).
    width = WIDTH * max(1.0, math.sqrt(len(game_map.provinces) / 100))
    height = width * 0.75
    margin = 60.0
    xs = [p[0] for p in spots.values()]
    ys = [p[1] for p in spots.values()]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    scale = min((width - 2 * margin) / span_x, (height - 2 * margin) / span_y)
    off_x = (width - scale * span_x) / 2 - scale * min(xs)
    off_y = (height - scale * span_y) / 2 - scale * min(ys)
    placed = {p: (off_x + scale * x, off_y + scale * y) for p, (x, y) in spots.items()}
    sites: dict[str, list[Point]] = {p: [xy] for p, xy in placed.items()}
    for prov in game_map.provinces:
        coasts = game_map.coasts_of(prov)
        for k, loc in enumerate(coasts):
            sites[loc] = [_coast_spot(game_map, loc, placed, k, len(coasts))]
    # A ring of empty sites along the frame, so the outer provinces end short of the page edge.
    ring: list[Point] = []
    step = 40.0
    for k in range(int(width // step) + 1):
        ring += [(k * step, 4.0), (k * step, height - 4.0)]
    for k in range(1, int(height // step) + 1):
        ring += [(4.0, k * step), (width - 4.0, k * step)]
    return _build(game_map, sites, {"#edge": ring}, width, height, schematic=True)


def _coast_spot(game_map: Map, loc: str, placed: Mapping[str, Point], k: int, n: int) -> Point:
    """A coast drawn a little way from its province towards the seas it touches."""
    home = placed[game_map.province_of(loc)]
    toward = [placed[game_map.province_of(n)] for n in sorted(game_map.fleet_neighbours(loc))]
    if toward:
        tx = sum(p[0] for p in toward) / len(toward) - home[0]
        ty = sum(p[1] for p in toward) / len(toward) - home[1]
    else:
        angle = 2 * math.pi * k / max(n, 1)
        tx, ty = math.cos(angle), math.sin(angle)
    length = math.hypot(tx, ty) or 1.0
    return (home[0] + 22 * tx / length, home[1] + 22 * ty / length)


def _build(
    game_map: Map,
    sites: Mapping[str, list[Point]],
    blocked: Mapping[str, list[Point]],
    width: float,
    height: float,
    *,
    schematic: bool,
    spill: bool = False,
) -> Geometry:
    anchors = {loc: points[0] for loc, points in sites.items()}
    owners: list[str] = []
    points: list[Point] = []
    for prov in game_map.provinces:
        for p in sites[prov]:
            owners.append(prov)
            points.append(p)
    for name, extra in blocked.items():
        for p in extra:
            owners.append(name)
            points.append(p)
    seen: dict[Point, int] = {}
    for index, p in enumerate(points):
        if p in seen:
            raise GeometryError(f"{owners[index]} and {owners[seen[p]]} share a site at {p}")
        seen[p] = index
    all_cells = cells(points, (0.0, 0.0, width, height))
    shapes: dict[str, list[list[Point]]] = {p: [] for p in game_map.provinces}
    impassable: list[list[Point]] = []
    borders: list[Border] = []

    def kind(owner: str) -> str:
        if owner.startswith("#"):
            return "void"
        return game_map.provinces[owner].kind

    outer: dict[str, list[tuple[Point, Point]]] = {}
    cells_of: dict[str, list[list[Point]]] = {}
    for index, cell in enumerate(all_cells):
        polygon = [v for v, _ in cell]
        if len(polygon) < 3 or area(polygon) < 1e-6:
            continue
        owner = owners[index]
        cells_of.setdefault(owner, []).append(polygon)
        for k, (v, across) in enumerate(cell):
            w = cell[(k + 1) % len(cell)][0]
            if across == FRAME or owners[across] != owner:
                outer.setdefault(owner, []).append((v, w))
        for k, (v, across) in enumerate(cell):
            w = cell[(k + 1) % len(cell)][0]
            if across == FRAME:
                continue
            other = owners[across]
            if other == owner or across < index:
                continue  # inside one province, or drawn from the other side already
            kinds = {kind(owner), kind(other)}
            if "void" in kinds:
                label = "coast" if kinds != {"void"} else "none"
            elif kinds == {"sea"}:
                label = "sea"
            elif "sea" in kinds:
                label = "coast"
            else:
                label = "land"
            if label != "none":
                borders.append(Border(v, w, label, (owner, other)))
    for owner, polygons in cells_of.items():
        outline = _outline(outer.get(owner, [])) or polygons
        if owner == "#edge":
            continue  # off the board: the page shows through
        if owner.startswith("#"):
            impassable.extend(outline)
        else:
            shapes[owner] = outline
    if schematic:
        # Units and labels in the middle of their cells, coasts kept where they were relative to it.
        for prov in game_map.provinces:
            if not shapes[prov]:
                continue
            old = anchors[prov]
            new = centroid(shapes[prov])
            anchors[prov] = new
            for loc in game_map.coasts_of(prov):
                cx, cy = anchors[loc]
                anchors[loc] = (new[0] + cx - old[0], new[1] + cy - old[1])
    labels = place_labels(game_map, anchors, shapes, spill=spill)
    return Geometry(width, height, anchors, shapes, borders, impassable, schematic, labels, spill)


# --------------------------------------------------------------------------- labels

_CELL = 48.0  # bucket size of the index of things already on the page


class _Index:
    """Boxes on the page, bucketed on a grid so a query looks at its neighbourhood only."""

    def __init__(self) -> None:
        self.buckets: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}

    def _keys(self, box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = (math.floor(v / _CELL) for v in box)
        return [(i, j) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1)]

    def add(self, box: tuple[float, float, float, float]) -> None:
        for key in self._keys(box):
            self.buckets.setdefault(key, []).append(box)

    def hits(self, box: tuple[float, float, float, float]) -> bool:
        for key in self._keys(box):
            for o in self.buckets.get(key, ()):
                if box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]:
                    return True
        return False


def inside(point: Point, polygons: Sequence[Sequence[Point]]) -> bool:
    """Whether ``point`` lies inside the province drawn as ``polygons`` (even-odd rule)."""
    x, y = point
    hit = False
    for poly in polygons:
        n = len(poly)
        for k in range(n):
            (ax, ay), (bx, by) = poly[k], poly[(k + 1) % n]
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                hit = not hit
    return hit


def _box_inside(
    box: tuple[float, float, float, float], polygons: Sequence[Sequence[Point]]
) -> bool:
    x0, y0, x1, y1 = box
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    probes = ((x0, y0), (x1, y0), (x0, y1), (x1, y1), (xm, y0), (xm, y1), (x0, ym), (x1, ym))
    return all(inside(p, polygons) for p in probes)


# Tried first, in order: below the unit (the usual place), above, beside, farther out.
_OFFSETS: tuple[Point, ...] = (
    (0.0, 19.0),
    (0.0, -18.0),
    (-31.0, 0.0),
    (31.0, 0.0),
    (0.0, 29.0),
    (-26.0, 20.0),
    (26.0, 20.0),
    (-26.0, -17.0),
    (26.0, -22.0),
    (0.0, -29.0),
    (0.0, 39.0),
    (-42.0, 0.0),
    (42.0, 0.0),
)


Box = tuple[float, float, float, float]


def _square(x: float, y: float, r: float) -> Box:
    return (x - r, y - r, x + r, y + r)


def place_labels(
    game_map: Map,
    anchors: Mapping[str, Point],
    shapes: Mapping[str, list[list[Point]]],
    occupied: Sequence[Box] | None = None,
    prefer: Mapping[str, Label] | None = None,
    *,
    spill: bool = False,
) -> dict[str, Label]:
    """A centre for every province's name: inside the province and clear of the units, the
    centres' dots and the names placed before it.

    Without ``occupied`` (the map's own labels) every place a unit may stand is kept clear: its
    locations and, where there is room, the spot beside it where a dislodged unit is drawn.
    With ``occupied`` (the boxes of one picture's units), the ``prefer`` spot of a province is
    kept unless a unit of that picture covers it. A few spots around the unit are tried, then
    points of the province nearest to it; time near-linear in the map's size (a grid index of
    what is already placed). With ``spill``, a name that finds no room clear of the units inside
    its province stands just outside it, near its unit, if it can there."""
    firm = _Index()  # never covered: units (or where they may stand) and the centres' dots
    aside = _Index()  # covered only when a dislodged unit is drawn beside the one in place
    for loc, (x, y) in anchors.items():
        if occupied is None:
            firm.add(_square(x, y, UNIT_R))
        if loc in game_map.provinces:
            if occupied is None:
                aside.add(_square(x + ASIDE[0], y + ASIDE[1], UNIT_R))
            if loc in game_map.centers:
                firm.add(_square(x + DOT[0], y + DOT[1], DOT_R))
            if loc in game_map.ports:
                firm.add(_square(x + PORT[0], y + PORT[1], PORT_R))
    for box in occupied or ():
        firm.add(box)
    labels: dict[str, Label] = {}
    for prov in game_map.provinces:
        ax, ay = anchors[prov]
        polygons = shapes.get(prov) or []
        spots = [(ax + dx, ay + dy) for dx, dy in _OFFSETS]
        label = None
        if prefer is not None and prov in prefer:
            x, y, size = prefer[prov]
            if _free(prov, (x, y), size, [] if spill else polygons, (firm,)):
                label = prefer[prov]
        # The usual size wherever it fits, clear of a dislodged unit's spot if it can be;
        # smaller type only in a province too small for it.
        for size in (LABEL_SIZE, *_SMALLER):
            for avoid in ((firm, aside), (firm,)):
                if label is not None:
                    break
                label = _first_free(prov, spots, size, polygons, avoid)
                if label is None and polygons:
                    label = _first_free(prov, _interior(polygons, (ax, ay)), size, polygons, avoid)
        if label is None and polygons and spill:
            # Too small for its name beside its unit (an island): just outside, clear of all.
            for size in _SMALLER:
                label = label or _first_free(prov, spots, size, [], (firm, aside))
        if label is None and polygons:
            # No room clear of the units: inside the province at least, in the smallest type.
            label = _first_free(prov, _interior(polygons, (ax, ay)), _SMALLER[-1], polygons, ())
        if label is None:
            label = (ax, ay + _OFFSETS[0][1], _SMALLER[-1])
        labels[prov] = label
        firm.add(label_box(prov, (label[0], label[1]), label[2]))
    return labels


def _free(
    name: str,
    spot: Point,
    size: float,
    polygons: Sequence[Sequence[Point]],
    avoid: Sequence[_Index],
) -> bool:
    box = label_box(name, spot, size)
    return not any(i.hits(box) for i in avoid) and (not polygons or _box_inside(box, polygons))


def _first_free(
    name: str,
    spots: Sequence[Point],
    size: float,
    polygons: Sequence[Sequence[Point]],
    avoid: Sequence[_Index],
) -> Label | None:
    for spot in spots:
        if _free(name, spot, size, polygons, avoid):
            return (spot[0], spot[1], size)
    return None


def _interior(polygons: Sequence[Sequence[Point]], near: Point, step: float = 4.0) -> list[Point]:
    """Grid points of a province's bounding box, nearest ``near`` first (at most about 170, so
    that a huge province costs no more than a small one)."""
    xs = [p[0] for poly in polygons for p in poly]
    ys = [p[1] for poly in polygons for p in poly]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    step = max(step, span / 12)
    points = [
        (min(xs) + i * step, min(ys) + j * step)
        for i in range(int((max(xs) - min(xs)) / step) + 1)
        for j in range(int((max(ys) - min(ys)) / step) + 1)
    ]
    points.sort(key=lambda p: (p[0] - near[0]) ** 2 + (p[1] - near[1]) ** 2)
    return points


def _outline(edges: Sequence[tuple[Point, Point]]) -> list[list[Point]] | None:
    """Chain the outer edges of a province's cells into closed outlines (``None`` if they do not
    close, when the caller keeps the cells)."""

    def key(p: Point) -> tuple[int, int]:
        return (round(p[0] * 100), round(p[1] * 100))

    starting: dict[tuple[int, int], list[tuple[Point, Point]]] = {}
    for edge in edges:
        if key(edge[0]) != key(edge[1]):
            starting.setdefault(key(edge[0]), []).append(edge)
    loops: list[list[Point]] = []
    while starting:
        first = next(iter(starting))
        loop: list[Point] = []
        at = first
        while True:
            choices = starting.get(at)
            if not choices:
                return None
            a, b = choices.pop()
            if not choices:
                del starting[at]
            loop.append(a)
            at = key(b)
            if at == first:
                break
        if len(loop) >= 3:
            loops.append(loop)
    return loops


# --------------------------------------------------------------------------- graph layout


def _neighbours(game_map: Map) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {p: set() for p in game_map.provinces}
    for prov in game_map.provinces:
        graph[prov] |= set(game_map.army_neighbours(prov))
        for loc in (prov, *game_map.coasts_of(prov)):
            graph[prov] |= {game_map.province_of(n) for n in game_map.fleet_neighbours(loc)}
    for prov, near in graph.items():
        near.discard(prov)
        for other in near:
            graph[other].add(prov)
    return graph


def graph_layout(game_map: Map, iterations: int = 40) -> dict[str, Point]:
    """Deterministic positions for the provinces of any map from its adjacency alone.

    Pivot MDS (Brandes and Pich): graph distances from a few far-apart pivot provinces, centred
    and reduced to two axes by power iteration, then sparse stress majorisation (each province
    pulled towards its neighbours within two steps and the pivots at their graph distances).
    Time and memory grow with the map's size times the number of pivots, never with its
    square, and the same map always gives the same picture.
    """
    names = list(game_map.provinces)
    n = len(names)
    if n == 1:
        return {names[0]: (0.0, 0.0)}
    index = {p: i for i, p in enumerate(names)}
    graph = _neighbours(game_map)
    adj = [sorted(index[q] for q in graph[p]) for p in names]
    # Pivots: each the province farthest from those chosen already.
    pivots = [0]
    rows = [_bfs_index(adj, 0)]
    nearest = list(rows[0])
    for _ in range(min(n, _PIVOTS) - 1):
        nxt = max(range(n), key=lambda j: (nearest[j], -j))
        if nearest[nxt] == 0:
            break
        pivots.append(nxt)
        rows.append(_bfs_index(adj, nxt))
        nearest = [min(a, b) for a, b in zip(nearest, rows[-1], strict=True)]
    far = 1 + max(d for row in rows for d in row if d < _UNREACHED)
    dist = [[float(d if d < _UNREACHED else far) for d in row] for row in rows]  # k x n
    xs, ys = _pivot_mds(dist)
    # Break ties between provinces the pivots cannot tell apart (small fixed spiral).
    spread = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    for i in range(n):
        xs[i] += 0.002 * spread * math.cos(2.4 * i)
        ys[i] += 0.002 * spread * math.sin(2.4 * i)
    _sparse_stress(adj, pivots, dist, xs, ys, iterations)
    # Landscape: put the longer spread across the page.
    if max(ys) - min(ys) > max(xs) - min(xs):
        xs, ys = ys, xs
    return {names[i]: (xs[i], ys[i]) for i in range(n)}


_PIVOTS = 24
_UNREACHED = 1 << 30


def _bfs_index(adj: Sequence[Sequence[int]], start: int) -> list[int]:
    dist = [_UNREACHED] * len(adj)
    dist[start] = 0
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for n in adj[here]:
            if dist[n] == _UNREACHED:
                dist[n] = dist[here] + 1
                queue.append(n)
    return dist


def _pivot_mds(dist: Sequence[Sequence[float]]) -> tuple[list[float], list[float]]:
    """Two axes from the k x n pivot distances (double-centred squares, top two right singular
    vectors by power iteration on the k x k product)."""
    k, n = len(dist), len(dist[0])
    sq = [[d * d for d in row] for row in dist]
    col_mean = [sum(row) / n for row in sq]  # per pivot
    row_mean = [sum(sq[a][i] for a in range(k)) / k for i in range(n)]  # per province
    total = sum(col_mean) / k
    c = [
        [-0.5 * (sq[a][i] - col_mean[a] - row_mean[i] + total) for i in range(n)] for a in range(k)
    ]
    ctc = [
        [sum(x * y for x, y in zip(c[a], c[b], strict=True)) for b in range(k)] for a in range(k)
    ]
    axes: list[list[float]] = []
    for axis in range(2):
        v = [1.0 + 0.1 * ((a * 7 + axis * 3) % 5) for a in range(k)]
        value = 0.0
        for _ in range(200):
            w = [sum(ctc[a][b] * v[b] for b in range(k)) for a in range(k)]
            for u in axes:  # deflate: stay orthogonal to the axes found
                dot = sum(x * y for x, y in zip(w, u, strict=True))
                w = [x - dot * y for x, y in zip(w, u, strict=True)]
            norm = math.sqrt(sum(x * x for x in w))
            if norm < 1e-12:
                break
            value = norm
            w = [x / norm for x in w]
            if max(abs(x - y) for x, y in zip(w, v, strict=True)) < 1e-9:
                v = w
                break
            v = w
        axes.append(v)
        if value < 1e-12:
            axes[-1] = [0.0] * k
    scale = [max(sum(x * x for x in u), 1e-12) ** 0.25 for u in axes]
    coords = [
        [sum(c[a][i] * axes[t][a] for a in range(k)) / scale[t] for i in range(n)] for t in range(2)
    ]
    return coords[0], coords[1]


def _sparse_stress(
    adj: Sequence[Sequence[int]],
    pivots: Sequence[int],
    dist: Sequence[Sequence[float]],
    xs: list[float],
    ys: list[float],
    iterations: int,
) -> None:
    """Stress majorisation over the pairs within two steps, plus every province's distance to
    each pivot (weighted as the provinces that pivot stands for): O(n * (degree^2 + pivots))
    a round."""
    n = len(adj)
    terms: list[list[tuple[int, float, float]]] = []
    for i in range(n):
        near: dict[int, float] = {}
        for j in adj[i]:
            near[j] = 1.0
        for j in adj[i]:
            for q in adj[j]:
                if q != i and q not in near:
                    near[q] = 2.0
        row = [(j, d, 1.0 / (d * d)) for j, d in near.items()]
        share = max(1.0, (n - len(near) - 1) / max(len(pivots), 1))
        for a, p in enumerate(pivots):
            d = dist[a][i]
            if p != i and p not in near and d > 0:
                row.append((p, d, share / (d * d)))
        terms.append(row)
    for _ in range(iterations):
        for i in range(n):
            num_x = num_y = den = 0.0
            xi, yi = xs[i], ys[i]
            for j, dij, w in terms[i]:
                dx, dy = xi - xs[j], yi - ys[j]
                length = math.hypot(dx, dy) or 1e-9
                num_x += w * (xs[j] + dij * dx / length)
                num_y += w * (ys[j] + dij * dy / length)
                den += w
            if den:
                xs[i], ys[i] = num_x / den, num_y / den


def centroid(polygons: Sequence[Sequence[Point]]) -> Point:
    """The area-weighted centre of a province's shapes."""
    total = cx = cy = 0.0
    for poly in polygons:
        a = area(poly)
        total += a
        cx += a * sum(p[0] for p in poly) / len(poly)
        cy += a * sum(p[1] for p in poly) / len(poly)
    return (cx / total, cy / total) if total else (0.0, 0.0)
