"""Board pictures: the SVG shows the units, orders and failures it was given (read back from the
XML), the standard geometry matches the map's adjacency, every map renders, and the command line
writes pictures and pages."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.apps.play import play_game
from diplo.formats.contract import adjudicate_document
from diplo.formats.gamefile import save
from diplo.model.map import Map, standard_map
from diplo.model.position import Position
from diplo.render.frames import RenderError, frame_of_outcome, frames_from_document, frames_of_game
from diplo.render.geometry import geometry_for, graph_layout, schematic
from diplo.render.html import game_page
from diplo.render.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent

# A convoyed attack with support dislodges a unit whose support to hold is cut; two bounces.
DOC: dict[str, Any] = {
    "phase": "S1902M",
    "units": {
        "ENGLAND": ["A LON", "F NTH", "A HOL", "F ENG"],
        "FRANCE": ["A BEL", "A PIC", "A PAR"],
        "GERMANY": ["A MUN"],
    },
    "centers": {
        "ENGLAND": ["LON", "EDI", "LVP", "HOL"],
        "FRANCE": ["PAR", "MAR", "BRE", "BEL"],
        "GERMANY": ["MUN", "BER", "KIE"],
    },
    "orders": {
        "ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "A HOL S A LON - BEL", "F ENG - PIC"],
        "FRANCE": ["A BEL H", "A PIC S A BEL", "A PAR - BUR"],
        "GERMANY": ["A MUN - BUR"],
    },
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises on anything that is not well-formed XML


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def test_svg_shows_the_units_orders_and_failures_it_was_given() -> None:
    [frame] = frames_from_document(DOC)
    root = parse(frame.svg())
    assert root.get("data-phase") == "S1902M"
    title = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "title")
    assert title.text == "Spring 1902, movement"

    units = {(g.get("data-power"), g.get("data-unit")) for g in groups(root, "unit")}
    given = {(p, u) for p, us in DOC["units"].items() for u in us}
    assert given <= units

    orders = {g.get("data-order"): g for g in groups(root, "order")}
    assert set(orders) == {o for os in DOC["orders"].values() for o in os}
    kinds = {o: (g.get("class") or "").split()[1] for o, g in orders.items()}
    assert kinds["A LON - BEL"] == "move"
    assert kinds["F NTH C A LON - BEL"] == "convoy"
    assert kinds["A HOL S A LON - BEL"] == "support"
    assert kinds["A PIC S A BEL"] == "support"
    assert kinds["A BEL H"] == "hold"
    # Supports and convoys are drawn differently from each other and from moves.
    dashes = {
        kind: {p.get("stroke-dasharray") for p in orders[o].iter(f"{SVG}path")}
        for o, kind in kinds.items()
        if kind in ("move", "support", "convoy")
    }
    assert dashes["move"] == {None}
    assert dashes["support"].isdisjoint(dashes["convoy"]) and None not in dashes["convoy"]
    assert orders["A LON - BEL"].get("data-code") == "ok"

    failed = {(g.get("class") or "").split()[1] for g in groups(root, "fail")}
    assert failed == {"bounce", "cut"}
    bounces = [g for g in groups(root, "fail") if "bounce" in (g.get("class") or "")]
    assert len(bounces) == 3  # F ENG - PIC, A PAR - BUR, A MUN - BUR

    [gone] = groups(root, "dislodged")
    assert (gone.get("data-unit"), gone.get("data-options")) == ("A BEL", "RUH")
    options = [p for p in root.iter(f"{SVG}path") if p.get("class") == "retreat-option"]
    assert [(p.get("data-from"), p.get("data-to")) for p in options] == [("BEL", "RUH")]

    counts = {g.get("data-power"): int(g.get("data-centers") or -1) for g in groups(root, "count")}
    assert counts["ENGLAND"] == 4 and counts["GERMANY"] == 3
    assert "ITALY" not in counts  # no centre, unit or order of Italy in the document


def test_provinces_are_coloured_by_centre_owner() -> None:
    position = Position.from_json(DOC, standard_map())
    root = parse(board_svg(position))
    fills = {g.get("data-province"): g.get("fill") for g in groups(root, "province")}
    assert fills["HOL"] == fills["LON"] != fills["BEL"] == fills["PAR"]
    assert fills["RUH"] == fills["BUR"]  # no centre: the plain land colour
    assert len(set(fills.values())) == 5  # land, sea, three owners


def test_contract_output_is_drawn_on_the_board_it_ruled_on() -> None:
    out = adjudicate_document(DOC)
    [frame] = frames_from_document(out)
    assert frame.position.units == Position.from_json(DOC, standard_map()).units
    root = parse(frame.svg())
    assert len(groups(root, "order")) == 8
    assert [g.get("data-unit") for g in groups(root, "dislodged")] == ["A BEL"]


def test_position_and_phase_outcome_display_in_notebooks() -> None:
    game_map = standard_map()
    position = Position.initial(game_map)
    picture = position._repr_svg_()
    assert picture is not None  # import diplo registered the renderer
    root = parse(picture)
    assert len(groups(root, "unit")) == 22
    outcome = process_phase(position, {"FRANCE": ["A PAR - BUR", "A MAR - BUR"]})
    picture = outcome._repr_svg_()
    assert picture is not None
    root = parse(picture)
    assert len(groups(root, "unit")) == 22  # the board it ruled on, not the next one
    assert {g.get("data-order"): g.get("data-code") for g in groups(root, "order")} == {
        "A PAR - BUR": "bounce",
        "A MAR - BUR": "bounce",
    }


def test_every_phase_type_of_a_game_renders() -> None:
    game = play_game(5, 1903, None)
    frames = frames_of_game(game)
    assert len(frames) == len(game.history) + 1
    kinds = set()
    for frame, record in zip(frames, game.history, strict=False):
        root = parse(frame.svg())
        kinds.add(record.phase.kind)
        drawn = {g.get("data-order") for g in groups(root, "order")} | {
            g.get("data-order") for g in groups(root, "build")
        }
        expected = {
            r.order
            for r in record.outcome.results
            if r.given and r.legal and not r.order.endswith((" D", "WAIVE"))
        }
        assert expected <= drawn, record.phase
    assert kinds == {"M", "R", "A"} or kinds == {"M", "A"}
    page = game_page(frames, "test")
    assert page.count('<section class="frame"') == len(frames)
    outside = page.replace("http://www.w3.org/2000/svg", "").replace("http-equiv", "")
    assert "<script src" not in page and "http" not in outside


# --------------------------------------------------------------------------- geometry


def test_standard_geometry_borders_are_exactly_the_adjacencies() -> None:
    game_map = standard_map()
    geo = geometry_for(game_map)
    assert not geo.schematic
    drawn = {
        frozenset(b.between)
        for b in geo.borders
        if not any(p.startswith("#") for p in b.between) and math.dist(b.a, b.b) > 0.5
    }
    adjacent = set()
    for prov in game_map.provinces:
        near = set(game_map.army_neighbours(prov))
        for loc in (prov, *game_map.coasts_of(prov)):
            near |= {game_map.province_of(n) for n in game_map.fleet_neighbours(loc)}
        adjacent |= {frozenset((prov, n)) for n in near}
    assert drawn - adjacent == set(), "borders drawn between provinces that are not adjacent"
    assert adjacent - drawn == set(), "adjacent provinces drawn without a common border"
    for prov, shapes in geo.shapes.items():
        assert shapes, prov
    for loc in game_map.locations:
        x, y = geo.anchors[loc]
        assert 0 <= x <= geo.width and 0 <= y <= geo.height, loc


def _tiny_map(name: str, n: int) -> Map:
    """A ring of ``n`` coastal provinces around one sea, two powers, one split coast."""
    provinces = [
        {
            "abbr": f"P{i}",
            "name": f"Province {i}",
            "type": "coast",
            "center": i % 2 == 0,
            "coasts": ["NC", "SC"] if i == 1 else [],
            "aliases": [],
        }
        for i in range(n)
    ]
    provinces.append(
        {"abbr": "SEA", "name": "The Sea", "type": "sea", "center": False, "coasts": [],
         "aliases": []}
    )  # fmt: skip
    army = [[f"P{i}", f"P{(i + 1) % n}"] for i in range(n)]
    fleet = [[f"P{i}", "SEA"] for i in range(n) if i != 1] + [["P1/NC", "SEA"], ["P1/SC", "P2"]]
    fleet += [[f"P{i}", f"P{(i + 1) % n}"] for i in range(2, n)]
    return Map.from_dict(
        {
            "name": name,
            "powers": {
                "RED": {"adjective": "Red", "homes": ["P0"], "units": ["A P0"]},
                "BLUE": {"adjective": "Blue", "homes": ["P2"], "units": ["F P2"]},
            },
            "provinces": provinces,
            "army_edges": army,
            "fleet_edges": fleet,
        }
    )


def test_maps_without_geometry_get_a_deterministic_schematic() -> None:
    game_map = _tiny_map("tiny-ring", 8)
    geo = geometry_for(game_map)
    assert geo.schematic
    assert graph_layout(game_map) == graph_layout(_tiny_map("tiny-ring", 8))
    assert set(geo.anchors) == set(game_map.locations)
    root = parse(board_svg(Position.initial(game_map)))
    assert {g.get("data-unit") for g in groups(root, "unit")} == {"A P0", "F P2"}
    # The standard map's schematic keeps neighbours near: adjacent provinces are closer on
    # average than the others.
    standard = standard_map()
    spots = schematic(standard).anchors
    near: list[float] = []
    far: list[float] = []
    for a in standard.provinces:
        for b in standard.provinces:
            if a < b:
                d = math.dist(spots[a], spots[b])
                (near if b in standard.army_neighbours(a) else far).append(d)
    assert sum(near) / len(near) < 0.5 * sum(far) / len(far)


def test_every_shipped_map_renders() -> None:
    from importlib import resources

    data = resources.files("diplo.data")
    maps = []
    for entry in data.iterdir():
        if not entry.name.endswith(".json") or ".geometry." in entry.name:
            continue
        doc = json.loads(entry.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "provinces" in doc and "army_edges" in doc:
            maps.append(Map.from_dict(doc))
    assert "standard" in {m.name for m in maps}
    for game_map in maps:
        root = parse(board_svg(Position.initial(game_map)))
        units = sum(len(u) for u in game_map.starting_units.values())
        assert len(groups(root, "unit")) == units, game_map.name


# --------------------------------------------------------------------------- command line


def diplo(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_render_and_view_commands(tmp_path: Path) -> None:
    proc = diplo("render", "-", stdin=json.dumps(DOC))
    assert proc.returncode == 0, proc.stderr
    assert len(groups(parse(proc.stdout), "order")) == 8

    game = Game(max_year=1901)
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    game.process()
    path = tmp_path / "game.json"
    save(game, path)
    out_dir = tmp_path / "pics"
    proc = diplo("render", str(path), "-o", str(out_dir))
    assert proc.returncode == 0, proc.stderr
    files = sorted(p.name for p in out_dir.iterdir())
    assert files[:2] == ["000-S1901M.svg", "001-F1901M.svg"] and len(files) == len(game.history) + 1
    proc = diplo("render", str(path), "--phase", "S1901M")
    assert proc.returncode == 0, proc.stderr
    assert [g.get("data-order") for g in groups(parse(proc.stdout), "order")] == ["A PAR - BUR"]

    proc = diplo("view", str(path))
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert page.count('<section class="frame"') == len(game.history) + 1


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("render", "-"), "{", "bad JSON"),
        (("render", "-"), '{"phase": "X1901M"}', "bad phase"),
        (("render", "-"), '{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}', "XYZ"),
        (("render", "-"), '{"phase": "S1901M", "map": "nowhere"}', "unknown map"),
        (("render", "/nonexistent/game.json"), None, "cannot read"),
    ],
)
def test_render_rejects_bad_input_with_one_line(
    args: tuple[str, ...], stdin: str | None, message: str
) -> None:
    proc = diplo(*args, stdin=stdin)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_render_of_a_game_needs_a_directory_or_a_phase(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save(play_game(1, 1901, None), path)
    proc = diplo("render", str(path))
    assert proc.returncode == 2 and "-o" in proc.stderr
    proc = diplo("render", str(path), "--phase", "F1950M")
    assert proc.returncode == 2 and "no phase F1950M" in proc.stderr


def test_frames_reject_non_documents() -> None:
    with pytest.raises(RenderError):
        frames_from_document([1, 2])
    with pytest.raises(RenderError):
        frames_from_document({"phase": "S1901M", "results": "x", "next": {}})


def test_a_phase_outcome_is_drawn_on_the_board_it_ruled_on() -> None:
    game = play_game(3, 1903, None)
    kinds = set()
    for record in game.history:
        frame = frame_of_outcome(record.outcome)
        kinds.add(record.phase.kind)
        assert frame.phase == record.phase
        assert dict(frame.position.units) == dict(record.position.units), record.phase
        assert set(frame.position.dislodged) == set(record.position.dislodged), record.phase
    assert kinds == {"M", "R", "A"}


def test_a_variant_on_the_standard_board_uses_the_standard_geometry() -> None:
    from importlib import resources

    data = json.loads(resources.files("diplo.data").joinpath("standard.json").read_text())
    data["name"] = "standard-with-a-fleet-in-rome"
    data["powers"]["ITALY"]["units"] = ["F NAP", "F ROM", "A VEN"]
    variant = Map.from_dict(data)
    geo = geometry_for(variant)
    assert not geo.schematic
    assert geo.anchors == geometry_for(standard_map()).anchors
    root = parse(board_svg(Position.initial(variant)))
    assert ("ITALY", "F ROM") in {
        (g.get("data-power"), g.get("data-unit")) for g in groups(root, "unit")
    }


def test_pictures_on_one_page_do_not_share_ids() -> None:
    import re

    game = Game(max_year=1901)
    game.process()
    page = game_page(frames_of_game(game), "ids")
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r"url\(#([^)]+)\)", page))
    assert refs <= set(ids)


def test_the_from_python_block_of_docs_render_runs() -> None:
    # docs/render.md shows how to draw from Python; the block must run as written.
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "render.md").read_text(encoding="utf-8")
    section = text[text.index("## From Python") :]
    start = section.index("```python") + len("```python")
    code = section[start : section.index("```", start)]
    names: dict[str, object] = {}
    exec(compile(code, "docs/render.md", "exec"), names)
    svg, page = names["svg"], names["page"]
    assert isinstance(svg, str) and svg.startswith("<svg") and "BUR" in svg
    assert isinstance(page, str) and "<html" in page.lower()
