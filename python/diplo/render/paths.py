"""The geometry of a picture's strokes: numbers and point lists as SVG text, straight and curved
paths, points along them, arrow heads, and arrows that bend to keep clear of the units they pass."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from .geometry import UNIT_R
from .voronoi import Point

__all__ = [
    "CLEAR",
    "HEAD_R",
    "along",
    "bend",
    "clearing_control",
    "closest",
    "curve",
    "head",
    "line",
    "number",
    "point_at",
    "points",
    "to_segment",
]


def number(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def points(points: Sequence[Point]) -> str:
    return " ".join(f"{number(x)},{number(y)}" for x, y in points)


def line(a: Point, b: Point) -> str:
    return f"M{number(a[0])},{number(a[1])}L{number(b[0])},{number(b[1])}"


def curve(a: Point, control: Point, b: Point) -> str:
    """A path from ``a`` to ``b``: straight when ``control`` is their midpoint, else a
    quadratic curve through ``control``'s pull."""
    if math.dist(control, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)) < 0.05:
        return line(a, b)
    pull = f"{number(control[0])},{number(control[1])}"
    return f"M{number(a[0])},{number(a[1])}Q{pull} {number(b[0])},{number(b[1])}"


def point_at(a: Point, control: Point, b: Point, t: float) -> Point:
    """The point at ``t`` (0 to 1) along the quadratic curve a -> b pulled by ``control``."""
    u = 1 - t
    return (
        u * u * a[0] + 2 * u * t * control[0] + t * t * b[0],
        u * u * a[1] + 2 * u * t * control[1] + t * t * b[1],
    )


#: How far from a unit's centre an arrow passing it must stay: the marker and the arrow's width.
CLEAR = UNIT_R + 4
#: Half the side of the square an arrow head covers (around :func:`head`).
HEAD_R = 10.0


def along(a: Point, control: Point, b: Point, step: float) -> list[Point]:
    """Points every ``step`` px or so along the path a -> b pulled by ``control``."""
    n = max(2, int(math.dist(a, b) / step) + 1)
    return [point_at(a, control, b, i / n) for i in range(n + 1)]


def head(control: Point, end: Point) -> Point:
    """The middle of the arrow head of a path ending at ``end`` (coming from ``control``): the
    head (the marker, 15 px long at the arrow's width) reaches 10.5 px back and 4.5 px on."""
    length = math.dist(control, end) or 1.0
    return (
        end[0] - 3 * (end[0] - control[0]) / length,
        end[1] - 3 * (end[1] - control[1]) / length,
    )


def closest(a: Point, control: Point, b: Point, spots: Sequence[Point]) -> float:
    """The distance from the curve to the nearest of ``spots`` (sampled finely)."""
    best = math.inf
    samples = [point_at(a, control, b, i / 32) for i in range(33)]
    for p, q in itertools.pairwise(samples):
        for s in spots:
            best = min(best, to_segment(s, p, q))
    return best


def to_segment(s: Point, p: Point, q: Point) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((s[0] - p[0]) * dx + (s[1] - p[1]) * dy) / length2))
    )
    return math.dist(s, (p[0] + t * dx, p[1] + t * dy))


def clearing_control(a: Point, b: Point, others: Sequence[Point]) -> Point:
    """The control point of an arrow a -> b: the midpoint (a straight arrow) unless that passes
    over another unit, else the least bend, to either side, that keeps clear of every unit."""
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    near = [s for s in others if to_segment(s, a, b) < CLEAR + 40]
    if not near or closest(a, mid, b, near) >= CLEAR:
        return mid
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    best, best_gap = mid, closest(a, mid, b, near)
    for pull in (0.15, 0.25, 0.35, 0.5, 0.7):
        for side in (1, -1):
            control = (mid[0] + side * pull * length * nx, mid[1] + side * pull * length * ny)
            gap = closest(a, control, b, near)
            if gap >= CLEAR:
                return control
            if gap > best_gap:
                best, best_gap = control, gap
    return best


def bend(a: Point, b: Point) -> Point:
    """A control point a little to the side of a->b, so support lines do not hide moves."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (mx - dy * 0.18, my + dx * 0.18)
