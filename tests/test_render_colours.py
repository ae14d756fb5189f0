"""Owners told apart and titles that fit, on every map diplo ships and every map of MILA's
(issue 46): any two powers of one map differ by CIEDE2000 20 or more, or wear different
patterns; every colour stands out on the sea and the land; a title, however long, is wrapped to
the canvas and never runs under the schematic notice."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from diplo.model.map import SHIPPED_MAPS, Map, shipped_map
from diplo.model.position import Position
from diplo.model.variants import load_mila_map
from diplo.render.colours import (
    LAND,
    MIN_DELTA_E,
    NEUTRAL_COLOUR,
    PATTERNS,
    POWER_COLOURS,
    SEA,
    ciede2000,
    contrast_ratio,
    lab,
    power_paints,
)
from diplo.render.svg import BOLD_EM, TITLE_SIZE, board_svg, phase_name

NS = "{http://www.w3.org/2000/svg}"


def _mila_maps() -> list[Path]:
    try:
        import diplomacy
    except ImportError:
        return []
    return sorted((Path(diplomacy.__file__).parent / "maps").glob("*.map"))


MAPS: list[tuple[str, Path | None]] = [(name, None) for name in SHIPPED_MAPS] + [
    (f"mila:{path.stem}", path) for path in _mila_maps()
]


def _load(name: str, path: Path | None) -> Map:
    return shipped_map(name) if path is None else load_mila_map(path)


def test_ciede2000_agrees_with_the_published_pairs() -> None:
    # Sharma, Wu and Dalal's test data for CIEDE2000 (pairs 1, 2, 7 and 17 of their table).
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ]
    for a, b, expected in pairs:
        assert ciede2000(a, b) == pytest.approx(expected, abs=1e-4)
        assert ciede2000(b, a) == pytest.approx(expected, abs=1e-4)


def test_the_mila_maps_are_all_here_when_mila_is() -> None:
    if not _mila_maps():
        pytest.skip("MILA (the 'compare' extra) is not installed")
    assert len(_mila_maps()) == 14


@pytest.mark.parametrize(("name", "path"), MAPS, ids=[name for name, _ in MAPS])
def test_every_two_powers_of_a_map_are_told_apart(name: str, path: Path | None) -> None:
    game_map = _load(name, path)
    paints = power_paints(game_map.powers, game_map.uncontrolled)
    assert list(paints) == list(game_map.powers)
    for power, paint in paints.items():
        assert min(contrast_ratio(paint.colour, SEA), contrast_ratio(paint.colour, LAND)) >= 3.0
        if power in game_map.uncontrolled:
            assert paint == type(paint)(NEUTRAL_COLOUR)
        elif power in POWER_COLOURS:
            assert paint.colour == POWER_COLOURS[power] and paint.pattern == 0
    for (a, pa), (b, pb) in itertools.combinations(paints.items(), 2):
        if pa.pattern == pb.pattern:
            difference = ciede2000(lab(pa.colour), lab(pb.colour))
            assert difference >= MIN_DELTA_E, (name, a, pa, b, pb, round(difference, 1))
    assert max(p.pattern for p in paints.values()) < len(PATTERNS)

    # The picture wears them: each unit says its power's paint, and fills itself so.
    root = ET.fromstring(board_svg(Position.initial(game_map)))
    defined = {p.get("id"): p.get("data-pattern") for p in root.iter(f"{NS}pattern")}
    seen = set()
    for unit in root.iter(f"{NS}g"):
        if "unit" not in (unit.get("class") or "").split():
            continue
        power = unit.get("data-power") or ""
        paint = paints[power]
        assert unit.get("data-colour") == paint.colour
        assert unit.get("data-pattern") == PATTERNS[paint.pattern]
        fill = unit[0].get("fill") or ""
        if paint.pattern:
            reference = re.fullmatch(r"url\(#(.+)\)", fill)
            assert reference and defined.get(reference.group(1)) == PATTERNS[paint.pattern]
        else:
            assert fill == paint.colour
        seen.add(power)
    # The panel's square of each power is filled as its units are (chaos starts with none).
    for row in root.iter(f"{NS}g"):
        if "count" not in (row.get("class") or "").split():
            continue
        paint = paints[row.get("data-power") or ""]
        square = row[0].get("fill") or ""
        assert square == paint.colour if not paint.pattern else square.startswith("url(#paint-")
        seen.add(row.get("data-power") or "")
    assert seen == set(game_map.powers) - set(game_map.uncontrolled) or seen >= set(
        game_map.players
    )


def test_the_maps_named_in_the_issue_are_apart_now() -> None:
    """MILA's ``modern`` had Italy and Ukraine at CIE76 11.9, ``known_world_901`` Denmark and
    Srivijaya at 9.2."""
    for stem, a, b in (("modern", "ITALY", "UKRAINE"), ("known_world_901", "DENMARK", "SRIVIJAYA")):
        path = next((p for p in _mila_maps() if p.stem == stem), None)
        if path is None:
            pytest.skip("MILA (the 'compare' extra) is not installed")
        game_map = load_mila_map(path)
        paints = power_paints(game_map.powers, game_map.uncontrolled)
        pa, pb = paints[a], paints[b]
        assert pa.pattern != pb.pattern or ciede2000(lab(pa.colour), lab(pb.colour)) >= 20


def _header(root: ET.Element) -> tuple[list[tuple[float, str]], float, float, float]:
    """The title's lines (baseline, text), the caption's baseline, where the map starts and the
    canvas width."""
    title = next(t for t in root.iter(f"{NS}text") if t.get("class") == "title")
    spans = list(title.iter(f"{NS}tspan"))
    lines = (
        [(float(s.get("y") or 0), s.text or "") for s in spans]
        if spans
        else [(float(title.get("y") or 0), title.text or "")]
    )
    caption = next(t for t in root.iter(f"{NS}text") if t.get("class") == "caption")
    board = next(g for g in root.iter(f"{NS}g") if g.get("class") == "map")
    start = float(re.findall(r"[\d.]+", board.get("transform") or "")[1])
    return lines, float(caption.get("y") or 0), start, float(root.get("width") or 0)


@pytest.mark.parametrize(("name", "path"), MAPS, ids=[name for name, _ in MAPS])
def test_a_long_title_is_wrapped_to_the_canvas_above_the_notice(
    name: str, path: Path | None
) -> None:
    game_map = _load(name, path)
    position = Position.initial(game_map)
    # The longest title a frame makes: a game that ends drawn among every player.
    among = ", ".join(p.title() for p in game_map.players)
    title = f"{phase_name(position.phase)} (game over: draw among {among})"
    root = ET.fromstring(board_svg(position, title=title))
    lines, caption, start, width = _header(root)
    assert " ".join(text for _y, text in lines) == title
    for _y, text in lines:
        assert 14 + len(text) * BOLD_EM * TITLE_SIZE <= width - 14, (name, text)
    last = lines[-1][0]
    assert caption >= last + 15  # the caption is below the title's last line
    notes = [g for g in root.iter(f"{NS}g") if g.get("class") == "schematic-note"]
    for note in notes:
        rect = note[0]
        x, y = float(rect.get("x") or 0), float(rect.get("y") or 0)
        w, h = float(rect.get("width") or 0), float(rect.get("height") or 0)
        assert y >= last + 5, name  # never under the title
        assert x >= 0 and x + w <= width, name  # on the canvas
        assert y + h <= start, name  # above the board
    assert caption <= start


def test_a_short_title_keeps_its_one_line() -> None:
    root = ET.fromstring(board_svg(Position.initial(shipped_map("standard"))))
    lines, caption, start, _width = _header(root)
    assert lines == [(29.0, "Spring 1901, movement")] and caption == 50.0 and start == 62.0
