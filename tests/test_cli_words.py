"""What people read says what happened: reasons, power names, variant years, help texts and
messages of the command line (issue 21's words and CLI)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diplo.api.game import Game
from diplo.api.legal import legal_order_texts, legal_orders
from diplo.api.phase import process_phase
from diplo.apps.common import contract_path
from diplo.formats import gamefile
from diplo.model.map import power_named, shipped_map, standard_map
from diplo.model.position import Phase, Position
from diplo.model.wording import count, phase_words, year_words

M = standard_map()


def diplo(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diplo", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )


# --------------------------------------------------------------------------- words


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_an_unreadable_order_names_its_unit_and_says_it_was_unreadable(backend: str) -> None:
    outcome = process_phase(Position.initial(M), {"FRANCE": ["A PAR - BURG"]}, backend)
    given = [r for r in outcome.results if r.order == "A PAR - BURG"]
    assert [(r.unit, r.legal, r.code) for r in given] == [("A PAR", False, "illegal")]
    implied = [r for r in outcome.results if r.unit == "A PAR" and not r.given]
    assert [r.reason for r in implied] == ["A PAR held because its order could not be read."]
    others = [r.reason for r in outcome.results if r.unit == "F BRE"]
    assert others == ["F BRE held because it was not ordered."]


def test_power_names_are_read_in_any_case_everywhere() -> None:
    position = Position.initial(M)
    assert power_named("england", M) == power_named("England", M) == "ENGLAND"
    assert power_named("NARNIA", M) is None
    for backend in ("rust", "python"):
        outcome = process_phase(
            position, {"england": ["F LON - NTH"], "England": ["A LVP - YOR"]}, backend
        )
        ruled = {r.order: r.code for r in outcome.results if r.power == "ENGLAND"}
        assert ruled["F LON - NTH"] == ruled["A LVP - YOR"] == "ok"
        assert legal_order_texts(position, "france", backend) == legal_order_texts(
            position, "FRANCE", backend
        )
    assert legal_orders(position, "Germany") == legal_orders(position, "GERMANY")
    game = Game()
    game.set_orders("italy", ["A VEN - TYR"])
    assert game.orders["ITALY"] == ["A VEN - TYR"]
    with pytest.raises(ValueError, match="unknown power 'narnia'"):
        process_phase(position, {"narnia": []})


def test_variant_years_read_as_years() -> None:
    assert phase_words(Phase.parse("S1901M")) == "Spring 1901, movement"
    assert phase_words(Phase(4, "S", "M")) == "Spring of year 4, movement"
    assert year_words(98) == "year 98" and year_words(1905) == "1905"
    assert count(1, "phase") == "1 phase" and count(3, "phase") == "3 phases"


def test_play_on_a_low_year_map_words_its_years_and_refuses_a_four_digit_limit() -> None:
    done = diplo("play", "--map", "ancmed", "--max-year", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "(the year limit was reached)" in done.stdout
    refused = diplo("play", "--map", "ancmed", "--max-year", "1905", "--quiet")
    assert refused.returncode == 2
    assert "max_year 1905 is 1904 years after this map's first year 1" in refused.stderr
    full = diplo("play", "--map", "ancmed", "--max-year", "1")
    assert full.stdout.splitlines()[0] == "Spring of year 1, movement"


# --------------------------------------------------------------------------- help


def test_help_texts_say_what_each_option_does() -> None:
    datc = diplo("datc", "--help").stdout
    assert "Run every case of the DATC v3.0" in datc
    bench = diplo("bench", "--help").stdout
    assert "engines to time" in bench and "workloads to run" in bench
    assert "strings" in bench and "jsonl" in bench
    adjudicate = diplo("adjudicate", "--help").stdout
    assert "rust (the engine) or python" in adjudicate
    play = " ".join(diplo("play", "--help").stdout.split())
    assert "standard map or the one --map names" in play
    # Not "seven" players: a variant has as many as it has powers (ancmed five).
    assert play.startswith("usage:") and "Random players, one per power (seven on the" in play
    top = " ".join(diplo("--help").stdout.split())
    assert "a random player for every power" in top and "seven" not in top
    # The rounds and games of bench name the workloads they count.
    bench_words = " ".join(bench.split())
    assert "rounds of the movement, strings, jsonl, batch and vector workloads" in bench_words
    assert "games per engine of the selfplay and mila-api workloads" in bench_words


def test_the_contract_path_is_never_cut_and_a_subcommand_error_shows_its_usage() -> None:
    top = diplo("--help", env={"COLUMNS": "50"}).stdout
    assert str(contract_path()) in top.replace("\n", " ").split()
    wrong = diplo("play", "--sed", "1")
    assert wrong.returncode == 2
    assert wrong.stderr.startswith("usage: diplo play")
    assert "unrecognized arguments: --sed 1" in wrong.stderr


def test_the_contract_lists_the_bench_names_the_cli_takes() -> None:
    from diplo.apps import bench

    text = (Path(__file__).resolve().parents[1] / "docs" / "json-contract.md").read_text()
    section = text[text.index("* `diplo bench --json`") :]
    for name in (*bench.WORKLOADS, *bench.ENGINES):
        assert f"`{name}`" in section, name
    assert "not values of `--engines`" in section  # diplo-compat is a report name


# --------------------------------------------------------------------------- messages


def test_rollouts_out_naming_a_file_is_one_clear_line(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("x")
    done = diplo("rollouts", "--games", "1", "--out", str(target), "--backend", "local")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"diplo: --out {target}: that is a file; name a folder (it is made if missing)"
    )


def test_rollouts_to_an_unreachable_cluster_gives_up_with_a_reason(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    done = diplo(
        "rollouts", "--games", "1", "--out", str(tmp_path / "r"), "--backend", "ray",
        "--address", "127.0.0.1:1", "--no-progress",
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot reach a Ray cluster at 127.0.0.1:1" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_junk_map_file_is_named_with_a_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.map"
    junk.write_text("hello world\nmore junk\n")
    done = diplo("play", "--map", str(junk), "--quiet")
    assert done.returncode == 2
    assert "junk.map: no locations" in done.stderr
    assert "junk.map:1 'hello world'" in done.stderr


def test_render_of_many_pictures_to_one_svg_is_refused_and_view_counts_right(
    tmp_path: Path,
) -> None:
    game = Game(max_year=1901)
    game.process()
    saved = tmp_path / "g.json"
    gamefile.save(game, saved)
    done = diplo("render", str(saved), "-o", str(tmp_path / "single.svg"))
    assert done.returncode == 2
    assert "names one file" in done.stderr
    assert not (tmp_path / "single.svg").exists()
    one = tmp_path / "one.json"
    one.write_text(json.dumps(Position.initial(M).to_json()))
    view = diplo("view", str(one), "-o", str(tmp_path / "one.html"))
    assert view.returncode == 0, view.stderr
    assert view.stdout.strip().endswith("(1 picture)")


def test_ancmed_is_a_shipped_map_with_low_years() -> None:
    assert Position.initial(shipped_map("ancmed")).phase.year == 1


def test_the_install_page_names_every_test_that_skips_without_the_workspace_files() -> None:
    import re

    root = Path(__file__).resolve().parents[1]
    # The README sends its readers to docs/install.md for the skips.
    assert "docs/install.md" in (root / "README.md").read_text(encoding="utf-8")
    readme = " ".join((root / "docs" / "install.md").read_text(encoding="utf-8").split())
    named = []
    for path in sorted((root / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        # A test marked to skip when a file beside the checkout is missing.
        for match in re.finditer(
            r"@pytest\.mark\.skipif\(not (CORPUS|DATC_HTML)\.exists\(\).*?\ndef (\w+)", text, re.S
        ):
            named.append(f"tests/{path.name}::{match.group(2)}")
        # One that skips itself in its body (the DATC text).
        for match in re.finditer(r"def (\w+)\([^)]*\)[^:]*:\n(?:    .*\n){0,3}.*shared", text):
            if "pytest.skip" in text[match.start() : match.start() + 400]:
                named.append(f"tests/{path.name}::{match.group(1)}")
    assert len(named) >= 4
    for name in named:
        assert name in readme, f"docs/install.md does not say {name} skips without its files"
