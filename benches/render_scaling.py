"""Scaling of the picture layout for maps without geometry: time and peak memory of
``geometry_for`` (graph layout, Voronoi cells, borders, labels) and of one board picture, on
generated maps of growing size.

    python benches/render_scaling.py [--sizes 100,300,1000,3000] [--json F]

A generated map is a grid of coastal and sea provinces (about 30% seas), each adjacent to its
four grid neighbours (armies between coasts, fleets everywhere); one power per 50 provinces. Each
size runs in a fresh process so that peak memory (``ru_maxrss``) is its own. The ratios between
rows show the growth: near-linear layout means time and memory about proportional to the
provinces (a map three times larger about three times the time, not nine).

Measured (2-core shared machine): 100 provinces 0.4 s, 1,024 8.9 s, 3,025 20.5 s and 46 MB peak
for the whole process (the quadratic layout it replaced took 125 s and 695 MB at 3,000).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import resource
import subprocess
import sys
import time
from typing import Any


def grid_map(n: int, seed: int = 1) -> dict[str, Any]:
    """A map of about ``n`` provinces on a grid (see the module documentation)."""
    rng = random.Random(seed)
    side = max(2, round(n**0.5))
    names = [f"P{i:04d}" for i in range(side * side)]
    kinds = ["sea" if rng.random() < 0.3 else "coast" for _ in names]
    army, fleet = [], []
    for r in range(side):
        for c in range(side):
            i = r * side + c
            for j in (i + 1 if c + 1 < side else -1, i + side if r + 1 < side else -1):
                if j < 0:
                    continue
                pair = [names[i], names[j]]
                if kinds[i] == kinds[j] == "coast":
                    army.append(pair)
                fleet.append(pair)
    lands = [i for i, k in enumerate(kinds) if k == "coast"]
    homes = lands[::35][: max(1, len(names) // 50)]
    centres = set(lands[::7]) | set(homes)
    powers = {}
    for k, i in enumerate(homes):
        powers[f"POWER{k}"] = {
            "adjective": f"Power{k}",
            "homes": [names[i]],
            "units": [f"A {names[i]}"],
        }
    return {
        "name": f"grid-{len(names)}",
        "powers": powers,
        "provinces": [
            {"abbr": name, "name": name.title(), "type": kind, "center": k in centres}
            for k, (name, kind) in enumerate(zip(names, kinds, strict=True))
        ],
        "army_edges": army,
        "fleet_edges": fleet,
    }


def one(n: int) -> dict[str, Any]:
    """Time and peak memory of laying out and drawing one generated map (in this process)."""
    from diplo.model.map import Map
    from diplo.model.position import Position
    from diplo.render.geometry import geometry_for
    from diplo.render.svg import board_svg

    game_map = Map.from_dict(grid_map(n))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    geometry = geometry_for(game_map)
    layout = time.perf_counter() - start
    start = time.perf_counter()
    svg = board_svg(Position.initial(game_map), geometry=geometry)
    draw = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "provinces": len(game_map.provinces),
        "layout_s": round(layout, 3),
        "draw_s": round(draw, 3),
        "peak_mb": round(peak / 1024, 1),
        "layout_peak_growth_mb": round((peak - before) / 1024, 1),
        "svg_kb": len(svg) // 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,300,1000,3000")
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one)))
        return 0
    rows = []
    for n in (int(v) for v in args.sizes.split(",")):
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True
        )
        rows.append(json.loads(done.stdout))
    print(f"{'provinces':>9} {'layout s':>9} {'draw s':>7} {'peak MB':>8} {'layout +MB':>10}")
    for row in rows:
        print(
            f"{row['provinces']:>9} {row['layout_s']:>9.2f} {row['draw_s']:>7.2f} "
            f"{row['peak_mb']:>8.1f} {row['layout_peak_growth_mb']:>10.1f}"
        )
    for a, b in itertools.pairwise(rows):
        grow = b["provinces"] / a["provinces"]
        print(
            f"{a['provinces']} -> {b['provinces']} provinces (x{grow:.1f}): layout time "
            f"x{b['layout_s'] / max(a['layout_s'], 1e-3):.1f}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
