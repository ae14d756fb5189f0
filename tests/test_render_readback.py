"""Pictures read back from their SVG: every province's name visible and inside its province, no
two unit markers on top of each other, supports drawn to what they back, and the panel saying
what this phase did (not the one before).
"""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from diplo.formats.contract import adjudicate_document
from diplo.model.map import shipped_map, standard_map
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.render.frames import frames_from_document
from diplo.render.geometry import inside
from diplo.render.svg import board_svg

M = standard_map()
NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]


def _classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def _numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]


def provinces(root: ET.Element) -> dict[str, list[list[tuple[float, float]]]]:
    """Each province's outline as drawn."""
    out: dict[str, list[list[tuple[float, float]]]] = {}
    for g in root.iter(f"{NS}g"):
        if "province" in _classes(g):
            path = g.find(f"{NS}path")
            assert path is not None
            polygons = []
            for part in (path.get("d") or "").split("M")[1:]:
                values = _numbers(part)
                polygons.append(list(zip(values[::2], values[1::2], strict=True)))
            out[g.get("data-province") or ""] = polygons
    return out


def labels(root: ET.Element) -> dict[str, Box]:
    """Each province name's box: its text at 10 px, about 0.72 em a capital, centred."""
    out = {}
    for text in root.iter(f"{NS}text"):
        if "label" in _classes(text):
            x, y = float(text.get("x") or 0), float(text.get("y") or 0)
            size = float(text.get("font-size") or 10)
            half = 0.36 * size * len(text.text or "")
            out[text.get("data-province") or ""] = (
                x - half,
                y - 0.75 * size,
                x + half,
                y + 0.2 * size,
            )
    return out


Marker = tuple[float, float, float, float, float]  # box, and the radius of a disc (0: a hull)


def markers(root: ET.Element) -> list[tuple[str, Marker]]:
    """Every unit marker (the army disc or the fleet hull, not the rings around it)."""
    out = []
    for g in root.iter(f"{NS}g"):
        if "unit" not in _classes(g):
            continue
        body = g[0]
        if body.tag == f"{NS}circle":
            x, y, r = (float(body.get(k) or 0) for k in ("cx", "cy", "r"))
            marker = (x - r, y - r, x + r, y + r, r)
        else:
            values = _numbers(body.get("points") or "")
            xs, ys = values[::2], values[1::2]
            marker = (min(xs), min(ys), max(xs), max(ys), 0.0)
        out.append((f"{g.get('class')} {g.get('data-unit')}", marker))
    return out


def _clash(a: Marker, b: Marker) -> bool:
    """Whether two markers cover each other: discs by distance, a disc and a hull by the
    hull's box, two hulls by their boxes."""
    if a[4] and b[4]:
        ax, ay, bx, by = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        return (ax - bx) ** 2 + (ay - by) ** 2 < (a[4] + b[4]) ** 2
    if a[4] or b[4]:
        disc, hull = (a, b) if a[4] else (b, a)
        cx, cy = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2
        nx, ny = min(max(cx, hull[0]), hull[2]), min(max(cy, hull[1]), hull[3])
        return (cx - nx) ** 2 + (cy - ny) ** 2 < disc[4] ** 2
    return _overlap(a[:4], b[:4])


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_layout(svg: str) -> ET.Element:
    """The picture's names are inside their provinces and clear of units; units apart."""
    root = ET.fromstring(svg)
    shapes = provinces(root)
    names = labels(root)
    units = markers(root)
    assert set(names) == set(shapes)
    for prov, box in names.items():
        x0, y0, x1, y1 = box
        probes = [(x0, y0), (x1, y0), (x0, y1), (x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2)]
        assert all(inside(p, shapes[prov]) for p in probes), f"{prov}'s name leaves it"
        hidden = [
            name for name, unit in units if _overlap(box, (unit[0], unit[1], unit[2], unit[3]))
        ]
        assert not hidden, f"{prov}'s name is under {hidden}"
    for k, (name, marker) in enumerate(units):
        for other, marker2 in units[k + 1 :]:
            assert not _clash(marker, marker2), f"{name} and {other} overlap"
    check_arrows(root, units)
    for g in root.iter(f"{NS}g"):  # no line on a name
        if "order" in _classes(g) and _classes(g) & {"support", "convoy"}:
            path = g.find(f"{NS}path")
            assert path is not None
            _assert_off_names(g, path, names)
        if _classes(g) & {"move", "retreat"}:
            path = g.find(f"{NS}path")
            assert path is not None
            _assert_off_names(g, path, names)
            values = _numbers(path.get("d") or "")
            (cx, cy), (x, y) = (values[-4], values[-3]), (values[-2], values[-1])
            ux, uy = (x - cx) / math.dist((cx, cy), (x, y)), (y - cy) / math.dist((cx, cy), (x, y))
            # The head: from 10.5 px behind the path's end to 4.5 px beyond, 7 px either side.
            for t in (-10.5, -7, -3.5, 0, 4.5):
                px, py = x + t * ux, y + t * uy
                for prov, box in names.items():
                    assert not _overlap(box, (px - 4, py - 4, px + 4, py + 4)), (
                        f"{g.get('data-order')}'s head is on {prov}'s name"
                    )
    return root


def _assert_off_names(g: ET.Element, path: ET.Element, names: dict[str, Box]) -> None:
    """No point of the order ``g``'s line ``path`` lies on a province's name."""
    for px, py in _path_points(path.get("d") or ""):
        for prov, box in names.items():
            assert not _overlap(box, (px - 1.5, py - 1.5, px + 1.5, py + 1.5)), (
                f"{g.get('data-order')} runs over {prov}'s name"
            )


def _path_points(d: str) -> list[tuple[float, float]]:
    """A move's path (``M a L b`` or ``M a Q c b``) sampled along its length."""
    values = _numbers(d)
    a, b = (values[0], values[1]), (values[-2], values[-1])
    c = (values[2], values[3]) if "Q" in d else ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    out = []
    for i in range(65):
        t = i / 64
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
            )
        )
    return out


def _province_of(unit: str) -> str:
    return unit.split()[-1].split("/")[0]


def check_arrows(root: ET.Element, units: list[tuple[str, Marker]]) -> None:
    """No move or retreat arrow runs over the marker of a unit of another province than the
    two it joins, and no two lines backing moves end on the same spot of an arrow."""
    for g in root.iter(f"{NS}g"):
        if not _classes(g) & {"move", "retreat"}:
            continue
        words = (g.get("data-order") or "").split()
        ends = {_province_of(words[1]), _province_of(words[-1])}
        path = g.find(f"{NS}path")
        assert path is not None
        points = _path_points(path.get("d") or "")
        for name, m in units:
            if _province_of(name) in ends:
                continue
            cx, cy = (m[0] + m[2]) / 2, (m[1] + m[3]) / 2
            r = m[4] or max(m[2] - m[0], m[3] - m[1]) / 2
            near = min(math.dist((cx, cy), p) for p in points)
            assert near > r, f"{g.get('data-order')} runs over {name}"
    ends_on_arrows = []
    for g in root.iter(f"{NS}g"):
        if g.get("data-onto") == "move":
            dot = [c for c in g.findall(f"{NS}circle") if c.get("r") == "3.2"]
            assert len(dot) == 1
            ends_on_arrows.append((float(dot[0].get("cx") or 0), float(dot[0].get("cy") or 0)))
    for k, p in enumerate(ends_on_arrows):
        for q in ends_on_arrows[k + 1 :]:
            assert math.dist(p, q) >= 10, f"two lines backing moves end together at {p}"


def _full_board(rng: random.Random, phase: str = "F1902M") -> Position:
    """A unit in every province (fleets on a random coast), a few dislodged ones aside."""
    units: dict[str, Piece] = {}
    dislodged: dict[str, Dislodged] = {}
    powers = M.powers
    for prov in M.provinces:
        if M.is_sea(prov):
            kind, loc = "F", prov
        elif M.is_land(prov):
            kind, loc = "A", prov
        else:
            kind = rng.choice("AF")
            coasts = M.coasts_of(prov)
            loc = rng.choice(coasts) if kind == "F" and coasts else prov
        units[prov] = Piece(rng.choice(powers), kind, loc)  # type: ignore[arg-type]
    if phase.endswith("R"):
        for prov in rng.sample(sorted(units), 12):
            piece = units[prov]
            dislodged[prov] = Dislodged(
                Piece(piece.power, "A" if M.is_land(prov) else "F", prov), ()
            )
    return Position(M, Phase.parse(phase), units, {}, dislodged)


@pytest.mark.parametrize("phase", ["F1902M", "F1902R"])
def test_a_full_board_keeps_every_name_visible_and_units_apart(phase: str) -> None:
    for seed in range(3):
        check_layout(board_svg(_full_board(random.Random(seed), phase)))


def test_the_opening_board_and_the_variants() -> None:
    check_layout(board_svg(Position.initial(M)))
    check_layout(board_svg(Position.initial(shipped_map("ancmed"))))


# A Fall 1902 board: three attackers on RUM, one of them (supported twice) dislodges the
# defender; ENG's fleet beside BRE's; APU and its centre; a void support and a void convoy.
CROWDED: dict[str, Any] = {
    "phase": "F1902M",
    "units": {
        "AUSTRIA": ["A BUD", "A GAL", "A SER", "A TRI"],
        "TURKEY": ["A BUL", "F BLA"],
        "RUSSIA": ["A RUM", "A SEV", "A MOS", "F STP/SC"],
        "ENGLAND": ["F ENG", "F LON", "A WAL"],
        "FRANCE": ["F BRE", "A PIC"],
        "ITALY": ["A APU", "F ION", "A NAP"],
    },
    "orders": {
        "AUSTRIA": ["A BUD - RUM", "A GAL S A BUD - RUM", "A SER S A BUD - RUM", "A TRI H"],
        "TURKEY": ["A BUL - RUM", "F BLA S A BUL - RUM"],
        "RUSSIA": ["A RUM H", "A SEV - RUM", "A MOS - UKR", "F STP/SC S A MOS - LVN"],
        "ENGLAND": ["F ENG S F LON - NTH", "F LON - NTH", "A WAL H"],
        "FRANCE": ["F BRE - ENG", "A PIC H"],
        "ITALY": ["A APU - TUN", "F ION C A APU - TUN", "A NAP S A APU"],
    },
}


def test_a_crowded_phase_reads_back() -> None:
    (frame,) = frames_from_document(CROWDED)
    root = check_layout(frame.svg())
    groups = [g for g in root.iter(f"{NS}g") if "order" in _classes(g)]
    by_order = {g.get("data-order"): g for g in groups}
    # RUM: its defender drawn once (aside, ringed), the winner's arrow into RUM, two bounces.
    rum = [
        g for g in root.iter(f"{NS}g") if g.get("data-province") == "RUM" and "unit" in _classes(g)
    ]
    assert [g.get("class") for g in rum] == ["unit dislodged"]
    assert by_order["A BUD - RUM"].get("data-success") == "true"
    assert by_order["A BUL - RUM"].get("data-code") == "bounce"
    assert by_order["A SEV - RUM"].get("data-code") == "bounce"
    # The void support points at the place it names (LVN), not onto MOS -> UKR, and is crossed.
    void = by_order["F STP/SC S A MOS - LVN"]
    assert void.get("data-code") == "void"
    assert (void.get("data-to"), void.get("data-onto")) == ("LVN", "place")
    assert void.find(f".//{NS}g[@class='fail unbacked']") is not None
    # A support of a move that was ordered goes onto its arrow.
    real = by_order["A GAL S A BUD - RUM"]
    assert (real.get("data-to"), real.get("data-onto")) == ("RUM", "move")
    # The panel names RUM's dislodgement.
    panel = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("font-size") == "10.5")
    assert "A RUM dislodged" in panel


def test_a_winter_draws_and_lists_its_civil_disorder_disband() -> None:
    doc = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR", "A BUR", "F BRE"], "GERMANY": ["A MUN"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN", "BER", "KIE"]},
        "orders": {"GERMANY": ["A BER B"]},
    }
    (frame,) = frames_from_document(doc)
    svg = frame.svg()
    root = check_layout(svg)
    crosses = [g for g in root.iter(f"{NS}g") if g.get("class") == "disband"]
    assert len(crosses) == 2  # F BRE and A BUR go
    panel = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("font-size") == "10.5")
    assert "F BRE D (civil disorder: its disbands were not ordered)" in " ".join(panel.split())
    builds = [g for g in root.iter(f"{NS}g") if "build" in _classes(g)]
    assert [g.get("data-unit") for g in builds] == ["A BER"]


def test_a_retreat_picture_does_not_list_the_last_phases_dislodgement() -> None:
    position = Position.from_json(
        {
            "phase": "F1902R",
            "units": {"AUSTRIA": ["A RUM", "A GAL"], "RUSSIA": ["A UKR"]},
            "dislodged": {"RUSSIA": {"A RUM": ["SEV", "BUL"]}},
        },
        M,
    )
    doc = {**position.to_json(), "orders": {"RUSSIA": ["A RUM - SEV"]}}
    out = adjudicate_document(doc)
    svg = board_svg(position, out["results"])
    root = check_layout(svg)
    panel = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("font-size") == "10.5")
    assert "dislodged" not in panel
    legend = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    for words in ("hold, support to hold", "build (dashed ring)", "disbanded"):
        assert words in legend


def test_ancient_mediterranean_is_drawn_at_its_real_places() -> None:
    from diplo.render.geometry import geometry_for

    game_map = shipped_map("ancmed")
    geo = geometry_for(game_map)
    assert not geo.schematic
    x = {p: geo.anchors[p][0] for p in game_map.provinces}
    y = {p: geo.anchors[p][1] for p in game_map.provinces}
    # West to east: Lusitania, Roma, Athens, Alexandria, Damascus; north to south.
    assert x["LUS"] < x["MAS"] < x["ROM"] < x["ATH"] < x["ALE"] < x["DAM"]
    assert y["GAU"] < y["ROM"] < y["SIC"] < y["CAR"] < y["LEP"] < y["PHA"]
    assert y["BYZ"] < y["ATH"] < y["CRE"] < y["ALE"] < y["THB"]


def _gallery() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "tools" / "gallery.py"
    spec = importlib.util.spec_from_file_location("gallery", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gallery_is_what_diplo_draws_and_reads_back() -> None:
    gallery = _gallery()
    fresh = gallery.pictures()
    assert set(fresh) == {"movement.svg", "retreat.svg", "winter.svg", "variant-ancmed.svg"}
    for name, svg in fresh.items():
        committed = gallery.FOLDER / name
        assert committed.is_file(), f"docs/gallery/{name} missing: run python tools/gallery.py"
        assert committed.read_text(encoding="utf-8") == svg, (
            f"{name} is stale: run tools/gallery.py"
        )
        root = check_layout(svg)
        assert root.find(f".//{NS}g[@class='units']") is not None
    movement = ET.fromstring(fresh["movement.svg"])
    kinds = {g.get("class") for g in movement.iter(f"{NS}g") if "order" in _classes(g)}
    assert {"order move", "order support", "order convoy"} <= kinds
    assert any("dislodged" in _classes(g) for g in movement.iter(f"{NS}g"))
    winter = ET.fromstring(fresh["winter.svg"])
    assert len([g for g in winter.iter(f"{NS}g") if g.get("class") == "disband"]) == 2
    assert len([g for g in winter.iter(f"{NS}g") if "build" in _classes(g)]) == 3


def test_refused_orders_never_put_a_unit_on_the_rebuilt_board() -> None:
    # France orders Germany's army and a fleet that does not exist; Germany orders its army as a
    # fleet. The picture of the outcome rebuilds the board it ruled on: the opening's 22 units.
    from diplo.api.phase import process_phase

    orders = {"FRANCE": ["A MUN - BOH", "F BUR - MAR"], "GERMANY": ["F MUN H"]}
    outcome = process_phase(Position.initial(M), orders)
    svg = outcome._repr_svg_()
    assert svg is not None
    root = check_layout(svg)
    units = sorted(
        g.get("data-unit") or "" for g in root.iter(f"{NS}g") if g.get("class") == "unit"
    )
    assert units == sorted(str(p) for p in Position.initial(M).units.values())


def test_the_legend_explains_the_port_sign_where_the_map_has_ports() -> None:
    for name, has_ports in (("ancmed", True), ("standard", False)):
        svg = board_svg(Position.initial(shipped_map(name)))
        root = check_layout(svg)
        legend = root.find(f".//{NS}g[@class='legend']")
        assert legend is not None
        keys = [t.text for t in legend.iter(f"{NS}text")]
        ports = [g for g in root.iter(f"{NS}g") if g.get("class") == "port"]
        assert bool(ports) is has_ports, name
        assert ("port: its fleets may convoy" in keys) is has_ports, name
