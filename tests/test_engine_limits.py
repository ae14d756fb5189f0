"""Maps past the engine's limits (issue 31, item 4): the engine plays every map the reference
plays, with the same convoy bound and fallback (``tests/test_reference_convoy_grid.py``), or
the command refuses it with exit 2 and the limit named, never "internal error": more than
1,024 locations or 255 powers. Where the backend is not asked for, ``diplo play`` and
``diplo adjudicate`` rule such a map on the reference (said on standard error for ``play``),
as :func:`diplo.api.backends.backend_for` does for the Python API."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from diplo.api.backends import BackendError, backend_for
from diplo.apps import cli
from diplo.model.map import Map
from diplo.model.wording import BAD_INPUT


def _line(provinces: int) -> dict[str, Any]:
    """A row of land provinces, two powers at one end: more locations than the engine takes."""
    names = [f"P{i:04d}" for i in range(provinces)]
    return {
        "name": "line",
        "first_phase": "S1901M",
        "powers": {
            "ONE": {"adjective": "One", "homes": [names[0]], "units": [f"A {names[0]}"]},
            "TWO": {"adjective": "Two", "homes": [names[3]], "units": [f"A {names[3]}"]},
        },
        "provinces": [
            {"abbr": n, "name": f"Province {i}", "type": "land", "center": i < 6}
            for i, n in enumerate(names)
        ],
        "army_edges": [list(pair) for pair in itertools.pairwise(names)],
        "fleet_edges": [],
    }


def _crowd(powers: int) -> dict[str, Any]:
    """A row of home centres, one power each: more powers than the engine takes."""
    names = [f"P{i:03d}" for i in range(powers)]
    tags = ["".join(chr(65 + (i // 26**t) % 26) for t in range(2)) for i in range(powers)]
    return {
        "name": "crowd",
        "first_phase": "S1901M",
        "powers": {
            f"POWER{t}": {"adjective": f"Power{t}", "homes": [n], "units": [f"A {n}"]}
            for t, n in zip(tags, names, strict=True)
        },
        "provinces": [
            {"abbr": n, "name": f"Province {i}", "type": "land", "center": True}
            for i, n in enumerate(names)
        ],
        "army_edges": [list(pair) for pair in itertools.pairwise(names)],
        "fleet_edges": [],
    }


LIMITS = {"locations": (_line(1030), "at most 1024 locations"), "powers": (_crowd(260), "1 to 255")}


@pytest.fixture(params=sorted(LIMITS))
def too_big(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path, str]:
    """A map file past one limit, a document on it, and the words naming the limit."""
    data, limit = LIMITS[request.param]
    map_file = tmp_path / "map.json"
    map_file.write_text(json.dumps(data))
    first = next(iter(data["powers"].items()))
    doc = {
        "map": data["name"],
        "phase": "S1901M",
        "units": {first[0]: first[1]["units"]},
        "orders": {first[0]: [f"{first[1]['units'][0]} H"]},
    }
    doc_file = tmp_path / "doc.json"
    doc_file.write_text(json.dumps(doc))
    return map_file, doc_file, limit


def test_the_api_names_the_limit_and_defaults_to_the_reference() -> None:
    for data, limit in LIMITS.values():
        game_map = Map.from_dict(data)
        assert backend_for(None, game_map).name == "python"
        with pytest.raises(BackendError, match=limit):
            backend_for("rust", game_map)


def test_adjudicate_rules_on_the_reference_or_refuses_the_engine_with_exit_2(
    too_big: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    map_file, doc_file, limit = too_big
    assert cli.main(["adjudicate", "--map", str(map_file), str(doc_file)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["phase"] == "S1901M" and out["results"], out
    assert cli.main(["adjudicate", "--backend", "rust", "--map", str(map_file), str(doc_file)]) == (
        BAD_INPUT
    )
    err = capsys.readouterr().err
    assert limit in err and "internal error" not in err, err
    line = doc_file.read_text()
    source = doc_file.with_suffix(".jsonl")
    source.write_text(line + "\n" + line + "\n")
    code = cli.main(
        ["adjudicate", "--jsonl", "--backend", "rust", "--map", str(map_file), str(source)]
    )
    answers = [json.loads(a) for a in capsys.readouterr().out.splitlines()]
    assert code == BAD_INPUT and len(answers) == 2
    assert all(limit in a["error"] for a in answers), answers


def test_play_plays_on_the_reference_or_refuses_the_engine_with_exit_2(
    too_big: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    map_file, _, limit = too_big
    assert cli.main(["play", "--map", str(map_file), "--years", "1", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert limit in err and "playing on the Python reference" in err, err
    code = cli.main(["play", "--backend", "rust", "--map", str(map_file), "--years", "1"])
    err = capsys.readouterr().err
    assert code == BAD_INPUT and limit in err and "internal error" not in err, err


def test_rollouts_and_bench_refuse_the_map_with_exit_2(
    too_big: tuple[Path, Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    map_file, _, limit = too_big
    out = tmp_path / "runs"
    code = cli.main(
        [
            "rollouts",
            "--backend",
            "local",
            "--map",
            str(map_file),
            "--games",
            "1",
            "--out",
            str(out),
        ]
    )
    err = capsys.readouterr().err
    assert code == BAD_INPUT and limit in err and "internal error" not in err, err
    assert not out.exists() or not any(out.iterdir())
    code = cli.main(["bench", "--map", str(map_file), "--rounds", "1", "--workloads", "movement"])
    err = capsys.readouterr().err
    assert code == BAD_INPUT and limit in err, err
