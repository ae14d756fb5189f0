"""The map loaders under hostile input: a malformed map file, or MILA ``.map`` file, raises
:class:`~diplo.model.map.MapError` naming the entry (or the line), never another exception.

The reproducers of issue 13 come first; then hypothesis fuzz tests: structure-aware mutations of
the shipped standard map (a value anywhere replaced by arbitrary JSON), arbitrary bytes through
``Map.load``, and mutated lines of MILA's ``pure.map`` format through ``load_mila_map``. They run
derandomized (a fixed seed) with a bounded budget in CI: ``DIPLO_FUZZ_EXAMPLES`` sets the number
of examples per test (default 200; the long run in the closing note of issue 10 used 20,000).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diplo.model.map import Map, MapError, standard_map
from diplo.model.variants import load_mila_map

EXAMPLES = int(os.environ.get("DIPLO_FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
STANDARD: dict[str, Any] = standard_map().to_dict()


def _load_json(tmp_path: Path, data: bytes) -> Map:
    path = tmp_path / "map.json"
    path.write_bytes(data)
    return Map.load(path)


# --------------------------------------------------------------------------- reproducers


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"name": "x\xff"}', "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply|not valid JSON"),
        (b'{"victory": ' + b"7" * 5000 + b"}", "not valid JSON"),
        (b"[]", "map data must be an object"),
        (b"", "not valid JSON"),
    ],
)
def test_malformed_files_raise_map_error(tmp_path: Path, data: bytes, message: str) -> None:
    with pytest.raises(MapError, match=message):
        _load_json(tmp_path, data)


def test_unreadable_paths_raise_map_error(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="cannot read"):
        Map.load(tmp_path / "missing.json")
    with pytest.raises(MapError, match="cannot read"):
        Map.load(tmp_path)  # a directory


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(STANDARD)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("provinces", 0, "type"), ["sea"], "province ADR: 'type' must be"),
        (("provinces", 0, "coasts"), "NC", "province ADR: 'coasts' must be a list"),
        (("provinces", 0, "aliases"), [1], "province ADR: 'aliases' must be a list"),
        (("provinces", 0, "center"), "yes", "province ADR: 'center' must be"),
        (("provinces", 0, "name"), {"a": 1}, "province ADR: bad name"),
        (("provinces", 0), [[[[[[[[[[]]]]]]]]]], r"province #0: must be an object"),
        (("army_edges", 0), ["ALB", ["GRE"]], "edge .* must be a pair"),
        (("powers", "FRANCE", "homes"), "PAR", "power FRANCE: 'homes' must be"),
        (("powers", "FRANCE", "units"), [None], "power FRANCE: 'units' must be"),
        (("victory",), 10**400, "map: 'victory' must be"),
        (("first_phase",), ["S1901M"], "map: 'first_phase' must be"),
        (("rules",), {"civil_disorder": 1}, "map: rules: civil_disorder"),
        (("name",), None, "map: 'name' must be"),
    ],
)
def test_bad_entries_are_named(path: tuple[Any, ...], value: Any, message: str) -> None:
    with pytest.raises(MapError, match=message):
        Map.from_dict(_with(path, value))


@pytest.mark.parametrize("abbr", ["H", "S", "C", "VIA", "TO", "M", "A", "F", "D", "B", "R"])
def test_a_province_abbreviated_like_an_order_keyword_is_refused(abbr: str) -> None:
    data = _with(("provinces", 0, "abbr"), abbr)
    data["army_edges"] = [e for e in data["army_edges"] if "ADR" not in e]
    data["fleet_edges"] = [e for e in data["fleet_edges"] if "ADR" not in e]
    with pytest.raises(MapError, match=f"province {abbr}: the abbreviation is an order keyword"):
        Map.from_dict(data)


def test_a_name_or_alias_like_an_order_keyword_is_refused() -> None:
    with pytest.raises(MapError, match="is an order keyword"):
        Map.from_dict(_with(("provinces", 0, "aliases"), ["via"]))


def test_error_messages_stay_short() -> None:
    with pytest.raises(MapError) as info:
        Map.from_dict(_with(("provinces", 0, "name"), ["x" * 2_000_000]))
    assert len(str(info.value)) < 300
    with pytest.raises(MapError) as info:
        Map.from_dict(_with(("army_edges", 0), ["A" * 2_000_000]))
    assert len(str(info.value)) < 300


# --------------------------------------------------------------------------- fuzz

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(STANDARD)


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PATHS), JSON), min_size=1, max_size=3))
def test_fuzz_mutated_standard_map(mutations: list[tuple[tuple[Any, ...], Any]]) -> None:
    data = copy.deepcopy(STANDARD)
    for path, value in mutations:
        target: Any = data
        try:
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the way there
    with contextlib.suppress(MapError):
        Map.from_dict(data)


@FUZZ
@given(st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()))
def test_fuzz_map_file_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "map.json"
    path.write_bytes(data)
    with contextlib.suppress(MapError):
        Map.load(path)


PURE_LINES = """\
BEGIN SPRING 1901 MOVEMENT
VICTORY 4
AUSTRIA (AUSTRIAN) VIE
A VIE
FRANCE (FRENCH) PAR
F PAR
UNOWNED BER
Berlin = ber berl
Paris = par
Vienna = vie
COAST BER ABUTS PAR VIE
COAST PAR ABUTS BER VIE
COAST VIE ABUTS BER PAR
""".splitlines()
TOKENS = st.sampled_from(
    [
        "LAND",
        "WATER",
        "COAST",
        "PORT",
        "SHUT",
        "ABUTS",
        "A",
        "F",
        "UNOWNED",
        "UNPLAYED",
        "MAP",
        "USE",
        "VICTORY",
        "BEGIN",
        "RULE",
        "BUILD_ANY",
        "DUMMY",
        "DROP",
        "=",
        "#",
        "PAR",
        "par",
        "Par",
        "PAR/NC",
        "VIE",
        "BER",
        "XX",
        "(X)",
        "(",
        "1901",
        "0",
        "-1",
        "SPRING",
        "MOVEMENT",
        "H",
        "S",
        "VIA",
        "->",
        "\x00",
        "é",
        "pure",
        "..",
        "/",
    ]
)
LINE = st.lists(TOKENS, max_size=6).map(" ".join) | st.text(max_size=20)


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(PURE_LINES)), st.sampled_from(["insert", "replace", "drop"]), LINE
        ),
        max_size=4,
    )
)
def test_fuzz_mila_map_lines(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[int, str, str]]
) -> None:
    lines = list(PURE_LINES)
    for index, how, line in edits:
        index = min(index, len(lines))
        if how == "insert" or index == len(lines):
            lines.insert(index, line)
        elif how == "replace":
            lines[index] = line
        else:
            del lines[index]
    folder = tmp_path_factory.mktemp("mila")
    (folder / "pure.map").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with contextlib.suppress(MapError):
        load_mila_map(folder / "pure.map")


@FUZZ
@given(st.binary(max_size=300))
def test_fuzz_mila_map_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("milab") / "x.map"
    path.write_bytes(data)
    with contextlib.suppress(MapError):
        load_mila_map(path)
