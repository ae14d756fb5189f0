"""Pictures from hostile documents: mutated inputs, contract outputs and game files are drawn.

Each is either refused with a :class:`RenderError` (one clear line) or drawn; every picture drawn
must be well-formed XML holding nothing that runs script (no ``<script>``, ``<foreignObject>``,
``on*=`` attribute or ``javascript:`` address), and every page must carry only its own two
scripts under its Content-Security-Policy. ``check_render`` is the surface for long runs
(``docs/fuzzing.md``); the tests below run a few hundred cases and the known reproducers.
"""

from __future__ import annotations

import copy
import gc
import itertools
import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.map import Map, standard_map
from diplo.render import geometry as geometry_module
from diplo.render.frames import RenderError, frames_from_document
from diplo.render.html import CSP, game_page
from diplo.render.svg import board_svg
from fuzzing import mutate, seed_documents, seed_games

M = standard_map()

#: Strings an attacker puts in a document's fields.
PAYLOADS = (
    '"><script>alert(1)</script>',
    "<script>alert(1)</script>",
    "' onload='alert(1)",
    '" onmouseover="alert(1)',
    "javascript:alert(1)",
    "</text><foreignObject><body onload='x'/></foreignObject>",
    "]]><!--",
    "\x00\x01\x08\x0b\x1f",
    "\ud800",
    "\ufffe",
    "&amp;&#0;&#x1;",
)

_SCRIPT_ATTR_VALUE = ("javascript:", "vbscript:", "data:text/html")


# --------------------------------------------------------------------------- the checks


def _check_svg(svg: str) -> None:
    """Well-formed XML with no element or attribute that can run script."""
    root = ET.fromstring(svg)  # raises on ill-formed XML
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1].lower()
        assert tag not in {"script", "foreignobject", "iframe", "embed", "object"}, tag
        for name, value in element.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            assert not local.startswith("on"), (tag, name)
            if local in {"href", "src", "xlink:href", "action", "formaction"} or "href" in local:
                assert not value.strip().lower().startswith(_SCRIPT_ATTR_VALUE), value


class _PageTags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[dict[str, str | None]] = []
        self.bad: list[str] = []
        self.csp: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self.scripts.append(found)
        if tag in {"foreignobject", "iframe", "embed", "object", "base"}:
            self.bad.append(tag)
        if tag == "meta" and (found.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp.append(found.get("content") or "")
        for name, value in attrs:
            if name.startswith("on"):
                self.bad.append(f"{tag} {name}")
            if value and "href" in name and value.strip().lower().startswith(_SCRIPT_ATTR_VALUE):
                self.bad.append(f"{tag} {name}={value}")


def _check_page(page: str) -> None:
    tags = _PageTags()
    tags.feed(page)
    assert not tags.bad, tags.bad
    # The page's own two scripts: the phase list (data, never run) and the stepping script.
    assert [s.get("type") for s in tags.scripts] == ["application/json", None], tags.scripts
    assert tags.csp == [CSP]


def _poison(doc: Any, rng: random.Random) -> Any:
    """``doc`` with a few of its strings (keys or values) replaced by script payloads."""
    doc = copy.deepcopy(doc)
    strings: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                strings.append((node, k))
                walk(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                strings.append((node, i))
                walk(v)

    walk(doc)
    for _ in range(rng.randint(1, 3)):
        if not strings:
            break
        parent, key = rng.choice(strings)
        if key not in (parent if isinstance(parent, dict) else range(len(parent))):
            continue
        value = parent[key]
        payload = rng.choice(PAYLOADS)
        if isinstance(value, str):
            parent[key] = value + payload if rng.random() < 0.5 else payload
        elif isinstance(parent, dict) and rng.random() < 0.3:
            parent[str(key) + payload] = parent.pop(key)
    return doc


def _output_documents() -> list[dict[str, Any]]:
    outputs = []
    for text in seed_documents()[-40:]:
        outputs.append(adjudicate_document(json.loads(text)))
    return outputs


_OUTPUTS: list[dict[str, Any]] = []


def check_render(rng: random.Random) -> str:
    """One hostile document drawn: 'refused' or 'drawn' (every picture and the page checked)."""
    roll = rng.random()
    if roll < 0.35:
        doc: Any = json.loads(rng.choice(seed_documents()))
    elif roll < 0.7:
        if not _OUTPUTS:
            _OUTPUTS.extend(_output_documents())
        doc = copy.deepcopy(rng.choice(_OUTPUTS))
    else:
        doc = json.loads(seed_games()[0])
    if rng.random() < 0.6:
        doc = mutate(doc, rng) if isinstance(doc, dict) else doc
    if rng.random() < 0.6:
        doc = _poison(doc, rng)
    try:
        frames = frames_from_document(doc)
    except RenderError as exc:
        message = str(exc)
        assert "Traceback" not in message and len(message) < 2000, message[:300]
        return "refused"
    for frame in frames[:6]:
        _check_svg(frame.svg())
    _check_page(game_page(frames[:6], rng.choice(PAYLOADS)))
    return "drawn"


# --------------------------------------------------------------------------- tests


def test_hostile_documents_are_refused_or_drawn_safely() -> None:
    rng = random.Random(2101)
    seen = {"refused": 0, "drawn": 0}
    for _ in range(int(os.environ.get("DIPLO_RENDER_FUZZ", "150"))):
        seen[check_render(rng)] += 1
    assert seen["refused"] and seen["drawn"], seen


def _output(**changes: Any) -> dict[str, Any]:
    doc = adjudicate_document(
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
            "orders": {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]},
        }
    )
    doc["results"][0].update(changes)
    return doc


@pytest.mark.parametrize(
    "field,value",
    [
        ("code", "<script>alert(1)</script>"),
        ("power", '"><script>alert(1)</script>'),
        ("code", "bounce\x01"),
        ("power", "FRANCE\x00"),
        ("success", "yes"),
        ("order", 7),
    ],
)
def test_an_output_document_is_checked_not_copied(field: str, value: Any) -> None:
    with pytest.raises(RenderError, match=rf"results\[0\]\.{field}"):
        frames_from_document(_output(**{field: value}))


def test_script_in_results_never_reaches_the_picture() -> None:
    # The library call draws whatever it is given: strings are escaped, unknown codes and powers
    # are not drawn as such, and characters XML cannot hold are replaced.
    from diplo.model.position import Position

    position = Position.initial(M)
    results = [
        {"power": "FRANCE", "order": "A PAR - BUR", "code": "<script>x</script>", "success": False},
        {"power": "<script>x</script>", "order": "A MAR - SPA", "code": "ok", "success": True},
        {"power": "FRANCE", "order": "A PAR - \x01<script>", "legal": False, "code": "illegal"},
        {"power": "FRANCE", "order": "F BRE - \ud800", "legal": False, "code": "illegal"},
    ]
    svg = board_svg(position, results, title="</text><script>alert(1)</script>\x07")
    _check_svg(svg)
    assert "<script" not in svg
    svg.encode("utf-8")  # no lone surrogate left


def test_a_tampered_game_file_is_not_drawn() -> None:
    doc = json.loads(seed_games()[0])
    for phase in doc["phases"]:
        for result in phase.get("results", []):
            if result.get("code") == "ok":
                result["code"] = "bounce"
                result["success"] = False
                break
        else:
            continue
        break
    with pytest.raises(RenderError, match="bad game file"):
        frames_from_document(doc)


def test_a_map_name_never_becomes_a_path(tmp_path: Path) -> None:
    # A geometry file outside the package, and a map whose name leads to it.
    data_dir = Path(str(resources.files("diplo.data")))
    trap = tmp_path / "trap.geometry.json"
    trap.write_text("{not json", encoding="utf-8")
    name = os.path.relpath(tmp_path / "trap", data_dir)
    assert "../" in name
    data = M.to_dict()
    data["name"] = name
    evil = Map.from_dict(data)
    geometry = geometry_module.geometry_for(evil)  # the standard board's, never the trap
    assert set(geometry.anchors) == set(M.locations)
    assert geometry_module._shipped(name) is None
    assert geometry_module._shipped("/etc/passwd") is None


def test_geometry_cache_lives_with_its_map() -> None:
    def small(name: str, provinces: list[str]) -> Map:
        return Map.from_dict(
            {
                "name": name,
                "powers": {
                    "P": {
                        "adjective": "Pish",
                        "homes": [provinces[0]],
                        "units": [f"A {provinces[0]}"],
                    }
                },
                "provinces": [
                    {"abbr": p, "name": p.title(), "type": "land", "center": i == 0}
                    for i, p in enumerate(provinces)
                ],
                "army_edges": [[a, b] for a, b in itertools.pairwise(provinces)],
                "fleet_edges": [],
            }
        )

    first = small("twin", ["AAA", "BBB", "CCC"])
    assert set(geometry_module.geometry_for(first).anchors) == {"AAA", "BBB", "CCC"}
    before = len(geometry_module._CACHE)
    del first
    gc.collect()
    assert len(geometry_module._CACHE) == before - 1
    # Same name, other provinces: its own geometry, whatever id it was given.
    second = small("twin", ["XXX", "YYY", "ZZZ", "WWW"])
    assert set(geometry_module.geometry_for(second).anchors) == {"XXX", "YYY", "ZZZ", "WWW"}


@pytest.mark.parametrize(
    "raw,message",
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"phase": 1' + b"1" * 5000 + b"}", "bad JSON"),
        (b'{"phase": "S1901M", "results": [1], "next": {}}', "results[0]"),
        (b'{"phase": "S1901M", "results": [], "next": []}', "next"),
        (b"[]", "JSON object"),
    ],
)
def test_render_and_view_refuse_bad_documents_clearly(
    tmp_path: Path, raw: bytes, message: str
) -> None:
    source = tmp_path / "doc.json"
    source.write_bytes(raw)
    for command in (["render", str(source)], ["view", str(source), "-o", str(tmp_path / "p.html")]):
        done = subprocess.run(
            [sys.executable, "-m", "diplo", *command], capture_output=True, text=True, check=False
        )
        assert done.returncode == 2, (command, done.stderr)
        assert message in done.stderr and "internal error" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1


def test_pictures_of_every_processed_phase() -> None:
    # ``_repr_svg_`` of positions and outcomes of random games: never an error.
    from diplo.api.game import Game
    from diplo.api.player import RandomPlayer

    for seed in range(3):
        game = Game(max_year=1904)
        player = RandomPlayer(random.Random(seed))
        while not game.is_over:
            for power in game.orderable_powers():
                game.set_orders(power, player.orders(game.position, power))
            before = game.position
            game.process()
            outcome = game.history[-1].outcome
            for value in (before, outcome):
                svg = value._repr_svg_()
                assert svg is not None
                _check_svg(svg)


def test_document_error_is_the_contract_refusal() -> None:
    # The renderer adjudicates input documents through the contract; its refusals surface as
    # RenderError (never DocumentError or anything else).
    with pytest.raises(DocumentError):
        adjudicate_document({"phase": "S1901M", "orders": {"FRANCE": 3}})
    with pytest.raises(RenderError):
        frames_from_document({"phase": "S1901M", "orders": {"FRANCE": 3}})
