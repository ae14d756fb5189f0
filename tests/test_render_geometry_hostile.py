"""``load_geometry`` on hostile input (issue 46): degenerate globe frames and non-finite sites are
a ``GeometryError``, never another exception or a hang; a plane frame far taller than wide makes
a bounded page, drawn without a quadratic search; a map file of one's own named like a shipped
map is drawn as a schematic, not refused for not fitting the shipped geometry."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from diplo.model.map import Map, shipped_map
from diplo.render.geometry import (
    MAX_PAGE,
    MAX_SITES,
    GeometryError,
    geometry_for,
    inside,
    load_geometry,
)
from diplo.render.voronoi import cells

TINY: dict[str, Any] = {
    "name": "tiny",
    "powers": {"RED": {"adjective": "Red", "homes": ["AAA"], "units": ["A AAA"]}},
    "provinces": [
        {"abbr": "AAA", "name": "Aaa", "type": "land", "center": True, "coasts": [],
         "aliases": []},
        {"abbr": "BBB", "name": "Bbb", "type": "land", "center": False, "coasts": [],
         "aliases": []},
    ],
    "army_edges": [["AAA", "BBB"]],
    "fleet_edges": [],
}  # fmt: skip


def _tiny(name: str = "tiny") -> Map:
    return Map.from_dict({**TINY, "name": name})


GLOBE = {"kind": "globe", "west": -10, "east": 10, "south": 40, "north": 50, "mid_latitude": 45}


def _globe(frame: dict[str, Any] | None = None, sites: Any = None) -> dict[str, Any]:
    return {
        "format": "diplo-geometry",
        "frame": {**GLOBE, **(frame or {})},
        "provinces": sites or {"AAA": [[-5, 45]], "BBB": [[5, 45]]},
    }


def test_a_sound_globe_frame_draws() -> None:
    geo = load_geometry(_globe(), _tiny())
    assert geo.width == 1150.0 and 10 <= geo.height <= MAX_PAGE
    assert inside(geo.anchors["AAA"], geo.shapes["AAA"])


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    "frame",
    [
        {"west": 10, "east": 10},  # no width
        {"west": 10, "east": -10},  # backwards
        {"south": 50, "north": 50},  # no height
        {"south": 60, "north": 40},
        {"north": 95},
        {"mid_latitude": 90},  # cos 90 = 0: every longitude at one x
        {"mid_latitude": -90},
        {"mid_latitude": NAN},
        {"west": NAN},
        {"east": INF},
        {"south": -INF},
        {"west": 10**400},  # too large for a float
        {"west": True},
        {"west": "-10"},
        {"warp": 0},
        {"warp": -1},
        {"warp": NAN},
        {"warp": 1e308},
        {"focus": [0]},
        {"focus": [NAN, 0]},
        {"focus": "00"},
        {"focus": [1e308, 0]},
        {"west": -1e-12, "east": 1e-12},  # a sliver: no page
    ],
    ids=repr,
)
def test_a_degenerate_globe_frame_is_a_geometry_error(frame: dict[str, Any]) -> None:
    with pytest.raises(GeometryError, match="bad frame"):
        load_geometry(_globe(frame), _tiny())


@pytest.mark.parametrize(
    "site",
    [[NAN, 45], [INF, 45], [0, -INF], [10**400, 45], [1e308, 1e308], [0, 91], [600, 45]],
    ids=repr,
)
@pytest.mark.parametrize("kind", ["globe", "plane"])
def test_a_site_that_is_no_number_or_no_place_is_a_geometry_error(
    site: list[Any], kind: str
) -> None:
    if kind == "globe":
        doc = _globe(sites={"AAA": [site], "BBB": [[5, 45]]})
    else:
        doc = {
            "format": "diplo-geometry",
            "frame": {"kind": "plane", "x": 0, "y": 0, "width": 80, "height": 80},
            "provinces": {"AAA": [site], "BBB": [[50, 50]]},
        }
    with pytest.raises(GeometryError, match="AAA"):
        load_geometry(doc, _tiny())


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ({"impassable": ["x"]}, "'impassable' maps names"),
        ({"impassable": {"x": 3}}, "impassable x: expected a list"),
        ({"impassable": {"x": [[NAN, 1]]}}, "x: a site"),
        ({"provinces": {"AAA": [[-5, 45]] * (MAX_SITES + 1), "BBB": [[5, 45]]}}, "at most"),
    ],
    ids=["list", "number", "nan", "too-many"],
)
def test_other_hostile_entries_are_geometry_errors(doc: dict[str, Any], words: str) -> None:
    with pytest.raises(GeometryError, match=None) as caught:
        load_geometry({**_globe(), **doc}, _tiny())
    assert words in str(caught.value)


@pytest.mark.parametrize(
    "frame",
    [
        {"width": 1, "height": 1e9},  # far taller than wide
        {"width": 1e-9, "height": 1},
        {"width": 1, "height": 1e300, "page_width": 10000},
    ],
    ids=repr,
)
def test_a_plane_frame_far_taller_than_wide_has_a_bounded_page(frame: dict[str, Any]) -> None:
    doc = {
        "format": "diplo-geometry",
        "frame": {"kind": "plane", "x": 0, "y": 0, **frame},
        "provinces": {
            "AAA": [[frame["width"] / 2, frame["height"] / 3]],
            "BBB": [[frame["width"] / 2, 2 * frame["height"] / 3]],
        },
    }
    try:
        geo = load_geometry(doc, _tiny())
    except GeometryError as exc:  # a page too narrow to draw is refused, by name
        assert "bad frame" in str(exc)
        return
    assert geo.height <= MAX_PAGE and geo.width <= MAX_PAGE
    assert math.isfinite(geo.width) and geo.width >= 10
    assert inside(geo.anchors["BBB"], geo.shapes["BBB"])


def test_a_plane_frame_far_wider_than_tall_is_refused_or_bounded() -> None:
    doc = {
        "format": "diplo-geometry",
        "frame": {"kind": "plane", "x": 0, "y": 0, "width": 1e9, "height": 1},
        "provinces": {"AAA": [[1e8, 0.5]], "BBB": [[9e8, 0.5]]},
    }
    with pytest.raises(GeometryError, match="bad frame: the page would be"):
        load_geometry(doc, _tiny())


def test_the_voronoi_search_on_a_tall_page_looks_at_few_sites(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sites on a page 100 wide and MAX_PAGE tall: the search clips each cell by its near
    neighbours only (counted, not timed): far below the n * n of trying every pair."""
    from diplo.render import voronoi

    clipped = 0
    real = voronoi._clip

    def counting(*args: Any) -> Any:
        nonlocal clipped
        clipped += 1
        return real(*args)

    monkeypatch.setattr(voronoi, "_clip", counting)
    n = 2000
    sites = [((k * 37) % 97 + 1.5, k * (MAX_PAGE / n) + 0.5) for k in range(n)]
    out = cells(sites, (0.0, 0.0, 100.0, MAX_PAGE))
    assert len(out) == n and all(out)
    assert clipped < 60 * n, clipped


# --------------------------------------------------------------------------- a map named canton


def test_a_map_of_ones_own_named_like_a_shipped_map_is_drawn_as_a_schematic(
    tmp_path: Path,
) -> None:
    own = _tiny("canton")
    geo = geometry_for(own)
    assert geo.schematic and set(geo.anchors) == {"AAA", "BBB"}
    # The shipped canton keeps its geometry.
    assert not geometry_for(shipped_map("canton")).schematic
    # And from the command line: a position on that map file, drawn (exit 0), a schematic.
    path = tmp_path / "canton.json"
    path.write_text(json.dumps({**TINY, "name": "canton"}))
    doc = tmp_path / "position.json"
    doc.write_text(json.dumps({"map": "canton", "phase": "S1901M", "units": {"RED": ["A AAA"]}}))
    done = subprocess.run(
        [sys.executable, "-m", "diplo", "render", str(doc), "--map", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert 'data-map="canton"' in done.stdout and 'data-layout="schematic"' in done.stdout
