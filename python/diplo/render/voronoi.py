"""Voronoi cells by half-plane clipping: the region of a box nearer to one site than to any other.

Small and exact enough for a board of a few hundred sites. Every edge of a cell remembers the site
on its other side (or ``-1`` for the box), which is how borders between provinces are found.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
# A cell: its vertices in order, each with the site across the edge that starts at it.
Cell = list[tuple[Point, int]]

FRAME = -1


def cells(sites: Sequence[Point], box: tuple[float, float, float, float]) -> list[Cell]:
    """The cell of every site inside ``box`` = (x0, y0, x1, y1). Sites must be distinct."""
    x0, y0, x1, y1 = box
    out: list[Cell] = []
    for i, (sx, sy) in enumerate(sites):
        cell: Cell = [((x0, y0), FRAME), ((x1, y0), FRAME), ((x1, y1), FRAME), ((x0, y1), FRAME)]
        others = sorted(
            (j for j in range(len(sites)) if j != i),
            key=lambda j: (sites[j][0] - sx) ** 2 + (sites[j][1] - sy) ** 2,
        )
        for j in others:
            qx, qy = sites[j]
            reach = max(math.hypot(px - sx, py - sy) for (px, py), _ in cell)
            if math.hypot(qx - sx, qy - sy) > 2 * reach:
                break  # no farther site can cut this cell
            cell = _clip(cell, (sx, sy), (qx, qy), j)
            if not cell:
                break
        out.append(cell)
    return out


def _clip(cell: Cell, s: Point, q: Point, label: int) -> Cell:
    """Keep the part of ``cell`` nearer to ``s`` than to ``q``."""
    nx, ny = q[0] - s[0], q[1] - s[1]
    mx, my = (s[0] + q[0]) / 2, (s[1] + q[1]) / 2

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: Cell = []
    n = len(cell)
    for k in range(n):
        a, edge = cell[k]
        b = cell[(k + 1) % n][0]
        da, db = side(a), side(b)
        if da <= 0:
            out.append((a, edge))
            if db > 0:
                out.append((_cut(a, b, da, db), label))
        elif db <= 0:
            out.append((_cut(a, b, da, db), edge))
    return out


def _cut(a: Point, b: Point, da: float, db: float) -> Point:
    t = da / (da - db)
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def area(polygon: Sequence[Point]) -> float:
    total = 0.0
    for k, (ax, ay) in enumerate(polygon):
        bx, by = polygon[(k + 1) % len(polygon)]
        total += ax * by - bx * ay
    return abs(total) / 2
