"""What a picture says of itself, read back from its SVG (issue 31, items 8 and 9): which centres
it shows (the same for one phase whatever it was drawn from), power colours that stand out on the
sea and the land and from each other, waived builds, the schematic's notice, a panel of the powers
the document concerns, and neutral powers apart from the players.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.formats.contract import adjudicate_document
from diplo.model.map import SHIPPED_MAPS, Map, shipped_map, standard_map
from diplo.model.position import Position
from diplo.model.variants import load_mila_map
from diplo.render.colours import contrast_ratio, delta_e
from diplo.render.frames import frame_of_outcome, frames_from_document, frames_of_game
from diplo.render.html import game_page
from diplo.render.svg import SCHEMATIC_NOTE, board_svg

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]

FALL: dict[str, Any] = {
    "map": "standard",
    "phase": "F1901M",
    "units": {"ENGLAND": ["F LON", "F EDI", "A LVP"], "FRANCE": ["F BRE", "A PAR", "A MAR"]},
    "centers": {"ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["BRE", "PAR", "MAR"]},
    "orders": {"FRANCE": ["F BRE - MAO", "A PAR - BUR", "A MAR - SPA"]},
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in _classes(g)]


def texts(root: ET.Element, cls: str) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text") if cls in _classes(t)]


def panel_rows(root: ET.Element) -> list[tuple[str, int, int]]:
    """The panel's power rows, top to bottom: (power, centres, units)."""
    return [
        (
            g.get("data-power") or "",
            int(g.get("data-centers") or -1),
            int(g.get("data-units") or -1),
        )
        for g in groups(root, "count")
    ]


def owners(root: ET.Element) -> dict[str, str]:
    """Each province drawn in an owner's colour, and that owner."""
    return {
        g.get("data-province") or "": g.get("data-owner") or ""
        for g in groups(root, "province")
        if g.get("data-owner")
    }


def fill_of(root: ET.Element, province: str) -> str:
    [g] = [g for g in groups(root, "province") if g.get("data-province") == province]
    return g.get("fill") or ""


def diplo(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "diplo", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout


# --------------------------------------------------------------------------- item 8


def test_render_of_an_input_and_of_its_adjudicated_output_show_the_same_centres(
    tmp_path: Path,
) -> None:
    doc = tmp_path / "in.json"
    doc.write_text(json.dumps(FALL), encoding="utf-8")
    direct = parse(diplo("render", str(doc)))
    ruled = diplo("adjudicate", str(doc))
    piped = parse(diplo("render", "-", stdin=ruled))
    # One phase, one picture: the same units, centres and provinces coloured, either way.
    assert panel_rows(direct) == panel_rows(piped) == [("FRANCE", 4, 3), ("ENGLAND", 3, 3)]
    assert owners(direct) == owners(piped)
    assert owners(direct)["SPA"] == "FRANCE"  # taken this Fall: the centres after the phase
    # And the picture says which board and which centres it shows.
    caption = "Units before the orders; supply centres after the phase"
    assert texts(direct, "caption") == texts(piped, "caption") == [caption]
    assert texts(direct, "centres-when") == texts(piped, "centres-when") == ["after the phase"]
    assert direct.get("data-centres") == piped.get("data-centres") == "after"
    # The units are those before the orders (the fleet still in Brest, its arrow to MAO).
    units = {g.get("data-unit") for g in groups(direct, "unit")}
    assert {"F BRE", "A PAR", "A MAR"} <= units and "F MAO" not in units


def test_a_game_a_phase_outcome_and_documents_show_one_phase_alike() -> None:
    game = Game()
    game.process()  # Spring 1901: everyone holds
    game.set_orders("FRANCE", ["F BRE - MAO", "A PAR - BUR", "A MAR - SPA"])
    game.process()
    record = game.history[-1]
    assert str(record.position.phase) == "F1901M"
    framed = next(f for f in frames_of_game(game) if str(f.phase) == "F1901M")
    doc = {**record.position.to_json(), "orders": {"FRANCE": FALL["orders"]["FRANCE"]}}
    pictures = [
        parse(framed.svg()),
        parse(frame_of_outcome(record.outcome).svg()),
        parse(frames_from_document(doc)[0].svg()),
        parse(frames_from_document(adjudicate_document(doc))[0].svg()),
    ]
    rows = [panel_rows(p) for p in pictures]
    assert all(r == rows[0] for r in rows)
    assert dict((p, c) for p, c, _u in rows[0])["FRANCE"] == 4
    assert all(owners(p) == owners(pictures[0]) for p in pictures)
    assert {p.get("data-centres") for p in pictures} == {"after"}
    # The board a game stands at shows its own centres, and says so.
    last = parse(frames_of_game(game)[-1].svg())
    assert last.get("data-centres") == "position"
    assert texts(last, "caption") == ["Units and supply centres of this position"]


def test_a_ruling_drawn_without_the_centres_after_says_it_shows_those_before() -> None:
    position = Position.from_json(FALL, standard_map())
    results = adjudicate_document(FALL)["results"]
    root = parse(board_svg(position, results))
    assert root.get("data-centres") == "before"
    assert texts(root, "caption") == ["Units and supply centres before the orders"]
    assert dict((p, c) for p, c, _u in panel_rows(root))["FRANCE"] == 3


# --------------------------------------------------------------------------- item 9a


def test_power_colours_stand_out_on_the_sea_and_the_land_and_from_each_other() -> None:
    doc = {
        "map": "standard",
        "phase": "S1901M",
        "units": {
            "AUSTRIA": ["F ADR", "A BUD"],
            "ENGLAND": ["F NTH", "A YOR"],
            "FRANCE": ["F MAO", "A GAS"],
            "GERMANY": ["F HEL", "A RUH"],
            "ITALY": ["F TYS", "A TUS"],
            "RUSSIA": ["F BAL", "A UKR"],
            "TURKEY": ["F BLA", "A ARM"],
        },
        "centers": {},
    }
    root = parse(frames_from_document(doc)[0].svg())
    sea, land = fill_of(root, "MAO"), fill_of(root, "GAS")
    assert sea != land
    fills: dict[str, set[str]] = {}
    for g in groups(root, "unit"):
        body = g[0]
        fills.setdefault(g.get("data-power") or "", set()).add(body.get("fill") or "")
    assert set(fills) == set(standard_map().powers)
    colours = {}
    for power, found in fills.items():
        [colour] = found  # one colour per power, on the sea and on the land
        colours[power] = colour
        assert contrast_ratio(colour, sea) >= 3.0, (power, colour, contrast_ratio(colour, sea))
        assert contrast_ratio(colour, land) >= 3.0, (power, colour, contrast_ratio(colour, land))
    closest = min(
        (delta_e(colours[a], colours[b]), a, b) for a, b in itertools.combinations(colours, 2)
    )
    assert closest[0] > 30.0, closest


def test_other_maps_powers_stand_out_on_the_sea_and_the_land() -> None:
    game_map = shipped_map("westernworld901")
    root = parse(board_svg(Position.initial(game_map)))
    sea = next(fill_of(root, p) for p, prov in game_map.provinces.items() if prov.kind == "sea")
    land = next(
        fill_of(root, p)
        for p, prov in game_map.provinces.items()
        if prov.kind != "sea" and p not in game_map.centers
    )
    colours = {g.get("data-power"): g[0].get("fill") or "" for g in groups(root, "unit")}
    assert len(colours) >= 9
    for power, colour in colours.items():
        assert min(contrast_ratio(colour, sea), contrast_ratio(colour, land)) >= 3.0, power


# --------------------------------------------------------------------------- item 9b


WINTER = {
    "map": "standard",
    "phase": "W1901A",
    "units": {"ENGLAND": ["F LON"], "FRANCE": ["A PAR"], "GERMANY": ["A BER"]},
    "centers": {
        "ENGLAND": ["LON", "EDI", "LVP"],
        "FRANCE": ["PAR"],
        "GERMANY": ["BER", "KIE", "MUN"],
    },
    "orders": {"ENGLAND": ["A LVP B", "WAIVE"], "GERMANY": ["A MUN B"]},
}


@pytest.mark.parametrize("source", ["input", "output"])
def test_a_waived_build_is_drawn_in_its_powers_row(source: str) -> None:
    doc: dict[str, Any] = WINTER if source == "input" else adjudicate_document(WINTER)
    root = parse(frames_from_document(doc)[0].svg())
    marks = {
        (g.get("data-power"), g.get("data-given")): (g.get("data-waived"), "".join(g.itertext()))
        for g in groups(root, "waive")
    }
    # England waives one build by order; Germany orders one of its two: the other is waived.
    assert marks == {
        ("ENGLAND", "true"): ("1", "waives 1 build"),
        ("GERMANY", "false"): ("1", "1 build not ordered: waived"),
    }
    # Each mark sits under its power's row, in the panel.
    [panel] = groups(root, "panel")
    order = [
        (g.get("data-power"), "waive" in _classes(g))
        for g in panel.iter(f"{NS}g")
        if _classes(g) & {"count", "waive"}
    ]
    assert order.index(("ENGLAND", True)) == order.index(("ENGLAND", False)) + 1
    assert order.index(("GERMANY", True)) == order.index(("GERMANY", False)) + 1


# --------------------------------------------------------------------------- item 9c


def test_a_schematic_says_it_is_no_geography_and_a_real_map_does_not() -> None:
    drawn = parse(board_svg(Position.initial(shipped_map("pure"))))
    assert drawn.get("data-layout") == "schematic"
    [note] = groups(drawn, "schematic-note")
    assert "".join(note.itertext()) == SCHEMATIC_NOTE
    # In the header, above the map.
    rect = note.find(f"{NS}rect")
    assert rect is not None and float(rect.get("y") or 99) + float(rect.get("height") or 99) < 62
    for name in ("standard", "ancmed"):
        real = parse(board_svg(Position.initial(shipped_map(name))))
        assert real.get("data-layout") == "geography"
        assert not groups(real, "schematic-note")
        assert SCHEMATIC_NOTE not in "".join(real.itertext())


# --------------------------------------------------------------------------- item 9d


def test_the_panel_lists_only_the_powers_the_document_concerns() -> None:
    root = parse(frames_from_document(FALL)[0].svg())
    assert [p for p, _c, _u in panel_rows(root)] == ["FRANCE", "ENGLAND"]
    # A centre, or an order (even a refused one), is enough to be listed.
    doc = {
        **FALL,
        "centers": {**FALL["centers"], "GERMANY": ["KIE"]},
        "orders": {**FALL["orders"], "ITALY": ["A ROM H"]},
    }
    root = parse(frames_from_document(doc)[0].svg())
    assert {p for p, _c, _u in panel_rows(root)} == {"ENGLAND", "FRANCE", "GERMANY", "ITALY"}
    assert ("ITALY", 0, 0) in panel_rows(root)


# --------------------------------------------------------------------------- item 9e


def _uncontrolled_map(name: str) -> Map:
    """westernworld901 (godip's: a neutral power) or MILA's known_world_901 (a power no player
    controls, ``DUMMY``: the rulings count it as a power, pictures show it as neutral)."""
    if name in SHIPPED_MAPS:
        return shipped_map(name)
    diplomacy = pytest.importorskip("diplomacy", reason="MILA's map files come with diplomacy")
    return load_mila_map(Path(diplomacy.__file__).parent / "maps" / f"{name}.map")


@pytest.mark.parametrize("name", ["westernworld901", "known_world_901"])
def test_a_neutral_power_is_shown_neutral_not_ranked_among_the_players(name: str) -> None:
    game_map = _uncontrolled_map(name)
    [neutral] = game_map.uncontrolled
    root = parse(board_svg(Position.initial(game_map)))
    rows = panel_rows(root)
    powers = [p for p, _c, _u in rows]
    # NEUTRAL holds the most centres but is listed last, marked, after every player.
    assert max(rows, key=lambda r: r[1])[0] == neutral
    assert powers[-1] == neutral and neutral not in powers[:-1]
    [row] = [g for g in groups(root, "count") if g.get("data-power") == neutral]
    assert "neutral" in _classes(row) and row.get("data-neutral") == "true"
    assert "neutral" in "".join(row.itertext()).lower()
    # Drawn in grey, no player's hue: its row's key, its units and its centres' dots.
    key = row.find(f"{NS}rect")
    grey = key.get("fill") if key is not None else ""
    assert grey and grey[1:3] == grey[3:5] == grey[5:7]
    fills = {g[0].get("fill") for g in groups(root, "unit") if g.get("data-power") == neutral}
    assert fills == {grey}
    others = {g[0].get("fill") for g in groups(root, "unit") if g.get("data-power") != neutral}
    assert grey not in others
    assert not any("neutral" in _classes(g) for g in groups(root, "count") if g is not row)


@pytest.mark.parametrize("name", ["westernworld901", "known_world_901"])
def test_a_drawn_game_names_the_players_in_the_draw_not_the_neutral_power(name: str) -> None:
    game_map = _uncontrolled_map(name)
    [neutral] = game_map.uncontrolled
    game = Game(game_map, max_year=Position.initial(game_map).phase.year)
    while not game.is_over:
        game.process()
    assert game.draw
    note = frames_of_game(game)[-1].note or ""
    assert note.startswith("game over: draw among ")
    named = note.removeprefix("game over: draw among ").split(", ")
    assert neutral.title() not in named
    assert len(named) == len(game_map.players) - len(game_map.dummies)
    # A dummy stays a survivor of the rulings (MILA counts it); only the words leave it out.
    assert (neutral in game.survivors) == (neutral in game_map.dummies)
    page = game_page(frames_of_game(game))
    assert note in page
    # Beside each picture, the page says which centres it shows: after each ruled phase, and
    # the final board's own.
    shown = re.findall(r'<p class="shows">([^<]*)</p>', page)
    assert shown == ["Units before the orders; supply centres after the phase."] * len(
        game.history
    ) + ["Units and supply centres of this position."]
