"""Voronoi cells by half-plane clipping: the region of a box nearer to one site than to any other.

Exact, and near-linear in the number of sites (a grid of buckets finds each site's neighbours).
Every edge of a cell remembers the site on its other side (or ``-1`` for the box), which is how
borders between provinces are found.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
# A cell: its vertices in order, each with the site across the edge that starts at it.
Cell = list[tuple[Point, int]]

FRAME = -1


def cells(sites: Sequence[Point], box: tuple[float, float, float, float]) -> list[Cell]:
    """The cell of every site inside ``box`` = (x0, y0, x1, y1). Sites must be distinct.

    Sites are bucketed on a grid of about one site a bucket; a cell is clipped by the sites of
    the rings of buckets around its own, ring by ring, until no farther site can reach it. On
    boards where sites spread over the page this is near-linear in their number."""
    x0, y0, x1, y1 = box
    n = len(sites)
    if n == 0:
        return []
    size = max(math.sqrt(max((x1 - x0) * (y1 - y0), 1e-9) / n), 1e-6)
    cols = max(1, int((x1 - x0) / size) + 1)
    rows = max(1, int((y1 - y0) / size) + 1)

    def bucket(p: Point) -> tuple[int, int]:
        return (
            min(cols - 1, max(0, int((p[0] - x0) / size))),
            min(rows - 1, max(0, int((p[1] - y0) / size))),
        )

    grid: dict[tuple[int, int], list[int]] = {}
    for j, p in enumerate(sites):
        grid.setdefault(bucket(p), []).append(j)
    out: list[Cell] = []
    widest = max(cols, rows)
    for i, (sx, sy) in enumerate(sites):
        cell: Cell = [((x0, y0), FRAME), ((x1, y0), FRAME), ((x1, y1), FRAME), ((x0, y1), FRAME)]
        bi, bj = bucket((sx, sy))
        reach = _reach(cell, sx, sy)
        for ring in range(widest + 1):
            # Every site not yet seen lies at least (ring - 1) buckets away.
            if (ring - 1) * size > 2 * reach:
                break
            near = [
                j for key in _ring(bi, bj, ring, cols, rows) for j in grid.get(key, ()) if j != i
            ]
            near.sort(key=lambda j: ((sites[j][0] - sx) ** 2 + (sites[j][1] - sy) ** 2, j))
            for j in near:
                qx, qy = sites[j]
                if (qx - sx) ** 2 + (qy - sy) ** 2 > 4 * reach * reach:
                    break  # sorted by distance: no later one of the ring can cut the cell
                cell = _clip(cell, (sx, sy), (qx, qy), j)
                if not cell:
                    break
                reach = _reach(cell, sx, sy)
            if not cell:
                break
        out.append(cell)
    return out


def _reach(cell: Cell, sx: float, sy: float) -> float:
    """How far the cell reaches from its site (its farthest corner)."""
    return math.sqrt(max((px - sx) ** 2 + (py - sy) ** 2 for (px, py), _ in cell)) if cell else 0.0


def _ring(ci: int, cj: int, r: int, cols: int, rows: int) -> list[tuple[int, int]]:
    """The buckets at Chebyshev distance ``r`` from (ci, cj), inside the grid."""
    if r == 0:
        return [(ci, cj)]
    keys = []
    for i in range(ci - r, ci + r + 1):
        for j in (cj - r, cj + r):
            if 0 <= i < cols and 0 <= j < rows:
                keys.append((i, j))
    for j in range(cj - r + 1, cj + r):
        for i in (ci - r, ci + r):
            if 0 <= i < cols and 0 <= j < rows:
                keys.append((i, j))
    return keys


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
