"""What a newcomer meets on the command line and at the first Python call (issue 46): no option
silently ignored, map names in any case, a map's name where a map belongs, MILA saves drawn,
command-line errors that give the command line's fix, skips that name their missing file, a
closed standard output that loses no ``--save`` file."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import diplo
from diplo.formats.gamefile import load, save
from diplo.model.map import MapError, map_named, shipped_map
from diplo.model.position import Position
from diplo.model.variants import load_map
from diplo.model.wording import COMMAND_LINE_FIXES, for_command_line

ROOT = Path(__file__).resolve().parents[1]
DOC = {"map": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {}}


def diplo_cli(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "diplo", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )


# --------------------------------------------------------------------------- --map


def test_adjudicate_refuses_a_map_option_that_contradicts_the_document() -> None:
    done = diplo_cli("adjudicate", "--map", "ancmed", stdin=json.dumps(DOC))
    assert done.returncode == 2 and done.stdout == ""
    assert "names the map 'standard' but --map gives 'ancmed'" in done.stderr
    lines = diplo_cli("adjudicate", "--jsonl", "--map", "ancmed", stdin=json.dumps(DOC) + "\n")
    assert lines.returncode == 1
    (answer,) = [json.loads(line) for line in lines.stdout.splitlines()]
    assert answer["error"].startswith("line 1: the document names the map 'standard'")


@pytest.mark.parametrize("given", ["standard", "Standard", "CLASSICAL"])
def test_adjudicate_takes_a_map_option_that_agrees_with_the_document(given: str) -> None:
    done = diplo_cli("adjudicate", "--map", given, stdin=json.dumps(DOC))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["next"]["units"] == {"FRANCE": ["A PAR"]}
    # A document that names no map takes --map's.
    bare = {k: v for k, v in DOC.items() if k != "map"}
    other = diplo_cli("adjudicate", "--map", "ancmed", stdin=json.dumps(bare))
    assert other.returncode == 2 and "unknown power 'FRANCE'" in other.stderr  # (ancmed's)


def test_map_names_are_read_in_any_case() -> None:
    assert map_named("Standard") is shipped_map("standard")
    assert load_map("ANCMED") is shipped_map("ancmed")
    assert load_map("FleetRome") is shipped_map("fleet_rome")  # an alias, in any case
    done = diplo_cli("play", "--map", "Standard", "--seed", "1", "--max-year", "1901", "--quiet")
    assert done.returncode == 0, done.stderr
    with pytest.raises(MapError, match="unknown map 'Standardd'"):
        map_named("Standardd")


def test_game_takes_a_shipped_maps_name() -> None:
    game = diplo.Game("hundred")
    assert game.map is shipped_map("hundred")
    assert diplo.Game("Hundred").position == Position.initial(shipped_map("hundred"))
    with pytest.raises(MapError, match="unknown map 'nowhere'"):
        diplo.Game("nowhere")
    with pytest.raises(TypeError, match="map must be a diplo Map or a shipped map's name"):
        diplo.Game(7)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the fixes said


def test_command_line_errors_give_the_command_lines_fix(tmp_path: Path) -> None:
    game = diplo.Game(max_year=1902)
    rng = random.Random(4)
    while not game.is_over:
        for power in game.orderable_powers():
            legal = diplo.legal_order_texts(game.position, power)
            game.set_orders(power, [rng.choice(options) for options in legal.values()])
        game.process()
    path = tmp_path / "game.json"
    save(game, path)
    doc = json.loads(path.read_text())
    result = next(r for r in doc["phases"][0]["results"] if r["success"] and r["code"] == "ok")
    result["success"], result["code"] = False, "bounce"
    path.write_text(json.dumps(doc))
    done = diplo_cli("render", str(path), "--phase", "last")
    assert done.returncode == 2
    assert "S1901M: the stored ruling differs" in done.stderr
    assert "=False" not in done.stderr and "--no-verify" in done.stderr
    trusted = diplo_cli("render", str(path), "--phase", "S1901M", "--no-verify")
    assert trusted.returncode == 0, trusted.stderr
    assert 'class="fail bounce"' in trusted.stdout  # drawn as the file has it
    unknown = diplo_cli("adjudicate", stdin=json.dumps({**DOC, "map": "atlantis"}))
    assert unknown.returncode == 2 and "'maps'" not in unknown.stderr
    assert "--map FILE" in unknown.stderr
    for python_fix, command_fix in COMMAND_LINE_FIXES:
        assert for_command_line(f"x {python_fix}") == f"x {command_fix}"
        assert "=False" not in command_fix and "'maps'" not in command_fix


# --------------------------------------------------------------------------- MILA saves


def test_render_and_view_draw_a_save_mila_wrote(tmp_path: Path) -> None:
    """Seed 1's game is one that diplo's default ruling does not replay as MILA recorded it (it
    departs in S1902M): each picture is still the board MILA recorded, phase by phase."""
    mila = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")
    export = pytest.importorskip("diplomacy.utils.export")
    game = mila.Game()
    rng = random.Random(1)
    while not game.is_game_done and game.get_current_phase() != "S1903M":
        possible = game.get_all_possible_orders()
        for power in game.powers:
            locs = game.get_orderable_locations(power)
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
        game.process()
    saved = export.to_saved_game_format(game)
    path = tmp_path / "mila.json"
    path.write_text(json.dumps(saved))
    out = tmp_path / "pictures"
    done = diplo_cli("render", str(path), "-o", str(out))
    assert done.returncode == 0, done.stderr
    drawn = sorted(p.name for p in out.iterdir())
    # One picture per phase MILA played, and one of the board it stands at (S1903M).
    names = [re.sub(r"^\d+-|(-end)?\.svg$", "", name) for name in drawn]
    assert names == [p["name"] for p in saved["phases"]] and names[-1] == "S1903M"
    for name, phase in zip(drawn, saved["phases"], strict=True):
        svg = (out / name).read_text()
        units = set(
            re.findall(r'class="unit(?: dislodged)?" data-power="(\w+)" data-unit="([^"]+)"', svg)
        )
        recorded = {
            (power, unit.lstrip("*"))
            for power, mine in phase["state"]["units"].items()
            for unit in mine
        }
        assert units == recorded, phase["name"]
    view = diplo_cli("view", str(path), "-o", str(tmp_path / "mila.html"))
    assert view.returncode == 0, view.stderr
    assert (tmp_path / "mila.html").read_text().count("<svg") == len(drawn)


# --------------------------------------------------------------------------- skips


def test_every_skip_for_a_missing_file_names_the_file(tmp_path: Path) -> None:
    ids = [
        "tests/test_datc.py::test_fixture_is_up_to_date",
        "tests/test_map.py::test_every_place_in_datc_chapter_6_resolves",
        "tests/test_mila.py::test_differential_against_mila",
        "tests/test_mila.py::test_mila_edition_rules_as_mila_did",
        "tests/test_deepmind.py::test_mila_strings_agree_with_theirs",
        "tests/test_deepmind.py::test_their_readers_of_the_observation",
        "tests/test_deepmind_agents.py::test_their_network_plays_a_whole_game_on_diplo",
        "tests/test_bench_deepmind.py::test_the_mila_baseline_builds_what_diplo_builds",
    ]
    corpus, snapshot = tmp_path / "no-corpus.jsonl.gz", tmp_path / "no-deepmind"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *ids],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "DIPLO_MILA_CORPUS": str(corpus), "DIPLO_DEEPMIND": str(snapshot)},
    )
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) >= 6, done.stdout[-2000:]  # the DATC text may be there
    for line in skipped:
        named = re.findall(r"(/\S+)", line.split(": ", 1)[1])
        assert named and not Path(named[0].rstrip(")")).exists(), line


# --------------------------------------------------------------------------- play --save


PLAY = [sys.executable, "-m", "diplo", "play", "--seed", "2", "--max-year", "1904", "--save"]


def test_play_saves_its_file_when_standard_output_closes_early(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    # `diplo play ... | head -1`: the reader goes away after one line.
    proc = subprocess.Popen(
        [*PLAY, str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    status = proc.wait(timeout=300)
    error = proc.stderr.read().decode()
    assert first.startswith(b"Spring 1901")
    assert status == 0, error
    assert "Traceback" not in error
    game = load(target)  # the whole game, verified phase by phase
    assert game.is_over and len(game.history) >= 10


# --------------------------------------------------------------------------- docs


def test_the_docs_install_extras_from_the_checkout() -> None:
    """diplo is on no package index: ``pip install "diplo[env]"`` cannot work; the checkout's
    ``pip install ".[env]"`` does."""
    pattern = re.compile(r"""pip install\s+["']?diplo\[""")
    texts = [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("python/diplo/**/*.py")]
    found = [str(p.relative_to(ROOT)) for p in texts if pattern.search(p.read_text("utf-8"))]
    assert found == []


def test_env_md_shows_each_example_once() -> None:
    text = (ROOT / "docs" / "env.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == len(set(blocks))
