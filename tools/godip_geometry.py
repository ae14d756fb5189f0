"""Where each province of a godip variant lies, read from the variant's map picture.

godip draws each variant from an SVG (``variants/<name>/svg/<name>map.svg``, or the same file
packed gzip-compressed into the variant's ``bindata.go`` when the SVG itself is not in the
snapshot). Its layer ``provinces`` holds one shape per province (``id`` the province's id), its
layers ``supply-centers`` and ``province-centers`` one marker per location (``parCenter``,
``stp/ncCenter``) where godip stands a unit. This module takes only those facts, as coordinates
in the picture's own plane, and writes diplo's geometry document (``frame`` of kind
``plane``):

- a province's first site is its marker (where its unit and name go), a coast's only site its
  own marker;
- more sites are sampled from the province's outline, a little inside it at a regular step, and
  on a coarse grid inside it, so that the Voronoi cells of all the sites follow the drawn
  borders (two provinces' sites face each other across each border);
- ground inside the frame that no province covers gets sites of its own (``impassable``);
- ``page_width`` is chosen so that the nearest markers stand far enough apart for a unit each.

None of godip's artwork is copied: no outline is kept, only points that lie in each province.
This parser is the project's own.
"""

from __future__ import annotations

import gzip
import math
import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import Any

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
NS = "{http://www.w3.org/2000/svg}"
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

# On the drawn page: the step of the outline samples, how far inside the outline they sit,
# the spacing of the inner grid, and the distance wanted between the nearest markers.
OUTLINE_STEP = 11.0
INSET = 2.5
GRID = 28.0
MARKER_GAP = 44.0
PAGE_MIN, PAGE_MAX = 1150.0, 4200.0
# Beyond this many page units across, samples are spaced in proportion (the site count stays
# that of a board this size).
SAMPLED = 2400.0


class GeometryImportError(ValueError):
    """A variant whose picture does not give every location a place (the message says which)."""


# --------------------------------------------------------------------------- reading the SVG


def variant_svg(repo: str, folder: str) -> tuple[bytes, str] | None:
    """The map picture of the variant in ``folder`` (``variants/hundred``) and the file it came
    from: the SVG in ``svg/`` when the snapshot holds it, else the one packed in
    ``bindata.go``; ``None`` when neither is there."""
    listing = _git(repo, "ls-tree", "-r", "--name-only", "HEAD", folder)
    files = listing.decode().split() if listing else []
    for path in files:
        if path.startswith(f"{folder}/svg/") and path.endswith("map.svg"):
            data = _git(repo, "show", f"HEAD:{path}")
            if data:
                return data, path
    for path in files:
        if path == f"{folder}/bindata.go":
            source = _git(repo, "show", f"HEAD:{path}")
            if not source:
                return None
            found = re.search(rb'var _svg\w*[mM]apSvg = \[\]byte\("((?:[^"\\]|\\.)*)"\)', source)
            if found is None:
                return None
            packed = found.group(1).decode("ascii").encode().decode("unicode_escape")
            return gzip.decompress(packed.encode("latin-1")), f"{path} (svg/*map.svg packed)"
    return None


def _git(repo: str, *args: str) -> bytes | None:
    out = subprocess.run(["git", "--git-dir", repo, *args], capture_output=True)
    if out.returncode != 0:
        out = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    return out.stdout if out.returncode == 0 else None


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


_NUMBER = re.compile(r"[-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?")


def parse_transform(text: str | None) -> Matrix:
    """An SVG ``transform`` attribute as one matrix."""
    m = IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(x) for x in _NUMBER.findall(args)]
        if name == "matrix" and len(v) == 6:
            step: Matrix = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            step = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            step = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and v:
            r = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            step = _multiply(
                (1.0, 0.0, 0.0, 1.0, cx, cy),
                _multiply(
                    (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0.0, 0.0),
                    (1.0, 0.0, 0.0, 1.0, -cx, -cy),
                ),
            )
        else:
            continue
        m = _multiply(m, step)
    return m


def _apply(m: Matrix, p: Point) -> Point:
    return (m[0] * p[0] + m[2] * p[1] + m[4], m[1] * p[0] + m[3] * p[1] + m[5])


def path_rings(d: str) -> list[list[Point]]:
    """The closed rings of an SVG path's ``d``, curves flattened to short lines (an arc is
    taken as the straight line to its end point)."""
    tokens = re.findall(r"[MmLlHhVvCcSsQqTtAaZz]|" + _NUMBER.pattern, d)
    rings: list[list[Point]] = []
    ring: list[Point] = []
    x = y = 0.0
    start = (0.0, 0.0)
    last_ctrl: Point | None = None
    cmd = ""
    k = 0

    def nums(n: int) -> list[float]:
        nonlocal k
        out = [float(t) for t in tokens[k : k + n]]
        k += n
        return out

    def curve(points: Sequence[Point]) -> None:
        for s in range(1, 9):
            t = s / 8
            if len(points) == 4:
                (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
                u = 1 - t
                ring.append(
                    (
                        u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                        u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3,
                    )
                )
            else:
                (x0, y0), (x1, y1), (x2, y2) = points
                u = 1 - t
                ring.append(
                    (
                        u * u * x0 + 2 * u * t * x1 + t * t * x2,
                        u * u * y0 + 2 * u * t * y1 + t * t * y2,
                    )
                )

    while k < len(tokens):
        if tokens[k].isalpha():
            cmd = tokens[k]
            k += 1
            if cmd in "Zz":
                if len(ring) >= 3:
                    rings.append(ring)
                ring = []
                x, y = start
                last_ctrl = None
                continue
        elif not cmd or cmd in "Zz":
            k += 1
            continue
        rel = cmd.islower()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        c = cmd.upper()
        want = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}[c]
        if k + want > len(tokens) or any(t.isalpha() for t in tokens[k : k + want]):
            break  # a malformed path: keep what was read
        v = nums(want)
        ctrl: Point | None = None
        if c == "M":
            if len(ring) >= 3:
                rings.append(ring)
            x, y = ox + v[0], oy + v[1]
            ring = [(x, y)]
            start = (x, y)
            cmd = "l" if rel else "L"  # more pairs after a move are lines
        elif c == "L" or c == "T":
            x, y = ox + v[0], oy + v[1]
            ring.append((x, y))
        elif c == "H":
            x = ox + v[0]
            ring.append((x, y))
        elif c == "V":
            y = (y if rel else 0.0) + v[0]
            ring.append((x, y))
        elif c == "C":
            p1, p2, p3 = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3]), (ox + v[4], oy + v[5])
            curve([(x, y), p1, p2, p3])
            x, y = p3
            ctrl = p2
        elif c == "S":
            p1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl else (x, y)
            p2, p3 = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            curve([(x, y), p1, p2, p3])
            x, y = p3
            ctrl = p2
        elif c == "Q":
            p1, p2 = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            curve([(x, y), p1, p2])
            x, y = p2
            ctrl = p1
        elif c == "A":
            x, y = ox + v[5], oy + v[6]
            ring.append((x, y))
        last_ctrl = ctrl
    if len(ring) >= 3:
        rings.append(ring)
    return rings


def element_rings(el: ET.Element) -> list[list[Point]]:
    """The rings of one shape element (path, polygon, polyline, rect, circle, ellipse), in the
    element's own coordinates."""
    tag = el.tag.removeprefix(NS)
    a = el.attrib

    def num(key: str) -> float:
        found = _NUMBER.findall(a.get(key, "0"))
        return float(found[0]) if found else 0.0

    if tag == "path":
        return path_rings(a.get("d", ""))
    if tag in ("polygon", "polyline"):
        v = [float(t) for t in _NUMBER.findall(a.get("points", ""))]
        ring = list(zip(v[0::2], v[1::2], strict=False))
        return [ring] if len(ring) >= 3 else []
    if tag == "rect":
        x, y, w, h = num("x"), num("y"), num("width"), num("height")
        return [[(x, y), (x + w, y), (x + w, y + h), (x, y + h)]]
    if tag in ("circle", "ellipse"):
        cx, cy = num("cx"), num("cy")
        rx = num("r") if tag == "circle" else num("rx")
        ry = num("r") if tag == "circle" else num("ry")
        return [
            [
                (cx + rx * math.cos(2 * math.pi * s / 32), cy + ry * math.sin(2 * math.pi * s / 32))
                for s in range(32)
            ]
        ]
    return []


Shape = tuple[str, list[list[Point]]]  # an id and the rings of one element


def read_layers(
    svg: bytes,
) -> tuple[tuple[float, float, float, float], list[Shape], dict[str, Point]]:
    """The picture's frame (x, y, width, height), the shapes of the provinces layer in the
    order they are painted, and each location's marker centre, all in the picture's plane
    (every transform applied)."""
    root = ET.fromstring(svg)
    box = [float(v) for v in _NUMBER.findall(root.attrib.get("viewBox", ""))]
    if len(box) != 4:
        box = [0.0, 0.0, float(root.attrib.get("width", 0)), float(root.attrib.get("height", 0))]
    shapes: list[Shape] = []
    markers: dict[str, Point] = {}

    def walk(el: ET.Element, m: Matrix, layer: str) -> None:
        m = _multiply(m, parse_transform(el.attrib.get("transform")))
        ident = el.attrib.get("id", "")
        if el.tag == f"{NS}g" and ident in ("provinces", "supply-centers", "province-centers"):
            layer = ident
        if layer and el.tag != f"{NS}g":
            rings = [[_apply(m, p) for p in r] for r in _rings_of(el, by_id)]
            if layer == "provinces" and ident and rings:
                shapes.append((ident.lower(), rings))
            elif ident.endswith("Center") and rings:
                xs = [p[0] for r in rings for p in r]
                ys = [p[1] for r in rings for p in r]
                markers[ident.removesuffix("Center").lower()] = (
                    (min(xs) + max(xs)) / 2,
                    (min(ys) + max(ys)) / 2,
                )
        for child in el:
            walk(child, m, layer)

    by_id = {el.attrib["id"]: el for el in root.iter() if "id" in el.attrib}
    walk(root, IDENTITY, "")
    return (box[0], box[1], box[2], box[3]), shapes, markers


def _rings_of(el: ET.Element, by_id: dict[str, ET.Element]) -> list[list[Point]]:
    """An element's rings; a ``<use>`` gives those of the element it names, moved by its
    ``x`` and ``y`` (northseawars draws two provinces so)."""
    if el.tag != f"{NS}use":
        return element_rings(el)
    href = el.attrib.get("{http://www.w3.org/1999/xlink}href") or el.attrib.get("href", "")
    target = by_id.get(href.removeprefix("#"))
    if target is None or target.tag == f"{NS}use":
        return []
    m = _multiply(
        (1.0, 0.0, 0.0, 1.0, float(el.attrib.get("x", 0)), float(el.attrib.get("y", 0))),
        parse_transform(target.attrib.get("transform")),
    )
    return [[_apply(m, p) for p in r] for r in element_rings(target)]


# --------------------------------------------------------------------------- sampling


def _inside(p: Point, rings: Iterable[Sequence[Point]]) -> bool:
    x, y = p
    hit = False
    for ring in rings:
        n = len(ring)
        for k in range(n):
            (ax, ay), (bx, by) = ring[k], ring[(k - 1) % n]
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                hit = not hit
    return hit


class _Shapes:
    """Which province a point lies in: the smallest ring that holds it (an enclave drawn inside
    a province, a coast's own shape inside its province, an island inside the oval godip draws
    around an archipelago), each ring's bounding box checked first."""

    def __init__(self, shapes: Sequence[Shape]) -> None:
        rings = [(abs(_signed_area(r)), owner, r) for owner, rs in shapes for r in rs]
        rings.sort(key=lambda t: t[0])
        self.rings = [(owner, r) for _, owner, r in rings]
        self.boxes = [
            (min(p[0] for p in r), min(p[1] for p in r), max(p[0] for p in r), max(p[1] for p in r))
            for _, r in self.rings
        ]

    def owner(self, p: Point) -> str | None:
        for (owner, ring), (x0, y0, x1, y1) in zip(self.rings, self.boxes, strict=True):
            if x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and _inside(p, [ring]):
                return owner
        return None


def _signed_area(ring: Sequence[Point]) -> float:
    return 0.5 * sum(
        ring[k][0] * ring[(k + 1) % len(ring)][1] - ring[(k + 1) % len(ring)][0] * ring[k][1]
        for k in range(len(ring))
    )


def _walk(ring: Sequence[Point], step: float) -> Iterable[tuple[Point, Point]]:
    """Points every ``step`` along a closed ring, each with the unit direction of travel."""
    carried = 0.0
    n = len(ring)
    for k in range(n):
        a, b = ring[k], ring[(k + 1) % n]
        length = math.dist(a, b)
        if length == 0:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = step - carried
        while t <= length:
            yield (a[0] + ux * t, a[1] + uy * t), (ux, uy)
            t += step
        carried = (carried + length) % step


def sample_sites(
    frame: tuple[float, float, float, float],
    shapes: Sequence[Shape],
    first: dict[str, Point],
    scale: float,
) -> tuple[dict[str, list[Point]], list[Point]]:
    """Sites for every province (its ``first`` site, then points along its outline just inside
    it and on a grid inside it) and for the ground no province covers; ``scale`` is page
    units per picture unit."""
    where = _Shapes(shapes)
    coarse = max(1.0, max(frame[2], frame[3]) * scale / SAMPLED)
    step, inset, grid = (v * coarse / scale for v in (OUTLINE_STEP, INSET, GRID))
    fx, fy, fw, fh = frame
    taken: set[tuple[int, int]] = set()
    sites: dict[str, list[Point]] = {}
    void: list[Point] = []

    def key(p: Point) -> tuple[int, int]:
        return (round(p[0]), round(p[1]))  # sites are written in whole picture units

    def add(owner: str | None, p: Point) -> None:
        x, y = key(p)
        if not (fx <= x <= fx + fw and fy <= y <= fy + fh) or (x, y) in taken:
            return
        taken.add((x, y))
        if owner is None:
            void.append((x, y))
        else:
            sites[owner].append((x, y))

    for prov in sorted(first):
        sites[prov] = []
        add(prov, first[prov])
    # Near each marker only the marker: the unit stands in the middle of its own cell.
    markers = list(first.values())

    def near_marker(p: Point) -> bool:
        return any(math.dist(p, q) < step * 0.8 for q in markers)

    for _, rings in shapes:
        for ring in rings:
            sign = 1.0 if _signed_area(ring) > 0 else -1.0
            for p, (ux, uy) in _walk(ring, step):
                # Left of the direction of travel is inside a ring of positive area (y down).
                nx, ny = -uy * sign, ux * sign
                for q in (
                    (p[0] - nx * inset, p[1] - ny * inset),
                    (p[0] + nx * inset, p[1] + ny * inset),
                ):
                    owner = where.owner(q)
                    if (owner is not None and owner not in sites) or near_marker(q):
                        continue
                    add(owner, q)
    cols, rows = int(fw / grid) + 1, int(fh / grid) + 1
    for i in range(cols):
        for j in range(rows):
            q = (fx + (i + 0.5) * grid, fy + (j + 0.5) * grid)
            owner = where.owner(q)
            if (owner is not None and owner not in sites) or near_marker(q):
                continue
            add(owner, q)
    return sites, void


def page_width(frame: tuple[float, float, float, float], first: dict[str, Point]) -> float:
    """A page width at which the markers closest together (the tenth percentile of each
    province's nearest other) stand ``MARKER_GAP`` apart, the picture's longer side kept
    between ``PAGE_MIN`` and ``PAGE_MAX``."""
    points = list(first.values())
    nearest = sorted(min(math.dist(p, q) for q in points if q is not p) for p in points)
    d = nearest[len(nearest) // 10] if len(nearest) > 1 else frame[2]
    longer = max(frame[2], frame[3])
    scale = min(PAGE_MAX / longer, max(PAGE_MIN / longer, MARKER_GAP / max(d, 1e-9)))
    return round(frame[2] * scale)


def build_geometry(
    name: str,
    svg: bytes,
    locations: Sequence[str],
    provinces: Sequence[str],
    source: str,
) -> dict[str, Any]:
    """diplo's geometry document for the variant ``name`` whose map has these ``locations``
    (diplo names, upper case; ``provinces`` the ones that are not coasts)."""
    frame, shapes, markers = read_layers(svg)
    drawn: dict[str, list[list[Point]]] = {}
    for ident, rings in shapes:
        drawn.setdefault(ident, []).extend(rings)
    first: dict[str, Point] = {}
    missing = []
    for loc in locations:
        low = loc.lower()
        if low in markers:
            first[loc] = markers[low]
        elif low in drawn:
            first[loc] = _interior_point(drawn[low])
        else:
            missing.append(loc)
    if missing:
        raise GeometryImportError(f"{name}: no marker nor shape for {', '.join(missing)}")
    # A marker drawn across the picture's edge stands just inside it.
    fx, fy, fw, fh = frame
    for loc, (x, y) in first.items():
        first[loc] = (
            min(max(x, math.ceil(fx)), math.floor(fx + fw)),
            min(max(y, math.ceil(fy)), math.floor(fy + fh)),
        )
    province_first = {p: first[p] for p in provinces}
    width = page_width(frame, province_first)
    scale = width / frame[2]
    # A coast's own shape (canton's ``can/sc``) belongs to its province.
    named = {loc.lower(): loc.split("/")[0] for loc in locations}
    own = [(named[ident], rings) for ident, rings in shapes if ident in named]
    sites, void = sample_sites(frame, own, province_first, scale)
    out: dict[str, list[list[float]]] = {}
    for loc in sorted(locations):
        points = sites[loc] if loc in sites else [first[loc]]
        out[loc] = [[round(x), round(y)] for x, y in points]
    doc: dict[str, Any] = {
        "format": "diplo-geometry",
        "version": 2,
        "map": name,
        "about": (
            f"Where each province of godip's {name} lies, in the plane of godip's map picture "
            f"({source}): the first site of a location is where godip marks its unit, the others "
            "points sampled just inside the province's outline and on a grid within it, so that "
            "the Voronoi cells follow the borders. Points only: no artwork is kept. Written by "
            "tools/godip_import.py --geometry."
        ),
        "frame": {
            "kind": "plane",
            "x": frame[0],
            "y": frame[1],
            "width": frame[2],
            "height": frame[3],
            "page_width": width,
        },
        "provinces": out,
    }
    if void:
        doc["impassable"] = {"unplayable": [[round(x), round(y)] for x, y in void]}
    return doc


def _interior_point(rings: Sequence[Sequence[Point]]) -> Point:
    """A point inside the largest ring: its centre when inside, else the inside grid point
    nearest that centre."""
    ring = max(rings, key=lambda r: abs(_signed_area(r)))
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    if _inside(centre, [ring]):
        return centre
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    grid = [
        (min(xs) + w * i / 20, min(ys) + h * j / 20) for i in range(1, 20) for j in range(1, 20)
    ]
    inner = [p for p in grid if _inside(p, [ring])]
    return min(inner, key=lambda p: math.dist(p, centre)) if inner else centre
