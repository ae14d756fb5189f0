"""godip's variants drawn at their real places (issue 28, item 1's pictures).

Every geometry shipped in a picture's plane (``frame.kind == "plane"``, written by
``tools/godip_import.py --geometry`` from godip's map SVGs) names exactly its map's locations,
gives every province a cell holding its first site, and draws each unit of the initial position
inside its province. The plane frame refuses bad documents with the field named, the importer's
reading of an SVG is checked on a small picture of our own, and names reaching a picture drawn
this way are escaped.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from importlib import resources
from types import ModuleType
from typing import Any

import pytest

from diplo.model.map import Map, shipped_map
from diplo.model.position import Position
from diplo.render.geometry import GeometryError, geometry_for, inside, load_geometry
from diplo.render.svg import board_svg
from tool_modules import load_tool

NS = "{http://www.w3.org/2000/svg}"


def _plane_geometries() -> dict[str, dict[str, Any]]:
    out = {}
    for entry in resources.files("diplo.data").iterdir():
        if entry.name.endswith(".geometry.json"):
            doc = json.loads(entry.read_text(encoding="utf-8"))
            if doc["frame"].get("kind") == "plane":
                out[entry.name.removesuffix(".geometry.json")] = doc
    return out


PLANE = _plane_geometries()


def test_the_godip_variants_ship_their_geometry() -> None:
    # The variants whose godip picture places their provinces (docs/rules-and-variants.md
    # names the others and why).
    assert set(PLANE) == {
        "canton",
        "classicalcrowded",
        "coldwar",
        "empiresandcoalitions",
        "europe1939",
        "gatewaywest",
        "hundred",
        "northseawars",
        "sengoku",
        "threekingdoms",
        "twentytwenty",
        "unconstitutional",
        "vietnamwar",
        "westernworld901",
        "year1908",
        "youngstownredux",
    }


@pytest.mark.parametrize("name", sorted(PLANE))
def test_a_plane_geometry_names_exactly_its_maps_locations(name: str) -> None:
    game_map = shipped_map(name)
    doc = PLANE[name]
    assert set(doc["provinces"]) == set(game_map.locations)
    assert not set(doc.get("impassable", {})) & set(game_map.locations)
    frame = doc["frame"]
    for loc, points in doc["provinces"].items():
        for x, y in points:
            assert frame["x"] <= x <= frame["x"] + frame["width"], loc
            assert frame["y"] <= y <= frame["y"] + frame["height"], loc


@cache
def _drawn(name: str) -> tuple[Map, ET.Element]:
    game_map = shipped_map(name)
    return game_map, ET.fromstring(board_svg(Position.initial(game_map)))


@pytest.mark.parametrize("name", sorted(PLANE))
def test_every_cell_holds_its_first_site_and_every_unit_stands_in_its_province(
    name: str,
) -> None:
    game_map, root = _drawn(name)
    geo = geometry_for(game_map)
    assert not geo.schematic and root.get("data-layout") == "geography"
    for prov in game_map.provinces:
        assert geo.shapes[prov], prov
        assert inside(geo.anchors[prov], geo.shapes[prov]), prov
    drawn = 0
    for g in root.iter(f"{NS}g"):
        if g.get("class") != "unit":
            continue
        body = g[0]
        if body.tag == f"{NS}circle":
            x, y = float(body.get("cx") or 0), float(body.get("cy") or 0)
        else:  # a fleet's hull: its top edge is 6 above the anchor
            values = [float(v) for v in (body.get("points") or "").replace(",", " ").split()]
            x, y = (min(values[0::2]) + max(values[0::2])) / 2, min(values[1::2]) + 6
        prov = g.get("data-province") or ""
        assert inside((x, y), geo.shapes[prov]), (name, g.get("data-unit"))
        drawn += 1
    assert drawn == sum(len(units) for units in game_map.starting_units.values())


# --------------------------------------------------------------------------- the plane frame


def _tiny(name: str = "tiny", full: str = "Aaa") -> Map:
    return Map.from_dict(
        {
            "name": name,
            "powers": {"RED": {"adjective": "Red", "homes": ["AAA"], "units": ["A AAA"]}},
            "provinces": [
                {"abbr": "AAA", "name": full, "type": "land", "center": True, "coasts": [],
                 "aliases": []},
                {"abbr": "BBB", "name": "Bbb", "type": "land", "center": False, "coasts": [],
                 "aliases": []},
            ],
            "army_edges": [["AAA", "BBB"]],
            "fleet_edges": [],
        }
    )  # fmt: skip


def _plane_doc(**frame: Any) -> dict[str, Any]:
    return {
        "format": "diplo-geometry",
        "frame": {"kind": "plane", "x": 0, "y": 0, "width": 300, "height": 200, **frame},
        "provinces": {"AAA": [[60, 100]], "BBB": [[220, 100]]},
    }


def test_a_plane_frame_maps_the_picture_onto_the_page() -> None:
    geo = load_geometry(_plane_doc(page_width=600), _tiny())
    assert (geo.width, geo.height) == (600.0, 400.0)
    assert geo.anchors == {"AAA": (120.0, 200.0), "BBB": (440.0, 200.0)}
    assert inside((10.0, 10.0), geo.shapes["AAA"]) and inside((590.0, 390.0), geo.shapes["BBB"])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"frame": {"kind": "mercator"}}, "kind is 'globe' or 'plane'"),
        ({"frame": {"kind": "plane", "x": 0, "y": 0, "width": 0, "height": 5}}, "positive"),
        ({"frame": {"kind": "plane", "x": 0, "y": 0, "width": 300}}, "bad frame"),
        ({"frame": {"kind": "plane", "x": 0, "y": 0, "width": 3, "height": 2,
                    "page_width": 1e9}}, "page_width"),
        ({"provinces": {"AAA": [[60, 100]], "BBB": [[999, 100]]}}, "BBB: site [999, 100] lies"),
        ({"provinces": {"AAA": [["x", 1]], "BBB": [[220, 100]]}}, "AAA: a site is [x, y]"),
        ({"provinces": {"AAA": [[True, 1]], "BBB": [[220, 100]]}}, "AAA: a site is [x, y]"),
        ({"provinces": {"AAA": [[60, 100]]}}, "missing ['BBB']"),
    ],
)  # fmt: skip
def test_a_bad_plane_geometry_is_refused_naming_what_is_wrong(
    change: dict[str, Any], words: str
) -> None:
    doc = {**_plane_doc(), **change}
    with pytest.raises(GeometryError, match=None) as caught:
        load_geometry(doc, _tiny())
    assert words in str(caught.value)


# --------------------------------------------------------------------------- the importer


def _importer() -> ModuleType:
    return load_tool("godip_geometry")


# Two provinces with a strip of no-man's land between them; AAA's marker a circle in the
# supply-centers layer, BBB's a square moved into place by a transform; BBB's shape a <use>
# of a polygon defined elsewhere, shifted by the layer's own transform.
PICTURE = b"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  viewBox="0 0 300 200">
  <defs><polygon id="shape-b" points="0,0 140,0 140,200 0,200"/></defs>
  <g id="provinces" transform="translate(0,0)">
    <path id="aaa" d="M0,0 H140 V200 H0 Z"/>
    <g transform="translate(160,0)"><use id="bbb" xlink:href="#shape-b"/></g>
  </g>
  <g id="supply-centers"><circle id="aaaCenter" cx="60" cy="100" r="4"/></g>
  <g id="province-centers">
    <path id="bbbCenter" transform="translate(220,90)" d="M-3,-3 h6 v6 h-6 z"/>
  </g>
</svg>"""


def test_the_importer_reads_shapes_markers_and_the_ground_between() -> None:
    importer = _importer()
    doc = importer.build_geometry("tiny", PICTURE, ["AAA", "BBB"], ["AAA", "BBB"], "a test")
    assert doc["frame"]["kind"] == "plane" and doc["frame"]["width"] == 300
    assert doc["provinces"]["AAA"][0] == [60, 100] and doc["provinces"]["BBB"][0] == [220, 90]
    assert all(0 <= x <= 140 for x, _ in doc["provinces"]["AAA"])
    assert all(160 <= x <= 300 for x, _ in doc["provinces"]["BBB"])
    assert len(doc["provinces"]["AAA"]) > 10 and len(doc["provinces"]["BBB"]) > 10
    assert all(140 < x < 160 for x, _ in doc["impassable"]["unplayable"])
    geo = load_geometry(doc, _tiny())
    scale = geo.width / 300
    assert inside((100 * scale, 20 * scale), geo.shapes["AAA"])
    assert inside((200 * scale, 180 * scale), geo.shapes["BBB"])
    assert not inside((150 * scale, 100 * scale), geo.shapes["AAA"] + geo.shapes["BBB"])


def test_a_province_the_picture_does_not_place_is_named() -> None:
    importer = _importer()
    with pytest.raises(importer.GeometryImportError, match="no marker nor shape for CCC"):
        importer.build_geometry("tiny", PICTURE, ["AAA", "BBB", "CCC"], ["AAA", "BBB", "CCC"], "")


def test_names_reaching_a_picture_drawn_in_a_plane_are_escaped() -> None:
    importer = _importer()
    hostile = 'x<script>&"\u0007'
    game_map = _tiny(name=hostile, full=hostile)
    doc = importer.build_geometry("tiny", PICTURE, ["AAA", "BBB"], ["AAA", "BBB"], hostile)
    geo = load_geometry(doc, game_map)
    svg = board_svg(Position.initial(game_map), geometry=geo, title=hostile)
    root = ET.fromstring(svg)  # well-formed
    assert "<script>" not in svg
    assert root.get("data-map", "").startswith("x<script>&")


@pytest.mark.parametrize(
    ("name", "base", "renamed"),
    [
        ("ancientmediterranean", "ancmed", {"SIN": "SII", "THB": "THE", "TYN": "TYS"}),
        ("chaos", "standard", {"LYO": "GOL", "MAO": "MID", "NAO": "NAT", "NWG": "NRG"}),
    ],
)
def test_godip_boards_diplo_knows_are_drawn_with_its_geometry_under_godips_ids(
    name: str, base: str, renamed: dict[str, str]
) -> None:
    geo = geometry_for(shipped_map(name))
    known = geometry_for(shipped_map(base))
    assert not geo.schematic
    assert geo.anchors == {renamed.get(k, k): v for k, v in known.anchors.items()}
