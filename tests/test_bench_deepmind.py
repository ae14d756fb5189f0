"""``diplo bench --workloads deepmind``: the report's shape (never its timings), the MILA baseline
building the same observations and legal actions as diplo's state, and the baseline left out with
a line saying why when DeepMind's code is not there."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason='diplo.env needs pip install ".[env]"')

from diplo.apps import bench  # noqa: E402
from diplo.apps.bench.deepmind import deepmind_engines, pick, snapshot_path  # noqa: E402

TINY = ["--workloads", "deepmind", "--rounds", "1", "--max-year", "1902", "--deepmind-games", "3"]
ENGINES = {"diplo-single", "diplo-single-python", "diplo-batched-1thread", "diplo-batched-2threads"}
BASELINE = bench.mila_module() is not None and (snapshot_path() / "environment").is_dir()
needs_baseline = pytest.mark.skipif(
    not BASELINE,
    reason=f"needs the MILA engine and DeepMind's code at {snapshot_path()} "
    "(DIPLO_DEEPMIND=PATH reads it elsewhere)",
)


def test_json_report_has_every_engine(capsys: pytest.CaptureFixture[str]) -> None:
    from diplo.apps.cli import main

    assert main(["bench", *TINY, "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    rows = report["workloads"]["deepmind"]
    assert set(rows) == ENGINES | ({"mila-deepmind"} if BASELINE else set())
    for entry in rows.values():
        assert entry["phases"] > 0 and entry["us_per_phase"] > 0
    assert set(report["ratios"]["deepmind"]) == {f"{n}/diplo-single" for n in set(rows)} - {
        "diplo-single/diplo-single"
    }
    assert report["settings"]["deepmind_games"] == 3
    assert "deepmind: " in err


def test_text_report_shows_the_targets_and_the_bounds() -> None:
    report = bench.run_benchmarks(
        bench.Settings(workloads=("deepmind",), max_year=1901, rounds=1, deepmind_games=2)
    )
    table = report.table()
    assert "diplo-batched-2threads plays" in table and "(target 10 x)" in table
    assert "where diplo-single's" in table and "bound: batched on T threads" in table
    assert ("(target 100 x)" in table) == BASELINE


def test_the_baseline_is_left_out_without_their_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DIPLO_DEEPMIND", str(tmp_path))
    engines, notes = deepmind_engines(0, 1901, 2, bench.mila_module())
    assert {e.name for e in engines} == ENGINES
    assert len(notes) == 1 and "mila-deepmind omitted" in notes[0]
    assert str(tmp_path) in notes[0] or "MILA" in notes[0]


@needs_baseline
def test_the_mila_baseline_builds_what_diplo_builds() -> None:
    """On the same game (MILA and diplo rule its first phases alike), the baseline's
    observation and legal actions equal diplo's state's: a fair baseline, doing the same work."""
    import diplomacy

    from diplo.apps.bench.deepmind_mila import MilaDiplomacyState
    from diplo.env.deepmind import DiplomacyState
    from diplo.env.deepmind.agents import load_their_environment

    theirs = load_their_environment(snapshot_path())
    mila = MilaDiplomacyState(diplomacy, theirs, 1903)
    ours = DiplomacyState(max_year=1903)
    rng = random.Random(3)
    kinds = set()
    for _ in range(6):
        mine, base = ours.observation(), mila.observation()
        assert int(mine.season) == base.season.value
        assert np.array_equal(mine.board, base.board)
        assert mine.build_numbers.tolist() == base.build_numbers.tolist()
        assert sorted(mine.last_actions) == sorted(base.last_actions)
        legal = ours.legal_actions()
        assert [sorted(a) for a in legal] == [sorted(a) for a in mila.legal_actions()]
        kinds.add(ours.game.position().phase.kind)
        actions = pick(legal, rng)
        ours.step(actions)
        mila.step(actions)
    assert kinds == {"M", "A"}
