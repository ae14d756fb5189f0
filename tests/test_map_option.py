"""``--map NAME|FILE`` means the same on every subcommand: a shipped name, a diplo JSON map file
or a MILA ``.map`` file, read by one parser (``diplo.model.variants``); a game file played on a map
that is not shipped carries it, so it can be read and drawn anywhere; rollouts and the bench
count years from the map's own first year (year 1 on ancmed)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from diplo.apps.cli import main
from diplo.formats import gamefile
from diplo.model.map import map_named
from diplo.model.position import Position

#: The subcommands that take a map, and the words that say they do.
SUBCOMMANDS = ("play", "adjudicate", "render", "view", "rollouts", "bench")


def _json_map(tmp_path: Path) -> Path:
    """ancmed as a diplo map file under another name (not a shipped map)."""
    data = map_named("ancmed").to_dict()
    data["name"] = "myancmed"
    path = tmp_path / "myancmed.json"
    path.write_text(json.dumps(data))
    return path


def _mila_map() -> Path:
    diplomacy = pytest.importorskip("diplomacy")
    return Path(diplomacy.__file__).parent / "maps" / "pure.map"


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_takes_the_same_map_option(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--map NAME|FILE" in text
    assert "a shipped map (standard, pure" in text and "MILA map file (.map)" in text


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_an_unknown_map_is_one_clear_line_everywhere(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(Position.initial(map_named("standard")).to_json()))
    extra = {
        "play": [],
        "adjudicate": [str(doc)],
        "render": [str(doc)],
        "view": [str(doc)],
        "rollouts": ["--games", "1", "--out", str(tmp_path / "r")],
        "bench": ["--workloads", "selfplay"],
    }[command]
    assert main([command, *extra, "--map", "narnia"]) == 2
    err = capsys.readouterr().err
    assert "unknown map 'narnia'" in err and "Traceback" not in err


def test_play_saves_a_file_map_with_the_game_and_render_draws_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    assert main(["play", "--map", str(_json_map(tmp_path)), "--max-year", "2", "--quiet",
                 "--save", str(saved)]) == 0  # fmt: skip
    doc = json.loads(saved.read_text())
    assert doc["map"] == "myancmed" and doc["map_data"]["name"] == "myancmed"
    assert gamefile.load(saved).map.name == "myancmed"
    (tmp_path / "myancmed.json").unlink()  # drawn without the map file
    picture = tmp_path / "last.svg"
    assert main(["render", str(saved), "--phase", "last", "-o", str(picture)]) == 0
    assert 'data-map="myancmed"' in picture.read_text()
    assert main(["view", str(saved), "-o", str(tmp_path / "game.html")]) == 0
    shipped = tmp_path / "shipped.json"
    assert main(["play", "--map", "ancmed", "--max-year", "1", "--quiet",
                 "--save", str(shipped)]) == 0  # fmt: skip
    assert "map_data" not in json.loads(shipped.read_text())


def test_play_and_render_a_mila_map_file(tmp_path: Path) -> None:
    saved = tmp_path / "pure.json"
    path = str(_mila_map())
    assert main(["play", "--map", path, "--max-year", "1902", "--quiet",
                 "--save", str(saved)]) == 0  # fmt: skip
    assert main(["render", str(saved), "--phase", "last", "-o", str(tmp_path / "p.svg")]) == 0
    doc = tmp_path / "doc.json"
    position = Position.initial(map_named("pure")).to_json()
    doc.write_text(json.dumps(position))  # no "map": --map names it
    assert main(["render", str(doc), "--map", path, "-o", str(tmp_path / "d.svg")]) == 0


def test_render_and_adjudicate_take_a_shipped_name_for_documents_naming_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(Position.initial(map_named("ancmed")).to_json()))
    assert main(["render", str(doc), "--map", "ancmed", "-o", str(tmp_path / "a.svg")]) == 0
    assert 'data-map="ancmed"' in (tmp_path / "a.svg").read_text()
    capsys.readouterr()
    assert main(["adjudicate", str(doc), "--map", "ancmed"]) == 0
    assert json.loads(capsys.readouterr().out)["next"]["phase"] == "F1M"


def test_rollouts_on_a_map_whose_years_start_at_one(tmp_path: Path) -> None:
    out = tmp_path / "default"
    args = ["--games", "2", "--backend", "local", "--workers", "1", "--no-progress"]
    assert main(["rollouts", *args, "--out", str(out), "--map", "ancmed"]) == 0
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert {r["final_year"] for r in rows} == {"15"}  # 15 years from year 1, as 1901..1915
    short = tmp_path / "short"
    assert main(["rollouts", *args, "--out", str(short), "--map", "ancmed", "--max-year", "2"]) == 0
    rows = list(csv.DictReader((short / "summary.csv").open()))
    assert {r["final_year"] for r in rows} == {"2"} and {r["years"] for r in rows} == {"2"}
    assert main(["rollouts", *args, "--out", str(short), "--map", "ancmed", "--max-year", "0"]) == 2
    files = tmp_path / "file"
    assert main(["rollouts", *args, "--out", str(files), "--map", str(_json_map(tmp_path)),
                 "--max-year", "2"]) == 0  # fmt: skip
    (game,) = {p.name for p in (files / "games").glob("game-00000000.json")}
    assert gamefile.load(files / "games" / game).map.name == "myancmed"
